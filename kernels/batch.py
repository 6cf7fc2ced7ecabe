"""Batch generation over arrays of hands, in parallel with ``prange``.

A batch is two passes: count every hand's moves, then fill each hand's slice of one move
array. Each hand's moves depend on that hand alone, so results never depend on threads.
"""

import numpy as np
from numba import prange

from fastdou.kernels.jit import kernel, parallel_kernel
from fastdou.kernels.layout import REC_WIDTH
from fastdou.kernels.moves import responses


@parallel_kernel
def _batch(hands, lasts, rules, offsets, moves):
    """Pass 1 (``moves`` empty): ``offsets[i + 1]`` = the number of moves of hand i.
    Pass 2: write hand i's moves into ``moves[offsets[i]:offsets[i + 1]]``."""
    counting = moves.shape[0] == 0
    for i in prange(hands.shape[0]):
        if counting:
            offsets[i + 1] = responses(hands[i], lasts[i], rules, moves)
        else:
            responses(hands[i], lasts[i], rules, moves[offsets[i]:offsets[i + 1]])
    return offsets


@kernel
def count_batch(hands, lasts, rules):
    """The number of moves of each hand beating ``lasts[i]`` (a PASS row leads)."""
    offsets = np.zeros(hands.shape[0] + 1, np.int64)
    _batch(hands, lasts, rules, offsets, np.empty((0, REC_WIDTH), np.uint64))
    return offsets[1:]


@kernel
def generate_batch(hands, lasts, rules):
    """All moves of every hand (responses to ``lasts[i]``; PASS rows lead).

    ``hands``: packed ``uint64[n]``; ``lasts``: ``uint64[n, 2]`` records. Returns
    ``(moves, offsets)``: hand i's moves are ``moves[offsets[i]:offsets[i+1]]``.
    """
    n = hands.shape[0]
    offsets = np.zeros(n + 1, np.int64)
    _batch(hands, lasts, rules, offsets, np.empty((0, REC_WIDTH), np.uint64))
    for i in range(n):
        offsets[i + 1] += offsets[i]
    moves = np.empty((offsets[n], REC_WIDTH), np.uint64)
    _batch(hands, lasts, rules, offsets, moves)
    return moves, offsets
