"""perft: the number of action sequences of a given length from a position, on an explicit
stack (see :mod:`.solver`); :func:`perft_until` and :func:`perft_divide` stop when another
thread sets a flag. Under wild cards :func:`wild_perft_until` and :func:`wild_perft_divide`
count over the position's wild ranks (``S_WILDS``), compiled apart.
"""

import numpy as np

from fastdou.kernels.jit import inline_nrt_kernel, nogil_kernel, nrt_kernel
from fastdou.kernels.search import UNDO_SIZE, count_actions, is_terminal, make, unmake
from fastdou.kernels.solver import _POLL
from fastdou.kernels.solver_buffers import _fill, new_buffer

# columns of a perft frame
PF_BASE = 0         # first row of the ply's actions in the move buffer
PF_COUNT = 1        # how many actions it has
PF_NEXT = 2         # index of the action being counted
PF_WIDTH = 3


@nrt_kernel
def _perft(pos, rules, depth, buf, stop, wild=None):
    """perft with an explicit stack; returns (count, buffer), the count -1 once
    ``stop[0]`` is non-zero (read every 1024 steps). ``wild``: as in ``search.actions``."""
    undo = np.zeros((depth + 1, UNDO_SIZE), np.int64)
    frames = np.zeros((depth + 1, PF_WIDTH), np.int64)
    total = 0
    if depth == 1:
        return count_actions(pos, rules, wild), buf
    ply = 0
    steps = 0
    buf, n = _fill(pos, rules, buf, 0, wild)
    frames[0, PF_BASE] = 0
    frames[0, PF_COUNT] = n
    frames[0, PF_NEXT] = 0
    while True:
        steps += 1
        if (steps & _POLL) == 0 and stop[0] != 0:
            while ply > 0:                          # leave ``pos`` as it was given
                ply -= 1
                unmake(pos, buf[frames[ply, PF_BASE] + frames[ply, PF_NEXT]], undo[ply])
            return -1, buf
        i = frames[ply, PF_NEXT]
        if i == frames[ply, PF_COUNT]:
            if ply == 0:
                return total, buf
            ply -= 1
            unmake(pos, buf[frames[ply, PF_BASE] + frames[ply, PF_NEXT]], undo[ply])
            frames[ply, PF_NEXT] += 1
            continue
        mv = buf[frames[ply, PF_BASE] + i]
        make(pos, mv, undo[ply])
        left = depth - ply - 1                      # plies still to count below this move
        if is_terminal(pos):
            unmake(pos, mv, undo[ply])
            frames[ply, PF_NEXT] += 1
        elif left == 1:
            total += count_actions(pos, rules, wild)
            unmake(pos, mv, undo[ply])
            frames[ply, PF_NEXT] += 1
        else:
            base = frames[ply, PF_BASE] + frames[ply, PF_COUNT]
            buf, n = _fill(pos, rules, buf, base, wild)
            ply += 1
            frames[ply, PF_BASE] = base
            frames[ply, PF_COUNT] = n
            frames[ply, PF_NEXT] = 0


@nogil_kernel
def perft(pos, rules, depth):
    """The number of action sequences of length ``depth`` (>= 1) from ``pos``; a move that
    ends the game has no successors. The last ply is counted without building moves."""
    return perft_until(pos, rules, depth, np.zeros(1, np.int64))


@nogil_kernel
def perft_until(pos, rules, depth, stop):
    """:func:`perft`, or -1 once another thread sets ``stop[0]`` (``int64[1]``)."""
    total, _ = _perft(pos, rules, depth, new_buffer(1 << 14), stop)
    return total


@nogil_kernel
def wild_perft_until(pos, rules, depth, stop):
    """:func:`perft_until` under the wild ranks of ``pos`` (rules with wild cards)."""
    total, _ = _perft(pos, rules, depth, new_buffer(1 << 14), stop, True)
    return total


@nogil_kernel
def perft_divide(pos, rules, depth, moves, out, stop):
    """``out[i]``: perft of the position after root action ``moves[i]`` (``depth`` counts
    the root action; a game-ending action counts 1 at depth 1, else 0); -1 from the action
    where another thread set ``stop[0]`` on."""
    return _divide(pos, rules, depth, moves, out, stop, None)


@nogil_kernel
def wild_perft_divide(pos, rules, depth, moves, out, stop):
    """:func:`perft_divide` under the wild ranks of ``pos`` (rules with wild cards)."""
    return _divide(pos, rules, depth, moves, out, stop, True)


@inline_nrt_kernel
def _divide(pos, rules, depth, moves, out, stop, wild):
    """:func:`perft_divide`'s body (``wild``: as in ``search.actions``)."""
    undo = np.zeros(UNDO_SIZE, np.int64)
    buf = new_buffer(1 << 14)
    out[:] = -1
    for i in range(moves.shape[0]):
        make(pos, moves[i], undo)
        if depth == 1:
            out[i] = 1
        elif is_terminal(pos):
            out[i] = 0
        else:
            out[i], buf = _perft(pos, rules, depth - 1, buf, stop, wild)
        unmake(pos, moves[i], undo)
        if out[i] < 0:
            break
    return out
