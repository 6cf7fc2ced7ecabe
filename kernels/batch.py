"""Batch generation over arrays of hands, in parallel with ``prange``.

Each hand is generated once. A fresh batch first counts every hand's moves by the closed
forms of ``counting`` (a fraction of the cost of generating them), sums the counts into
offsets, then every hand writes its moves straight into its slice of one exact array.
Moves are written as a stream (``records_out``: non-temporal stores, which do not read
the lines they fill first).
Into a buffer the caller reuses, on one or two threads, the hands are generated one after
another with no count at all; on two, the second thread starts its part from a count of
the hands before it that the first has not generated yet (``COUNT_COST``). Each hand's moves depend
on that hand alone, so results never depend on threads.
"""

import numpy as np
from numba import prange

from fastdou.kernels.huge_pages import advise_huge_pages
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


# Counting a hand costs about this fraction of generating it (classic 20-card leads: about
# 5.5x faster). On two threads, the first generates the hands before ``a`` while the
# second counts those from ``a`` to ``s``; then the first generates a..s-1 and the second
# s..n-1. Both phases are balanced when a = c s / (1 + c) and n - s = s - a, so two threads
# give 2 - c / (1 + c) (1.85x) at most: the second counts only what the first has not yet
# generated when it starts its own part.
COUNT_COST = 0.18


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
def _stream_two(hands, lasts, rules, moves, offsets, a, s, ends):
    """Two threads in two phases (see ``COUNT_COST``): hands 0..a-1 streamed and a..s-1
    counted, then a..s-1 and s..n-1 streamed, each part from where the hands before it
    end."""
    n = hands.shape[0]
    for p in prange(2):
        if p == 0:
            ends[0] = _stream(hands, lasts, rules, moves, offsets, 0, a, 0)
        else:
            ends[1] = _count_range(hands, lasts, rules, a, s)
    for p in prange(2):
        if p == 0:
            ends[2] = _stream(hands, lasts, rules, moves, offsets, a, s, ends[0])
        else:
            ends[3] = _stream(hands, lasts, rules, moves, offsets, s, n, ends[0] + ends[1])
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
    if threads == 1:
        return _stream(hands, lasts, rules, moves, offsets, 0, n, 0)
    ends = np.zeros(4, np.int64)
    share = COUNT_COST / (1.0 + COUNT_COST)
    s = min(np.int64(n / (2.0 - share)), n)
    _stream_two(hands, lasts, rules, moves, offsets, np.int64(share * s), s, ends)
    return ends[3]


@nrt_kernel
def generate_batch(hands, lasts, rules):
    """All moves of every hand (responses to ``lasts[i]``; PASS rows lead).

    ``hands``: packed ``uint64[n]``; ``lasts``: ``uint64[n, 2]`` records. Returns
    ``(moves, offsets)``: hand i's moves are ``moves[offsets[i]:offsets[i+1]]``.
    """
    offsets = np.empty(hands.shape[0] + 1, np.int64)
    moves = np.empty((batch_offsets(hands, lasts, rules, offsets), REC_WIDTH), np.uint64)
    advise_huge_pages(moves)
    _fill(hands, lasts, rules, offsets, moves)
    return moves, offsets
