"""Packed count vectors: 15 ranks x 4 bits in one ``uint64`` (see ``layout``)."""

import numpy as np

from fastdou.kernels.jit import inline_kernel, kernel, nrt_kernel
from fastdou.kernels.layout import COUNT_BITS, COUNT_MASK, N_RANKS

_LOW_NIBBLES = np.uint64(0x0F0F0F0F0F0F0F0F)
_BYTE_SUM = np.uint64(0x0101010101010101)


@kernel
def count(packed, rank):
    """Copies of ``rank`` in a packed multiset."""
    return np.int64((np.uint64(packed) >> np.uint64(COUNT_BITS * rank)) & np.uint64(COUNT_MASK))


@inline_kernel
def unit(rank, copies):
    """The packed multiset holding ``copies`` cards of ``rank``."""
    return np.uint64(copies) << np.uint64(COUNT_BITS * rank)


@kernel
def size(packed):
    """Number of cards in a packed multiset (sum of its 15 nibbles)."""
    p = np.uint64(packed)
    bytes_ = (p & _LOW_NIBBLES) + ((p >> np.uint64(4)) & _LOW_NIBBLES)
    return np.int64((bytes_ * _BYTE_SUM) >> np.uint64(56))


@kernel
def contains(hand, cards):
    """Whether the packed multiset ``cards`` is part of ``hand`` (every count <= the hand's)."""
    h = np.uint64(hand)
    c = np.uint64(cards)
    for r in range(N_RANKS):
        shift = np.uint64(COUNT_BITS * r)
        if (c >> shift) & np.uint64(COUNT_MASK) > (h >> shift) & np.uint64(COUNT_MASK):
            return False
    return True


@kernel
def pack(counts):
    """Pack 15 counts (any integer array) into a ``uint64``."""
    p = np.uint64(0)
    for r in range(N_RANKS):
        p |= np.uint64(counts[r]) << np.uint64(COUNT_BITS * r)
    return p


@nrt_kernel
def unpack(packed, out):
    """Write the 15 counts of ``packed`` into ``out``; returns ``out``."""
    p = np.uint64(packed)
    for r in range(N_RANKS):
        out[r] = (p >> np.uint64(COUNT_BITS * r)) & np.uint64(COUNT_MASK)
    return out


@nrt_kernel
def pack_rows(counts, out):
    """Pack every row of a ``(n, 15)`` count array into ``out[n]``."""
    for i in range(counts.shape[0]):
        out[i] = pack(counts[i])
    return out


@nrt_kernel
def unpack_rows(packed, out):
    """Unpack ``packed[n]`` into the rows of a ``(n, 15)`` array."""
    for i in range(packed.shape[0]):
        unpack(packed[i], out[i])
    return out
