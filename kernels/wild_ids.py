"""Action ids of moves with one wild rank (preset ``laizi``, RULES.md §4.8): one fixed id per
key, whatever rank is wild, computed rather than stored.

A move's key is its canonical reading (:mod:`wild`'s rule: the fewest wild cards standing in,
then the smallest targets) split in two: the classic move its substitution reads as (the
substituted cards and the reading, a classic play id ``c``) and the multiset ``S`` of ranks the
wild cards stand in for (never their own). With the wild rank ``w`` the key gives the move back:
its cards are the substituted cards less ``S`` plus ``|S|`` cards of ``w``.

The ids of ``c`` are a block of ``ways(c)`` consecutive ids, one per sub-multiset of at most 4
of its ranks 3..2 (the most one wild rank can stand in for), in lexicographic order of their
counts, rank 3 first: ``offsets[c]`` is the block's first id (``block_sizes`` in the classic
id order). A key no move has under ``w`` (``S`` holding ``w``, five cards of ``w``, a reading
that is not the canonical one) is an id with no action under ``w``.

Sub-multiset counts are polynomials truncated after ``x**4`` (the coefficient of ``x**i``: how
many sub-multisets of ``i`` cards), packed 12 bits a coefficient into one ``uint64``: a
multiset of 20 cards has at most C(16, 4) = 1820 sub-multisets of any one size.
"""

import numpy as np

from fastdou.kernels.action_ids import play_id
from fastdou.kernels.generate import ge_tops
from fastdou.kernels.jit import kernel, leaf
from fastdou.kernels.layout import (
    BIG_JOKER, BOMB, BOMB_CLASS_HARD, BOMB_CLASS_NONE, BOMB_CLASS_ROCKET, BOMB_CLASS_SOFT,
    BOMB_CLASS_WILD, INFO_CLASS_SHIFT, INFO_FIELD_MASK, INFO_LENGTH_SHIFT, INFO_RANK_SHIFT,
    K_CORE, KINDS, R_BOMB_MIN, RANK_2, REC_INFO, ROCKET,
)
from fastdou.kernels.moves import readings
from fastdou.kernels.packing import count, size, unit
from fastdou.kernels.wild import _NO_SEQ, WILD_SCRATCH, _seq_cards, _seq_next

MOST_STAND_INS = 4       # the cards of one wild rank
_FIELD = np.uint64(12)
_POLY_MASK = np.uint64((1 << 60) - 1)
_COEF_MASK = np.uint64((1 << 12) - 1)
_ONE = np.uint64(1)      # the polynomial 1
_CLASS_BITS = np.uint64(0xFF) << np.uint64(INFO_CLASS_SHIFT)
NO_ID = np.int64(-1)


@leaf
def _times_block(p, m):
    """``p * (1 + x + ... + x**m)``, truncated after ``x**4``."""
    q = p
    t = p
    for _ in range(min(m, MOST_STAND_INS)):
        t = (t << _FIELD) & _POLY_MASK
        q += t
    return q


@leaf
def _at_most(p, k):
    """The sum of the coefficients of ``x**0 .. x**k`` of ``p``."""
    total = np.int64(0)
    for i in range(min(k, MOST_STAND_INS) + 1):
        total += np.int64((p >> (_FIELD * np.uint64(i))) & _COEF_MASK)
    return total


@leaf
def _above(cards, r):
    """The sub-multiset polynomial of the ranks ``r + 1 .. 2`` of packed ``cards``."""
    p = _ONE
    for s in range(r + 1, RANK_2 + 1):
        p = _times_block(p, count(cards, s))
    return p


@leaf
def ways(cards):
    """How many multisets of at most 4 ranks 3..2 packed ``cards`` holds (the size of its
    id block; jokers are never stood in for)."""
    return _at_most(_above(cards, -1), MOST_STAND_INS)


@leaf
def sub_index(cards, stands):
    """The index of the sub-multiset ``stands`` among those of at most 4 ranks 3..2 of
    ``cards`` (both packed), in lexicographic order of their counts, rank 3 first."""
    index = np.int64(0)
    left = MOST_STAND_INS
    for r in range(RANK_2 + 1):
        s = count(stands, r)
        if s:
            above = _above(cards, r)
            for j in range(s):
                index += _at_most(above, left - j)
            left -= s
    return index


