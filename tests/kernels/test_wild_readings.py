"""The compiled wild-card readings (``fastdou.kernels.wild``) against the naive reference
(``tests/reference/laizi_oracle.py``): the same moves and the same canonical substitutions, for
crafted multisets (every kind, every bomb class, the reference's worked examples, both wild
ranks of 天地癞子 in one move) and a few thousand random ones over every wild rank.

Rank indices: 3=0 4=1 5=2 6=3 7=4 8=5 9=6 T=7 J=8 Q=9 K=10 A=11 2=12 B=13 R=14.
"""

import random

import numpy as np
import pytest
from numba import njit

import fastdou
from fastdou.kernels import layout as L
from fastdou.kernels.wild import wild_readings
from fastdou.rules import rules_array
from tests.reference import laizi_oracle as LO

RULES = rules_array(fastdou.rules("classic"))
W3, W4, W5, W6, W7, W8, W9, W2 = 0, 1, 2, 3, 4, 5, 6, 12     # wild rank indices by token
EMPTY = np.empty((0, 4), np.uint64)
CLASSIC_KINDS = {L.KIND_NAMES[k] for k in range(L.SOLO, L.ROCKET + 1)}


def mask(wilds):
    return sum(1 << w for w in LO.norm_wilds(wilds))


def nibble(p, r):
    return (int(p) >> (4 * r)) & 15


def kernel_map(cards, wilds):
    """``{move: canonical substitution}`` from the kernel's rows, in the oracle's terms, after
    checking the rows themselves (distinct, cards, every wild card accounted for) and that
    counting (``cap = 0``) and a short ``out`` agree with the full listing."""
    ws = LO.norm_wilds(wilds)
    packed = np.uint64(L.packed(cards))
    m = np.int64(mask(ws))
    n = wild_readings(packed, m, RULES, EMPTY)
    out = np.full((n + 2, 4), 0xDEAD, np.uint64)
    assert wild_readings(packed, m, RULES, out) == n
    assert (out[n:] == 0xDEAD).all()                       # nothing written past the count
    if n > 1:                                              # a short out: the first rows only
        short = np.zeros((n - 1, 4), np.uint64)
        assert wild_readings(packed, m, RULES, short) == n
        assert (short == out[:n - 1]).all()
    result = {}
    for row in out[:n]:
        assert int(row[0]) == int(packed)
        info = int(row[1])
        kind, rank, length, cls = info & 255, (info >> 8) & 255, (info >> 16) & 255, info >> 24
        move = (tuple(cards), L.KIND_NAMES[kind], rank, length, LO.BOMB_CLASSES[cls])
        assert move not in result
        stands = (int(row[2]), int(row[3]))
        pairs = []
        for i, stand in enumerate(stands):
            if i >= len(ws):
                assert stand == 0                          # one wild rank: stands_hi = 0
                continue
            assert sum(nibble(stand, t) for t in range(15)) == cards[ws[i]]
            assert nibble(stand, L.SMALL_JOKER) == nibble(stand, L.BIG_JOKER) == 0
            pairs += [(ws[i], t) for t in range(13) for _ in range(nibble(stand, t))]
        result[move] = tuple(pairs)
    return result


def check(text_or_cards, wilds):
    """The kernel equals the oracle on one multiset; returns the oracle's map."""
    cards = LO.cards_from_str(text_or_cards) if isinstance(text_or_cards, str) \
        else tuple(text_or_cards)
    expected = LO.readings_with_substitutions(cards, wilds)
    assert kernel_map(cards, wilds) == expected, (LO.cards_to_str(cards), wilds)
    return expected


def mv(cards, kind, rank, length=1, cls="none"):
    return (LO.cards_from_str(cards), kind, rank, length, cls)


# ---------------------------------------------------------------------------- layout
def test_class_constants_follow_the_oracle():
    classes = (L.BOMB_CLASS_NONE, L.BOMB_CLASS_SOFT, L.BOMB_CLASS_HARD, L.BOMB_CLASS_WILD,
               L.BOMB_CLASS_ROCKET)
    assert [LO.BOMB_CLASSES[c] for c in classes] == ["none", "soft", "hard", "wild", "rocket"]
    assert L.INFO_CLASS_SHIFT == 24


