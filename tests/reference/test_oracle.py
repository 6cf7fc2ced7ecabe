"""Sanity tests of the naive oracle (tests/reference/oracle.py) itself.

Every expected value here is worked out by hand from RULES.md, not computed by the oracle.
Rank indices: 3=0 4=1 5=2 6=3 7=4 8=5 9=6 T=7 J=8 Q=9 K=10 A=11 2=12 B=13 R=14.
Set FASTDOU_SLOW=1 to also check the classic move universe of all three profiles.
"""


import pytest

import fastdou

from tests.shared.as_oracle import oracle_universe  # noqa: E402
from tests.reference.oracle import (beats, cards_from_str as C, leading_moves,  # noqa: E402
                    readings, responses)

CLASSIC = fastdou.rules("classic")
OPENSPIEL = fastdou.rules("classic", profile="openspiel")
DOUZERO = fastdou.rules("classic", profile="douzero")
FOUR = fastdou.rules("four_player")
FIVE = fastdou.rules("five_player")
EMPEROR = fastdou.rules("emperor")
JINLING = fastdou.rules("jinling")
TWO = fastdou.rules("two_player")


def R(text, rules):
    return readings(C(text), rules)


def mv(text, kind, rank, length=1):
    return (C(text), kind, rank, length)


def check_move(move, rules):
    """A hand-built move must be one of the oracle's readings of its cards."""
    assert move[1:] in readings(move[0], rules), move


# ---------------------------------------------------------------------------- readings: classic
def test_basic_classic_kinds():
    assert R("3", CLASSIC) == {("SOLO", 0, 1)}
    assert R("R", CLASSIC) == {("SOLO", 14, 1)}
    assert R("22", CLASSIC) == {("PAIR", 12, 1)}
    assert R("34", CLASSIC) == set()
    assert R("AAA", CLASSIC) == {("TRIO", 11, 1)}
    assert R("3333", CLASSIC) == {("BOMB", 0, 1)}
    assert R("34567", CLASSIC) == {("SOLO_CHAIN", 4, 5)}
    assert R("3456", CLASSIC) == set()                      # chain min 5
    assert R("TJQKA", CLASSIC) == {("SOLO_CHAIN", 11, 5)}
    assert R("JQKA2", CLASSIC) == set()                     # 2 never in a chain
    assert R("334455", CLASSIC) == {("PAIR_CHAIN", 2, 3)}
    assert R("3344", CLASSIC) == set()                      # pair chain min 3
    assert R("333444", CLASSIC) == {("TRIO_CHAIN", 1, 2)}
    assert R("AAA222", CLASSIC) == set()


def test_no_joker_pair_in_classic():
    assert R("BR", CLASSIC) == {("ROCKET", 14, 1)}


def test_trio_kickers():
    assert R("333R", CLASSIC) == {("TRIO_SOLO", 0, 1)}
    assert R("333B", CLASSIC) == {("TRIO_SOLO", 0, 1)}
    assert R("3334", CLASSIC) == {("TRIO_SOLO", 0, 1)}
    assert R("33344", CLASSIC) == {("TRIO_PAIR", 0, 1)}
    assert R("333BR", CLASSIC) == set()                     # BR is not a pair
    assert R("33345", CLASSIC) == set()


def test_planes_classic():
    assert R("33344455", CLASSIC) == {("PLANE_SOLO", 1, 2)}
    assert R("33344456", CLASSIC) == {("PLANE_SOLO", 1, 2)}
    assert R("3334445566", CLASSIC) == {("PLANE_PAIR", 1, 2)}
    assert R("333444555", CLASSIC) == {("TRIO_CHAIN", 2, 3)}
    assert R("333444666", CLASSIC) == set()                 # not consecutive, wrong wing count
    # a wing trio not adjacent to the chain is fine under standard
    assert R("444555666888", CLASSIC) == {("PLANE_SOLO", 3, 3)}
    # 2 can never extend a chain, so QQQKKKAAA + 222 is a plane even under standard
    assert R("QQQKKKAAA222", CLASSIC) == {("PLANE_SOLO", 11, 3)}
    # wing trio just below the chain: standard forbids it
    assert R("333444555666", CLASSIC) == {("TRIO_CHAIN", 3, 4)}


