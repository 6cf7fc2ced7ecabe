"""The generator against the naive oracle (tests/reference/oracle.py) for every non-classic preset:
random hands of every small size, hands concentrated on a few ranks (so that two-deck bombs,
quads, carriers, dresses and spaceships occur), crafted hands for each rule of RULES.md §4,
and full-size hands, where the oracle is too slow, checked for soundness and, on many small
sub-hands, for completeness."""

import math

import numpy as np
import pytest

import fastdou
from tests.reference import oracle
from tests.shared.rulesets import SLOW, random_hand
from tests.shared.as_oracle import generated

ONE_DECK = ("two_player", "two_landlords", "jinling")
TWO_DECK = ("four_player", "five_player", "emperor")
PRESETS = ONE_DECK + TWO_DECK
RULES = {name: fastdou.rules(name) for name in PRESETS}

# Hands per size; two-deck hands stop at 14 cards, one-deck hands at 16.
HANDS_PER_SIZE = {**{s: 40 for s in range(1, 9)}, **{s: 20 for s in (9, 10)},
                  **{s: 10 for s in (11, 12)}, **{s: 4 for s in (13, 14)},
                  **{s: 2 for s in (15, 16)}}
CONCENTRATED_HANDS = 40
HANDS_PER_KIND = 3
FULL_SIZE_HANDS = 24
ORACLE_SUBSETS = 15_000      # the oracle tries prod(count + 1) sub-multisets of a hand
if SLOW:
    HANDS_PER_SIZE = {s: 5 * n for s, n in HANDS_PER_SIZE.items()}
    CONCENTRATED_HANDS *= 5
    HANDS_PER_KIND *= 5
    FULL_SIZE_HANDS *= 5


def text(cards):
    return oracle.cards_to_str(cards)


def subsets(hand):
    return math.prod(int(c) + 1 for c in hand)


def within(cards, hand):
    return all(int(c) <= int(h) for c, h in zip(cards, hand))


def pick(rng, moves):
    moves = sorted(moves)
    return moves[rng.integers(len(moves))]


def one_per_kind(rng, moves):
    """A random move of each kind among ``moves``."""
    kinds = sorted({m[1] for m in moves})
    return [pick(rng, [m for m in moves if m[1] == kind]) for kind in kinds]


def concentrated_hand(rng, rules, size):
    """A hand of about ``size`` cards drawn from 4 to 6 ranks only (half the time consecutive
    ranks, for chains), trimmed until the oracle stays fast."""
    held = np.flatnonzero(rules.deck)
    n_ranks = int(rng.integers(4, 7))
    if rng.random() < 0.5:
        start = int(rng.integers(len(held) - n_ranks + 1))
        ranks = held[start:start + n_ranks]
    else:
        ranks = rng.choice(held, n_ranks, replace=False)
    deck = np.zeros(15, np.uint8)
    deck[ranks] = rules.deck[ranks]
    pool = np.repeat(np.arange(15), deck)
    picked = rng.choice(pool, min(size, len(pool), rules.landlord_size), replace=False)
    hand = np.bincount(picked, minlength=15).astype(np.uint8)
    while subsets(hand) > ORACLE_SUBSETS:
        hand[rng.choice(np.flatnonzero(hand))] -= 1
    return hand


def check_lead_and_respond(hand, rules, expected, lasts):
    """The generator equals the oracle's leading moves ``expected`` of ``hand``, and their
    subset beating each move of ``lasts``."""
    assert generated(hand, rules) == expected, text(hand)
    for last in lasts:
        want = {m for m in expected if oracle.beats(m, last, rules)}
        assert generated(hand, rules, last) == want, (text(hand), last)


# ------------------------------------------------------------------ random and concentrated
@pytest.mark.parametrize("name,size", [(n, s) for n in PRESETS
                                       for s in range(1, 17 if n in ONE_DECK else 15)])
def test_random_hands(name, size):
    rules = RULES[name]
    rng = np.random.default_rng(1000 * size + PRESETS.index(name))
    for _ in range(HANDS_PER_SIZE[size]):
        hand = random_hand(rng, rules, size)
        expected = oracle.leading_moves(hand, rules)
        other = pick(rng, generated(random_hand(rng, rules, rules.hand_size), rules))
        check_lead_and_respond(hand, rules, expected, [other] + one_per_kind(rng, expected))


