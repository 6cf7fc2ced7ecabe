"""min_plays: the fewest plays that empty a hand when nobody answers, with its memo (the
workspace :func:`new_memo`), which the solver's move ordering shares. Runs on an explicit
stack, not recursion (see :mod:`.solver`). :func:`wild_min_plays` splits a hand into the
moves of the wild ranks ``wilds`` (a bit mask) instead.
"""

import numpy as np

from fastdou.kernels.jit import kernel, leaf, nrt_kernel
from fastdou.kernels.moves import leading_moves, readings
from fastdou.kernels.packing import count
from fastdou.kernels.solver_buffers import _grow, new_buffer
from fastdou.kernels.wild_moves import wild_moves_into

# the memo's parts (:func:`new_memo`)
M_KEYS = 0          # the hands memoized (a slot per hand, :func:`_memo_slot`)
M_VALS = 1          # min_plays of each slot's hand
M_BUF = 2           # the move buffer (grows)
M_FRAMES = 3        # the explicit stack, a row per ply (``MF_*`` columns)

# columns of a min_plays frame
MF_HAND = 0         # the hand left to split (packed, as int64)
MF_BASE = 1         # first row of its moves in the move buffer
MF_COUNT = 2        # how many moves it has
MF_NEXT = 3         # index of the move being tried
MF_BEST = 4         # fewest plays found so far
MF_LOW = 5          # its lowest rank present (every move tried holds it)
MF_WIDTH = 6


@nrt_kernel
def new_memo():
    """A min_plays workspace: (keys, values, move buffer, frames) (``M_*``); see
    :func:`min_plays`."""
    return (np.zeros(1 << 18, np.uint64), np.zeros(1 << 18, np.int64), new_buffer(1 << 12),
            np.zeros((64, MF_WIDTH), np.int64))


@leaf
def _memo_slot(keys, hand):
    return np.int64((hand * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)) & (keys.shape[0] - 1)


_LEAD = (np.uint64(0), np.uint64(0))   # the record to answer when leading


@leaf
def _leads(h, rules, out, wilds):
    """The moves packed hand ``h`` may lead into ``out`` (how many; as many as fit are
    written): under the wild ranks ``wilds``, or classic ones when it is None."""
    if wilds is None:
        return leading_moves(h, rules, out)
    return wild_moves_into(h, wilds, rules, _LEAD, out)


@nrt_kernel
def _min_plays(hand, rules, memo, wilds=None):
    """min_plays with an explicit stack: some move holds the lowest rank present, so try
    only those. Returns (plays, the workspace's move buffer, possibly grown). ``wilds``:
    see :func:`_leads`."""
    keys, vals, buf, frames = memo
    ply = 0
    frames[0, MF_HAND] = np.int64(hand)
    frames[0, MF_BASE] = 0
    entering = True
    result = 0
    while True:
        if entering:
            h = np.uint64(frames[ply, MF_HAND])
            slot = _memo_slot(keys, h)
            if h == 0:
                result = 0
                entering = False
            elif keys[slot] == h:
                result = vals[slot]
                entering = False
            elif wilds is None and readings(h, rules, buf[:0]) > 0:    # one play
                result = 1
                entering = False
            else:
                base = frames[ply, MF_BASE]
                n = _leads(h, rules, buf[base:], wilds)
                if base + n > buf.shape[0]:
                    buf = _grow(buf, base, n)
                    _leads(h, rules, buf[base:], wilds)
                low = 0
                while count(h, low) == 0:
                    low += 1
                frames[ply, MF_COUNT] = n
                frames[ply, MF_NEXT] = 0
                frames[ply, MF_BEST] = 1 << 30
                frames[ply, MF_LOW] = low
        if not entering:
            if ply == 0:
                return result, buf
            ply -= 1
            v = 1 + result
            if v < frames[ply, MF_BEST]:
                frames[ply, MF_BEST] = v
            frames[ply, MF_NEXT] += 1
            # nothing beats 1, nor 2 once 1 was ruled out on entering (classic only)
            if frames[ply, MF_BEST] == (2 if wilds is None else 1):
                frames[ply, MF_NEXT] = frames[ply, MF_COUNT]
        # advance the frame at ply to its next move holding the lowest rank
        base = frames[ply, MF_BASE]
        n = frames[ply, MF_COUNT]
        i = frames[ply, MF_NEXT]
        low = frames[ply, MF_LOW]
        while i < n and count(buf[base + i, 0], low) == 0:
            i += 1
        frames[ply, MF_NEXT] = i
        if i == n:
            h = np.uint64(frames[ply, MF_HAND])
            result = frames[ply, MF_BEST]
            slot = _memo_slot(keys, h)
            keys[slot] = h
            vals[slot] = result
            entering = False
            continue
        rest = np.uint64(frames[ply, MF_HAND]) - buf[base + i, 0]
        frames[ply + 1, MF_HAND] = np.int64(rest)
        frames[ply + 1, MF_BASE] = base + n
        ply += 1
        entering = True


@kernel
def min_plays(hand, rules):
    """The least number of plays that empty packed ``hand`` when nobody answers (leading
    every time): a partition of the hand into legal moves of fewest parts."""
    plays, _ = _min_plays(np.uint64(hand), rules, new_memo())
    return plays


@kernel
def wild_min_plays(hand, rules, wilds):
    """:func:`min_plays` under the wild ranks of the bit mask ``wilds``."""
    plays, _ = _min_plays(np.uint64(hand), rules, new_memo(), np.int64(wilds))
    return plays
