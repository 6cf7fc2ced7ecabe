"""The move universe of ``laizi`` (RULES.md §4.8): every wild move some hand could play, for
given wild ranks, WITHOUT enumerating the deck's sub-multisets.

Method (independent of :func:`tests.reference.laizi_oracle.readings`, which goes the other
way, from cards to substitutions): start from the classic universe of the standard profile
(``oracle.one_deck_universe``: 27,471 moves ``(S, kind, rank, length)``; every substituted
multiset a wild move can read as is one of them). For each, every way to take some of its
cards from the wild ranks instead ("decomposition": ``j[r][w]`` cards standing for rank r come
from wild rank w != r; the cards of a wild rank w standing for w are its own, natural cards)
gives the cards ``C`` that leave the hand:
``C[r] = S[r] - sum_w j[r][w]`` for a non-wild r, and for a wild w
``C[w] = (S[w] - sum_w' j[w][w']) + sum_{r != w} j[r][w]``, at most 4 (one deck).
A decomposition with a stand-in whose ``C`` is only wild cards is dropped (only-wild moves
stand for themselves). The bomb class is derived from ``C`` (not from the stand-in count):
a BOMB whose cards are four of a wild rank is the wild bomb, one holding any wild card is soft,
else hard. Moves are merged by identity ``(C, kind, rank, length, class)``.

``python -m tests.reference.laizi_universe`` prints the counts of all 13 single wild ranks
with timings (about 8 minutes in all, one core); ``--check`` instead cross-checks four whole
universes against brute force on random hands (:func:`check_full_universe`).

Counts (wild rank: moves = distinct (cards, kind, rank, length, class); distinct card
multisets), symmetric under 3..A reversed (3<->A, 4<->K, ...), as the classic rules are:

    3 1615093 1272267   4 1419655 1122591   5 1227152 976042   6 1054816 847451
    7  947487  774772   8  955513  791192   9  955513  791192   T  947487  774772
    J 1054816  847451   Q 1227152  976042   K 1419655 1122591   A 1615093 1272267
    2 1810830 1434659                      (no wild rank: 27471 27471, the classic universe)

Two wild ranks are out of reach of this plain-Python method: the classic universe has
about 250 million decompositions for wild 7+9 and 890 million for 3+2 (against 2.5 to 5
million for one wild rank), hours of CPU; :func:`universe` with a ``hand`` is fine for them.
"""

from __future__ import annotations

import sys
import time

from tests.reference import oracle
from tests.reference.laizi_oracle import CLASSIC, N, SJ, TWO, norm_wilds

P = tuple(5 ** r for r in range(N))          # base-5 code of a count vector


def code(cards):
    return sum(c * p for c, p in zip(cards, P))


def decode(value):
    out = []
    for _ in range(N):
        value, c = divmod(value, 5)
        out.append(c)
    return tuple(out)


_CLASSIC_UNIVERSE = []


def classic_universe():
    """The classic standard universe as a sorted list (built once)."""
    if not _CLASSIC_UNIVERSE:
        _CLASSIC_UNIVERSE.extend(sorted(oracle.one_deck_universe(CLASSIC)))
    return _CLASSIC_UNIVERSE


def _options(S, wilds):
    """Per rank of S (wild ranks first), the list of choices
    (delta code, delta usage per wild, stand-ins, delta non-wild count, r, taken)."""
    per_rank = []
    if not wilds:
        return per_rank                             # classic: S is the only decomposition
    order = [r for r in wilds if S[r]] + [r for r in range(TWO + 1) if S[r] and r not in wilds]
    for r in order:
        opts = []
        if r in wilds:
            others = [w for w in wilds if w != r]
            if not others:
                continue                            # only its own cards: nothing to choose
            w2 = others[0]
            for j in range(S[r] + 1):
                du = tuple(-j if w == r else j for w in wilds)
                opts.append((j * (P[w2] - P[r]), du, j, 0, r, 0))
        elif wilds:
            if len(wilds) == 1:
                w = wilds[0]
                for j in range(S[r] + 1):
                    opts.append((j * (P[w] - P[r]), (j,), j, -j, r, j))
            else:
                a, b = wilds
                for ja in range(S[r] + 1):
                    for jb in range(S[r] + 1 - ja):
                        opts.append((ja * (P[a] - P[r]) + jb * (P[b] - P[r]), (ja, jb),
                                     ja + jb, -(ja + jb), r, ja + jb))
        per_rank.append(opts)
    return per_rank