@pytest.mark.parametrize("name", PRESETS)
def test_concentrated_hands(name):
    """Hands on 4-6 ranks: for two decks up to 8 of a rank, so 5-8 card bombs, quads, quad
    chains, carriers, dresses and spaceships; the last move comes from another such hand."""
    rules = RULES[name]
    rng = np.random.default_rng(77 + PRESETS.index(name))
    for _ in range(CONCENTRATED_HANDS):
        hand = concentrated_hand(rng, rules, int(rng.integers(6, 23)))
        other = pick(rng, generated(concentrated_hand(rng, rules, 24), rules))
        expected = oracle.leading_moves(hand, rules)
        check_lead_and_respond(hand, rules, expected, [other] + one_per_kind(rng, expected))


@pytest.mark.parametrize("name", PRESETS)
def test_hands_around_each_kind(name):
    """For every kind of the preset's universe (bombs and joker bombs included): hands made of
    a small move of that kind plus a few random cards, answering another move of the kind."""
    rules = RULES[name]
    rng = np.random.default_rng(88 + PRESETS.index(name))
    universe = generated(rules.deck, rules)
    small = [m for m in universe if subsets(m[0]) <= ORACLE_SUBSETS // 4]
    kinds = sorted({m[1] for m in universe})
    assert {fastdou.Kind(k).name for k in rules.kinds} <= set(kinds)
    for kind in kinds * HANDS_PER_KIND:
        of_kind = [m for m in small if m[1] == kind]
        hand = np.array(pick(rng, of_kind)[0], np.uint8)
        for _ in range(rng.integers(0, 7)):
            room = (rules.deck - hand).astype(float)
            card = rng.choice(15, p=room / room.sum())
            hand[card] += 1
            if subsets(hand) > ORACLE_SUBSETS or hand.sum() > rules.landlord_size:
                hand[card] -= 1
                break
        expected = oracle.leading_moves(hand, rules)
        lasts = [pick(rng, of_kind)] + one_per_kind(rng, expected)
        check_lead_and_respond(hand, rules, expected, lasts)


# House rules: every mode of every pattern field, one change at a time from a preset.
HOUSE_RULES = {
    "classic-wing_trio-never": ("classic", dict(wing_trio="never")),
    "classic-joker_bombs-none": ("classic", dict(joker_bombs="none")),
    "classic-bomb_min-3": ("classic", dict(bomb_min=3)),
    "classic-bomb_order-rank": ("classic", dict(bomb_order="rank")),
    "classic-lone-jokers-solos": ("classic", dict(joker_bombs="lone")),
    "classic-rocket-kickers": ("classic", dict(rocket_kickers=True)),
    "classic-bomb-wings-never": ("classic", dict(bomb_wings=True, wing_trio="never")),
    "classic-chains-3-to-K": ("classic", dict(chain_low=0, chain_high=10,
                                              solo_chain_min=3, pair_chain_min=2)),
    "four_player-bomb_min-6": ("four_player", dict(bomb_min=6)),
    "four_player-joker_bombs-any": ("four_player", dict(joker_bombs="any")),
    "four_player-joker_bombs-none": ("four_player", dict(joker_bombs="none")),
    "five_player-joker-pairs": ("five_player", dict(joker_pairs=True)),
    "emperor-bomb-order-rank": ("emperor", dict(bomb_order="rank", bomb_min=5, bomb_max=5)),
    "jinling-no-bombs": ("jinling", dict(bomb_min=0)),
}


@pytest.mark.parametrize("case", sorted(HOUSE_RULES))
def test_house_rules_against_the_oracle(case):
    """Random and concentrated hands under rules no preset uses: leads and responses equal
    the oracle's (read from the same fields)."""
    name, changes = HOUSE_RULES[case]
    rules = fastdou.rules(name, **changes)
    rng = np.random.default_rng(sorted(HOUSE_RULES).index(case))
    hands = [random_hand(rng, rules, int(rng.integers(1, 15 if rules.decks == 1 else 12)))
             for _ in range(60)]
    hands += [concentrated_hand(rng, rules, int(rng.integers(6, 20))) for _ in range(20)]
    for hand in hands:
        expected = oracle.leading_moves(hand, rules)
        other = pick(rng, generated(random_hand(rng, rules, rules.hand_size), rules))
        check_lead_and_respond(hand, rules, expected, [other] + one_per_kind(rng, expected))


# ------------------------------------------------------------------ crafted hands, RULES.md §4
def move(cards_text, rules):
    """The oracle move of ``"cards"`` or ``"cards:KIND"`` (the one reading, or that kind's)."""
    cards_text, _, kind = cards_text.partition(":")
    cards = oracle.cards_from_str(cards_text)
    found = [(cards, *r) for r in oracle.readings(cards, rules) if kind in ("", r[0])]
    assert len(found) == 1, (cards_text, kind, found)
    return found[0]


def named(moves):
    return {f"{text(m[0])}:{m[1]}" for m in moves}


# (preset, hand, last move or None to lead, moves that must be there, moves that must not;
# "cards:*" means any reading of those cards; "=" before the first list: exactly these.)
CRAFTED = [
    # four_player: bombs of 4..8 cards, more cards first, then rank; the king bomb on top.
    ("four_player", "33333", "AAAA", "= 33333:BOMB", ""),
    ("four_player", "3333322222", "AAAAA", "22222:BOMB", "33333:BOMB 2222:BOMB"),
    ("four_player", "33333333", "2222222", "33333333:BOMB", "3333333:BOMB"),
    ("four_player", "33333333BBRR", "22222222", "= BBRR:ROCKET", ""),
    ("four_player", "33333333BBRR", "BBRR", "=", ""),
    # four_player joker pairs (BB, RR; never BR), also as a trio_pair's or plane's pair.
    ("four_player", "BBRR", None, "= B:SOLO R:SOLO BB:PAIR RR:PAIR BBRR:ROCKET", ""),
    ("four_player", "BBR", "22", "= BB:PAIR", ""),
    ("four_player", "RR", "BB", "= RR:PAIR", ""),
    ("four_player", "333444BBRR", None, "333BB:TRIO_PAIR 333RR:TRIO_PAIR 333444BBRR:PLANE_PAIR",
     "BR:* 333BR:* 333444BR:*"),
    # four_player: no trio_solo, plane_solo, four_two_solo / four_two_pair.
    ("four_player", "33334445566", None, "3333:BOMB 33355:TRIO_PAIR 3334445566:PLANE_PAIR",
     "3334:* 33344456:* 333356:* 33335566:*"),
    # five_player: no joker pairs; every 2+ jokers are a joker bomb, more jokers win.
    ("five_player", "BBRR", None,
     "= B:SOLO R:SOLO BB:ROCKET BR:ROCKET RR:ROCKET BBR:ROCKET BRR:ROCKET BBRR:ROCKET", ""),
    ("five_player", "RR", "BB", "=", ""),
    ("five_player", "BBR", "BR", "= BBR:ROCKET", ""),
    ("five_player", "333BB", None, "BB:ROCKET 333:TRIO", "BB:PAIR 333BB:*"),
    ("five_player", "33333333", "BBRR", "=", ""),
    # emperor: four of a rank is a quad, bombs are 5..8 cards, the king bomb on top.
    ("emperor", "3333", None, "= 3:SOLO 33:PAIR 333:TRIO 3333:QUAD", ""),
    ("emperor", "33333", "2222", "= 33333:BOMB", ""),
    ("emperor", "444455555", "3333", "4444:QUAD 5555:QUAD 55555:BOMB", "44445555:*"),
    ("emperor", "BBRR", None, "= B:SOLO R:SOLO BB:PAIR RR:PAIR BBRR:ROCKET", ""),
    ("emperor", "BBRR22222222", "22222222", "= BBRR:ROCKET", ""),
    ("emperor", "22222222", "BBRR", "=", ""),
    # emperor quad_chain (min 2), quad_trio, dress: each four exactly 4, each trio exactly 3.
    ("emperor", "3333444455556666", "33334444",
     "= 44445555:QUAD_CHAIN 55556666:QUAD_CHAIN", "444455556666:*"),
    ("emperor", "4444666", "3333555", "= 4444666:QUAD_TRIO", ""),
    ("emperor", "3333355577", None, "3333555:QUAD_TRIO 333355577:DRESS",
     "33333555:* 333335557:* 3333355577:*"),
    ("emperor", "333355555", None, "3333555:QUAD_TRIO 3335555:QUAD_TRIO", "333355555:*"),
    ("emperor", "4444666BB", "333355577", "4444666BB:DRESS", ""),
    ("emperor", "4444666BR", None, "4444666:QUAD_TRIO", "4444666BR:*"),
    # emperor carrier: L quads + L trios of distinct ranks outside the chain, by the quads.
    ("emperor", "33334444666888", None, "33334444666888:CARRIER", "33334444666888:SPACESHIP"),
    ("emperor", "33344445555777", "33334444666888", "= 33344445555777:CARRIER", ""),
    ("emperor", "33334444666666", None, "", "33334444666666:*"),
    ("emperor", "33334444555666777", "33334444555666:CARRIER", "", "CARRIER"),
    # emperor spaceship: quads, then trios; same quads with higher trios beat it.
    ("emperor", "33334444555666", None,
     "33334444555666:SPACESHIP 33334444555666:CARRIER", ""),
    ("emperor", "33334444555666777", "33334444555666:SPACESHIP",
     "33334444666777:SPACESHIP", "33334444555666:SPACESHIP 33334444555777:*"),
    ("emperor", "33344477778888", "55556666777888:SPACESHIP", "33344477778888:SPACESHIP", ""),
    ("emperor", "33334444777888", "55556666333444:SPACESHIP", "", "SPACESHIP"),
    # emperor: pair_chain needs 4 pairs, trio_chain (and planes) 3 trios.
    ("emperor", "33445566", None, "33445566:PAIR_CHAIN", "334455:* 445566:*"),
    ("emperor", "3334445566", None, "", "333444:* 3334445566:*"),
    ("emperor", "333444555667788", None,
     "333444555:TRIO_CHAIN 333444555667788:PLANE_PAIR", "333444:* 3334445566:*"),
    # jinling: trios and lone jokers are the bombs; no four, no joker solo, no BR, no trio.
    ("jinling", "333", "445566", "= 333:BOMB", ""),
    ("jinling", "222", "AAA", "= 222:BOMB", ""),
    ("jinling", "222BR", "222", "= B:BOMB R:BOMB", ""),
    ("jinling", "222BR", "B", "= R:BOMB", ""),
    ("jinling", "3333", None, "= 3:SOLO 33:PAIR 333:BOMB", ""),
    ("jinling", "3BR", None, "= 3:SOLO B:BOMB R:BOMB", ""),
    ("jinling", "3B", "2", "= B:BOMB", ""),
    ("jinling", "3334", None, "= 3:SOLO 4:SOLO 33:PAIR 333:BOMB", ""),
    ("jinling", "TJQKA2", None, "TJQKA:SOLO_CHAIN", "TJQKA2:* JQKA2:*"),
    ("jinling", "QQKKAA22", "JJQQKK", "= QQKKAA:PAIR_CHAIN", "KKAA22:*"),
    # two_player: chains run 5..A (no 3 or 4 in the deck), wing trios next to 5 barred.
    ("two_player", "56789", None, "56789:SOLO_CHAIN", ""),
    ("two_player", "5678TJQKA", None, "TJQKA:SOLO_CHAIN", "5678:* 5678T:*"),
    ("two_player", "55667788", "556677", "= 667788:PAIR_CHAIN", ""),
    ("two_player", "55667788", None, "556677:PAIR_CHAIN 55667788:PAIR_CHAIN", ""),
    ("two_player", "555666777888", None, "555666777888:TRIO_CHAIN", "555666777888:PLANE_SOLO"),
    ("two_player", "QQQKKKAAA222", None, "QQQKKKAAA:TRIO_CHAIN QQQKKKAAA222:PLANE_SOLO",
     "QQQKKKAAA222:TRIO_CHAIN"),
    # two_landlords: moves of up to 23 cards (the landlord's hand).
    ("two_landlords", "33445566778899TTJJQQKKA", None,
     "33445566778899TTJJQQKK:PAIR_CHAIN", ""),
    ("two_landlords", "44556677889TTJJQQKKAA", "33445566778899TTJJQQKK", "", "PAIR_CHAIN"),
    ("two_landlords", "445566778899TTJJQQKKAA", "33445566778899TTJJQQKK",
     "= 445566778899TTJJQQKKAA:PAIR_CHAIN", ""),
    ("two_landlords", "33445566778899TTJJQQKKAA", None, "", "33445566778899TTJJQQKKAA:*"),
    ("two_landlords", "333444555666777888999TT", None,
     "333444555666777888999:TRIO_CHAIN 3334445556667778899T:PLANE_SOLO "
     "333444555666778899TT:PLANE_PAIR", ""),
    ("two_landlords", "3334445556667778889TJQKA", None, "333444555666777888:TRIO_CHAIN",
     "3334445556667778889TJQKA:*"),
    ("two_landlords", "44455566677788899TTJ2BR", "3334445556667778899T",
     "44455566677788899TTJ:PLANE_SOLO 4445556667778889TJ2B:PLANE_SOLO",
     "4445556667778889T2BR:* 555666777888:*"),
]


@pytest.mark.parametrize("name,hand,last,present,absent", CRAFTED,
                         ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CRAFTED])
