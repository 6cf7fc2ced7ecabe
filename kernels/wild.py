"""Wild-card readings (preset ``laizi``, RULES.md §4.8): every move one multiset, played
whole, can be when one or two ranks are wild.

Every substitution of the wild cards (each stands for a rank 3..2; a move of wild cards alone
for its own ranks) is read with the classic :func:`moves.readings`; the readings are merged by
identity (kind, rank, length, bomb class), each keeping its canonical substitution: the fewest
wild cards standing in, then the lexicographically smallest sorted ``(wild rank, stands for)``
pairs (``tests/reference/laizi_oracle.py``, rule decisions 1-12).

A result row is ``(cards, info, stands_lo, stands_hi)``: ``info`` is the classic info word with
the bomb class (``BOMB_CLASS_*``) at ``INFO_CLASS_SHIFT``; ``stands_lo`` / ``stands_hi`` pack
what the cards of the lower / higher wild rank stand for (4 bits per rank, as cards).
``rules`` is the classic rules array (profile standard).
"""

import numpy as np

from fastdou.kernels.bits import highest_bit, lowest_bit, span
from fastdou.kernels.jit import kernel, leaf
from fastdou.kernels.layout import (
    BOMB, BOMB_CLASS_HARD, BOMB_CLASS_NONE, BOMB_CLASS_ROCKET, BOMB_CLASS_SOFT, BOMB_CLASS_WILD,
    COUNT_BITS, COUNT_MASK, INFO_CLASS_SHIFT, INFO_FIELD_MASK, INFO_RANK_SHIFT, R_DECK,
    R_MAX_MOVE, RANK_2, REC_INFO, REC_WIDTH, ROCKET,
)
from fastdou.kernels.generate import ge_tops
from fastdou.kernels.moves import readings
from fastdou.kernels.packing import contains, count, size

WILD_WIDTH = 4           # columns of a result row
W_CARDS = 0
W_INFO = 1
W_STANDS_LO = 2
W_STANDS_HI = 3
# Rows of the scratch arrays: one multiset has at most one reading per (kind, rank) (its
# length follows from kind and size, its bomb class from kind and rank), 14 x 15 < 256.
WILD_SCRATCH = 256

_NO_SEQ = np.int64(-1)


@leaf
def _seq_next(seq, k):
    """The next non-decreasing sequence of ``k`` ranks 0..12 after ``seq`` (its i-th rank in
    nibble k-1-i, so integer order is lexicographic order); -1 after the last."""
    for i in range(k - 1, -1, -1):
        shift = np.int64(COUNT_BITS * (k - 1 - i))
        t = (seq >> shift) & COUNT_MASK
        if t < RANK_2:
            fill = np.int64(0)
            for _ in range(k - i):               # ranks i..k-1 all become t + 1
                fill = (fill << COUNT_BITS) | (t + 1)
            return ((seq >> (shift + COUNT_BITS)) << (shift + COUNT_BITS)) | fill
    return _NO_SEQ


@leaf
def _seq_cards(seq, k):
    """The packed multiset of the ``k`` ranks of a sequence."""
    p = np.uint64(0)
    for i in range(k):
        p += np.uint64(1) << np.uint64(COUNT_BITS * ((seq >> (COUNT_BITS * i)) & COUNT_MASK))
    return p


@leaf
def _nibble(p, rank):
    """Count of ``rank`` in packed ``p`` (0 for rank -1, no wild rank)."""
    if rank < 0:
        return np.int64(0)
    return count(p, rank)


@leaf
def wild_ranks(wilds, cards):
    """The lower and the higher wild rank of the bit mask ``wilds`` (-1: none), each with
    the number of cards of it the packed ``cards`` hold: ``(lo, k_lo, hi, k_hi)``."""
    m = np.int64(wilds) & span(0, RANK_2)
    lo = np.int64(lowest_bit(m)) if m else np.int64(-1)
    hi = np.int64(highest_bit(m)) if m & (m - 1) else np.int64(-1)
    return lo, _nibble(cards, lo), hi, _nibble(cards, hi)


@leaf
def _cards_seq(p):
    """The sorted ranks of packed ``p`` (ranks 0..12) as a sequence, first rank highest."""
    seq = np.int64(0)
    for r in range(RANK_2 + 1):
        for _ in range(_nibble(p, r)):
            seq = (seq << COUNT_BITS) | r
    return seq


@leaf
def _split(targets, k_lo, k_hi, lo, hi):
    """The canonical substitution giving the packed ``targets`` (what all the wild cards stand
    for together): the lower rank's ``k_lo`` cards' and the higher's ``k_hi`` cards' targets.
    Fewest stand-ins: each rank keeps as many of its own rank as it can; then the lower rank
    takes the smallest of the other targets (the higher rank's own first kept for it)."""
    keep_lo = min(k_lo, _nibble(targets, lo))
    keep_hi = min(k_hi, _nibble(targets, hi))
    stands_lo = np.uint64(0) if lo < 0 else np.uint64(keep_lo) << np.uint64(COUNT_BITS * lo)
    need = k_lo - keep_lo
    for r in range(RANK_2 + 1):
        if r == lo or need == 0:            # lo's other targets stand in for hi cards
            continue
        take = min(_nibble(targets, r) - (keep_hi if r == hi else 0), need)
        need -= take
        stands_lo += np.uint64(take) << np.uint64(COUNT_BITS * r)
    return stands_lo, targets - stands_lo


