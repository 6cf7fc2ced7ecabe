"""The exact solver, perft and min_plays, over the position arrays of :mod:`.search`.

Solver: negamax on win / loss for the side to act (the landlord side against the rest; a
teammate's turn keeps the sign). Each node probes a transposition table that stores the full
key of every entry (so a hash collision can never change an answer; the table is bounded and
replaces entries), then generates its actions, wins at once if one of them is the whole hand,
else tries them best-first and stops at the first win. ``ctl`` carries the
counters and limits (``C_*``); a search stopped by a limit returns -1 and stores nothing
from the unfinished subtree, so every stored result is exact.

Move buffers: a node writes its actions into ``buf[base:base + n]`` and its children write
after them; a full buffer grows into a larger copy. Buffers have ``BUF_WIDTH`` columns: the
record and an ordering score. Every search here runs on an explicit stack, not recursion:
recursive kernels loaded from Numba's disk cache crashed the interpreter (seen with
numba 0.68), and an explicit stack also cannot overflow.
"""

import numpy as np
from numba import prange

from fastdou.kernels.generate import bomb_power
from fastdou.kernels.jit import kernel, nogil_kernel, parallel_nogil_kernel
from fastdou.kernels.moves import kind_of, leading_moves, rank_of, readings
from fastdou.kernels.packing import count, size
from fastdou.kernels.search import (
    S_HANDS, S_HASH, S_SEATS, S_TO_MOVE, UNDO_SIZE, actions, count_actions, hand_of, is_terminal,
    key_width, make, side_of, unmake, write_key,
)

C_NODES = 0
C_MAX_NODES = 1     # 0: no limit
C_STOP = 2          # set non-zero (by a timer) to stop the search
C_ABORTED = 3
C_STORES = 4
C_HITS = 5
CTL_SIZE = 8

BUF_WIDTH = 3       # cards, info, ordering score
PROBES = 4          # table slots tried per key
_POLL = 1023        # the stop flag is read every 1024 nodes
_MIN_ROOM = 64


@kernel
def new_buffer(rows):
    """A move buffer for the search kernels."""
    return np.zeros((rows, BUF_WIDTH), np.uint64)


@kernel
def new_table(size_pow2, width):
    """A transposition table of ``size_pow2`` entries for keys of ``width`` words."""
    return np.zeros((size_pow2, width), np.uint64), np.zeros(size_pow2, np.uint8)


@kernel
def _holds(keys, i, key, width):
    """Whether slot ``i`` of the table holds ``key`` (all ``width`` words)."""
    for w in range(width):
        if keys[i, w] != key[w]:
            return False
    return True


@kernel
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


@kernel
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


@kernel
def _grow(buf, used, need):
    """``buf``, or a larger copy of its first ``used`` rows, with ``need`` free rows."""
    if used + need <= buf.shape[0]:
        return buf
    bigger = new_buffer(max(2 * buf.shape[0], 2 * (used + need)))
    bigger[:used] = buf[:used]
    return bigger


@kernel
def new_memo():
    """A min_plays workspace: (keys, values, move buffer, frames); see :func:`min_plays`."""
    return (np.zeros(1 << 18, np.uint64), np.zeros(1 << 18, np.int64), new_buffer(1 << 12),
            np.zeros((64, 6), np.int64))


@kernel
def _memo_slot(keys, hand):
    return np.int64((hand * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)) & (keys.shape[0] - 1)