# ---------------------------------------------------------------------------- worked examples
def test_worked_examples_of_the_oracle():
    # rule 7 / 11: 5557 with 7 wild, the soft bomb (7 as 5) and the trio_solo (7 as itself)
    got = check("5557", W7)
    assert got == {mv("5557", "BOMB", 2, cls="soft"): ((W7, 2),),
                   mv("5557", "TRIO_SOLO", 2): ((W7, W7),)}
    # rule 4: 777B, a trio_solo of every rank 3..2, 777 standing for it
    got = check("777B", W7)
    assert got == {mv("777B", "TRIO_SOLO", r): ((W7, r),) * 3 for r in range(13)}
    # rule 7: 5777, the soft bomb of 5s and trio_solos of every rank
    got = check("5777", W7)
    assert got[mv("5777", "BOMB", 2, cls="soft")] == ((W7, 2),) * 3
    assert {m[2] for m in got if m[1] == "TRIO_SOLO"} == set(range(13))
    assert got[mv("5777", "TRIO_SOLO", W7)] == ((W7, W7),) * 3
    # rule 1: 3337, one trio_solo of 3s and one soft bomb of 3s
    got = check("3337", W7)
    assert got == {mv("3337", "TRIO_SOLO", 0): ((W7, W7),),
                   mv("3337", "BOMB", 0, cls="soft"): ((W7, 0),)}
    # rule 8 / 11: 333444555666 with 6 wild, the four-trio chain and the plane 345
    got = check("333444555666", W6)
    assert got == {mv("333444555666", "TRIO_CHAIN", W6, 4): ((W6, W6),) * 3,
                   mv("333444555666", "PLANE_SOLO", 2, 3): ((W6, W6), (W6, W6), (W6, W7))}
    # rule 4 with two wild ranks: 7779 only the trio_solo, 7799 and 79 no move
    assert check("7779", (W7, W9)) == {mv("7779", "TRIO_SOLO", W7): ((W7, W7),) * 3
                                       + ((W9, W9),)}
    assert check("7799", (W7, W9)) == {}
    assert check("79", (W7, W9)) == {}