@leaf
def _bomb_class(kind, rank, stand_ins, wilds):
    """The oracle's ``bomb_class`` of one reading."""
    if kind == ROCKET:
        return BOMB_CLASS_ROCKET
    if kind != BOMB:
        return BOMB_CLASS_NONE
    if stand_ins > 0:
        return BOMB_CLASS_SOFT
    if (wilds >> rank) & 1:          # no stand-in: only the four wild cards themselves
        return BOMB_CLASS_WILD
    return BOMB_CLASS_HARD


@leaf
def _merge(table, found, info, key, stands_lo, stands_hi):
    """Add one reading to the first ``found`` rows of ``table`` (info, key, stands_lo,
    stands_hi), keeping the smallest key per info; returns the new count."""
    for j in range(found):
        if table[j, 0] == info:
            if key < table[j, 1]:
                table[j, 1] = key
                table[j, 2] = stands_lo
                table[j, 3] = stands_hi
            return found
    if found < table.shape[0]:       # never full (see WILD_SCRATCH); guards the write
        table[found, 0] = info
        table[found, 1] = key
        table[found, 2] = stands_lo
        table[found, 3] = stands_hi
    return found + 1


@leaf
def wild_readings_into(cards, wilds, rules, out, table, recs):
    """:func:`wild_readings` with its scratch given: ``table`` a ``uint64`` array of shape
    ``(WILD_SCRATCH, 4)``, ``recs`` one of shape ``(WILD_SCRATCH, 2)``."""
    c = np.uint64(cards)
    w = np.int64(wilds)
    n = size(c)
    if n == 0 or n > rules[R_MAX_MOVE] or not contains(np.uint64(rules[R_DECK]), c):
        return 0
    lo, k_lo, hi, k_hi = wild_ranks(w, c)
    own_lo = np.uint64(0) if lo < 0 else np.uint64(k_lo) << np.uint64(COUNT_BITS * lo)
    own_hi = np.uint64(0) if hi < 0 else np.uint64(k_hi) << np.uint64(COUNT_BITS * hi)
    natural = c - own_lo - own_hi
    only_wild = natural == 0         # rule 4: wild cards alone stand for themselves only
    k = k_lo + k_hi
    found = 0
    # every multiset of targets of the k wild cards, each split canonically between the two
    # wild ranks: the substitutions giving the same substituted multiset read the same
    seq = np.int64(0)
    while seq != _NO_SEQ:
        if only_wild:
            stands_lo, stands_hi = own_lo, own_hi
        else:
            stands_lo, stands_hi = _split(_seq_cards(seq, k), k_lo, k_hi, lo, hi)
        sub = natural + stands_lo + stands_hi
        if ge_tops(sub, 5) == 0:          # rule 5: at most 4 of a rank
            stand_ins = k_lo - _nibble(stands_lo, lo) + k_hi - _nibble(stands_hi, hi)
            # rule 11 as one integer: stand-ins, then the lower rank's targets, the higher's
            key = np.uint64((stand_ins << 32) | (_cards_seq(stands_lo) << 16)
                            | _cards_seq(stands_hi))
            m = min(readings(sub, rules, recs), recs.shape[0])
            for j in range(m):
                info = recs[j, REC_INFO]
                kind = np.int64(info & np.uint64(INFO_FIELD_MASK))
                rank = np.int64((info >> np.uint64(INFO_RANK_SHIFT))
                                & np.uint64(INFO_FIELD_MASK))
                cls = _bomb_class(kind, rank, stand_ins, w)
                info |= np.uint64(cls) << np.uint64(INFO_CLASS_SHIFT)
                found = _merge(table, found, info, key, stands_lo, stands_hi)
        seq = _NO_SEQ if only_wild else _seq_next(seq, k)
    kept = min(found, table.shape[0])
    for i in range(1, kept):                        # by info word: a fixed order of rows
        for j in range(i, 0, -1):
            if table[j - 1, 0] <= table[j, 0]:
                break
            for col in range(WILD_WIDTH):
                t = table[j - 1, col]
                table[j - 1, col] = table[j, col]
                table[j, col] = t
    for i in range(min(kept, out.shape[0])):
        out[i, W_CARDS] = c
        out[i, W_INFO] = table[i, 0]
        out[i, W_STANDS_LO] = table[i, 2]
        out[i, W_STANDS_HI] = table[i, 3]
    return found


@kernel
def wild_readings(cards, wilds, rules, out):
    """Every wild-card reading of the packed multiset ``cards`` played whole (each wild card
    counted at its own rank), ``wilds`` the bit mask of the wild ranks: rows
    ``(cards, info, stands_lo, stands_hi)`` in ``out`` of shape ``(cap, 4)``. Returns how many
    readings there are, writing the first ``cap`` (0 when ``cards`` is no move)."""
    table = np.empty((WILD_SCRATCH, WILD_WIDTH), np.uint64)
    recs = np.empty((WILD_SCRATCH, REC_WIDTH), np.uint64)
    return wild_readings_into(cards, wilds, rules, out, table, recs)