@kernel
def _min_plays(hand, rules, memo):
    """min_plays with an explicit stack: some move holds the lowest rank present, so try
    only those. Returns (plays, the workspace's move buffer, possibly grown)."""
    keys, vals, buf, frames = memo
    # frame columns: hand, base, n, next index, best, lowest rank
    ply = 0
    frames[0, 0] = np.int64(hand)
    frames[0, 1] = 0
    entering = True
    result = 0
    while True:
        if entering:
            h = np.uint64(frames[ply, 0])
            slot = _memo_slot(keys, h)
            if h == 0:
                result = 0
                entering = False
            elif keys[slot] == h:
                result = vals[slot]
                entering = False
            elif readings(h, rules, buf[:0]) > 0:
                result = 1
                entering = False
            else:
                base = frames[ply, 1]
                n = leading_moves(h, rules, buf[base:])
                if base + n > buf.shape[0]:
                    buf = _grow(buf, base, n)
                    leading_moves(h, rules, buf[base:])
                low = 0
                while count(h, low) == 0:
                    low += 1
                frames[ply, 2] = n
                frames[ply, 3] = 0
                frames[ply, 4] = 1 << 30
                frames[ply, 5] = low
        if not entering:
            if ply == 0:
                return result, buf
            ply -= 1
            v = 1 + result
            if v < frames[ply, 4]:
                frames[ply, 4] = v
            frames[ply, 3] += 1
            if frames[ply, 4] == 2:              # 1 was ruled out on entering
                frames[ply, 3] = frames[ply, 2]
        # advance the frame at ply to its next move holding the lowest rank
        base = frames[ply, 1]
        n = frames[ply, 2]
        i = frames[ply, 3]
        low = frames[ply, 5]
        while i < n and count(buf[base + i, 0], low) == 0:
            i += 1
        frames[ply, 3] = i
        if i == n:
            h = np.uint64(frames[ply, 0])
            result = frames[ply, 4]
            slot = _memo_slot(keys, h)
            keys[slot] = h
            vals[slot] = result
            entering = False
            continue
        frames[ply + 1, 0] = np.int64(np.uint64(frames[ply, 0]) - buf[base + i, 0])
        frames[ply + 1, 1] = base + n
        ply += 1
        entering = True


@kernel
def _order(buf, base, n, rules, hand, memo):
    """Sort the actions ``buf[base:base + n]`` of ``hand`` best first; ties keep generator
    order. Score: fewest plays left afterwards (:func:`min_plays` of the rest; a pass
    leaves the hand), then most cards; bombs after every other action."""
    if n <= 1:
        return memo
    keys, vals, mbuf, frames = memo
    for i in range(base, base + n):
        cards = buf[i, 0]
        info = buf[i, 1]
        if info == 0:
            left, mbuf = _min_plays(hand, rules, (keys, vals, mbuf, frames))
            score = (1 << 11) + 64 * (32 - left)
        else:
            left, mbuf = _min_plays(hand - cards, rules, (keys, vals, mbuf, frames))
            score = 64 * (32 - left) + size(cards)
            if bomb_power(cards, kind_of(info), rank_of(info), rules) < 0:
                score += 1 << 11
        buf[i, 2] = np.uint64(score)
    for i in range(base + 1, base + n):
        c0 = buf[i, 0]
        c1 = buf[i, 1]
        c2 = buf[i, 2]
        j = i - 1
        while j >= base and buf[j, 2] < c2:
            buf[j + 1, 0] = buf[j, 0]
            buf[j + 1, 1] = buf[j, 1]
            buf[j + 1, 2] = buf[j, 2]
            j -= 1
        buf[j + 1, 0] = c0
        buf[j + 1, 1] = c1
        buf[j + 1, 2] = c2
    return (keys, vals, mbuf, frames)


@kernel
def _fill(pos, rules, buf, base):
    """Write the actions of ``pos`` at ``buf[base:]``, growing the buffer (a copy) if they
    do not fit. Returns (buffer, n)."""
    n = actions(pos, rules, buf[base:])
    if base + n + _MIN_ROOM > buf.shape[0]:
        buf = _grow(buf, base, n + _MIN_ROOM)
        actions(pos, rules, buf[base:])
    return buf, n


@kernel
def _stopped(ctl):
    nodes = ctl[C_NODES]
    if ctl[C_MAX_NODES] > 0 and nodes > ctl[C_MAX_NODES]:
        ctl[C_ABORTED] = 1
    elif (nodes & _POLL) == 0 and ctl[C_STOP] != 0:
        ctl[C_ABORTED] = 1
    return ctl[C_ABORTED] != 0


