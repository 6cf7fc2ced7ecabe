"""The exact solver over the position arrays of :mod:`.search`: the search and its roots.

Solver: negamax on win / loss for the side to act (the landlord side against the rest; a
teammate's turn keeps the sign). Each node probes a transposition table that stores the full
key of every entry (:mod:`.solver_table`; so a hash collision can never change an answer;
the table is bounded and replaces entries), then generates its actions and wins at once if
one of them is the whole hand or if its side keeps control (:mod:`.solver_control`: moves
nobody on the other side can answer, then one last move). Otherwise it drops the actions
after which the next seat, of the other side, goes out at once
(:func:`.solver_control._drop_lost`), tries the rest best-first (:mod:`.solver_order`) and
stops at the first win. Every shortcut proves what it skips, so results stay exact. ``ctl``
carries the counters and limits (``C_*``); a search stopped by a limit returns -1 and
stores nothing from the unfinished subtree, so every stored result is exact.

Move buffers: see :mod:`.solver_buffers`. The search loop (:func:`_run`) never allocates, so
it is compiled without reference counting; it returns to :func:`search` when a buffer must
grow. Every search here (and min_plays in :mod:`.fewest_plays`, perft in
:mod:`.perft_count`) runs on an explicit stack, not recursion: recursive kernels loaded from
Numba's disk cache crashed the interpreter (seen with numba 0.68), and an explicit stack
also cannot overflow.

Wild cards: every kernel here takes ``wild`` last (None, the default, prunes the wild-card
code; a literal True searches under the position's wild ranks ``S_WILDS``). The moves are then
the wild-card generator's; the control check and the dropped answers, written for classic
moves, are skipped (each only skips work it proves, so the search without them is as exact);
the ordering keeps its classic min_plays, a heuristic there.
"""

import numpy as np
from numba import prange

from fastdou.kernels.fewest_plays import M_KEYS, M_VALS, new_memo
from fastdou.kernels.jit import (
    inline_kernel, kernel, leaf, nogil_kernel, nrt_kernel, parallel_nogil_kernel,
)
from fastdou.kernels.moves import actions_of_play
from fastdou.kernels.packing import size
from fastdou.kernels.search import (
    S_HANDS, S_HASH, S_LAST_CARDS, S_LAST_INFO, S_SEATS, S_TO_MOVE, S_WILDS, UNDO_SIZE,
    hand_of, is_terminal, key_width, make, put_key, side_of, unmake,
)
from fastdou.kernels.solver_buffers import _MIN_ROOM, _fill, _grow, new_buffer
from fastdou.kernels.solver_control import CW_SCRATCH, _control, _drop_lost, new_control
from fastdou.kernels.solver_order import _fill_left, _lookup_left, _order, _sort
from fastdou.kernels.solver_table import _probe, _store
from fastdou.kernels.wild_moves import wild_actions_of_play

C_NODES = 0
C_MAX_NODES = 1     # 0: no limit
C_STOP = 2          # set non-zero (by a timer) to stop the search
C_ABORTED = 3
C_STORES = 4
C_HITS = 5
CTL_SIZE = 8

# the parts of the search workspace (:func:`new_work`)
W_BUF = 0           # the move buffer (grows)
W_UNDO = 1          # the undo stack, a row per ply
W_FRAMES = 2        # the explicit stack, a row per ply (``F_*`` columns)
W_KEY = 3           # scratch for a position's full key
W_MEMO = 4          # the min_plays memo (:func:`.fewest_plays.new_memo`)
W_CONTROL = 5       # the control check's workspace (:func:`.solver_control.new_control`)

# columns of a search frame (a node on the explicit stack)
F_BASE = 0          # first row of its actions in the move buffer
F_COUNT = 1         # how many actions it has (after the lost ones are dropped)
F_NEXT = 2          # index of the action being tried
F_SIDE = 3          # the side to act there
F_NODES = 4         # ctl[C_NODES] as its actions start (the nodes since weigh its result)
FRAME_WIDTH = 5

_POLL = 1023        # the stop flag is read every 1024 nodes