def test_crafted(name, hand, last, present, absent):
    rules = RULES[name]
    hand = oracle.cards_from_str(hand)
    last = None if last is None else move(last, rules)
    got = generated(hand, rules, last)
    if subsets(hand) <= ORACLE_SUBSETS:
        want = oracle.leading_moves(hand, rules) if last is None else \
            oracle.responses(hand, last, rules)
        assert got == want
    else:                                        # too big for the oracle: soundness only
        assert all(m[1:] in oracle.readings(m[0], rules) and within(m[0], hand) and
                   (last is None or oracle.beats(m, last, rules)) for m in got)
    names = named(got)
    exact = present.startswith("=")
    present = set(present.lstrip("=").split())
    if exact:
        assert names == present
    assert present <= names
    for item in absent.split():
        cards, _, kind = item.partition(":")
        if not kind:                             # a bare kind: no move of that kind
            assert not any(m[1] == item for m in got), item
        elif kind == "*":
            assert not any(n.startswith(cards + ":") for n in names), item
        else:
            assert item not in names


@pytest.mark.parametrize("jokers", ["BB", "BR", "RR", "BBR", "BRR", "BBRR"])
@pytest.mark.parametrize("size", range(4, 9))
def test_five_player_joker_bombs(jokers, size):
    """A J-joker bomb beats rank bombs of up to 2J cards and loses to larger ones; four
    jokers beat everything (RULES.md §4.5)."""
    rules = RULES["five_player"]
    j = len(jokers)
    joker_bomb, low, high = move(jokers, rules), move("3" * size, rules), move("2" * size, rules)
    joker_wins = j == 4 or size <= 2 * j
    assert (joker_bomb in generated(joker_bomb[0], rules, high)) == joker_wins
    assert (low in generated(low[0], rules, joker_bomb)) == (not joker_wins)
    assert oracle.beats(joker_bomb, high, rules) == joker_wins
    assert oracle.beats(low, joker_bomb, rules) == (not joker_wins)


