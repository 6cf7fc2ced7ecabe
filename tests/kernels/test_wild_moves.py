"""The compiled wild-card move generator (``fastdou.kernels.wild_moves``) against the naive
references: the move universe of every wild rank (golden counts of
``tests/reference/laizi_universe.py``), whole hands against that universe filtered by the hand,
and small hands, leads and responses, against brute force (``tests/reference/laizi_oracle.py``).

Rank indices: 3=0 4=1 5=2 6=3 7=4 8=5 9=6 T=7 J=8 Q=9 K=10 A=11 2=12 B=13 R=14.
"""

import random

import numpy as np
import pytest
from numba import njit

import fastdou
from fastdou.kernels import layout as L
from fastdou.kernels.generate import NO_MULTISET, first_within, next_within
from fastdou.kernels.wild_moves import _next_swap, wild_moves
from fastdou.rules import rules_array
from tests.reference import laizi_oracle as LO
from tests.reference import laizi_universe as LU

RULES = rules_array(fastdou.rules("classic"))
LEAD = np.zeros(2, np.uint64)
EMPTY = np.empty((0, 2), np.uint64)
W3, W4, W5, W7, W9, W2 = 0, 1, 2, 4, 6, 12
# laizi_universe's docstring: distinct (cards, kind, rank, length, class) per wild rank 3..2
UNIVERSE = (1_615_093, 1_419_655, 1_227_152, 1_054_816, 947_487, 955_513, 955_513, 947_487,
            1_054_816, 1_227_152, 1_419_655, 1_615_093, 1_810_830)
PAIRS = [(W7, W9), (W3, W2), (W3, W4), (10, 11), (W5, 11), (3, W2)]


def mask(ws):
    return np.int64(sum(1 << w for w in LO.norm_wilds(ws)))


def record(move):
    """A reference move as the kernel's (cards, info with bomb class) record."""
    cards, kind, rank, length, cls = move
    return np.array([L.packed(cards), getattr(L, kind) | rank << L.INFO_RANK_SHIFT
                     | length << L.INFO_LENGTH_SHIFT
                     | LO.BOMB_CLASSES.index(cls) << L.INFO_CLASS_SHIFT], np.uint64)


