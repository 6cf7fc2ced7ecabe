"""The kinds and modes tables of kernels/layout.py against what the generator and the engine
do (both checked against tests/reference/oracle.py and tests/reference/reference_game.py elsewhere): every move of
every preset's universe has the size and core the table gives its kind, and every preset's
action names follow its modes' rows."""

import numpy as np
import pytest

import fastdou
from fastdou import Kind
from fastdou import kernels as K
from fastdou.kernels import layout as L
from fastdou.rules import rules_array

PRESETS = ["classic", "two_player", "two_landlords", "four_player", "five_player", "emperor",
           "jinling"]


def test_rows_are_in_kind_order():
    assert [row[0] for row in L._KIND_ROWS] == list(range(L.N_KINDS))
    assert [k.name for k in Kind] == list(L.KIND_NAMES)
    assert L.CHAIN_KINDS == tuple(k for k in range(L.N_KINDS) if L.KINDS[k, L.K_CHAIN_MIN] >= 0)
    assert {k for k in Kind if L.KINDS[k, L.K_BOMB]} == {Kind.BOMB, Kind.ROCKET}


@pytest.mark.parametrize("name", PRESETS)
def test_every_move_has_its_kinds_size_and_core(name):
    rules = fastdou.rules(name)
    deck = np.uint64(fastdou.cards.pack(rules.deck))
    out = K.new_moves(K.count_leading(deck, rules_array(rules)))
    K.leading_moves(deck, rules_array(rules), out)
    seen = set()
    for record in out:
        move = fastdou.Move.from_record(record)
        row = L.KINDS[move.kind]
        seen.add(move.kind)
        if row[L.K_BOMB]:
            assert (move.core() == move.cards).all()
            continue
        chain = row[L.K_CHAIN_MIN] >= 0
        assert chain or move.length == 1
        if chain:
            assert move.length >= rules.array[row[L.K_CHAIN_MIN]]
        assert len(move) == move.length * (row[L.K_CORE] + row[L.K_KICKERS]), move
        core = move.core()
        ranks = np.flatnonzero(core)
        assert (core[ranks] == row[L.K_CORE]).all(), move
        assert list(ranks) == list(range(move.rank - move.length + 1, move.rank + 1)), move
        assert len(move) - core.sum() == move.length * row[L.K_KICKERS], move
    assert seen == set(rules.kinds) | ({Kind.BOMB} if rules.bomb_min else set()) | (
        {Kind.ROCKET} if rules.joker_bombs in ("all", "any") else set())


SELECTION = {     # the selection actions the rules reference gives each preset's modes
    "classic": ["bid_1", "bid_2", "bid_3"], "two_player": ["call", "grab"],
    "two_landlords": ["call"], "four_player": ["bid_1", "bid_2", "bid_3"],
    "five_player": ["reveal", "double"], "emperor": ["bid_1", "bid_2", "bid_3"],
    "jinling": ["call", "double"],
}


@pytest.mark.parametrize("name,sets,expected",
                         [(n, {}, e) for n, e in SELECTION.items()]
                         + [("classic", {"doubling": "farmers", "max_bid": 2},
                             ["bid_1", "bid_2", "double"])])
def test_selection_names_follow_the_modes_table(name, sets, expected):
    """The action table's selection names come from the modes table; each one the engine
    offers in random games is among them."""
    rules = fastdou.rules(name, **sets)
    table = fastdou.action_table(rules)
    assert list(table.names[table.pass_id + 1:]) == expected
    used = set()
    for deal in range(30):
        game = fastdou.Game.new(rules, seed=deal)
        while game.phase != "play" and not game.is_terminal():
            ids = game.legal_action_ids()
            used.update(table.names[i] for i in ids)
            game.push_id(int(ids[deal % len(ids)]))
    assert used - {"pass"} <= set(expected) and used
