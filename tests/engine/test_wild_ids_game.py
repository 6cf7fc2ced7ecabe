"""A Game of ``laizi`` stepped by action id (``fastdou.wild_actions``, ``kernels/wild_steps.py``):
its legal ids are its legal actions under the drawn wild rank, in the same order; stepping by
id and by move reach the same states; ids that are no action now are refused and change
nothing; records of games played by id replay."""

import functools
import itertools
import random

import numpy as np
import pytest

import fastdou
from fastdou.actions import TWO_WILD_PLAY_IDS
from fastdou.errors import IllegalMoveError, RulesError
from fastdou.kernels.action_ids import SEL_PASS

LAIZI = fastdou.rules("laizi")
TABLE = fastdou.action_table(LAIZI)


def test_the_table():
    assert TABLE.n_plays == 7_409_258 and TABLE.pass_id == TABLE.n_plays
    assert TABLE.size == TABLE.pass_id + 1 + len(TABLE.selection_names)
    assert TABLE.selection[SEL_PASS] == TABLE.pass_id     # what the kernels take as the pass
    assert TABLE.offsets[-1] == TABLE.n_plays and len(TABLE.offsets) == TABLE.classic.n_plays + 1
    bomb = fastdou.Move.parse("5557(5)", LAIZI, wild="7")
    i = TABLE.id(bomb)
    assert TABLE.action(i, "7") == bomb and TABLE.id("5557(5)", wild="7") == i
    assert TABLE.action(i, "9").text() == "5559(5)"
    with pytest.raises(IllegalMoveError, match="no move when 5 is wild"):
        TABLE.action(i, "5")
    with pytest.raises(IllegalMoveError, match="wild rank"):
        TABLE.action(i)
    assert TABLE.action(TABLE.pass_id) == fastdou.Move.PASS
    assert [TABLE.action(TABLE.id(n)) for n in TABLE.selection_names] == \
        list(TABLE.selection_names)
    with pytest.raises(RulesError, match="one wild rank.* 1,901,651,328 play ids"):
        fastdou.action_table(fastdou.rules("laizi", wilds=2))


@functools.lru_cache(maxsize=None)
def _stand_ins(counts, wilds):
    """How many ``wilds``-tuples of multisets (one a wild rank's cards: at most 4 ranks
    each) fit together within a play whose ranks 3..2 hold ``counts`` (sorted), by brute
    force over each rank's split."""
    ways = {(0,) * wilds: 1}
    for c in counts:
        splits = [s for s in itertools.product(range(c + 1), repeat=wilds) if sum(s) <= c]
        grown = {}
        for sizes, w in ways.items():
            for s in splits:
                new = tuple(a + b for a, b in zip(sizes, s))
                if max(new) <= 4:
                    grown[new] = grown.get(new, 0) + w
        ways = grown
    return sum(ways.values())


def test_the_two_wild_table_size():
    """The play ids a fixed table would need: one per classic play and stand-in multisets of
    each wild rank's cards; the same count under one wild rank is the table's."""
    classic = TABLE.classic
    counts = [tuple(sorted(int(c) for c in fastdou.Move.from_record(r).cards[:13] if c))
              for r in classic.id_records[:classic.n_plays]]
    assert sum(_stand_ins(c, 1) for c in counts) == TABLE.n_plays
    assert sum(_stand_ins(c, 2) for c in counts) == TWO_WILD_PLAY_IDS


@pytest.mark.parametrize("seed", range(4))
def test_games_by_id_equal_games_by_move(seed):
    rng = random.Random(seed)
    by_id = fastdou.Game.new(LAIZI, seed=seed)
    by_move = by_id.clone()
    while not by_id.is_terminal():
        ids = by_id.legal_action_ids()
        actions = by_move.legal_actions()
        assert len(ids) == len(actions) == len(set(ids.tolist()))
        if by_id.phase == "play":
            assert [TABLE.action(int(a), by_id.wild) for a in ids] == actions
        k = rng.randrange(len(ids))
        if by_id.phase == "play" and rng.random() < 0.2:
            other = rng.randrange(TABLE.n_plays)       # most ids are no action now
            if other not in ids:
                before = by_id.state
                with pytest.raises(IllegalMoveError):
                    by_id.play_id(other)
                assert (by_id.state == before).all()
        (by_id.push_id if k % 2 else by_id.play_id)(ids[k])
        by_move.play(actions[k])
        assert (by_id.state == by_move.state).all()
    assert by_id.result() == by_move.result()
    again = fastdou.Game.loads(by_id.dumps())
    assert (again.state == by_id.state).all()
    assert [a for _, _, a in by_id.history] == [a for _, _, a in by_move.history]
    while by_id.history:
        by_id.pop()
        by_move.pop()
        assert (by_id.state == by_move.state).all()


def test_an_action_mask_and_a_push_of_what_the_hand_does_not_hold():
    g = fastdou.Game.new(LAIZI, seed=11, start="play")
    mask = g.action_mask()
    assert mask.shape == (TABLE.size,) and np.flatnonzero(mask).tolist() == \
        sorted(g.legal_action_ids().tolist())
    hand = g.perfect_information_hand(g.current_player)
    missing = next(r for r in range(13) if hand[r] == 0 and fastdou.cards.TOKENS[r] != g.wild)
    solo = TABLE.id(fastdou.cards.TOKENS[missing], wild=g.wild)
    with pytest.raises(IllegalMoveError):
        g.push_id(solo)
