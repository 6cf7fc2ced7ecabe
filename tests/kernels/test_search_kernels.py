"""The search kernels from a user's own ``@njit`` code: make / unmake restore the exact
position and hash over random sequences, the hash is path-independent, and a small
negamax written with them agrees with ``fastdou.solve``."""

import numpy as np
import pytest
from numba import njit

import fastdou
from tests.shared.rulesets import every_rules, rules_id
from fastdou import Position
from fastdou import kernels as K
from tests.shared.positions import random_position


@njit
def random_walk(pos, rules, steps, seed):
    """Play random legal actions, checking the hash at every step, then undo them all,
    checking each earlier position comes back exactly. Returns the plies played."""
    np.random.seed(seed)
    saved = np.zeros((steps + 1, pos.shape[0]), np.int64)
    played = np.zeros((steps, 2), np.uint64)
    undo = np.zeros((steps, K.UNDO_SIZE), np.int64)
    out = K.new_moves(4096)
    ply = 0
    saved[0] = pos
    while ply < steps and not K.is_terminal(pos):
        n = K.actions(pos, rules, out)
        if n != K.count_actions(pos, rules) or n > out.shape[0]:
            return -1
        if K.is_leading(pos) == (out[0, 1] == 0):        # a pass is listed iff not leading
            return -2
        played[ply] = out[np.random.randint(n)]
        K.make(pos, played[ply], undo[ply])
        if pos[K.S_HASH] != K.position_hash(pos):
            return -3
        ply += 1
        saved[ply] = pos
    for p in range(ply - 1, -1, -1):
        K.unmake(pos, played[p], undo[p])
        for j in range(pos.shape[0]):
            if pos[j] != saved[p, j]:
                return -4
    return ply


@pytest.mark.parametrize("rules", every_rules(), ids=rules_id)
def test_make_unmake_restores(rules):
    rng = np.random.default_rng(3)
    total = 0
    for i in range(30):
        pos = random_position(rng, rules, 2 + i % 3, 8, mid=i % 2 == 1)
        arr = pos.array()
        before = arr.copy()
        plies = random_walk(arr, pos.rules.array, 60, i)
        assert plies > 0, (str(pos), plies)
        np.testing.assert_array_equal(arr, before)
        total += plies
    assert total > 100


def test_trick_bookkeeping():
    pos = Position(["34", "5", "6"], last="3", last_player=0, to_move=1).array()
    undo = np.zeros(K.UNDO_SIZE, np.int64)
    K.make(pos, np.zeros(2, np.uint64), undo)             # seat 1 passes
    assert pos[K.S_TO_MOVE] == 2 and not K.is_leading(pos)
    K.make(pos, np.zeros(2, np.uint64), undo.copy())      # seat 2 passes: seat 0 leads
    assert pos[K.S_TO_MOVE] == 0 and K.is_leading(pos) and pos[K.S_LAST_PLAYER] == -1
    assert pos[K.S_HASH] == Position(["34", "5", "6"]).array()[K.S_HASH]
    K.make(pos, fastdou.Move.parse("4").record, undo)
    K.make(pos, fastdou.Move.parse("5").record, undo.copy())
    assert K.is_terminal(pos) and pos[K.S_WINNER] == 1
    assert K.winning_side(pos) == K.OTHER_SIDE


def test_hash_and_key_distinguish_positions():
    texts = ["3455KK/345522 0 0 - - classic", "3455KK/345522 1 0 - - classic",
             "3455KK/34552 1 0 2 0 classic", "3455KK/34552 1 0 2 0 classic:douzero",
             "3455KK/345522 1 1 - - classic", "3455K/345522 1 0 K 0 classic",
             "3455KK/345522 0 1 - - classic"]
    hashes = {Position.parse(t).array()[K.S_HASH] for t in texts}
    assert len(hashes) == 4   # the landlord side and rules are fixed within one search


# ------------------------------------------------------------ a user's own search
@njit
def user_wins(pos, rules, undo, ply):
    n = K.count_actions(pos, rules)
    out = K.new_moves(n)
    K.actions(pos, rules, out)
    me = K.side_of(pos, pos[K.S_TO_MOVE])
    for i in range(n):
        K.make(pos, out[i], undo[ply])
        won = K.is_terminal(pos)
        if not won:
            won = user_wins(pos, rules, undo, ply + 1) == \
                (K.side_of(pos, pos[K.S_TO_MOVE]) == me)
        K.unmake(pos, out[i], undo[ply])
        if won:
            return True
    return False


def test_user_search_agrees_with_solve():
    rng = np.random.default_rng(9)
    rules = fastdou.rules("classic")
    for i in range(40):
        pos = random_position(rng, rules, 2 + i % 2, 4, mid=i % 3 == 0)
        undo = np.zeros((64, K.UNDO_SIZE), np.int64)
        mover = user_wins(pos.array(), pos.rules.array, undo, 0)
        landlord = mover == (pos.side(pos.to_move) == "landlord")
        assert fastdou.solve(pos).landlord_wins == landlord, str(pos)


def test_kernel_perft_and_min_plays():
    pos = Position(["33345AR", "QK222B"])
    assert K.perft(pos.array(), pos.rules.array, 5) == 906
    hand = K.pack(fastdou.cards.parse("33344455BR"))
    assert K.min_plays(hand, pos.rules.array) == fastdou.min_plays("33344455BR") == 2
