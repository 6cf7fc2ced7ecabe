"""Batch generation over arrays of hands, in parallel with ``prange``.

A batch is two passes: count every hand's moves, then fill each hand's slice of one move
array. Each hand's moves depend on that hand alone, so results never depend on threads.
"""

import numpy as np
from numba import prange

from fastdou.kernels.jit import kernel, parallel_kernel
from fastdou.kernels.layout import REC_WIDTH
from fastdou.kernels.moves import count_responses, responses


@parallel_kernel
def count_batch(hands, lasts, rules, counts):
    """``counts[i]`` = number of moves of ``hands[i]`` beating ``lasts[i]`` (a PASS leads)."""
    for i in prange(hands.shape[0]):
        counts[i] = count_responses(hands[i], lasts[i], rules)
    return counts


@parallel_kernel
def fill_batch(hands, lasts, rules, offsets, moves):
    """Write hand i's moves into ``moves[offsets[i]:offsets[i+1]]``."""
    for i in prange(hands.shape[0]):
        responses(hands[i], lasts[i], rules, moves[offsets[i]:offsets[i + 1]])
    return moves


@kernel
def generate_batch(hands, lasts, rules):
    """All moves of every hand (responses to ``lasts[i]``; PASS rows lead).

    ``hands``: packed ``uint64[n]``; ``lasts``: ``uint64[n, 2]`` records. Returns
    ``(moves, offsets)``: hand i's moves are ``moves[offsets[i]:offsets[i+1]]``.
    """
    n = hands.shape[0]
    counts = count_batch(hands, lasts, rules, np.empty(n, np.int64))
    offsets = np.zeros(n + 1, np.int64)
    for i in range(n):
        offsets[i + 1] = offsets[i] + counts[i]
    moves = np.empty((offsets[n], REC_WIDTH), np.uint64)
    fill_batch(hands, lasts, rules, offsets, moves)
    return moves, offsets
