"""Counting bombs without building them (``generate._bombs``' twin): :func:`count_bombs`, the
answers to a bomb, and every bomb for ``counting`` and ``answer_counts``. When the rules
leave every bomb a closed form (``rules[R_BOMBS_CLOSED]``: rank bombs of at most 8 cards,
a joker bomb of every joker or lone jokers), :func:`_closed_bombs` counts them at once on
the packed counts' nibbles; otherwise they walk their (few) candidates.
"""

import numpy as np

from fastdou.kernels.bits import lowest_bit
from fastdou.kernels.count_intrinsics import popcount
from fastdou.kernels.generate import (
    _NIBBLE_ONES, _NIBBLE_TOPS, NON_JOKERS, TOP_RANKS, _ge, _size_ok, ge_tops, joker_bomb_power,
    lone_joker_power, rank_bomb_power,
)
from fastdou.kernels.jit import inline_kernel, leaf
from fastdou.kernels.layout import (
    BIG_JOKER, JOKER_BOMBS_ALL, JOKER_BOMBS_ANY, JOKER_BOMBS_LONE, R_BOMB_MAX, R_BOMB_MIN,
    R_DECKS, R_JOKER_BOMBS, R_MAX_MOVE, SMALL_JOKER,
)
from fastdou.kernels.packing import count

_NIB_NON_JOKERS = np.int64((1 << (4 * SMALL_JOKER)) - 1) & TOP_RANKS   # ge_tops' bits
_NIB_JOKERS = TOP_RANKS ^ _NIB_NON_JOKERS
_RANK_NIBBLES = np.uint64((1 << (4 * SMALL_JOKER)) - 1)    # the counts of ranks 3..2
_BYTE_LOWS = np.uint64(0x0F0F0F0F0F0F0F0F)
_BYTE_ONES = np.uint64(0x0101010101010101)


@inline_kernel
def _sizes_from(h, k):
    """Sum over the ranks 3..2 of max(0, count - k + 1), for 1 <= k <= 8: the rank bombs of
    k cards or more (each size from k up to the count), over the packed counts at once.

    As in ``generate._ge``, count + 8 - k sets a nibble's top bit when count >= k; less
    that bit and plus one, the selected nibbles hold count - k + 1; then a horizontal sum.
    """
    z = np.uint64(h) + np.uint64(8 - k) * _NIBBLE_ONES
    top = z & _NIBBLE_TOPS
    v = (z - top + _NIBBLE_ONES) & ((top >> np.uint64(3)) * np.uint64(15)) & _RANK_NIBBLES
    v = (v & _BYTE_LOWS) + ((v >> np.uint64(4)) & _BYTE_LOWS)
    return np.int64((v * _BYTE_ONES) >> np.uint64(56))


@leaf
def _rank_bombs(h, rules, want_size, above_power):
    """Rank bombs of a power above ``above_power`` (``generate._bombs``' first part)."""
    max_move = rules[R_MAX_MOVE]
    bmin = rules[R_BOMB_MIN]
    bmax = rules[R_BOMB_MAX]
    if bmin <= 0:
        return 0
    if above_power < 0 and want_size == 0 and bmin <= bmax <= min(8, max_move):
        return _rank_sizes(h, bmin, bmax)
    n = 0
    m = _ge(h, bmin) & NON_JOKERS
    while m:
        r = lowest_bit(m)
        m &= m - 1
        for s in range(bmin, min(count(h, r), bmax) + 1):
            if rank_bomb_power(s, r, rules) > above_power and _size_ok(s, want_size, max_move):
                n += 1
    return n


@leaf
def _joker_bombs(h, rules, want_size, above_power):
    """Joker bombs of a power above ``above_power`` (``generate._bombs``' second part)."""
    max_move = rules[R_MAX_MOVE]
    jb = rules[R_JOKER_BOMBS]
    small = count(h, SMALL_JOKER)
    big = count(h, BIG_JOKER)
    n = 0
    if jb == JOKER_BOMBS_LONE:
        for r in range(SMALL_JOKER, BIG_JOKER + 1):
            if count(h, r) >= 1 and lone_joker_power(r) > above_power \
                    and _size_ok(1, want_size, max_move):
                n += 1
    elif jb == JOKER_BOMBS_ALL:
        d = rules[R_DECKS]
        if small >= d and big >= d and joker_bomb_power(2 * d, rules) > above_power \
                and _size_ok(2 * d, want_size, max_move):
            n += 1
    elif jb == JOKER_BOMBS_ANY:
        for b in range(small + 1):
            for g in range(big + 1):
                j = b + g
                if j < 2 or not _size_ok(j, want_size, max_move):
                    continue
                if joker_bomb_power(j, rules) > above_power:
                    n += 1
    return n


@leaf
def _bomb_count(h, rules, want_size, above_power):
    """Bombs of a power above ``above_power`` (``generate._bombs``)."""
    return _rank_bombs(h, rules, want_size, above_power) + \
        _joker_bombs(h, rules, want_size, above_power)


@inline_kernel
def _rank_sizes(h, bmin, bmax):
    """The rank bombs of ``h`` of bmin..bmax cards (bmax <= 8; none if bmin <= 0), every
    size up to each rank's count."""
    if bmin <= 0:
        return 0
    if bmin == bmax:
        return popcount(ge_tops(h, bmin) & _NIB_NON_JOKERS)
    return _sizes_from(h, bmin) - (_sizes_from(h, bmax + 1) if bmax < 8 else 0)


@inline_kernel
def _closed_bombs(h, rules):
    """The bombs of ``h`` when ``rules[R_BOMBS_CLOSED]``: its rank bombs of bmin..bmax cards
    (every size up to each rank's count; none if bmin <= 0), and its joker bombs (one of
    every joker, or each lone joker)."""
    d = rules[R_DECKS]
    jb = rules[R_JOKER_BOMBS]
    jokers = ge_tops(h, 1) & _NIB_JOKERS
    every = np.int64(ge_tops(h, d) & _NIB_JOKERS == _NIB_JOKERS)
    return _rank_sizes(h, rules[R_BOMB_MIN], rules[R_BOMB_MAX]) + \
        every * np.int64(jb == JOKER_BOMBS_ALL) + \
        popcount(jokers) * np.int64(jb == JOKER_BOMBS_LONE)


@leaf
def count_bombs(h, rules, above_power):
    """Number of bombs of packed hand ``h`` above ``above_power``: the answers to a bomb
    (``emit`` under ``bomb_query(above_power)``)."""
    return _bomb_count(np.uint64(h), rules, np.int64(0), above_power)