# ---------------------------------------------------------------------------- crafted cases
# (cards, wilds, kinds the oracle must find): every kind with 1-4 wild cards, wild cards at
# either end and inside chains, wild 2 and wild 3, every bomb class, two wild ranks in one move.
CRAFTED = [
    ("7", W7, {"SOLO"}), ("5", W7, {"SOLO"}), ("B", W7, {"SOLO"}), ("2", W2, {"SOLO"}),
    ("57", W7, {"PAIR"}), ("77", W7, {"PAIR"}), ("2B", W2, set()), ("23", (W3, W2), set()),
    ("557", W7, {"TRIO"}), ("577", W7, {"TRIO"}), ("777", W7, {"TRIO"}),
    ("222", W2, {"TRIO"}), ("3", W3, {"SOLO"}), ("335", W3, {"TRIO"}),
    ("5677", W7, {"TRIO_SOLO"}), ("777R", W7, {"TRIO_SOLO"}), ("3332", W2, {"TRIO_SOLO", "BOMB"}),
    ("55577", W7, {"TRIO_PAIR"}), ("55777", W7, {"TRIO_PAIR"}), ("55667", W7, {"TRIO_PAIR"}),
    ("5777B", W7, set()), ("57777", W7, {"TRIO_PAIR"}),
    # solo chains: the wild card at the low end, the high end, in the middle; wild 2 and 3
    ("24567", W2, {"SOLO_CHAIN"}), ("34562", W2, {"SOLO_CHAIN"}), ("TJQK2", W2, {"SOLO_CHAIN"}),
    ("342678", W2, {"SOLO_CHAIN"}), ("34567", W3, {"SOLO_CHAIN"}), ("3TJQK", W3, {"SOLO_CHAIN"}),
    ("345678", W7, {"SOLO_CHAIN"}), ("34589T", W7, set()), ("345789T", W7, set()),
    ("34567777", W7, {"SOLO_CHAIN", "PAIR_CHAIN", "PLANE_SOLO"}),
    ("3456789TJQKA", W7, {"SOLO_CHAIN"}), ("456789TJQKA2", W2, {"SOLO_CHAIN"}),
    ("TJQKA2", W2, {"SOLO_CHAIN"}), ("2222", W2, {"BOMB"}),
    # pair chains
    ("334477", W7, {"PAIR_CHAIN", "TRIO_CHAIN", "FOUR_TWO_SOLO"}), ("334557", W7, {"PAIR_CHAIN"}),
    ("7755667", W7, set()), ("77556677", W7, {"PAIR_CHAIN"}), ("QQKKA2", W2, {"PAIR_CHAIN"}),
    ("QQKK22", W2, {"PAIR_CHAIN"}), ("3344553", W3, set()), ("33445566", W3, {"PAIR_CHAIN"}),
    # trio chains and planes
    ("333444777", W7, {"TRIO_CHAIN"}), ("3334447", W7, set()), ("33344475", W7, {"PLANE_SOLO"}),
    ("33344777", W7, {"PLANE_SOLO"}), ("3334445577", W7, {"PLANE_PAIR"}),
    ("3344475566", W7, {"PLANE_PAIR"}), ("KKKAA2", W2, {"TRIO_CHAIN"}),
    ("KKKAAA22", W2, {"PLANE_SOLO"}), ("333444555666", W6, {"TRIO_CHAIN", "PLANE_SOLO"}),
    ("3334445556667778", W7, {"PLANE_SOLO"}), ("3334445556667788TTJJ", W7, {"PLANE_PAIR"}),
    ("33344455566677788899", W7, set()),
    ("3334445556667778899T", W9, {"PLANE_SOLO"}),
    # fours with two
    ("555789", W7, {"FOUR_TWO_SOLO"}), ("777789", W7, {"FOUR_TWO_SOLO"}),
    ("55578899", W7, {"FOUR_TWO_PAIR"}), ("77778899", W7, {"FOUR_TWO_PAIR"}),
    ("5557B8", W7, {"FOUR_TWO_SOLO"}), ("5557BR", W7, set()),
    # bombs of every class
    ("5577", W7, {"BOMB"}), ("5777", W7, {"BOMB", "TRIO_SOLO"}), ("6666", W7, {"BOMB"}),
    ("7777", W7, {"BOMB"}), ("3333", W3, {"BOMB"}), ("BR", W7, {"ROCKET"}), ("2227", W7, {"BOMB"}),
    ("AAA2", W2, {"BOMB", "TRIO_SOLO"}), ("55557", W7, set()), ("7777B", W7, set()),
    # two wild ranks (天地癞子), both in one move
    ("5579", (W7, W9), {"BOMB", "TRIO_SOLO"}), ("34679", (W7, W9), {"SOLO_CHAIN"}),
    ("3259", (W3, W2), {"TRIO_SOLO"}), ("3255", (W3, W2), {"BOMB"}),
    ("32567", (W3, W2), {"SOLO_CHAIN"}), ("779999", (W7, W9), {"FOUR_TWO_SOLO"}),
    ("9999", (W7, W9), {"BOMB"}), ("7777", (W7, W9), {"BOMB"}), ("779", (W7, W9), set()),
    ("335579", (W7, W9), {"PAIR_CHAIN"}), ("5567799", (W7, W9), set()),
    ("55677999", (W7, W9), {"PLANE_SOLO", "FOUR_TWO_PAIR"}), ("3456", (W3, W4), {"TRIO_SOLO"}),
    ("33445", (W3, W4), {"TRIO_PAIR"}), ("TT2JJ3", (W3, W2), {"PAIR_CHAIN"}),
    ("333344", (W3, W4), {"FOUR_TWO_SOLO"}),
]


@pytest.mark.parametrize("text,wilds,kinds", CRAFTED,
                         ids=[f"{t}-{w}" for t, w, _ in CRAFTED])
def test_crafted(text, wilds, kinds):
    got = check(text, wilds)
    if kinds:                                    # the oracle finds at least these kinds
        assert {m[1] for m in got} >= kinds
    else:                                        # no move where said
        assert got == {}


def test_crafted_cover_every_kind_and_class():
    found = {}
    for text, wilds, _ in CRAFTED:
        found.update(LO.readings_with_substitutions(LO.cards_from_str(text), wilds))
    assert {m[1] for m in found} == CLASSIC_KINDS
    assert {m[4] for m in found} == set(LO.BOMB_CLASSES)
    # a wild card standing in inside each kind but the solo (a lone wild card is itself,
    # rule 4) and the rocket
    stand_in = {m[1] for m, pairs in found.items() if any(w != t for w, t in pairs)}
    assert stand_in == CLASSIC_KINDS - {"SOLO", "ROCKET"}


