"""Move universes of the non-classic presets (everything the preset's full deck could play,
with its largest move): golden counts, per kind and in all, and set equality with the
oracle's universe, read from a generous superset of candidate card multisets.

``python tests/kernels/test_preset_universes.py`` prints the table for README.md.
"""

import itertools
from collections import Counter

import numpy as np
import pytest

import fastdou
from tests.reference import oracle
from tests.shared.as_oracle import as_tuples
from fastdou import kernels as K
from fastdou.rules import rules_array

PRESETS = ("two_player", "two_landlords", "four_player", "five_player", "emperor", "jinling")

# preset: (distinct card multisets, (cards, reading) moves)
UNIVERSE = {
    "two_player": (9_794, 9_794),
    "two_landlords": (27_479, 27_479),
    "four_player": (9_079, 9_079),
    "five_player": (3_354, 3_354),
    "emperor": (13_932, 14_122),       # each of the 190 spaceships is also a carrier
    "jinling": (122, 122),
}

# Moves per kind. Many follow from RULES.md by hand, e.g. emperor: dress 13 fours x 12 trios
# x 13 pairs (11 ranks + BB + RR) = 2028; spaceship: ordered pairs of disjoint runs of L = 2..6
# among the 12 chain ranks = 90 + 56 + 30 + 12 + 2 = 190; four_player: bombs 13 ranks x
# 5 sizes, plane_pair sum over L = 2..6 of (12 - L + 1) chains x C(15 - L, L) wings = 8632.
KINDS = {
    "two_player": dict(SOLO=13, PAIR=11, TRIO=11, TRIO_SOLO=132, TRIO_PAIR=110,
                       FOUR_TWO_SOLO=825, FOUR_TWO_PAIR=495, SOLO_CHAIN=21, PAIR_CHAIN=36,
                       TRIO_CHAIN=35, PLANE_SOLO=7076, PLANE_PAIR=1017, BOMB=11, ROCKET=1),
    "two_landlords": dict(SOLO=15, PAIR=13, TRIO=13, TRIO_SOLO=182, TRIO_PAIR=156,
                          FOUR_TWO_SOLO=1326, FOUR_TWO_PAIR=858, SOLO_CHAIN=36, PAIR_CHAIN=54,
                          TRIO_CHAIN=51, PLANE_SOLO=21822, PLANE_PAIR=2939, BOMB=13, ROCKET=1),
    "four_player": dict(SOLO=15, PAIR=15, TRIO=13, TRIO_PAIR=182, SOLO_CHAIN=36, PAIR_CHAIN=55,
                        TRIO_CHAIN=65, PLANE_PAIR=8632, BOMB=65, ROCKET=1),
    "five_player": dict(SOLO=15, PAIR=13, TRIO=13, TRIO_PAIR=156, SOLO_CHAIN=36, PAIR_CHAIN=55,
                        TRIO_CHAIN=56, PLANE_PAIR=2939, BOMB=65, ROCKET=6),
    "emperor": dict(SOLO=15, PAIR=15, TRIO=13, QUAD=13, TRIO_PAIR=182, QUAD_TRIO=156,
                    DRESS=2028, SOLO_CHAIN=36, PAIR_CHAIN=45, TRIO_CHAIN=55, PLANE_PAIR=7822,
                    QUAD_CHAIN=63, CARRIER=3436, SPACESHIP=190, BOMB=52, ROCKET=1),
    "jinling": dict(SOLO=13, PAIR=13, SOLO_CHAIN=36, PAIR_CHAIN=45, BOMB=15),
}

# The longest chain of each chain kind and the largest move, from each preset's max_move and
# chain ranks (RULES.md §4): e.g. two_landlords (23 cards): 11 pairs (22), 7 trios (21),
# planes of 5 with solos (20) and 4 with pairs (20); emperor (42): 10 quads (40), 6-quad
# carriers and spaceships (42), 7-trio plane_pair (35: an 8-trio one has too few other ranks).
CHAINS = {"SOLO_CHAIN", "PAIR_CHAIN", "TRIO_CHAIN", "PLANE_SOLO", "PLANE_PAIR", "QUAD_CHAIN",
          "CARRIER", "SPACESHIP"}
LONGEST = {
    "two_player": dict(SOLO_CHAIN=10, PAIR_CHAIN=10, TRIO_CHAIN=6, PLANE_SOLO=5, PLANE_PAIR=4,
                       size=20),
    "two_landlords": dict(SOLO_CHAIN=12, PAIR_CHAIN=11, TRIO_CHAIN=7, PLANE_SOLO=5,
                          PLANE_PAIR=4, size=22),
    "four_player": dict(SOLO_CHAIN=12, PAIR_CHAIN=12, TRIO_CHAIN=11, PLANE_PAIR=6, size=33),
    "five_player": dict(SOLO_CHAIN=12, PAIR_CHAIN=12, TRIO_CHAIN=8, PLANE_PAIR=4, size=24),
    "emperor": dict(SOLO_CHAIN=12, PAIR_CHAIN=12, TRIO_CHAIN=12, PLANE_PAIR=7, QUAD_CHAIN=10,
                    CARRIER=6, SPACESHIP=6, size=42),
    "jinling": dict(SOLO_CHAIN=12, PAIR_CHAIN=8, size=16),
}


