"""Batch generation over arrays of hands, in parallel with ``prange``.

Each hand is generated once: its moves are first counted by the closed forms of
``counting`` (a fraction of the cost of generating them), the counts summed into offsets,
then every hand writes its moves straight into its slice of one move array. Each hand's
moves depend on that hand alone, so results never depend on threads.
"""

import numpy as np
from numba import prange

from fastdou.kernels.jit import kernel, leaf, parallel_kernel
from fastdou.kernels.layout import REC_WIDTH
from fastdou.kernels.moves import count_responses, responses


@parallel_kernel
def _count(hands, lasts, rules, offsets):
    """``offsets[i + 1]`` = the number of moves of hand i."""
    for i in prange(hands.shape[0]):
        offsets[i + 1] = count_responses(hands[i], lasts[i], rules)
    return offsets


@leaf
def _fill_one(hand, last, rules, moves, lo, hi):
    """Hand i's moves into ``moves[lo:hi]`` (a view built without reference counting)."""
    return responses(hand, last, rules, moves[lo:hi])


@parallel_kernel
def _fill(hands, lasts, rules, offsets, moves):
    """Write hand i's moves into ``moves[offsets[i]:offsets[i + 1]]``."""
    for i in prange(hands.shape[0]):
        _fill_one(hands[i], lasts[i], rules, moves, offsets[i], offsets[i + 1])
    return moves


@kernel
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


@kernel
def fill_batch(hands, lasts, rules, offsets, moves):
    """Write every hand's moves at the ``offsets`` :func:`batch_offsets` gave; returns
    ``moves``."""
    return _fill(hands, lasts, rules, offsets, moves)


@kernel
def generate_batch_into(hands, lasts, rules, moves, offsets):
    """All moves of every hand into a buffer the caller keeps and reuses: ``offsets``
    (``int64[n + 1]``) as :func:`batch_offsets`, the records in ``moves[:total]``.

    Returns the total; when it exceeds ``len(moves)`` nothing is written (grow the buffer
    to the total and call again)."""
    total = batch_offsets(hands, lasts, rules, offsets)
    if total <= moves.shape[0]:
        _fill(hands, lasts, rules, offsets, moves)
    return total


@kernel
def generate_batch(hands, lasts, rules):
    """All moves of every hand (responses to ``lasts[i]``; PASS rows lead).

    ``hands``: packed ``uint64[n]``; ``lasts``: ``uint64[n, 2]`` records. Returns
    ``(moves, offsets)``: hand i's moves are ``moves[offsets[i]:offsets[i+1]]``.
    """
    offsets = np.empty(hands.shape[0] + 1, np.int64)
    moves = np.empty((batch_offsets(hands, lasts, rules, offsets), REC_WIDTH), np.uint64)
    _fill(hands, lasts, rules, offsets, moves)
    return moves, offsets
