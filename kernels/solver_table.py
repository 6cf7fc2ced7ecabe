"""The solver's transposition table: ``(keys, values)``, full keys of ``width`` words and a
``uint8`` value each (the result in the low 2 bits, the subtree's weight above them; 0 a
free slot), probed in windows of ``PROBES`` slots. It stores the full key of every entry, so
a hash collision can never change an answer; it is bounded and replaces the entries that
took the fewest nodes.
"""

import numpy as np

from fastdou.kernels.jit import leaf, nrt_kernel

PROBES = 4          # table slots tried per key


@nrt_kernel
def new_table(size_pow2, width):
    """A transposition table of ``size_pow2`` entries for keys of ``width`` words."""
    return np.zeros((size_pow2, width), np.uint64), np.zeros(size_pow2, np.uint8)


@leaf
def _holds(keys, i, key, width):
    """Whether slot ``i`` of the table holds ``key`` (all ``width`` words)."""
    for w in range(width):
        if keys[i, w] != key[w]:
            return False
    return True


@leaf
def _probe(keys, vals, key, width, h):
    """The stored value of ``key`` (1 loss, 2 win for the side to act) or 0.

    A table value holds the result in its low 2 bits and the subtree's weight (the bit
    length of the nodes it took) above them; 0 marks a free slot."""
    mask = keys.shape[0] - 1
    i = np.int64(np.uint64(h) & np.uint64(mask))
    for _ in range(PROBES):
        if vals[i] == 0:
            return 0
        if _holds(keys, i, key, width):
            return np.int64(vals[i] & 3)
        i = (i + 1) & mask
    return 0


@leaf
def _store(keys, vals, key, width, h, value, nodes):
    """Store ``value`` for ``key`` (found after ``nodes`` nodes): in its own or a free slot
    of its window, else over the entry of the window that took the fewest nodes."""
    mask = keys.shape[0] - 1
    i = np.int64(np.uint64(h) & np.uint64(mask))
    weight = 0
    while nodes > 0 and weight < 63:
        nodes >>= 1
        weight += 1
    pick = -1
    light = 1 << 10
    for _ in range(PROBES):
        if vals[i] == 0:
            pick = i
            break
        if _holds(keys, i, key, width):
            pick = i
            break
        if (vals[i] >> 2) <= light:
            light = vals[i] >> 2
            pick = i
        i = (i + 1) & mask
    for w in range(width):
        keys[pick, w] = key[w]
    vals[pick] = value | (weight << 2)