def test_333444555666_profiles():
    three = {("TRIO_CHAIN", 3, 4), ("PLANE_SOLO", 2, 3), ("PLANE_SOLO", 3, 3)}
    assert R("333444555666", OPENSPIEL) == three
    assert R("333444555666", DOUZERO) == three


def test_rocket_kickers_and_bomb_wings():
    assert R("333444BR", CLASSIC) == set()
    assert R("333444BR", OPENSPIEL) == set()
    assert R("333444BR", DOUZERO) == {("PLANE_SOLO", 1, 2)}
    assert R("3334445555", DOUZERO) == set()                # 4 wings for L=2
    assert R("3334445556667777", CLASSIC) == set()
    assert R("3334445556667777", DOUZERO) == {("PLANE_SOLO", 3, 4)}
    assert R("3333BR", CLASSIC) == set()
    assert R("3333BR", DOUZERO) == {("FOUR_TWO_SOLO", 0, 1)}


def test_four_two():
    assert R("333355", CLASSIC) == {("FOUR_TWO_SOLO", 0, 1)}
    assert R("333345", CLASSIC) == {("FOUR_TWO_SOLO", 0, 1)}
    assert R("3333R", CLASSIC) == set()
    assert R("33335566", CLASSIC) == {("FOUR_TWO_PAIR", 0, 1)}
    assert R("33334444", CLASSIC) == set()                  # 44 44 are not distinct pairs
    assert R("333355", OPENSPIEL) == set()                  # no four_two in openspiel
    assert R("33335566", OPENSPIEL) == set()


def test_max_move():
    assert R("333444555666777888", CLASSIC) == {("TRIO_CHAIN", 5, 6)}   # 18 cards
    # 21 cards: no move may hold more than 20 in classic
    assert R("333444555666777888999", CLASSIC) == set()


# ---------------------------------------------------------------------------- other presets
def test_two_player_chain_ranks():
    assert R("56789", TWO) == {("SOLO_CHAIN", 6, 5)}
    assert R("34567", TWO) == set()                         # 3 and 4 are not in this deck
    assert R("BR", TWO) == {("ROCKET", 14, 1)}


def test_four_player():
    assert R("BB", FOUR) == {("PAIR", 13, 1)}
    assert R("RR", FOUR) == {("PAIR", 14, 1)}
    assert R("BR", FOUR) == set()
    assert R("BBR", FOUR) == set()
    assert R("BBRR", FOUR) == {("ROCKET", 14, 1)}
    assert R("3334", FOUR) == set()                         # no trio_solo
    assert R("33344", FOUR) == {("TRIO_PAIR", 0, 1)}
    assert R("333444BBRR", FOUR) == {("PLANE_PAIR", 1, 2)}
    assert R("33344455", FOUR) == set()                     # no plane_solo
    assert R("3333", FOUR) == {("BOMB", 0, 1)}
    assert R("33333333", FOUR) == {("BOMB", 0, 1)}
    assert R("333355", FOUR) == set()                       # no four_two
    assert R("333444555666", FOUR) == {("TRIO_CHAIN", 3, 4)}


def test_five_player():
    assert R("BB", FIVE) == {("ROCKET", 13, 1)}             # joker_pairs off
    assert R("BR", FIVE) == {("ROCKET", 14, 1)}
    assert R("BBR", FIVE) == {("ROCKET", 14, 1)}
    assert R("BBRR", FIVE) == {("ROCKET", 14, 1)}
    assert R("B", FIVE) == {("SOLO", 13, 1)}
    assert R("333BB", FIVE) == set()