def kernel_moves(hand, ws, last=None):
    """The kernel's moves as reference 5-tuples, after checking that they are distinct and
    that counting (``cap = 0``) and a short ``out`` agree with the full listing."""
    h = np.uint64(L.packed(hand))
    last = LEAD if last is None else record(last)
    n = wild_moves(h, mask(ws), RULES, last, EMPTY)
    out = np.full((n + 1, 2), 0xDEAD, np.uint64)
    assert wild_moves(h, mask(ws), RULES, last, out) == n
    assert (out[n:] == 0xDEAD).all()                        # nothing written past the count
    if n > 1:
        short = np.zeros((n // 2, 2), np.uint64)
        assert wild_moves(h, mask(ws), RULES, last, short) == n
        assert (short == out[:n // 2]).all()
    moves = []
    for cards, info in out[:n].tolist():
        counts = tuple((cards >> (4 * r)) & 15 for r in range(15))
        moves.append((counts, L.KIND_NAMES[info & 255], (info >> 8) & 255, (info >> 16) & 255,
                      LO.BOMB_CLASSES[info >> L.INFO_CLASS_SHIFT]))
    assert len(set(moves)) == n, "a move listed twice"
    return set(moves)


def text(moves):
    return sorted((LO.cards_to_str(m[0]),) + m[1:] for m in moves)


def check(hand, ws, expected, last=None):
    got = kernel_moves(hand, ws, last)
    assert got == expected, (LO.cards_to_str(hand), ws, "missing", text(expected - got)[:6],
                             "extra", text(got - expected)[:6])
    return got


# ---------------------------------------------------------------------------- the universe
@pytest.mark.parametrize("w", range(13))
def test_universe_of_every_wild_rank(w):
    """Every move the whole deck can lead is the move universe: the reference's count."""
    deck = np.uint64(RULES[L.R_DECK])
    assert wild_moves(deck, np.int64(1 << w), RULES, LEAD, EMPTY) == UNIVERSE[w]


def test_without_wild_cards_it_is_classic():
    assert wild_moves(np.uint64(RULES[L.R_DECK]), np.int64(0), RULES, LEAD, EMPTY) == 27_471
    hand = LO.cards_from_str("3334445556789TJQKA22BR")
    check(hand, (), LU.universe((), hand))


# ---------------------------------------------------------------------------- crafted
def test_issue_example_soft_bomb_over_soft_bomb():
    """``legal_moves("5557", last="4447", rules="laizi", wild="7")``: the soft bomb of 5s."""
    last = (LO.cards_from_str("4447"), "BOMB", 1, 1, "soft")
    got = check(LO.cards_from_str("5557"), W7, LO.responses(LO.cards_from_str("5557"), last, W7),
                last)
    assert got == {(LO.cards_from_str("5557"), "BOMB", 2, 1, "soft")}


CRAFTED = [
    # (hand, wild ranks, last as (cards, kind, rank, length, class) or None)
    ("3457", W7, None), ("77", W7, None), ("777B", W7, None), ("7777", W7, None),
    ("5557", W7, None), ("5777", W7, None), ("34577", W7, None), ("3456677", W7, None),
    ("333444666", 3, None), ("7779", (W7, W9), None), ("7799", (W7, W9), None),
    ("33377799", (W7, W9), None), ("3322", (W3, W2), None), ("5552222", W2, None),
    ("BR7", W7, None), ("5557", W7, ("4447", "BOMB", 1, 1, "soft")),
    ("5555", W7, ("4447", "BOMB", 1, 1, "soft")), ("3337", W7, ("4444", "BOMB", 1, 1, "hard")),
    ("7777", W7, ("AAAA", "BOMB", 11, 1, "hard")), ("BR77", W7, ("7777", "BOMB", 4, 1, "wild")),
    ("99997777", (W7, W9), ("7777", "BOMB", 4, 1, "wild")),
    ("345677", W7, ("34567", "SOLO_CHAIN", 4, 5, "none")),
    ("66677", W7, ("55544", "TRIO_PAIR", 2, 1, "none")),
    ("QQKK77", W7, ("JJQQKK", "PAIR_CHAIN", 10, 3, "none")),
]


@pytest.mark.parametrize("hand,ws,last", CRAFTED, ids=[c[0] + "-" + str(c[1]) for c in CRAFTED])
def test_crafted(hand, ws, last):
    h = LO.cards_from_str(hand)
    if last is None:
        check(h, ws, LO.leading_moves(h, ws))
    else:
        last = (LO.cards_from_str(last[0]),) + last[1:]
        check(h, ws, LO.responses(h, last, ws), last)


def test_bomb_classes_answer_in_order():
    """soft < hard < wild < rocket, and by rank within a class."""
    hand = LO.cards_from_str("4447BR")
    got = kernel_moves(hand, W7, (LO.cards_from_str("3337"), "BOMB", 0, 1, "soft"))
    assert {m[4] for m in got} == {"soft", "rocket"}
    assert kernel_moves(hand, W7, (LO.cards_from_str("3333"), "BOMB", 0, 1, "hard")) == \
        {(LO.cards_from_str("BR"), "ROCKET", 14, 1, "rocket")}
    assert kernel_moves(hand, W7, (LO.cards_from_str("BR"), "ROCKET", 14, 1, "rocket")) == set()


# ---------------------------------------------------------------------------- random hands
DECK = [r for r in range(13) for _ in range(4)] + [13, 14]


def _hand(rng, ws, size, extra):
    """``size`` random cards with up to ``extra`` more wild cards (one deck)."""
    counts = [0] * 15
    for r in rng.sample(DECK, size):
        counts[r] += 1
    for w in ws:
        counts[w] = min(4, counts[w] + rng.randint(0, extra))
    return tuple(counts)


def _random_move(rng, ws):
    """A move of a random hand: the last move to answer."""
    while True:
        moves = sorted(kernel_moves(_hand(rng, ws, 12, 1), ws))
        if moves:
            return rng.choice(moves)


SETTINGS = [(w,) for w in range(13)] + PAIRS


@pytest.mark.parametrize("ws", SETTINGS, ids=["-".join(map(str, ws)) for ws in SETTINGS])
def test_small_hands_against_brute_force(ws):
    rng = random.Random(9_100 + 37 * sum((w + 1) << (4 * i) for i, w in enumerate(ws)))
    soft = wild_moves_seen = 0
    for i in range(6):
        hand = _hand(rng, ws, rng.randint(2, 5), 2)
        if i == 0:                                  # a natural pair or trio, wild cards
            q = rng.choice([r for r in range(13) if r not in ws])
            hand = list(_hand(rng, ws, 1, 0))
            hand[q] = rng.randint(2, 3)
            hand[ws[0]] += 4 - hand[q]                # a soft bomb of q
            hand = tuple(hand)
        got = check(hand, ws, LO.leading_moves(hand, ws))
        soft += any(m[4] == "soft" for m in got)
        wild_moves_seen += any(m[0][w] and sum(m[0]) > m[0][w] for m in got for w in ws)
        last = _random_move(rng, ws)
        check(hand, ws, LO.responses(hand, last, ws), last)
    assert wild_moves_seen >= 3                   # moves mixing natural and wild cards
    assert soft >= 1


@pytest.mark.parametrize("ws", SETTINGS, ids=["-".join(map(str, ws)) for ws in SETTINGS])
def test_whole_hands_against_the_universe(ws):
    """17- and 20-card hands: their leads are the universe's moves their cards hold, and
    their responses those of them that beat a random move."""
    rng = random.Random(7_300 + 41 * sum((w + 1) << (4 * i) for i, w in enumerate(ws)))
    for size in (17, 20):
        hand = list(_hand(rng, ws, size, 1))
        hand[ws[-1]] = max(hand[ws[-1]], 1)          # at least one wild card
        hand = tuple(hand)
        leads = check(hand, ws, LU.universe(ws, hand))
        assert any(m[0][ws[-1]] and sum(m[0]) > sum(m[0][w] for w in ws) for m in leads)
        for _ in range(3):
            last = _random_move(rng, ws)
            check(hand, ws, {m for m in leads if LO.beats(m, last)}, last)


# ---------------------------------------------------------------------------- from @njit
@njit
def user_count(hand, wilds, rules):
    out = np.empty((4096, 2), np.uint64)
    return wild_moves(hand, wilds, rules, np.zeros(2, np.uint64), out)


def test_callable_from_njit():
    hand = LO.cards_from_str("334455667789TJQKA2")
    assert user_count(np.uint64(L.packed(hand)), mask(W7), RULES) == \
        len(LU.universe((W7,), hand))


@njit(cache=True)
def _swap_mismatches(seed, hands):
    """Steps where ``_next_swap`` differs from ``next_within`` over every multiset of 1..3
    units within random caps (0..3 a rank) of ``hands`` sets, and the steps taken."""
    np.random.seed(seed)
    bad = steps = 0
    for _ in range(hands):
        have = np.uint64(0)
        cand = 0
        for r in range(15):
            c = np.random.randint(0, 4)
            if c:
                have += np.uint64(c) << np.uint64(4 * r)
                cand |= 1 << r
        for extra in range(1, 4):
            w = first_within(have, cand, extra)
            while w != NO_MULTISET:
                fast = _next_swap(w, have, cand, extra)
                w = next_within(w, have, cand)
                bad += fast != w
                steps += 1
    return bad, steps


def test_next_swap_is_next_within():
    bad, steps = _swap_mismatches(1, 1000)
    assert steps > 100_000 and bad == 0