@kernel
def search(pos, rules, table, work, ctl):
    """1 if the side to act in ``pos`` wins, 0 if it loses, -1 if a limit stopped it;
    ``pos`` is restored. Iterative (an explicit stack), so it caches and never overflows.

    ``table``: (keys, values) from :func:`new_table`; ``work``: :func:`new_work`; ``ctl``:
    counters and limits (``C_*``). Returns (result, work) (buffers may have grown)."""
    keys, vals = table
    buf, undo, frames, key, memo = work
    width = key_width(pos)
    # frame columns: base, n, next index, side to act, node count on entering
    ply = 0
    frames[0, 0] = 0
    entering = True
    result = 0
    while True:
        if entering:
            ctl[C_NODES] += 1
            if _stopped(ctl):
                for p in range(ply - 1, -1, -1):
                    unmake(pos, buf[frames[p, 0] + frames[p, 2]], undo[p])
                return -1, (buf, undo, frames, key, memo)
            base = frames[ply, 0]
            write_key(pos, key)
            v = _probe(keys, vals, key, width, pos[S_HASH])
            if v != 0:
                ctl[C_HITS] += 1
                result = v - 1
                entering = False
            else:
                buf, n = _fill(pos, rules, buf, base)
                hand = hand_of(pos, pos[S_TO_MOVE])
                for i in range(base, base + n):
                    if buf[i, 0] == hand and buf[i, 1] != 0:   # the whole hand: a win
                        result = 1
                        entering = False
                        break
                if entering:
                    memo = _order(buf, base, n, rules, hand, memo)
                    frames[ply, 4] = ctl[C_NODES]
                    frames[ply, 1] = n
                    frames[ply, 2] = 0
                    frames[ply, 3] = side_of(pos, pos[S_TO_MOVE])
        if not entering:
            if ply == 0:
                return result, (buf, undo, frames, key, memo)
            ply -= 1
            child = side_of(pos, pos[S_TO_MOVE])
            unmake(pos, buf[frames[ply, 0] + frames[ply, 2]], undo[ply])
            if (result == 1) == (child == frames[ply, 3]):
                result = 1
                write_key(pos, key)
                _store(keys, vals, key, width, pos[S_HASH], 2, ctl[C_NODES] - frames[ply, 4])
                ctl[C_STORES] += 1
                continue
            frames[ply, 2] += 1
        if frames[ply, 2] == frames[ply, 1]:
            result = 0
            write_key(pos, key)
            _store(keys, vals, key, width, pos[S_HASH], 1, ctl[C_NODES] - frames[ply, 4])
            ctl[C_STORES] += 1
            entering = False
            continue
        make(pos, buf[frames[ply, 0] + frames[ply, 2]], undo[ply])
        frames[ply + 1, 0] = frames[ply, 0] + frames[ply, 1]
        ply += 1
        entering = True


@kernel
def _depth_bound(pos):
    """Most plies a game from ``pos`` can last: each play takes a card, and at most
    seats - 1 passes come between two plays."""
    n = pos[S_SEATS]
    cards = 0
    for s in range(n):
        cards += size(np.uint64(pos[S_HANDS + s]))
    return cards * n + n + 2


@kernel
def new_work(pos):
    """Search workspace for positions like ``pos``: (move buffer, undo stack, frames, key
    scratch, min_plays memo)."""
    depth = _depth_bound(pos)
    return (new_buffer(1 << 14), np.zeros((depth, UNDO_SIZE), np.int64),
            np.zeros((depth, 5), np.int64), np.zeros(key_width(pos), np.uint64), new_memo())


@kernel
def action_value(pos, rules, move, table, work, ctl):
    """1 if the action ``move`` wins for the side to act, 0 if it loses, -1 if a limit
    stopped it; returns (value, work)."""
    buf, undo, frames, key, memo = work
    me = side_of(pos, pos[S_TO_MOVE])
    root = np.zeros(UNDO_SIZE, np.int64)
    make(pos, move, root)
    if is_terminal(pos):
        r = 1
    else:
        child = side_of(pos, pos[S_TO_MOVE])
        r, work = search(pos, rules, table, work, ctl)
        if r >= 0 and child != me:
            r = 1 - r
    unmake(pos, move, root)
    return r, work


@nogil_kernel
def solve_root(pos, rules, moves, keys, vals, ctl, results, work):
    """Value of each root action ``moves[i]`` for the side to act (1 win, 0 loss) in
    ``results``; -1 where a limit stopped the search (then the rest are not tried).
    ``work``: :func:`new_work` (reuse it for :func:`principal_line`: a warm memo)."""
    results[:] = -1
    for i in range(moves.shape[0]):
        r, work = action_value(pos, rules, moves[i], (keys, vals), work, ctl)
        results[i] = r
        if r < 0:
            break