def test_emperor():
    assert R("3333", EMPEROR) == {("QUAD", 0, 1)}
    assert R("33333", EMPEROR) == {("BOMB", 0, 1)}
    assert R("BB", EMPEROR) == {("PAIR", 13, 1)}
    assert R("BBRR", EMPEROR) == {("ROCKET", 14, 1)}
    assert R("33334444", EMPEROR) == {("QUAD_CHAIN", 1, 2)}
    assert R("333344445555", EMPEROR) == {("QUAD_CHAIN", 2, 3)}
    assert R("3333444", EMPEROR) == {("QUAD_TRIO", 0, 1)}
    assert R("333344455", EMPEROR) == {("DRESS", 0, 1)}
    assert R("3333444BB", EMPEROR) == {("DRESS", 0, 1)}    # a pair of identical jokers
    assert R("33334445", EMPEROR) == set()
    assert R("33334444555666", EMPEROR) == {("CARRIER", 1, 2), ("SPACESHIP", 1, 2)}
    assert R("33334444555KKK", EMPEROR) == {("CARRIER", 1, 2)}
    assert R("33334444555222", EMPEROR) == {("CARRIER", 1, 2)}
    assert R("33334444AAA222", EMPEROR) == {("CARRIER", 1, 2)}   # A22 trios not a chain
    assert R("3344", EMPEROR) == set()
    assert R("33445566", EMPEROR) == {("PAIR_CHAIN", 3, 4)}
    assert R("333444", EMPEROR) == set()                    # trio chain min 3
    assert R("333444555", EMPEROR) == {("TRIO_CHAIN", 2, 3)}
    assert R("3334445556677", EMPEROR) == set()             # 3 trios need 3 pairs
    assert R("333444555667788", EMPEROR) == {("PLANE_PAIR", 2, 3)}


def test_jinling():
    assert R("333", JINLING) == {("BOMB", 0, 1)}
    assert R("222", JINLING) == {("BOMB", 12, 1)}
    assert R("3333", JINLING) == set()
    assert R("B", JINLING) == {("BOMB", 13, 1)}
    assert R("R", JINLING) == {("BOMB", 14, 1)}
    assert R("BR", JINLING) == set()
    assert R("2", JINLING) == {("SOLO", 12, 1)}
    assert R("22", JINLING) == {("PAIR", 12, 1)}
    assert R("3334", JINLING) == set()
    assert R("334455", JINLING) == {("PAIR_CHAIN", 2, 3)}