@leaf
def _gen(pos, rules, buf, base, wild):
    """Write the actions of ``pos`` (in play) at ``buf[base:]``: :func:`.search.actions`
    one call shallower. Returns how many there are (as many as fit are written: grow the
    buffer and call again if they do not fit)."""
    last = pos.view(np.uint64)[S_LAST_CARDS:S_LAST_INFO + 1]
    if wild is None:
        return actions_of_play(hand_of(pos, pos[S_TO_MOVE]), last, rules, buf[base:])
    return wild_actions_of_play(hand_of(pos, pos[S_TO_MOVE]), pos[S_WILDS], last, rules,
                                buf[base:])


@leaf
def _stopped(ctl):
    nodes = ctl[C_NODES]
    if ctl[C_MAX_NODES] > 0 and nodes > ctl[C_MAX_NODES]:
        ctl[C_ABORTED] = 1
    elif (nodes & _POLL) == 0 and ctl[C_STOP] != 0:
        ctl[C_ABORTED] = 1
    return ctl[C_ABORTED] != 0


@leaf
def _make_at(pos, buf, i, undo, ply):
    make(pos, buf[i], undo[ply])


@leaf
def _unmake_at(pos, buf, i, undo, ply):
    unmake(pos, buf[i], undo[ply])


# the steps of a node in :func:`_run`, and the requests it returns to :func:`search`
_ENTER, _GEN, _CONTROL, _LOOKUP, _SORT, _RETURN, _NEXT = 0, 1, 2, 3, 4, 5, 6
_DONE, _GROW_GEN, _GROW_CONTROL, _MISSES = 7, 8, 9, 10
# typed int64, not as literals: a literal argument compiles a callee once more
_ZERO, _LOSS, _WIN = np.int64(0), np.int64(1), np.int64(2)


@leaf
def _run(pos, rules, table, work, ctl, width, step, ply, result, n, hand, wild):
    """The search loop of :func:`search` from ``step`` at ``ply`` (``table``, ``work`` and
    ``ctl`` as there; ``width``: the key's words). It never allocates (so it runs without
    reference counting): when it needs a larger buffer or a min_plays the memo lacks, it
    returns a request (``_GROW_GEN``, ``_GROW_CONTROL``, ``_MISSES``) with its state, and
    :func:`search` serves it and resumes. Returns (step, ply, result, n, rows needed, hand);
    ``_DONE`` with the result (-1: a limit stopped it, ``pos`` restored)."""
    keys, vals = table
    buf, undo, frames, key, memo, control = work
    mkeys, mvals = memo[M_KEYS], memo[M_VALS]
    while True:
        if step == _ENTER:
            ctl[C_NODES] += 1
            if _stopped(ctl):
                for p in range(ply - 1, -1, -1):
                    _unmake_at(pos, buf, frames[p, F_BASE] + frames[p, F_NEXT], undo, p)
                return _DONE, 0, -1, n, 0, hand
            put_key(pos, key)
            v = _probe(keys, vals, key, width, pos[S_HASH])
            if v != 0:
                ctl[C_HITS] += 1
                result = v - 1
                step = _RETURN
            else:
                step = _GEN
        if step == _GEN:
            base = frames[ply, F_BASE]
            n = _gen(pos, rules, buf, base, wild)
            if base + n + _MIN_ROOM > buf.shape[0]:
                return _GROW_GEN, ply, result, n, n, hand
            hand = hand_of(pos, pos[S_TO_MOVE])
            step = _CONTROL
            for i in range(base, base + n):
                if buf[i, 0] == hand and buf[i, 1] != 0:       # the whole hand: a win
                    result = 1
                    step = _RETURN
                    break
        if step == _CONTROL:
            c = _ZERO
            if wild is None:                   # written for classic moves (module docstring)
                c = _control(pos, rules, buf, frames[ply, F_BASE], n, control)
            if c < 0:
                return _GROW_CONTROL, ply, result, n, -c, hand
            if c == 1:
                result = 1
                step = _RETURN
            else:
                if wild is None:
                    n = _drop_lost(pos, rules, buf, frames[ply, F_BASE], n,
                                   control[CW_SCRATCH], mkeys, mvals)
                step = _LOOKUP
        if step == _LOOKUP:
            if _lookup_left(buf, frames[ply, F_BASE], n, hand, mkeys, mvals) > 0:
                return _MISSES, ply, result, n, 0, hand
            step = _SORT
        if step == _SORT:
            _sort(buf, frames[ply, F_BASE], n)
            frames[ply, F_NODES] = ctl[C_NODES]
            frames[ply, F_COUNT] = n
            frames[ply, F_NEXT] = 0
            frames[ply, F_SIDE] = side_of(pos, pos[S_TO_MOVE])
            step = _NEXT
        if step == _RETURN:
            if ply == 0:
                return _DONE, 0, result, n, 0, hand
            ply -= 1
            child = side_of(pos, pos[S_TO_MOVE])
            _unmake_at(pos, buf, frames[ply, F_BASE] + frames[ply, F_NEXT], undo, ply)
            if (result == 1) == (child == frames[ply, F_SIDE]):
                result = 1
                put_key(pos, key)
                _store(keys, vals, key, width, pos[S_HASH], _WIN,
                       ctl[C_NODES] - frames[ply, F_NODES])
                ctl[C_STORES] += 1
                continue
            frames[ply, F_NEXT] += 1
            step = _NEXT
        if step == _NEXT:
            if frames[ply, F_NEXT] == frames[ply, F_COUNT]:
                result = 0
                put_key(pos, key)
                _store(keys, vals, key, width, pos[S_HASH], _LOSS,
                       ctl[C_NODES] - frames[ply, F_NODES])
                ctl[C_STORES] += 1
                step = _RETURN
                continue
            _make_at(pos, buf, frames[ply, F_BASE] + frames[ply, F_NEXT], undo, ply)
            frames[ply + 1, F_BASE] = frames[ply, F_BASE] + frames[ply, F_COUNT]
            ply += 1
            step = _ENTER


