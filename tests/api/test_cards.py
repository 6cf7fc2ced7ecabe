"""Card notation (RULES.md §1): every accepted form in, canonical text out, clear errors."""

import numpy as np
import pytest

import fastdou
from fastdou import cards
from tests.shared.rulesets import random_hand

CANONICAL = "3456789TJQKA2BR"
FOUR_PLAYER = fastdou.rules("four_player")
TWO_PLAYER = fastdou.rules("two_player")


def vector(canonical_text):
    """Expected counts of canonical single-character text, built without the parser."""
    out = np.zeros(15, dtype=np.uint8)
    for ch in canonical_text:
        out[CANONICAL.index(ch)] += 1
    return out


def counts(values, dtype=np.int64):
    """A 15-entry count vector from a {rank index: count} dict."""
    out = np.zeros(15, dtype=dtype)
    for r, c in values.items():
        out[r] = c
    return out


def assert_invalid(given, rules, fragments):
    """parse() raises InvalidCardsError (a ValueError) whose message holds every fragment."""
    with pytest.raises(fastdou.InvalidCardsError) as info:
        cards.parse(given, rules)
    assert isinstance(info.value, ValueError)
    for fragment in fragments:
        assert fragment in str(info.value)


# ------------------------------------------------------------------ accepted notations

@pytest.mark.parametrize("given, canonical", [
    ("33344455BR", "33344455BR"),          # RLCard text
    ("TJQKA", "TJQKA"),
    ("10JQKA", "TJQKA"),                   # 10 for T
    ("1010T", "TTT"),
    ("tjqka", "TJQKA"),                    # case-insensitive
    ("X", "B"), ("x", "B"), ("小王", "B"),  # small joker
    ("D", "R"), ("d", "R"), ("大王", "R"),  # big joker
    ("小王大王", "BR"),
    ("b r", "BR"),
    ("3, 4 ,5,,  6", "3456"),              # spaces and commas ignored
    ("10 J, Q", "TJQ"),
    ("R2B3A", "3A2BR"),                    # output sorted low to high
    ("", ""),
])
def test_text_notations(given, canonical):
    got = cards.parse(given)
    assert got.dtype == np.uint8 and got.shape == (15,)
    np.testing.assert_array_equal(got, vector(canonical))
    assert cards.to_text(got) == canonical


@pytest.mark.parametrize("given, canonical", [
    ([3, 3, 17, 20, 30], "332BR"),
    ([14, 10, 11, 12, 13], "TJQKA"),
    ((3, 4, 5, 6, 7, 8, 9), "3456789"),
    ([np.int64(17), np.int32(20)], "2B"),
    ([], ""),
])
def test_douzero_lists(given, canonical):
    np.testing.assert_array_equal(cards.parse(given), vector(canonical))
    np.testing.assert_array_equal(cards.from_douzero(given), vector(canonical))


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int32, np.int64, np.uint64])
def test_count_vectors(dtype):
    given = counts({0: 3, 1: 3, 2: 2, 13: 1, 14: 1}, dtype)
    got = cards.parse(given)
    assert got.dtype == np.uint8
    assert cards.to_text(got) == "33344455BR"


def test_to_text_of_plain_list_and_to_rlcard():
    assert cards.to_text([1] * 15) == CANONICAL
    assert cards.to_text(np.zeros(15, np.uint8)) == ""
    assert cards.to_rlcard(vector("3TT2R")) == "3TT2R"


def test_to_douzero_is_sorted_douzero_values():
    assert cards.to_douzero(cards.parse("R2B3TA3")) == [3, 3, 10, 14, 17, 20, 30]


# ------------------------------------------------------------------ round trips

@pytest.mark.parametrize("rules", [fastdou.rules("classic"), FOUR_PLAYER, TWO_PLAYER],
                         ids=lambda r: r.name)
def test_round_trips(rules):
    rng = np.random.default_rng(7)
    for size in (0, 1, 5, 17, 20, 33):
        if size > rules.deck_size:
            continue
        hand = random_hand(rng, rules, size)
        douzero = cards.to_douzero(hand)
        text = cards.to_rlcard(hand)
        assert len(douzero) == len(text) == size
        np.testing.assert_array_equal(cards.from_douzero(douzero, rules), hand)
        np.testing.assert_array_equal(cards.from_rlcard(text, rules), hand)
        np.testing.assert_array_equal(cards.parse(cards.to_douzero(
            cards.from_rlcard(text, rules)), rules), hand)
        np.testing.assert_array_equal(cards.unpack(cards.pack(hand)), hand)


