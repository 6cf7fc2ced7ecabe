"""Batch generation over arrays of hands, in parallel with ``prange``.

Each hand is generated once. A fresh batch first counts every hand's moves by the closed
forms of ``counting`` (a fraction of the cost of generating them), sums the counts into
offsets, then every hand writes its moves straight into its slice of one exact array.
Moves are written as a stream (``records_out``: non-temporal stores, which do not read
the lines they fill first).
Into a buffer the caller reuses, on one or two threads, the first part of the hands is
generated one after another with no count at all, and the second part from the count of
the first (made by the second thread while the first generates). Each hand's moves depend
on that hand alone, so results never depend on threads.
"""

import numpy as np
from numba import prange

from fastdou.kernels.jit import kernel, leaf, nrt_kernel, parallel_kernel
from fastdou.kernels.layout import REC_WIDTH
from fastdou.kernels.moves import count_responses, responses
from fastdou.kernels.records_out import stream_fence

BLOCKS = 256   # a fill's blocks of hands, each streamed then fenced (up to 256 threads busy)


@parallel_kernel
def _count(hands, lasts, rules, offsets):
    """``offsets[i + 1]`` = the number of moves of hand i."""
    for i in prange(hands.shape[0]):
        offsets[i + 1] = count_responses(hands[i], lasts[i], rules)
    return offsets


@leaf
def _fill_range(hands, lasts, rules, offsets, moves, lo, hi):
    """Hands lo..hi-1 into ``moves[offsets[i]:offsets[i + 1]]``, streamed."""
    for i in range(lo, hi):
        responses(hands[i], lasts[i], rules, (moves, offsets[i]))
    stream_fence()


@parallel_kernel
def _fill(hands, lasts, rules, offsets, moves):
    """Write hand i's moves into ``moves[offsets[i]:offsets[i + 1]]`` (in ``BLOCKS`` blocks
    of hands, in parallel)."""
    n = hands.shape[0]
    blocks = min(n, BLOCKS)
    for b in prange(blocks):
        _fill_range(hands, lasts, rules, offsets, moves, b * n // blocks,
                    (b + 1) * n // blocks)
    return moves


@nrt_kernel
def count_batch(hands, lasts, rules):
    """The number of moves of each hand beating ``lasts[i]`` (a PASS row leads)."""
    offsets = np.zeros(hands.shape[0] + 1, np.int64)
    _count(hands, lasts, rules, offsets)
    return offsets[1:]


@kernel
def batch_offsets(hands, lasts, rules, offsets):
    """Fill ``offsets`` (``int64[n + 1]``): hand i's moves will be
    ``moves[offsets[i]:offsets[i + 1]]``. Returns the total, ``offsets[n]``."""
    n = hands.shape[0]
    offsets[0] = 0
    _count(hands, lasts, rules, offsets)
    for i in range(n):
        offsets[i + 1] += offsets[i]
    return offsets[n]


# Counting a hand costs about this fraction of generating it (classic 20-card leads: 4.1x
# faster, 2026-12-01): the second thread's part is shorter by that much of the first's, to
# finish together (so two threads give at most 1 / (1 - 1 / (2 - COUNT_COST)), 1.76x).
COUNT_COST = 0.24


@leaf
def _stream(hands, lasts, rules, moves, offsets, lo, hi, pos):
    """Hands lo..hi-1 one after another from ``moves[pos]``, setting their offsets.
    Returns the end; past ``len(moves)`` the moves that did not fit were not written."""
    cap = moves.shape[0]
    for i in range(lo, hi):
        pos += responses(hands[i], lasts[i], rules, (moves, min(pos, cap)))
        offsets[i + 1] = pos
    stream_fence()
    return pos


@leaf
def _count_range(hands, lasts, rules, lo, hi):
    n = 0
    for i in range(lo, hi):
        n += count_responses(hands[i], lasts[i], rules)
    return n


@parallel_kernel
def _stream_parts(hands, lasts, rules, moves, offsets, bounds, ends):
    """Part p (hands ``bounds[p]..bounds[p+1]-1``) starts where the hands before it end:
    part 0 at 0, the next after counting the hands before it."""
    for p in prange(bounds.shape[0] - 1):
        base = _count_range(hands, lasts, rules, 0, bounds[p])
        ends[p] = _stream(hands, lasts, rules, moves, offsets, bounds[p], bounds[p + 1], base)
    return ends


@nrt_kernel
def fill_batch(hands, lasts, rules, offsets, moves):
    """Write every hand's moves at the ``offsets`` :func:`batch_offsets` gave; returns
    ``moves``."""
    return _fill(hands, lasts, rules, offsets, moves)


@kernel
def generate_batch_into(hands, lasts, rules, moves, offsets, threads):
    """All moves of every hand into a buffer the caller keeps and reuses: ``offsets``
    (``int64[n + 1]``) as :func:`batch_offsets`, the records in ``moves[:total]``.
    ``threads``: ``numba.get_num_threads()`` (read by the caller: a kernel that reads it
    cannot be cached).

    Returns the total; ``offsets`` is always right, but when the total exceeds
    ``len(moves)`` the buffer holds only part of the moves (grow it to the total and call
    :func:`fill_batch`, or again)."""
    n = hands.shape[0]
    offsets[0] = 0
    if threads > 2 or threads < 1 or n < 64:
        # Counting everything first scales with any number of threads.
        total = batch_offsets(hands, lasts, rules, offsets)
        if total <= moves.shape[0]:
            _fill(hands, lasts, rules, offsets, moves)
        return total
    bounds = np.zeros(threads + 1, np.int64)
    bounds[threads] = n
    if threads == 2:
        bounds[1] = np.int64(n / (2.0 - COUNT_COST))
    ends = np.zeros(threads, np.int64)
    _stream_parts(hands, lasts, rules, moves, offsets, bounds, ends)
    return ends[threads - 1]


@nrt_kernel
def generate_batch(hands, lasts, rules):
    """All moves of every hand (responses to ``lasts[i]``; PASS rows lead).

    ``hands``: packed ``uint64[n]``; ``lasts``: ``uint64[n, 2]`` records. Returns
    ``(moves, offsets)``: hand i's moves are ``moves[offsets[i]:offsets[i+1]]``.
    """
    offsets = np.empty(hands.shape[0] + 1, np.int64)
    moves = np.empty((batch_offsets(hands, lasts, rules, offsets), REC_WIDTH), np.uint64)
    _fill(hands, lasts, rules, offsets, moves)
    return moves, offsets