def test_canonical_substitution_with_two_wild_ranks():
    # 7 and 9 wild, 3 4 6 + 7 9: the chain 34567 only (5 missing); the 7 as itself and the 9
    # as 5 (one stand-in) beats the 7 as 5 and the 9 as 7 (two)
    assert check("34679", (W7, W9)) == {mv("34679", "SOLO_CHAIN", W7, 5): ((W7, W7), (W9, 2))}
    # 3 and 2 wild, 3 2 5 5: the trio_solo 555 + 3 (one stand-in: the 2 as 5; the 3 as 5 and
    # the 2 as itself ties on stand-ins but sorts after) and the soft bomb (both as 5)
    assert check("3255", (W3, W2)) == {mv("3255", "TRIO_SOLO", 2): ((W3, W3), (W2, 2)),
                                       mv("3255", "BOMB", 2, cls="soft"): ((W3, 2), (W2, 2))}
    # 5579: the soft bomb of 5s needs both wild cards as 5
    assert check("5579", (W7, W9))[mv("5579", "BOMB", 2, cls="soft")] == ((W7, 2), (W9, 2))


def test_no_move_counts_zero():
    for text, wilds in [("7799", (W7, W9)), ("79", (W7, W9)), ("7B", W7), ("55557", W7),
                        ("3458", W7), ("BB", W7)]:
        cards = LO.cards_from_str(text)
        assert LO.readings(cards, wilds) == set()
        assert wild_readings(np.uint64(L.packed(cards)), np.int64(mask(wilds)), RULES,
                             np.zeros((8, 4), np.uint64)) == 0
    # more than 20 cards (rule 12), the empty multiset
    big = LO.cards_from_str("33344455566677788899T")
    assert wild_readings(np.uint64(L.packed(big)), np.int64(1 << W7), RULES, EMPTY) == 0
    assert wild_readings(np.uint64(0), np.int64(1 << W7), RULES, EMPTY) == 0
    assert check(big, W7) == {} and check((0,) * 15, W7) == {}


def test_five_and_six_wild_cards_of_two_ranks():
    # more wild cards than the random cases hold: the split of the targets between the two
    # wild ranks (the kernel enumerates what they stand for together)
    for text, kinds in [("577799", {"FOUR_TWO_SOLO", "PAIR_CHAIN", "SOLO_CHAIN", "TRIO_CHAIN"}),
                        ("5777999", {"SOLO_CHAIN"}), ("33225T", {"SOLO_CHAIN", "FOUR_TWO_SOLO"}),
                        ("3344K2", {"FOUR_TWO_SOLO"})]:
        ws = (W3, W2) if "2" in text else (W3, W4) if "K" in text else (W7, W9)
        assert {m[1] for m in check(text, ws)} >= kinds
    rng = random.Random(8_888)
    moves = 0
    for _ in range(10):
        ws = tuple(sorted(rng.sample(range(13), 2)))
        counts = [0] * 15
        for w, c in zip(ws, rng.choice([(2, 3), (3, 2), (1, 4), (4, 1)])):
            counts[w] = c
        others = [r for r in range(15) if r not in ws for _ in range(LO.DECK[r])]
        for r in rng.sample(others, rng.randint(1, 2)):
            counts[r] += 1
        moves += bool(check(counts, ws))
    assert moves >= 5


# ---------------------------------------------------------------------------- from @njit code
@njit
def user_wild_readings(cards, wilds, rules):
    n = wild_readings(cards, wilds, rules, np.empty((0, 4), np.uint64))
    out = np.empty((n, 4), np.uint64)
    wild_readings(cards, wilds, rules, out)
    return out


def test_callable_from_njit():
    cards = LO.cards_from_str("5777")
    rows = user_wild_readings(np.uint64(L.packed(cards)), np.int64(1 << W7), RULES)
    direct = np.empty((len(rows), 4), np.uint64)
    assert len(rows) == 14
    assert wild_readings(np.uint64(L.packed(cards)), np.int64(1 << W7), RULES, direct) == 14
    assert (rows == direct).all()


# ---------------------------------------------------------------------------- random multisets
DECK = LO.DECK
WILD_COUNTS = (0, 1, 1, 1, 2, 2, 2, 3, 3, 4)        # most with a wild card, few with four