def test_pack_layout():
    assert cards.pack(vector("3")) == 1
    assert cards.pack(vector("44")) == 2 << 4
    assert cards.pack(vector("R")) == 1 << 56


# ------------------------------------------------------------------ decks

def test_two_decks_hold_eight_of_a_rank_and_two_of_each_joker():
    got = cards.parse("33333333 2222 2222 BBRR", FOUR_PLAYER)
    np.testing.assert_array_equal(got, counts({0: 8, 12: 8, 13: 2, 14: 2}))
    np.testing.assert_array_equal(cards.parse(counts({5: 8}), FOUR_PLAYER), counts({5: 8}))


@pytest.mark.parametrize("given, rules, fragments", [
    ("333333333", FOUR_PLAYER, ("9", "'3'", "8")),
    ("BBB", FOUR_PLAYER, ("3", "'B'", "2")),
    ("RRR", FOUR_PLAYER, ("3", "'R'")),
    (counts({11: 9}), FOUR_PLAYER, ("9", "'A'")),
    ("33333", None, ("5", "'3'", "4")),       # default: one deck
    ("BB", None, ("2", "'B'", "1")),
    ("3", TWO_PLAYER, ("'3'", "two_player")),
    ("4", TWO_PLAYER, ("'4'", "two_player")),
    ([4], TWO_PLAYER, ("'4'",)),
], ids=lambda v: v.name if isinstance(v, fastdou.Rules) else None)
def test_deck_limits(given, rules, fragments):
    assert_invalid(given, rules, fragments)


def test_two_player_deck_keeps_five_and_up():
    assert cards.to_text(cards.parse("5555AAA2222BR", TWO_PLAYER)) == "5555AAA2222BR"


# ------------------------------------------------------------------ bad input

@pytest.mark.parametrize("given, fragments", [
    ("3Z", ("'Z'",)),                                     # unknown token
    ("331", ("'1'",)),
    ("3+4", ("'+'",)),
    ("33333", ("5", "'3'")),                              # too many copies
    (counts({4: 5}), ("5", "'7'")),
    (counts({3: -1}), ("-1", "'6'")),                     # negative count
    (np.zeros(14, np.int64), ("(14,)",)),                 # wrong length
    (np.zeros((15, 1), np.int64), ("(15, 1)",)),
    (np.zeros(15, np.float64), ("float64",)),             # float vector
    (np.zeros(15, bool), ("bool",)),
    ([3, 15], ("15",)),                                   # not a DouZero integer
    ([3, 16, 4], ("16",)),
    ([True], ("True",)),
    (["3"], ("'3'",)),
    ([3.0], ("3.0",)),
    (3, ("int",)),                                        # unsupported types
    ({3, 4}, ("set",)),
    (None, ("from None",)),
    (b"33", ("bytes",)),
], ids=repr)
def test_bad_input(given, fragments):
    assert_invalid(given, None, fragments)


def test_cards_sit_below_rules():
    """Card notation checks counts against a preset's deck by name, or a Rules' own deck,
    without importing fastdou.rules (which may then build on it)."""
    from tests.infrastructure.test_import_layers import imports, modules
    known = modules()
    assert "fastdou.rules" not in imports("fastdou.cards", known["fastdou.cards"], known)
    with pytest.raises(fastdou.InvalidCardsError, match="5 of '3', but the classic deck"):
        cards.parse("33333", "classic")
    with pytest.raises(fastdou.InvalidCardsError, match="3 of 'B', but the four_player deck"):
        cards.parse("BBB", FOUR_PLAYER)
    with pytest.raises(fastdou.RulesError, match="unknown preset 'nope'"):
        cards.parse("3", "nope")
    with pytest.raises(fastdou.RulesError, match="a preset name or a Rules object, not 5"):
        cards.parse("3", 5)
    assert cards.parse("55", TWO_PLAYER)[2] == 2