# ---------------------------------------------------------------------------- beats
BEATS = [
    # (rules, a, b, a beats b)
    (CLASSIC, mv("BR", "ROCKET", 14), mv("2222", "BOMB", 12), True),
    (CLASSIC, mv("2222", "BOMB", 12), mv("BR", "ROCKET", 14), False),
    (CLASSIC, mv("3333", "BOMB", 0), mv("34567", "SOLO_CHAIN", 4, 5), True),
    (CLASSIC, mv("34567", "SOLO_CHAIN", 4, 5), mv("3333", "BOMB", 0), False),
    (CLASSIC, mv("4444", "BOMB", 1), mv("3333", "BOMB", 0), True),
    (CLASSIC, mv("3333", "BOMB", 0), mv("3333", "BOMB", 0), False),
    (CLASSIC, mv("45678", "SOLO_CHAIN", 5, 5), mv("34567", "SOLO_CHAIN", 4, 5), True),
    (CLASSIC, mv("456789", "SOLO_CHAIN", 6, 6), mv("34567", "SOLO_CHAIN", 4, 5), False),
    (CLASSIC, mv("4", "SOLO", 1), mv("3", "SOLO", 0), True),
    (CLASSIC, mv("R", "SOLO", 14), mv("B", "SOLO", 13), True),
    (CLASSIC, mv("44", "PAIR", 1), mv("3", "SOLO", 0), False),
    (CLASSIC, mv("44455", "TRIO_PAIR", 1), mv("3334", "TRIO_SOLO", 0), False),
    (CLASSIC, mv("4443", "TRIO_SOLO", 1), mv("333R", "TRIO_SOLO", 0), True),
    (CLASSIC, mv("44455566", "PLANE_SOLO", 2, 2), mv("33344455", "PLANE_SOLO", 1, 2), True),
    (CLASSIC, mv("555666777", "TRIO_CHAIN", 4, 3), mv("333444", "TRIO_CHAIN", 1, 2), False),
    (CLASSIC, mv("44445566", "FOUR_TWO_PAIR", 1), mv("333355", "FOUR_TWO_SOLO", 0), False),
    (CLASSIC, mv("444435", "FOUR_TWO_SOLO", 1), mv("333355", "FOUR_TWO_SOLO", 0), True),
    # four_player: size first, then rank; the king bomb on top
    (FOUR, mv("33333", "BOMB", 0), mv("2222", "BOMB", 12), True),
    (FOUR, mv("2222", "BOMB", 12), mv("33333", "BOMB", 0), False),
    (FOUR, mv("BBRR", "ROCKET", 14), mv("22222222", "BOMB", 12), True),
    (FOUR, mv("22222222", "BOMB", 12), mv("BBRR", "ROCKET", 14), False),
    (FOUR, mv("BB", "PAIR", 13), mv("22", "PAIR", 12), True),
    (FOUR, mv("RR", "PAIR", 14), mv("BB", "PAIR", 13), True),
    # five_player joker bombs
    (FIVE, mv("BB", "ROCKET", 13), mv("2222", "BOMB", 12), True),
    (FIVE, mv("BB", "ROCKET", 13), mv("33333", "BOMB", 0), False),
    (FIVE, mv("33333", "BOMB", 0), mv("BB", "ROCKET", 13), True),
    (FIVE, mv("2222", "BOMB", 12), mv("BR", "ROCKET", 14), False),
    (FIVE, mv("BBR", "ROCKET", 14), mv("222222", "BOMB", 12), True),
    (FIVE, mv("BBR", "ROCKET", 14), mv("3333333", "BOMB", 0), False),
    (FIVE, mv("3333333", "BOMB", 0), mv("BBR", "ROCKET", 14), True),
    (FIVE, mv("BR", "ROCKET", 14), mv("BB", "ROCKET", 13), False),
    (FIVE, mv("BB", "ROCKET", 13), mv("BR", "ROCKET", 14), False),
    (FIVE, mv("BBR", "ROCKET", 14), mv("BR", "ROCKET", 14), True),
    (FIVE, mv("BRR", "ROCKET", 14), mv("BBR", "ROCKET", 14), False),
    (FIVE, mv("BBRR", "ROCKET", 14), mv("22222222", "BOMB", 12), True),
    (FIVE, mv("BBRR", "ROCKET", 14), mv("BRR", "ROCKET", 14), True),
    # emperor: quads are not bombs; spaceships compare quads, then trios
    (EMPEROR, mv("33333", "BOMB", 0), mv("2222", "QUAD", 12), True),
    (EMPEROR, mv("4444", "QUAD", 1), mv("3333", "QUAD", 0), True),
    (EMPEROR, mv("33334444666777", "SPACESHIP", 1, 2),
     mv("33334444555666", "SPACESHIP", 1, 2), True),
    (EMPEROR, mv("33334444555666", "SPACESHIP", 1, 2),
     mv("33334444666777", "SPACESHIP", 1, 2), False),
    (EMPEROR, mv("44445555666777", "SPACESHIP", 2, 2),
     mv("33334444888999", "SPACESHIP", 1, 2), True),
    (EMPEROR, mv("33334444888999", "SPACESHIP", 1, 2),
     mv("44445555666777", "SPACESHIP", 2, 2), False),
    (EMPEROR, mv("33334444555777", "CARRIER", 1, 2),
     mv("33334444555666", "CARRIER", 1, 2), False),
    (EMPEROR, mv("44445555333666", "CARRIER", 2, 2),
     mv("33334444555666", "CARRIER", 1, 2), True),
    (EMPEROR, mv("33334444555666", "SPACESHIP", 1, 2),
     mv("33334444555666", "CARRIER", 1, 2), False),
    # jinling: trios are bombs by rank, then the lone jokers
    (JINLING, mv("333", "BOMB", 0), mv("334455", "PAIR_CHAIN", 2, 3), True),
    (JINLING, mv("444", "BOMB", 1), mv("333", "BOMB", 0), True),
    (JINLING, mv("B", "BOMB", 13), mv("222", "BOMB", 12), True),
    (JINLING, mv("222", "BOMB", 12), mv("B", "BOMB", 13), False),
    (JINLING, mv("R", "BOMB", 14), mv("B", "BOMB", 13), True),
    (JINLING, mv("B", "BOMB", 13), mv("2", "SOLO", 12), True),
]