def _shape(rng):
    """A random multiset shaped like a classic move (its kickers random), as 15 counts."""
    counts = [0] * 15

    def room(r):
        return DECK[r] - counts[r]

    def add(r, c):
        counts[r] += c

    def kickers(k, size, avoid):
        for _ in range(k):
            ranks = [r for r in range(15) if room(r) >= size and r not in avoid]
            if size == 2:
                ranks = [r for r in ranks if r < 13]
            if ranks:
                add(rng.choice(ranks), size)

    kind = rng.choice(["solo", "pair", "trio", "trio1", "trio2", "chain1", "chain2", "chain3",
                       "plane1", "plane2", "four1", "four2", "bomb", "rocket"])
    core = rng.randrange(13)
    if kind in ("solo", "pair", "trio", "trio1", "trio2", "bomb"):
        size = {"solo": 1, "pair": 2, "trio": 3, "trio1": 3, "trio2": 3, "bomb": 4}[kind]
        add(rng.randrange(15) if kind == "solo" else core, size)
        kickers(1 if kind in ("trio1", "trio2") else 0, 2 if kind == "trio2" else 1, {core})
    elif kind == "rocket":
        add(13, 1)
        add(14, 1)
    elif kind in ("four1", "four2"):
        add(core, 4)
        kickers(2, 1 if kind == "four1" else 2, {core})
    else:
        width = {"chain1": 1, "chain2": 2, "chain3": 3, "plane1": 3, "plane2": 3}[kind]
        least = {1: 5, 2: 3, 3: 2}[width]
        wing = {"plane1": 1, "plane2": 2}.get(kind, 0)
        most = min(12, 20 // (width + wing))
        length = rng.randint(least, most)
        start = rng.randint(0, 12 - length)
        for r in range(start, start + length):
            add(r, width)
        kickers(length if wing else 0, wing, set(range(start, start + length)))
    return counts


def _wildify(counts, ws, k, rng):
    """Turn up to ``k`` natural cards of ``counts`` into wild cards (size kept)."""
    counts = list(counts)
    for _ in range(k):
        free = [w for w in ws if counts[w] < 4]
        natural = [r for r in range(15) if counts[r] and r not in ws]
        if not free or not natural:
            break
        counts[rng.choice(natural)] -= 1
        counts[rng.choice(free)] += 1
    return counts


def _draw(ws, rng):
    """A random multiset of 1..20 cards of one deck, of 0..4 wild cards; half shaped like a
    move (wild cards put in for some of its cards), half drawn at random (mostly small)."""
    k = rng.choice(WILD_COUNTS)
    if rng.random() < 0.5:
        while True:
            counts = _wildify(_shape(rng), ws, k, rng)
            if sum(counts[w] for w in ws) <= 4:
                return counts
    size = rng.choice([1, 2, 3, 4, 4, 5, 5, 6, 6, 7, 8, 9, 10, 12, 14, 16, 20])
    k = min(k, size)
    wild_cards = [w for w in ws for _ in range(4)]
    others = [r for r in range(15) if r not in ws for _ in range(DECK[r])]
    counts = [0] * 15
    for r in rng.sample(wild_cards, k) + rng.sample(others, size - k):
        counts[r] += 1
    return counts


SETTINGS = [(w,) for w in range(13)] + [(W7, W9), (W3, W2), (W3, W4), (10, 11), (W5, 11),
                                        (W6, W2)]
PER_SETTING = 200


@pytest.mark.parametrize("ws", SETTINGS, ids=["-".join(map(str, ws)) for ws in SETTINGS])
def test_random_multisets(ws):
    rng = random.Random(8_000 + 31 * sum((w + 1) << (4 * i) for i, w in enumerate(ws)))
    moves = with_wild = stand_in = bombs = both = 0
    for _ in range(PER_SETTING):
        counts = _draw(ws, rng)
        got = check(counts, ws)
        moves += bool(got)
        with_wild += bool(got) and any(counts[w] for w in ws)
        stand_in += any(w != t for pairs in got.values() for w, t in pairs)
        bombs += any(m[4] == "soft" for m in got)
        both += bool(got) and len(ws) == 2 and all(counts[w] for w in ws)
    # the comparisons compare: most multisets are moves, most of those hold a wild card
    # standing in for another rank, and soft bombs turn up
    assert moves >= PER_SETTING // 2 and with_wild >= PER_SETTING // 3
    assert stand_in >= PER_SETTING // 4 and bombs >= 3
    assert len(ws) == 1 or both >= PER_SETTING // 10     # moves holding both wild ranks
