"""The solver's move ordering: actions best first by the min_plays of the hand each leaves
(from the memo of :mod:`.fewest_plays`), then most cards; bombs after every other action.
"""

import numpy as np

from fastdou.kernels.fewest_plays import M_FRAMES, M_KEYS, M_VALS, _memo_slot, _min_plays
from fastdou.kernels.jit import kernel, leaf
from fastdou.kernels.layout import BOMB, ROCKET
from fastdou.kernels.moves import kind_of
from fastdou.kernels.packing import size

_UNKNOWN = np.uint64(1 << 40)


@leaf
def _rest(buf, i, hand):
    """The hand left after action ``buf[i]`` (the whole hand after a pass)."""
    return hand if buf[i, 1] == 0 else hand - buf[i, 0]


@leaf
def _lookup_left(buf, base, n, hand, keys, vals):
    """Column 2 of each action ``buf[base:base + n]``: min_plays of the hand it leaves, from
    the memo (``_UNKNOWN`` where it misses). Returns the number of misses."""
    misses = 0
    for i in range(base, base + n):
        rest = _rest(buf, i, hand)
        slot = _memo_slot(keys, rest)
        if keys[slot] == rest:
            buf[i, 2] = np.uint64(vals[slot])
        else:
            buf[i, 2] = _UNKNOWN
            misses += 1
    return misses


@kernel
def _fill_left(buf, base, n, rules, hand, memo):
    """Compute the min_plays :func:`_lookup_left` missed; returns the memo."""
    for i in range(base, base + n):
        if buf[i, 2] == _UNKNOWN:
            left, mbuf = _min_plays(_rest(buf, i, hand), rules, memo)
            memo = (memo[M_KEYS], memo[M_VALS], mbuf, memo[M_FRAMES])
            buf[i, 2] = np.uint64(left)
    return memo


@leaf
def _sort(buf, base, n):
    """Sort the actions ``buf[base:base + n]`` best first (column 2: the min_plays each
    leaves); ties keep generator order. Score: fewest plays left, then most cards; bombs
    after every other action."""
    for i in range(base, base + n):
        left = np.int64(buf[i, 2])
        info = buf[i, 1]
        if info == 0:
            score = (1 << 12) + 64 * (32 - left)
        else:
            score = 64 * (32 - left) + size(buf[i, 0])
            kind = kind_of(info)
            if kind != BOMB and kind != ROCKET:
                score += 1 << 12
        buf[i, 2] = np.uint64(score)
    for i in range(base + 1, base + n):
        c0 = buf[i, 0]
        c1 = buf[i, 1]
        c2 = buf[i, 2]
        j = i - 1
        while j >= base and buf[j, 2] < c2:
            buf[j + 1, 0] = buf[j, 0]
            buf[j + 1, 1] = buf[j, 1]
            buf[j + 1, 2] = buf[j, 2]
            j -= 1
        buf[j + 1, 0] = c0
        buf[j + 1, 1] = c1
        buf[j + 1, 2] = c2


@kernel
def _order(buf, base, n, rules, hand, memo):
    """Sort the actions ``buf[base:base + n]`` of ``hand`` best first (:func:`_sort`);
    returns the memo."""
    if _lookup_left(buf, base, n, hand, memo[M_KEYS], memo[M_VALS]) > 0:
        memo = _fill_left(buf, base, n, rules, hand, memo)
    _sort(buf, base, n)
    return memo