@pytest.mark.parametrize("rules,a,b,expected", BEATS)
def test_beats(rules, a, b, expected):
    check_move(a, rules)
    check_move(b, rules)
    assert beats(a, b, rules) is expected


# ---------------------------------------------------------------------------- move counts
@pytest.mark.parametrize("rules,hand,count", [
    (CLASSIC, "3", 1),
    (CLASSIC, "33", 2),                 # 3, 33
    (CLASSIC, "BR", 3),                 # B, R, BR
    (CLASSIC, "333", 3),                # 3, 33, 333
    (CLASSIC, "3333", 4),               # 3, 33, 333, bomb
    (CLASSIC, "3334", 5),               # 3, 33, 333, 4, 3334
    (CLASSIC, "34567", 6),              # five solos, the chain
    (CLASSIC, "333355", 9),             # 3 33 333 3333 5 55 3335 33355 333355
    (OPENSPIEL, "333355", 8),           # no four_two
    # 3 solos, 3 pairs, 2 trios, 4 trio_solo, 4 trio_pair, 334455, 333444, 33344455
    (CLASSIC, "33344455", 19),
    (FOUR, "BBRR", 5),                  # B, R, BB, RR, BBRR
    (FOUR, "33333", 5),                 # 3, 33, 333, 3333, 33333
    (FIVE, "BBRR", 8),                  # B, R solos; BB BR RR BBR BRR BBRR joker bombs
    (EMPEROR, "3333", 4),               # 3, 33, 333, quad
    (JINLING, "3333", 3),               # 3, 33, 333 (bomb)
    (JINLING, "BR", 2),                 # two lone joker bombs
])
def test_leading_move_counts(rules, hand, count):
    assert len(leading_moves(C(hand), rules)) == count


def test_leading_moves_shape():
    moves = leading_moves(C("333444555666"), OPENSPIEL)
    assert (C("333444555666"), "TRIO_CHAIN", 3, 4) in moves
    assert (C("333444555666"), "PLANE_SOLO", 2, 3) in moves
    assert (C("333444555666"), "PLANE_SOLO", 3, 3) in moves
    for cards, kind, rank, length in moves:
        assert len(cards) == 15 and all(isinstance(c, int) for c in cards)
        assert (kind, rank, length) in readings(cards, OPENSPIEL)


def test_responses():
    hand = C("33445566")
    assert responses(hand, mv("44", "PAIR", 1), CLASSIC) == {
        mv("55", "PAIR", 2), mv("66", "PAIR", 3)}
    assert responses(C("33335"), mv("2", "SOLO", 12), CLASSIC) == {mv("3333", "BOMB", 0)}
    assert responses(C("3333BR"), mv("2222", "BOMB", 12), CLASSIC) == {mv("BR", "ROCKET", 14)}
    assert responses(C("BR"), mv("BR", "ROCKET", 14), CLASSIC) == set()


# ---------------------------------------------------------------------------- move universe
@pytest.mark.parametrize("profile,multisets,moves", [
    ("standard", 27471, 27471), ("openspiel", 25661, 26053), ("douzero", 29984, 30383)])
def test_classic_move_universe(profile, multisets, moves):
    """RULES.md §2's table: distinct card multisets and (cards, reading) moves (the oracle's
    universe, built once for this and test_universe.py)."""
    rules = fastdou.rules("classic", profile=profile)
    moves_found = oracle_universe(rules)
    assert (len({m[0] for m in moves_found}), len(moves_found)) == (multisets, moves)
