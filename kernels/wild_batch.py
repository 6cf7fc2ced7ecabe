"""Batch generation with wild cards (preset ``laizi``): the moves of many hands, each with its
own wild ranks, in parallel with ``prange``, and the check of move records under them.

Each hand is generated twice, once to count its moves and once into its slice of one exact
array: wild-card moves have no closed-form count. Each hand's moves depend on that hand
alone, so results never depend on threads.
"""

import numpy as np
from numba import prange

from fastdou.kernels.jit import kernel, nrt_kernel, parallel_kernel
from fastdou.kernels.layout import REC_CARDS, REC_INFO, REC_WIDTH
from fastdou.kernels.wild import WILD_SCRATCH, WILD_WIDTH, wild_readings_into
from fastdou.kernels.wild_moves import wild_moves_into


@parallel_kernel
def _count(hands, lasts, wilds, rules, offsets):
    """``offsets[i + 1]`` = the number of moves of hand i."""
    for i in prange(hands.shape[0]):
        none = np.empty((0, REC_WIDTH), np.uint64)
        offsets[i + 1] = wild_moves_into(hands[i], wilds[i], rules, lasts[i], none)
    return offsets


@kernel
def wild_batch_offsets(hands, lasts, wilds, rules, offsets):
    """Fill ``offsets`` (``int64[n + 1]``) for the packed ``hands`` (``uint64[n]``) answering
    the records ``lasts`` (``uint64[n, 2]``, PASS rows lead) with the wild-rank bit masks
    ``wilds`` (``int64[n]``): hand i's moves will be ``moves[offsets[i]:offsets[i + 1]]``.
    Returns the total, ``offsets[n]``."""
    n = hands.shape[0]
    offsets[0] = 0
    _count(hands, lasts, wilds, rules, offsets)
    for i in range(n):
        offsets[i + 1] += offsets[i]
    return offsets[n]


@parallel_kernel
def _fill(hands, lasts, wilds, rules, offsets, moves):
    for i in prange(hands.shape[0]):
        wild_moves_into(hands[i], wilds[i], rules, lasts[i], moves[offsets[i]:offsets[i + 1]])
    return moves


@nrt_kernel
def wild_fill_batch(hands, lasts, wilds, rules, offsets, moves):
    """Write every hand's moves (records with their bomb class) at the ``offsets``
    :func:`wild_batch_offsets` gave; returns ``moves``."""
    return _fill(hands, lasts, wilds, rules, offsets, moves)


@kernel
def wild_first_invalid(records, wilds, rules):
    """Index of the first record that is neither a pass ``[0, 0]`` nor a move under
    ``rules`` with the wild ranks ``wilds[i]`` (cards the deck holds, read as its kind, rank,
    length and bomb class); -1 if none."""
    out = np.empty((WILD_SCRATCH, WILD_WIDTH), np.uint64)
    table = np.empty((WILD_SCRATCH, WILD_WIDTH), np.uint64)
    recs = np.empty((WILD_SCRATCH, REC_WIDTH), np.uint64)
    for i in range(records.shape[0]):
        info = records[i, REC_INFO]
        if info == 0 and records[i, REC_CARDS] == 0:
            continue
        # no readings (0) for cards beyond the deck
        n = wild_readings_into(records[i, REC_CARDS], wilds[i], rules, out, table, recs)
        found = False
        for j in range(min(n, WILD_SCRATCH)):
            found = found or out[j, 1] == info
        if not found:
            return i
    return -1