@leaf
def sub_at(cards, index):
    """The sub-multiset of :func:`sub_index` ``index`` of ``cards`` (packed)."""
    stands = np.uint64(0)
    left = MOST_STAND_INS
    j = np.int64(index)
    for r in range(RANK_2 + 1):
        above = _above(cards, r)
        for c in range(min(count(cards, r), left) + 1):
            n = _at_most(above, left - c)
            if j < n:
                stands += unit(r, c)
                left -= c
                break
            j -= n
    return stands


@kernel
def block_sizes(records, out):
    """:func:`ways` of the cards of each classic record (an id table's plays in id order)."""
    for i in range(records.shape[0]):
        out[i] = ways(records[i, 0])


@leaf
def _reads_as(sub, classic, rules, scratch):
    """Whether the packed multiset ``sub`` (at most 4 of a rank) has the classic reading
    ``classic`` (an info word without bomb class)."""
    if ge_tops(sub, 5) != 0:
        return False
    n = min(readings(sub, rules, scratch), scratch.shape[0])
    for i in range(n):
        if scratch[i, REC_INFO] == classic:
            return True
    return False


@leaf
def canonical(cards, info, wild, rules, scratch, listed=False):
    """The canonical reading of the move ``(cards, info)`` (info with its bomb class) when
    ``wild`` (a rank 0..12) is wild: ``(substituted cards, stand-ins)`` packed, the stand-ins
    the ranks its wild cards stand in for; ``(0, 0)`` when it is no such move. ``scratch``:
    a record buffer for classic readings (``wild.WILD_SCRATCH`` rows). ``listed``: the
    record is one the wild-card generator listed, so a reading with no wild kicker (one
    candidate) is not read again to check it."""
    c = np.uint64(cards)
    kind = np.int64(info & np.uint64(INFO_FIELD_MASK))
    rank = np.int64((info >> np.uint64(INFO_RANK_SHIFT)) & np.uint64(INFO_FIELD_MASK))
    length = np.int64((info >> np.uint64(INFO_LENGTH_SHIFT)) & np.uint64(INFO_FIELD_MASK))
    cls = np.int64(info >> np.uint64(INFO_CLASS_SHIFT))
    classic = info & ~_CLASS_BITS
    k = count(c, wild)
    nat = c - unit(wild, k)
    if kind < 1 or kind > ROCKET or length < 1:
        return np.uint64(0), np.uint64(0)
    if kind == ROCKET:                                # both jokers, never wild
        ok = k == 0 and cls == BOMB_CLASS_ROCKET and _reads_as(c, classic, rules, scratch)
        return (c if ok else np.uint64(0)), np.uint64(0)
    m = rules[R_BOMB_MIN] if kind == BOMB else KINDS[kind, K_CORE]
    # the core: each rank's naturals first, wild cards for the rest (kickers are never of a
    # core rank); a wild card in its own rank's place is natural
    targets = np.uint64(0)
    stands = np.uint64(0)
    used = 0
    for r in range(rank - length + 1, rank + 1):
        if r < 0 or r > BIG_JOKER:
            return np.uint64(0), np.uint64(0)
        fill = m if r == wild else m - min(count(nat, r), m)
        if r > RANK_2 and fill:                      # a wild card never stands for a joker
            return np.uint64(0), np.uint64(0)
        used += fill
        targets += unit(r, fill)
        if r != wild:
            stands += unit(r, fill)
    if used > k or (nat == 0 and stands != 0):       # wild cards alone stand for themselves
        return np.uint64(0), np.uint64(0)
    free = k - used                                   # wild kickers
    # fewest stand-ins first, then the smallest targets (wild cards alone: none)
    for j in range(free + 1 if nat != 0 else 1):
        seq = np.int64(0)
        while seq != _NO_SEQ:
            xs = _seq_cards(seq, j) if j > 0 else np.uint64(0)
            if count(xs, wild) == 0:
                sub = nat + targets + xs + unit(wild, free - j)
                if (listed and free == 0) or _reads_as(sub, classic, rules, scratch):
                    all_stands = stands + xs
                    want = BOMB_CLASS_NONE
                    if kind == BOMB:
                        want = BOMB_CLASS_SOFT if all_stands != 0 else (
                            BOMB_CLASS_WILD if rank == wild else BOMB_CLASS_HARD)
                    if want != cls:
                        return np.uint64(0), np.uint64(0)
                    return sub, all_stands
            seq = _seq_next(seq, j) if j > 0 else _NO_SEQ
    return np.uint64(0), np.uint64(0)


