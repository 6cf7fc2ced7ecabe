"""min_plays: the fewest plays that empty a hand when nobody answers, with its memo (the
workspace :func:`new_memo`), which the solver's move ordering shares. Runs on an explicit
stack, not recursion (see :mod:`.solver`).
"""

import numpy as np

from fastdou.kernels.jit import kernel, leaf, nrt_kernel
from fastdou.kernels.moves import leading_moves, readings
from fastdou.kernels.packing import count
from fastdou.kernels.solver_buffers import _grow, new_buffer


@nrt_kernel
def new_memo():
    """A min_plays workspace: (keys, values, move buffer, frames); see :func:`min_plays`."""
    return (np.zeros(1 << 18, np.uint64), np.zeros(1 << 18, np.int64), new_buffer(1 << 12),
            np.zeros((64, 6), np.int64))


@leaf
def _memo_slot(keys, hand):
    return np.int64((hand * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)) & (keys.shape[0] - 1)


@nrt_kernel
def _min_plays(hand, rules, memo):
    """min_plays with an explicit stack: some move holds the lowest rank present, so try
    only those. Returns (plays, the workspace's move buffer, possibly grown)."""
    keys, vals, buf, frames = memo
    # frame columns: hand, base, n, next index, best, lowest rank
    ply = 0
    frames[0, 0] = np.int64(hand)
    frames[0, 1] = 0
    entering = True
    result = 0
    while True:
        if entering:
            h = np.uint64(frames[ply, 0])
            slot = _memo_slot(keys, h)
            if h == 0:
                result = 0
                entering = False
            elif keys[slot] == h:
                result = vals[slot]
                entering = False
            elif readings(h, rules, buf[:0]) > 0:
                result = 1
                entering = False
            else:
                base = frames[ply, 1]
                n = leading_moves(h, rules, buf[base:])
                if base + n > buf.shape[0]:
                    buf = _grow(buf, base, n)
                    leading_moves(h, rules, buf[base:])
                low = 0
                while count(h, low) == 0:
                    low += 1
                frames[ply, 2] = n
                frames[ply, 3] = 0
                frames[ply, 4] = 1 << 30
                frames[ply, 5] = low
        if not entering:
            if ply == 0:
                return result, buf
            ply -= 1
            v = 1 + result
            if v < frames[ply, 4]:
                frames[ply, 4] = v
            frames[ply, 3] += 1
            if frames[ply, 4] == 2:              # 1 was ruled out on entering
                frames[ply, 3] = frames[ply, 2]
        # advance the frame at ply to its next move holding the lowest rank
        base = frames[ply, 1]
        n = frames[ply, 2]
        i = frames[ply, 3]
        low = frames[ply, 5]
        while i < n and count(buf[base + i, 0], low) == 0:
            i += 1
        frames[ply, 3] = i
        if i == n:
            h = np.uint64(frames[ply, 0])
            result = frames[ply, 4]
            slot = _memo_slot(keys, h)
            keys[slot] = h
            vals[slot] = result
            entering = False
            continue
        frames[ply + 1, 0] = np.int64(np.uint64(frames[ply, 0]) - buf[base + i, 0])
        frames[ply + 1, 1] = base + n
        ply += 1
        entering = True


@kernel
def min_plays(hand, rules):
    """The least number of plays that empty packed ``hand`` when nobody answers (leading
    every time): a partition of the hand into legal moves of fewest parts."""
    plays, _ = _min_plays(np.uint64(hand), rules, new_memo())
    return plays