# ------------------------------------------------------------------ full-size hands
def sub_hands(rng, hand, rules):
    """Small sub-hands the oracle can afford: random 8-12 cards, and the hand restricted to
    a few consecutive ranks (long chains, planes, carriers and spaceships live there)."""
    pool = np.repeat(np.arange(15), hand)
    for _ in range(3):
        picked = rng.choice(pool, int(rng.integers(8, 13)), replace=False)
        yield np.bincount(picked, minlength=15).astype(np.uint8)
    for _ in range(2):
        lo, hi = sorted(rng.choice(16, 2, replace=False))
        window = np.zeros(15, np.uint8)
        window[lo:hi] = hand[lo:hi]
        while subsets(window) > ORACLE_SUBSETS:
            window[rng.choice(np.flatnonzero(window))] -= 1
        if window.any():
            yield window


@pytest.mark.parametrize("name", PRESETS)
def test_full_size_hands(name):
    """Landlord-size hands: every generated move (leading or responding) is a reading of its
    cards, within the hand, and beats the last move; on small sub-hands S the generated moves
    that fit in S are exactly the oracle's moves of S."""
    rules = RULES[name]
    rng = np.random.default_rng(500 + PRESETS.index(name))
    for _ in range(FULL_SIZE_HANDS):
        hand = random_hand(rng, rules, rules.landlord_size)
        leading = generated(hand, rules)
        other = generated(random_hand(rng, rules, rules.landlord_size), rules)
        lasts = [None, pick(rng, other)] + one_per_kind(rng, leading)
        replies = {last: leading if last is None else generated(hand, rules, last)
                   for last in lasts}
        for last, moves in replies.items():
            for m in moves:
                assert within(m[0], hand) and m[1:] in oracle.readings(m[0], rules), m
                assert last is None or oracle.beats(m, last, rules), (m, last)
        for sub in sub_hands(rng, hand, rules):
            expected = oracle.leading_moves(sub, rules)
            for last, moves in replies.items():
                want = expected if last is None else \
                    {m for m in expected if oracle.beats(m, last, rules)}
                assert {m for m in moves if within(m[0], sub)} == want, (text(sub), last)
