"""OpenSpiel: fastdou's OpenSpiel action ids and its pyspiel games, against the installed
open_spiel (pyspiel's own strings, legal actions and returns)."""

import numpy as np
import pytest

import fastdou
from fastdou import kernels as K
from fastdou.errors import IllegalMoveError
from fastdou.kinds import Kind
from fastdou.openspiel_ids import OPENSPIEL_PASS, OPENSPIEL_SIZE, PLAY_BASE, openspiel_ids

pyspiel = pytest.importorskip("pyspiel")

OS_RULES = fastdou.rules("classic", profile="openspiel")
_OS_RANKS = "3456789TJQKA2"


def _universe(rules):
    deck = np.uint64(fastdou.cards.pack(rules.deck))
    out = K.new_moves(K.count_leading(deck, rules.array))
    K.leading_moves(deck, rules.array, out)
    return out


def _os_counts(text):
    """pyspiel's card text (``'33(BWJ)'``) -> 15 counts."""
    counts = np.zeros(15, np.int64)
    text = text.replace("(BWJ)", "B").replace("(CJ)", "R")
    for ch in text:
        counts[_OS_RANKS.index(ch) if ch in _OS_RANKS else 13 + "BR".index(ch)] += 1
    return counts


def os_move(text):
    """The fastdou move pyspiel's action string means: its cards, and the reading the string
    names. ``'333444555-666'`` (a plane's chain, '-', its wings) names the plane; a string
    without '-' names the one reading of those cards that is not a plane with wings."""
    if "-" in text:
        chain, wings = text.split("-")
        core, wing = _os_counts(chain), _os_counts(wings)
        assert set(core[core > 0]) == {3}
        ranks = np.flatnonzero(core)
        length = len(ranks)
        assert np.array_equal(ranks, np.arange(ranks[0], ranks[0] + length))
        kind = Kind.PLANE_SOLO if wing.sum() == length else Kind.PLANE_PAIR
        assert wing.sum() == length * (1 if kind == Kind.PLANE_SOLO else 2)
        return fastdou.Move(fastdou.cards.pack(core + wing), kind, int(ranks[-1]), length)
    options = [m for m in fastdou.classify(_os_counts(text), OS_RULES)
               if m.kind not in (Kind.PLANE_SOLO, Kind.PLANE_PAIR)]
    assert len(options) == 1, (text, options)
    return options[0]


@pytest.fixture(scope="module")
def os_game():
    return pyspiel.load_game("dou_dizhu")


@pytest.fixture(scope="module")
def os_strings(os_game):
    state = os_game.new_initial_state()
    return [state.action_to_string(0, i) for i in range(os_game.num_distinct_actions())]


def test_layout_matches_pyspiel(os_game, os_strings):
    assert OPENSPIEL_SIZE == os_game.num_distinct_actions() == 26057
    assert os_strings[OPENSPIEL_PASS] == "Pass"
    assert os_strings[1:PLAY_BASE] == ["Bid 1", "Bid 2", "Bid 3"]


def test_every_id_is_the_same_move(os_strings):
    universe = _universe(OS_RULES)
    ids = openspiel_ids(universe)
    assert len(universe) == 26053
    assert sorted(ids.tolist()) == list(range(PLAY_BASE, OPENSPIEL_SIZE))
    for record, i in zip(universe, ids):
        assert fastdou.Move.from_record(record) == os_move(os_strings[i]), (i, os_strings[i])


def test_ambiguous_cards_one_id_per_reading(os_strings):
    readings = fastdou.classify("333444555666", OS_RULES)
    assert len(readings) == 3
    ids = openspiel_ids(np.array([m.record for m in readings]))
    assert sorted(os_strings[i] for i in ids) == [
        "333444555-666", "333444555666", "444555666-333"]


@pytest.mark.parametrize("text, kind", [("33334455", "FOUR_TWO_PAIR"), ("333444555666+7777", None), ("333444+BR", None)])
def test_moves_openspiel_does_not_number(text, kind):
    rules = fastdou.rules("classic", profile="douzero")
    move = fastdou.Move.parse(text, rules, kind=kind)
    with pytest.raises(IllegalMoveError, match="openspiel profile"):
        openspiel_ids(move.record[None, :])


def test_bad_shape():
    with pytest.raises(IllegalMoveError, match="shape"):
        openspiel_ids(np.zeros(4, np.uint64))


@pytest.fixture(scope="module")
def os_table():
    return fastdou.action_table(OS_RULES)


def test_table_actions_are_pyspiels(os_table, os_strings):
    assert os_table.size == len(os_strings) and os_table.pass_id == OPENSPIEL_PASS
    assert os_table.n_plays == 26053
    for i, text in enumerate(os_strings):
        action = os_table.action(i)
        if text == "Pass":
            assert action == fastdou.Move.PASS
        elif text.startswith("Bid "):
            assert action == "bid_" + text[4:]
        else:
            assert action == os_move(text), (i, text, action)


def test_table_ids_round_trip(os_table):
    for i in range(os_table.size):
        assert os_table.id(os_table.action(i)) == i
    records = os_table.id_records[PLAY_BASE:]
    assert np.array_equal(os_table.ids(records), np.arange(PLAY_BASE, os_table.size))
