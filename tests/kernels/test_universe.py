"""Move universes (everything a whole deck could play, pass aside): the golden counts of
RULES.md §2, set equality with the oracle's universe and with RLCard's action table, and
full-size random hands checked against the universe filtered to the hand."""

import numpy as np
import pytest

import fastdou
from tests.reference import oracle
from tests.shared.rulesets import SLOW, random_hand
from tests.shared.as_oracle import as_record, as_tuples, generated, oracle_universe
from fastdou import kernels as K
from fastdou.rules import rules_array

ONE_DECK = [fastdou.rules("classic"), fastdou.rules("classic", profile="openspiel"),
            fastdou.rules("classic", profile="douzero"), fastdou.rules("two_player"),
            fastdou.rules("two_landlords"), fastdou.rules("jinling")]
ONE_DECK_IDS = ["standard", "openspiel", "douzero", "two_player", "two_landlords", "jinling"]


def universe_records(rules):
    deck = np.uint64(fastdou.cards.pack(rules.deck))
    out = K.new_moves(K.count_leading(deck, rules_array(rules)))
    K.leading_moves(deck, rules_array(rules), out)
    return out


@pytest.mark.parametrize("profile,multisets,moves", [
    ("standard", 27471, 27471), ("openspiel", 25661, 26053), ("douzero", 29984, 30383)])
def test_classic_universe_counts(profile, multisets, moves):
    records = universe_records(fastdou.rules("classic", profile=profile))
    assert (len(np.unique(records[:, 0])), len(records)) == (multisets, moves)


@pytest.mark.parametrize("rules", ONE_DECK, ids=ONE_DECK_IDS)
def test_universe_equals_oracle(rules):
    records = universe_records(rules)
    moves = as_tuples(records)
    assert len(moves) == len(records)
    assert moves == oracle_universe(rules)


def test_standard_universe_is_rlcards_action_table():
    utils = pytest.importorskip("rlcard.games.doudizhu.utils")
    order = {t: i for i, t in enumerate(fastdou.cards.TOKENS)}
    rlcard = {"".join(sorted(a, key=order.__getitem__)) for a in utils.ACTION_2_ID
              if a != "pass"}
    assert len(rlcard) == 27471
    ours = {fastdou.cards.to_text(fastdou.cards.unpack(c))
            for c in universe_records(fastdou.rules("classic"))[:, 0]}
    assert ours == rlcard


@pytest.mark.parametrize("rules", ONE_DECK, ids=ONE_DECK_IDS)
def test_full_size_hands_against_universe(rules):
    """Landlord-size hands: the generator equals the oracle universe filtered to the hand,
    for leading and for responses to random universe moves."""
    universe = sorted(oracle_universe(rules))
    cards = np.array([m[0] for m in universe], dtype=np.int64)
    rng = np.random.default_rng(7)
    hands = 600 if SLOW else 150
    for _ in range(hands):
        hand = random_hand(rng, rules, rules.landlord_size)
        inside = np.flatnonzero((cards <= hand).all(axis=1))
        expected = {universe[i] for i in inside}
        assert generated(hand, rules) == expected
        last = universe[rng.integers(len(universe))]
        want = {m for m in expected if oracle.beats(m, last, rules)}
        assert generated(hand, rules, last) == want


def test_universe_records_round_trip():
    """Every universe record reads back to itself through the readings kernel."""
    rules = fastdou.rules("classic", profile="douzero")
    out = K.new_moves(16)
    for rec in universe_records(rules)[::7]:
        n = K.readings(rec[0], rules_array(rules), out)
        assert any((out[i] == rec).all() for i in range(n))
    assert as_record(as_tuples(universe_records(rules)[:1]).pop()).tolist() == \
        universe_records(rules)[0].tolist()