@nrt_kernel
def search(pos, rules, table, work, ctl, wild=None):
    """1 if the side to act in ``pos`` wins, 0 if it loses, -1 if a limit stopped it;
    ``pos`` is restored. Iterative (an explicit stack), so it caches and never overflows.

    ``table``: (keys, values) from :func:`new_table`; ``work``: :func:`new_work`; ``ctl``:
    counters and limits (``C_*``). Returns (result, work) (buffers may have grown).

    Each node probes the table, lists its actions, wins at once if one is the whole hand
    or if it keeps control (:func:`_control`), else tries them best first (:func:`_sort`).
    The loop runs in :func:`_run`; this serves its requests for memory and min_plays."""
    buf, undo, frames, key, memo, control = work
    width = key_width(pos)
    frames[0, F_BASE] = 0
    step, ply, result, n, need, hand = np.int64(_ENTER), _ZERO, _ZERO, _ZERO, _ZERO, np.uint64(0)
    while True:
        if step == _GROW_GEN:
            buf = _grow(buf, frames[ply, F_BASE], need + _MIN_ROOM)
            step = _GEN
        elif step == _GROW_CONTROL:
            buf = _grow(buf, frames[ply, F_BASE] + n, need + _MIN_ROOM)
            step = _CONTROL
        elif step == _MISSES:
            memo = _fill_left(buf, frames[ply, F_BASE], n, rules, hand, memo)
            step = _SORT
        step, ply, result, n, need, hand = _run(
            pos, rules, table, (buf, undo, frames, key, memo, control), ctl, width, step, ply,
            result, n, hand, wild)
        if step == _DONE:
            return result, (buf, undo, frames, key, memo, control)


@kernel
def _depth_bound(pos):
    """Most plies a game from ``pos`` can last: each play takes a card, and at most
    seats - 1 passes come between two plays."""
    n = pos[S_SEATS]
    cards = 0
    for s in range(n):
        cards += size(np.uint64(pos[S_HANDS + s]))
    return cards * n + n + 2


@nrt_kernel
def new_work(pos):
    """Search workspace for positions like ``pos`` (``W_*``): (move buffer, undo stack,
    frames, key scratch, min_plays memo, control-check workspace)."""
    depth = _depth_bound(pos)
    return (new_buffer(1 << 14), np.zeros((depth, UNDO_SIZE), np.int64),
            np.zeros((depth, FRAME_WIDTH), np.int64), np.zeros(key_width(pos), np.uint64),
            new_memo(), new_control(pos))