@parallel_nogil_kernel
def solve_root_parallel(pos, rules, moves, keys, vals, ctls, results):
    """:func:`solve_root` on ``keys.shape[0]`` threads: thread g takes the root actions
    i = g mod threads with its own table ``keys[g]`` / ``vals[g]`` and counters ``ctls[g]``
    (so results and node counts do not depend on scheduling)."""
    groups = keys.shape[0]
    results[:] = -1
    for g in prange(groups):
        p = pos.copy()
        work = new_work(p)
        for i in range(g, moves.shape[0], groups):
            r, work = action_value(p, rules, moves[i], (keys[g], vals[g]), work, ctls[g])
            results[i] = r
            if r < 0:
                break


@nogil_kernel
def principal_line(pos, rules, keys, vals, ctl, out, work):
    """Play out a principal variation from ``pos`` into ``out`` (records): the side to act
    plays its first winning action in search order, a losing side its first action. Returns
    the number of plies, or -1 if a limit stopped it. ``pos`` is left unchanged."""
    line_undo = np.zeros((out.shape[0], UNDO_SIZE), np.int64)
    plies = 0
    stopped = False
    while not is_terminal(pos) and plies < out.shape[0]:
        mine, n = _fill(pos, rules, new_buffer(1 << 10), 0)
        memo = _order(mine, 0, n, rules, hand_of(pos, pos[S_TO_MOVE]), work[4])
        work = (work[0], work[1], work[2], work[3], memo)
        pick = 0
        for i in range(n):
            r, work = action_value(pos, rules, mine[i], (keys, vals), work, ctl)
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


# ------------------------------------------------------------------------------- perft
@kernel
def _perft(pos, rules, depth, buf):
    """perft with an explicit stack; returns (count, buffer)."""
    undo = np.zeros((depth + 1, UNDO_SIZE), np.int64)
    frames = np.zeros((depth + 1, 3), np.int64)     # base, n, next index
    total = 0
    if depth == 1:
        return count_actions(pos, rules), buf
    ply = 0
    buf, n = _fill(pos, rules, buf, 0)
    frames[0, 0] = 0
    frames[0, 1] = n
    frames[0, 2] = 0
    while True:
        i = frames[ply, 2]
        if i == frames[ply, 1]:
            if ply == 0:
                return total, buf
            ply -= 1
            unmake(pos, buf[frames[ply, 0] + frames[ply, 2]], undo[ply])
            frames[ply, 2] += 1
            continue
        mv = buf[frames[ply, 0] + i]
        make(pos, mv, undo[ply])
        left = depth - ply - 1                      # plies still to count below this move
        if is_terminal(pos):
            unmake(pos, mv, undo[ply])
            frames[ply, 2] += 1
        elif left == 1:
            total += count_actions(pos, rules)
            unmake(pos, mv, undo[ply])
            frames[ply, 2] += 1
        else:
            base = frames[ply, 0] + frames[ply, 1]
            buf, n = _fill(pos, rules, buf, base)
            ply += 1
            frames[ply, 0] = base
            frames[ply, 1] = n
            frames[ply, 2] = 0


@nogil_kernel
def perft(pos, rules, depth):
    """The number of action sequences of length ``depth`` (>= 1) from ``pos``; a move that
    ends the game has no successors. The last ply is counted without building moves."""
    total, _ = _perft(pos, rules, depth, new_buffer(1 << 14))
    return total


@nogil_kernel
def perft_divide(pos, rules, depth, moves, out):
    """``out[i]``: perft of the position after root action ``moves[i]`` (``depth`` counts
    the root action; a game-ending action counts 1 at depth 1, else 0)."""
    undo = np.zeros(UNDO_SIZE, np.int64)
    buf = new_buffer(1 << 14)
    for i in range(moves.shape[0]):
        make(pos, moves[i], undo)
        if depth == 1:
            out[i] = 1
        elif is_terminal(pos):
            out[i] = 0
        else:
            out[i], buf = _perft(pos, rules, depth - 1, buf)
        unmake(pos, moves[i], undo)
    return out


# ---------------------------------------------------------------------------- min_plays
@kernel
def min_plays(hand, rules):
    """The least number of plays that empty packed ``hand`` when nobody answers (leading
    every time): a partition of the hand into legal moves of fewest parts."""
    plays, _ = _min_plays(np.uint64(hand), rules, new_memo())
    return plays