def universe(name):
    """The generator's universe of preset ``name`` as oracle tuples (each exactly once)."""
    rules = fastdou.rules(name)
    deck = np.uint64(fastdou.cards.pack(rules.deck))
    out = K.new_moves(K.count_leading(deck, rules_array(rules)))
    K.leading_moves(deck, rules_array(rules), out)
    moves = as_tuples(out)
    assert len(moves) == len(out), "a move twice in the universe"
    return moves


def counts(moves):
    return len({m[0] for m in moves}), len(moves)


@pytest.mark.parametrize("name", PRESETS)
def test_universe_counts(name):
    moves = universe(name)
    assert dict(Counter(m[1] for m in moves)) == KINDS[name]
    assert counts(moves) == UNIVERSE[name]


@pytest.mark.parametrize("name", PRESETS)
def test_longest_moves(name):
    """Chains are as long as max_move and the chain ranks allow, and no longer."""
    moves = universe(name)
    longest = {}
    for cards, kind, _, length in moves:
        if kind in CHAINS:
            longest[kind] = max(longest.get(kind, 0), length)
        longest["size"] = max(longest.get("size", 0), sum(cards))
    assert longest == LONGEST[name]
    assert longest["size"] <= fastdou.rules(name).max_move


def test_two_player_chains_start_at_5():
    moves = universe("two_player")
    assert not any(m[0][0] or m[0][1] for m in moves)          # no 3 or 4 anywhere
    assert min(m[2] - m[3] + 1 for m in moves if m[1] == "SOLO_CHAIN") == 2   # 56789


# ------------------------------------------------------------------ the oracle's universe
def _one(rank, copies):
    return tuple(copies if i == rank else 0 for i in range(15))


def _plus(*parts):
    return tuple(map(sum, zip(*parts)))


# What the two-deck candidates below cover; plane_solo, trio_solo and four_two would need
# far more candidates, and no two-deck preset has them.
TWO_DECK_KINDS = {"SOLO", "PAIR", "TRIO", "QUAD", "BOMB", "ROCKET", "SOLO_CHAIN", "PAIR_CHAIN",
                  "TRIO_CHAIN", "QUAD_CHAIN", "TRIO_PAIR", "QUAD_TRIO", "DRESS", "PLANE_PAIR",
                  "CARRIER", "SPACESHIP"}


def two_deck_candidates(rules):
    """A generous superset of every two-deck move (in the style of the oracle's
    ``_one_deck_candidates``): 1..8 of a rank, every set of jokers, runs of 1..4 a rank over
    any ranks, a trio with any 1..2 other cards, a four with any 3 other cards or with a trio
    and any 2 other cards, and trio / four runs of L ranks with L other ranks doubled /
    tripled; nothing over max_move."""
    deck = tuple(int(c) for c in rules.deck)
    out = set()

    def add(cards):
        if sum(cards) <= rules.max_move and all(c <= d for c, d in zip(cards, deck)):
            out.add(cards)

    for b, g in itertools.product(range(deck[13] + 1), range(deck[14] + 1)):
        add(_plus(_one(13, b), _one(14, g)))
    for r in range(13):
        for c in range(1, deck[r] + 1):
            add(_one(r, c))
    for k, lo in itertools.product((1, 2, 3, 4), range(13)):
        for hi in range(lo + 1, 13):
            add(_plus(*[_one(r, k) for r in range(lo, hi + 1)]))
    for t in range(13):
        other = tuple(0 if i == t else d for i, d in enumerate(deck))
        for e in (1, 2):
            for m in oracle._multisets(other, e):
                add(_plus(_one(t, 3), m))
        for m in oracle._multisets(other, 3):
            add(_plus(_one(t, 4), m))
        for u in range(13):
            if u != t:
                for m in oracle._multisets(_plus(other, _one(u, -deck[u])), 2):
                    add(_plus(_one(t, 4), _one(u, 3), m))
    for width, extra in ((3, 2), (4, 3)):
        for lo in range(12):
            for hi in range(lo + 1, 12):
                n = hi - lo + 1
                if (width + extra) * n > rules.max_move:
                    continue
                run = _plus(*[_one(r, width) for r in range(lo, hi + 1)])
                others = [r for r in range(15) if not lo <= r <= hi]
                for ranks in itertools.combinations(others, n):
                    add(_plus(run, *[_one(r, extra) for r in ranks]))
    return out


def oracle_universe(rules):
    assert {fastdou.Kind(k).name for k in rules.kinds} <= TWO_DECK_KINDS
    return {(cards, *reading) for cards in two_deck_candidates(rules)
            for reading in oracle.readings(cards, rules)}


# The one-deck presets' universes are compared with the oracle in test_universe.py.
@pytest.mark.parametrize("name", [p for p in PRESETS if fastdou.rules(p).decks == 2])
def test_universe_equals_oracle(name):
    assert universe(name) == oracle_universe(fastdou.rules(name))


def readme_table():
    rows = ["| preset | distinct card multisets | (cards, reading) moves |", "|---|---|---|"]
    for name in PRESETS:
        multisets, moves = counts(universe(name))
        rows.append(f"| {name} | {multisets:,} | {moves:,} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(readme_table())
