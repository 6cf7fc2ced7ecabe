"""Move buffers of the solver, min_plays and perft: ``uint64`` arrays of ``BUF_WIDTH``
columns (the record and an ordering score; the control check keeps its can-beat flags there
first). A node writes its actions into ``buf[base:base + n]`` and its children write after
them; a full buffer grows into a larger copy.
"""

import numpy as np

from fastdou.kernels.jit import inline_nrt_kernel, kernel, nrt_kernel
from fastdou.kernels.search import actions

BUF_WIDTH = 3       # cards, info, ordering score
_MIN_ROOM = 64


@inline_nrt_kernel
def new_buffer(rows):
    """A move buffer for the search kernels (inlined: no compile per literal size)."""
    return np.zeros((rows, BUF_WIDTH), np.uint64)


@nrt_kernel
def _grow(buf, used, need):
    """``buf``, or a larger copy of its first ``used`` rows, with ``need`` free rows."""
    if used + need <= buf.shape[0]:
        return buf
    bigger = new_buffer(max(2 * buf.shape[0], 2 * (used + need)))
    # element by element: a slice assignment compiles Numba's shape-mismatch message (4 s)
    for i in range(used):
        for j in range(BUF_WIDTH):
            bigger[i, j] = buf[i, j]
    return bigger


@kernel
def _fill(pos, rules, buf, base, wild=None):
    """Write the actions of ``pos`` at ``buf[base:]``, growing the buffer (a copy) if they
    do not fit. Returns (buffer, n). ``wild``: as in ``search.actions``."""
    n = actions(pos, rules, buf[base:], wild)
    if base + n + _MIN_ROOM > buf.shape[0]:
        buf = _grow(buf, base, n + _MIN_ROOM)
        actions(pos, rules, buf[base:], wild)
    return buf, n