@leaf
def wild_play_id(cards, info, wild, rules, keys, key_ids, offsets, scratch, listed=False):
    """The id of the move ``(cards, info)`` when ``wild`` (0..12) is wild, or -1 if it is no
    move: ``keys`` / ``key_ids`` the classic table's hash (:mod:`action_ids`), ``offsets``
    each classic play id's first id (:func:`block_sizes`, summed); ``listed``: see
    :func:`canonical`."""
    sub, stands = canonical(cards, info, wild, rules, scratch, listed)
    if sub == 0:
        return NO_ID
    c = play_id(keys, key_ids, sub, info & ~_CLASS_BITS)
    if c < 0 or c >= offsets.shape[0] - 1:
        return NO_ID
    return offsets[c] + sub_index(sub & _RANK_CARDS, stands)


_RANK_CARDS = np.uint64((1 << (4 * (RANK_2 + 1))) - 1)      # the nibbles of ranks 3..2


@leaf
def wild_id_record(a, wild, rules, keys, key_ids, id_records, offsets, scratch):
    """The record ``(cards, info with class)`` of play id ``a`` when ``wild`` is wild, or
    ``(0, 0)`` when the id is no move under ``wild``: ``id_records`` the classic table's."""
    n_plays = offsets.shape[0] - 1
    if a < 0 or a >= offsets[n_plays]:
        return np.uint64(0), np.uint64(0)
    lo = 0
    hi = n_plays                     # offsets[lo] <= a < offsets[hi]
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if offsets[mid] <= a:
            lo = mid
        else:
            hi = mid
    sub = id_records[lo, 0]
    classic = id_records[lo, REC_INFO]
    stands = sub_at(sub & _RANK_CARDS, a - offsets[lo])
    n = size(stands)
    if count(stands, wild) or count(sub, wild) + n > MOST_STAND_INS:
        return np.uint64(0), np.uint64(0)
    cards = sub - stands + unit(wild, n)
    kind = np.int64(classic & np.uint64(INFO_FIELD_MASK))
    rank = np.int64((classic >> np.uint64(INFO_RANK_SHIFT)) & np.uint64(INFO_FIELD_MASK))
    cls = BOMB_CLASS_NONE
    if kind == ROCKET:
        cls = BOMB_CLASS_ROCKET
    elif kind == BOMB:
        cls = BOMB_CLASS_SOFT if n else (BOMB_CLASS_WILD if rank == wild else BOMB_CLASS_HARD)
    info = classic | (np.uint64(cls) << np.uint64(INFO_CLASS_SHIFT))
    if wild_play_id(cards, info, wild, rules, keys, key_ids, offsets, scratch) != a:
        return np.uint64(0), np.uint64(0)
    return cards, info


@kernel
def wild_ids_of(records, wild, rules, keys, key_ids, offsets, pass_id, out):
    """:func:`wild_play_id` of every record into ``out`` (``pass_id`` for the pass record,
    -1 for a record that is no move under ``wild``)."""
    scratch = np.empty((WILD_SCRATCH, 2), np.uint64)
    for i in range(records.shape[0]):
        out[i] = pass_id if records[i, 1] == 0 else wild_play_id(
            records[i, 0], records[i, 1], wild, rules, keys, key_ids, offsets, scratch)


@kernel
def wild_records_of(ids, wild, rules, keys, key_ids, id_records, offsets, out):
    """:func:`wild_id_record` of every play id into ``out`` (``[0, 0]``: no move under
    ``wild``)."""
    scratch = np.empty((WILD_SCRATCH, 2), np.uint64)
    for i in range(ids.shape[0]):
        cards, info = wild_id_record(ids[i], wild, rules, keys, key_ids, id_records, offsets,
                                     scratch)
        out[i, 0] = cards
        out[i, 1] = info