def decompositions(S, wilds, hand=None):
    """Yield (code of C, stand-ins, non-wild card count of C) for every decomposition of the
    classic move cards S under ``wilds`` (sorted tuple), C within one deck (and within
    ``hand`` if given)."""
    wilds = tuple(wilds)
    per_rank = _options(S, wilds)
    limit = [4 if hand is None else min(4, hand[w]) for w in wilds]
    n_wild_ranks_first = sum(1 for r in wilds if S[r]) if len(wilds) == 2 else 0
    start_usage = tuple(S[w] for w in wilds)
    start_nonwild = sum(S[r] for r in range(N) if r not in wilds)
    if hand is not None and (S[SJ] > hand[SJ] or S[N - 1] > hand[N - 1]):
        return

    def rec(i, c, usage, stand, nonwild):
        if i >= n_wild_ranks_first and any(u > m for u, m in zip(usage, limit)):
            return                                  # usage only grows from here on
        if i == len(per_rank):
            yield c, stand, nonwild
            return
        for dc, du, ds, dn, r, taken in per_rank[i]:
            if hand is not None and r not in wilds and S[r] - taken > hand[r]:
                continue
            yield from rec(i + 1, c + dc, tuple(u + d for u, d in zip(usage, du)),
                           stand + ds, nonwild + dn)

    yield from rec(0, code(S), start_usage, 0, start_nonwild)


def _class_of(kind, rank, C, wilds):
    if kind == "ROCKET":
        return "rocket"
    if kind != "BOMB":
        return "none"
    if any(C[w] == 4 and sum(C) == 4 for w in wilds):
        return "wild"
    if any(C[w] for w in wilds):
        return "soft"
    return "hard"


def _moves_codes(wilds, hand=None):
    """Yield (code of C, kind, rank, length, class) of every (classic move, decomposition)."""
    for S, kind, rank, length in classic_universe():
        if hand is not None:
            short = sum(max(0, S[r] - hand[r]) for r in range(N) if r not in wilds)
            if short > sum(hand[w] for w in wilds):
                continue
        bomb = kind == "BOMB"
        for c, stand, nonwild in decompositions(S, wilds, hand):
            if stand and nonwild == 0:
                continue                            # only wild cards: they stand for themselves
            cls = _class_of(kind, rank, decode(c), wilds) if bomb else (
                "rocket" if kind == "ROCKET" else "none")
            yield c, kind, rank, length, cls


def universe(wilds, hand=None) -> set:
    """The wild moves (5-tuples as laizi_oracle) of the universe, or only those whose cards fit
    in ``hand`` (= every move the hand can lead)."""
    wilds = norm_wilds(wilds)
    hand = None if hand is None else tuple(int(c) for c in hand)
    return {(decode(c), kind, rank, length, cls)
            for c, kind, rank, length, cls in _moves_codes(wilds, hand)}


def count(wilds) -> tuple:
    """(distinct wild moves, distinct card multisets) of the whole universe of ``wilds``,
    counted on integer codes to keep memory modest."""
    wilds = norm_wilds(wilds)
    keys = {}
    moves = set()
    multisets = set()
    for c, kind, rank, length, cls in _moves_codes(wilds):
        k = keys.setdefault((kind, rank, length, cls), len(keys))
        moves.add(c * 4096 + k)
        multisets.add(c)
    return len(moves), len(multisets)


def check_full_universe(wilds, hands):
    """Cross-check the WHOLE universe of ``wilds`` (not the hand-pruned one) against brute force
    :func:`laizi_oracle.leading_moves`: for each hand, every listed move is in the universe and
    the universe moves whose cards the hand holds are exactly the listed ones. Returns the
    number of moves compared."""
    import numpy as np

    from tests.reference.laizi_oracle import leading_moves
    wilds = norm_wilds(wilds)
    moves = list({(c, kind, rank, length, cls)
                  for c, kind, rank, length, cls in _moves_codes(wilds)})
    counts = np.array([decode(m[0]) for m in moves], dtype=np.int8)
    index = {m: i for i, m in enumerate(moves)}
    compared = 0
    for hand in hands:
        listed = leading_moves(hand, wilds)
        coded = {(code(m[0]), *m[1:]) for m in listed}
        assert all(m in index for m in coded), hand           # every listed move is in it
        fits = np.nonzero((counts <= np.array(hand, dtype=np.int8)).all(axis=1))[0]
        assert {moves[i] for i in fits} == coded, hand         # and nothing else fits the hand
        compared += len(coded)
    return compared


def main(argv):
    classic_universe()
    if "--check" in argv:                    # cross-check whole universes on random hands
        import random
        rng = random.Random(2026)
        deck = [r for r in range(13) for _ in range(4)] + [13, 14]
        for w in (0, 4, 11, 12):
            hands = []
            for _ in range(30):
                cards = rng.sample(deck, rng.randrange(5, 10)) + [w] * rng.randrange(0, 3)
                hand = [0] * 15
                for c in cards:
                    hand[c] = min(hand[c] + 1, 1 if c > 12 else 4)
                hands.append(hand)
            t = time.time()
            n = check_full_universe(w, hands)
            print(f"wild {oracle.TOKENS[w]}: 30 hands, {n} moves equal, {time.time() - t:.0f} s",
                  flush=True)
        return
    print("single wild rank: wild, moves, multisets, seconds")
    total = 0.0
    for w in range(TWO + 1):
        t = time.time()
        moves, multisets = count(w)
        dt = time.time() - t
        total += dt
        print(f"{oracle.TOKENS[w]} {w:2d} {moves} {multisets} {dt:.1f}", flush=True)
    print(f"total {total:.0f} s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