@inline_kernel
def _action_value(pos, rules, move, table, work, ctl, wild):
    """:func:`action_value`, inlined: a compiled call level less to optimize again."""
    me = side_of(pos, pos[S_TO_MOVE])
    root = np.zeros(UNDO_SIZE, np.int64)
    make(pos, move, root)
    if is_terminal(pos):
        r = 1
    else:
        child = side_of(pos, pos[S_TO_MOVE])
        r, work = search(pos, rules, table, work, ctl, wild)
        if r >= 0 and child != me:
            r = 1 - r
    unmake(pos, move, root)
    return r, work


@kernel
def action_value(pos, rules, move, table, work, ctl, wild=None):
    """1 if the action ``move`` wins for the side to act, 0 if it loses, -1 if a limit
    stopped it; returns (value, work)."""
    return _action_value(pos, rules, move, table, work, ctl, wild)


@nogil_kernel
def solve_root(pos, rules, moves, keys, vals, ctl, results, out, line_nodes, wild=None):
    """Value of each root action ``moves[i]`` for the side to act (1 win, 0 loss) in
    ``results``; -1 where a limit stopped the search (then the rest are not tried, and it
    returns -1). Then :func:`principal_line` into ``out`` (``line_nodes`` > 0: at most that
    many more nodes), in the same call (one compiled entry: the search is optimized and
    cached once); returns its plies."""
    results[:] = -1
    work = new_work(pos)
    for i in range(moves.shape[0]):
        r, work = _action_value(pos, rules, moves[i], (keys, vals), work, ctl, wild)
        results[i] = r
        if r < 0:
            return -1
    if line_nodes > 0:
        ctl[C_MAX_NODES] = ctl[C_NODES] + line_nodes
    return _line(pos, rules, keys, vals, ctl, out, work, wild)


@parallel_nogil_kernel
def solve_root_parallel(pos, rules, moves, keys, vals, ctls, results, wild=None):
    """:func:`solve_root` on ``keys.shape[0]`` threads: thread g takes the root actions
    i = g mod threads with its own table ``keys[g]`` / ``vals[g]`` and counters ``ctls[g]``
    (so results and node counts do not depend on scheduling)."""
    groups = keys.shape[0]
    results[:] = -1
    for g in prange(groups):
        p = pos.copy()
        work = new_work(p)
        for i in range(g, moves.shape[0], groups):
            r, work = action_value(p, rules, moves[i], (keys[g], vals[g]), work, ctls[g],
                                   wild)
            results[i] = r
            if r < 0:
                break


@inline_kernel
def _line(pos, rules, keys, vals, ctl, out, work, wild):
    """Play out a principal variation from ``pos`` into ``out`` (records): the side to act
    plays its first winning action in search order, a losing side its first action. Returns
    the number of plies, or -1 if a limit stopped it. ``pos`` is left unchanged."""
    line_undo = np.zeros((out.shape[0], UNDO_SIZE), np.int64)
    plies = 0
    stopped = False
    while not is_terminal(pos) and plies < out.shape[0]:
        mine, n = _fill(pos, rules, new_buffer(1 << 10), _ZERO, wild)
        memo = _order(mine, _ZERO, n, rules, hand_of(pos, pos[S_TO_MOVE]), work[W_MEMO])
        work = (work[W_BUF], work[W_UNDO], work[W_FRAMES], work[W_KEY], memo, work[W_CONTROL])
        pick = 0
        for i in range(n):
            r, work = _action_value(pos, rules, mine[i], (keys, vals), work, ctl, wild)
            if r < 0:
                stopped = True
                break
            if r == 1:
                pick = i
                break
        if stopped:
            break
        out[plies, 0] = mine[pick, 0]
        out[plies, 1] = mine[pick, 1]
        make(pos, out[plies], line_undo[plies])
        plies += 1
    for i in range(plies - 1, -1, -1):
        unmake(pos, out[i], line_undo[i])
    return -1 if stopped else plies


@nogil_kernel
def principal_line(pos, rules, keys, vals, ctl, out, work, wild=None):
    """:func:`_line` (after :func:`solve_root_parallel`; :func:`solve_root` plays it
    itself)."""
    return _line(pos, rules, keys, vals, ctl, out, work, wild)
