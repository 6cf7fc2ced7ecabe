"""The exact solver, perft and min_plays, over the position arrays of :mod:`.search`.

Solver: negamax on win / loss for the side to act (the landlord side against the rest; a
teammate's turn keeps the sign). Each node probes a transposition table that stores the full
key of every entry (so a hash collision can never change an answer; the table is bounded and
replaces entries), then generates its actions and wins at once if one of them is the whole
hand or if its side keeps control (:func:`_control`: moves nobody on the other side can
answer, then one last move). Otherwise it drops the actions after which the next seat, of
the other side, goes out at once (:func:`_drop_lost`), tries the rest best-first and stops
at the first win. Every shortcut proves what it skips, so results stay exact. ``ctl``
carries the counters and limits (``C_*``); a search stopped by a limit returns -1 and
stores nothing from the unfinished subtree, so every stored result is exact.

Move buffers: a node writes its actions into ``buf[base:base + n]`` and its children write
after them; a full buffer grows into a larger copy. Buffers have ``BUF_WIDTH`` columns: the
record and an ordering score (the control check keeps its can-beat flags there first).
The search loop (:func:`_run`) never allocates, so it is compiled without reference
counting; it returns to :func:`search` when a buffer must grow. Every search here runs on
an explicit stack, not recursion:
recursive kernels loaded from Numba's disk cache crashed the interpreter (seen with
numba 0.68), and an explicit stack also cannot overflow.
"""

import numpy as np
from numba import prange

from fastdou.kernels.deal import mix64
from fastdou.kernels.jit import kernel, leaf, nogil_kernel, nrt_kernel, parallel_nogil_kernel
from fastdou.kernels.layout import BOMB, ROCKET, SPACESHIP
from fastdou.kernels.moves import (
    actions_of_play, beats, count_responses, kind_of, leading_moves, readings,
)
from fastdou.kernels.packing import count, size
from fastdou.kernels.search import (
    S_HANDS, S_HASH, S_LAST_CARDS, S_LAST_INFO, S_LAST_PLAYER, S_SEATS, S_TO_MOVE, UNDO_SIZE,
    actions, count_actions, hand_of, is_terminal, key_width, make, put_key, side_of, unmake,
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


@nrt_kernel
def new_buffer(rows):
    """A move buffer for the search kernels."""
    return np.zeros((rows, BUF_WIDTH), np.uint64)


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


@nrt_kernel
def _grow(buf, used, need):
    """``buf``, or a larger copy of its first ``used`` rows, with ``need`` free rows."""
    if used + need <= buf.shape[0]:
        return buf
    bigger = new_buffer(max(2 * buf.shape[0], 2 * (used + need)))
    bigger[:used] = buf[:used]
    return bigger


@nrt_kernel
def new_memo():
    """A min_plays workspace: (keys, values, move buffer, frames); see :func:`min_plays`."""
    return (np.zeros(1 << 18, np.uint64), np.zeros(1 << 18, np.int64), new_buffer(1 << 12),
            np.zeros((64, 6), np.int64))


@leaf
def _memo_slot(keys, hand):
    return np.int64((hand * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)) & (keys.shape[0] - 1)


@nrt_kernel
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


_UNKNOWN = np.uint64(1 << 40)


@leaf
def _rest(buf, i, hand):
    """The hand left after action ``buf[i]`` (the whole hand after a pass)."""
    return hand if buf[i, 1] == 0 else hand - buf[i, 0]


@leaf
def _lookup_left(buf, base, n, hand, keys, vals):
    """Column 2 of each action ``buf[base:base + n]``: min_plays of the hand it leaves, from
    the memo (``_UNKNOWN`` where it misses). Returns the number of misses."""
    misses = 0
    for i in range(base, base + n):
        rest = _rest(buf, i, hand)
        slot = _memo_slot(keys, rest)
        if keys[slot] == rest:
            buf[i, 2] = np.uint64(vals[slot])
        else:
            buf[i, 2] = _UNKNOWN
            misses += 1
    return misses


@kernel
def _fill_left(buf, base, n, rules, hand, memo):
    """Compute the min_plays :func:`_lookup_left` missed; returns the memo."""
    for i in range(base, base + n):
        if buf[i, 2] == _UNKNOWN:
            left, mbuf = _min_plays(_rest(buf, i, hand), rules, memo)
            memo = (memo[0], memo[1], mbuf, memo[3])
            buf[i, 2] = np.uint64(left)
    return memo


@leaf
def _sort(buf, base, n):
    """Sort the actions ``buf[base:base + n]`` best first (column 2: the min_plays each
    leaves); ties keep generator order. Score: fewest plays left, then most cards; bombs
    after every other action."""
    for i in range(base, base + n):
        left = np.int64(buf[i, 2])
        info = buf[i, 1]
        if info == 0:
            score = (1 << 12) + 64 * (32 - left)
        else:
            score = 64 * (32 - left) + size(buf[i, 0])
            kind = kind_of(info)
            if kind != BOMB and kind != ROCKET:
                score += 1 << 12
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


@kernel
def _order(buf, base, n, rules, hand, memo):
    """Sort the actions ``buf[base:base + n]`` of ``hand`` best first (:func:`_sort`);
    returns the memo."""
    if _lookup_left(buf, base, n, hand, memo[0], memo[1]) > 0:
        memo = _fill_left(buf, base, n, rules, hand, memo)
    _sort(buf, base, n)
    return memo


# ------------------------------------------------------------------- the control check
CONTROL_BUDGET = 64      # split frames one control check may open
_FAIL_SLOTS = 1 << 12
_BEAT_SLOTS = 1 << 16
_NIB_LOW = np.uint64(0x1111111111111111)


@nrt_kernel
def new_control(pos):
    """Control-check workspace: (split frames, failed-split keys and stamps, stamp counter,
    scratch rows for a hand's readings, can-beat cache keys and values, safe-move
    indices)."""
    cards = 0
    for s in range(pos[S_SEATS]):
        cards += size(np.uint64(pos[S_HANDS + s]))
    return (np.zeros((cards + 2, 3), np.int64), np.zeros(_FAIL_SLOTS, np.uint64),
            np.zeros(_FAIL_SLOTS, np.int64), np.zeros(1, np.int64), new_buffer(16),
            np.zeros((_BEAT_SLOTS, 3), np.uint64), np.zeros(_BEAT_SLOTS, np.uint8),
            np.zeros(1 << 10, np.int64))


@leaf
def _ranks(hand):
    """The ranks present in a packed multiset, as the low bit of each rank's nibble."""
    h = np.uint64(hand)
    return (h | (h >> np.uint64(1)) | (h >> np.uint64(2)) | (h >> np.uint64(3))) & _NIB_LOW


@leaf
def _within(hand, cards):
    """Whether ``cards`` is part of ``hand``: subtracting them borrows nowhere (each borrow
    would add 15 to the nibble sum)."""
    return size(np.uint64(hand) - np.uint64(cards)) + size(cards) == size(hand)


@leaf
def _can_beat(control, hand, move, rules):
    """Whether ``hand`` holds an answer to ``move`` (count_responses, cached by full key)."""
    bkeys, bvals = control[5], control[6]
    h = np.uint64(hand)
    kind = kind_of(move[1])
    # the answers to a move depend on its kind, length and rank only, but for a spaceship
    # (its trio chain breaks ties) and a bomb (its power): key those by their cards too
    cards = move[0] if kind == SPACESHIP or kind == BOMB or kind == ROCKET else np.uint64(0)
    slot = np.int64(mix64(h ^ mix64(cards ^ mix64(move[1]))) >> np.uint64(48))
    if bvals[slot] != 0 and bkeys[slot, 0] == h and bkeys[slot, 1] == cards \
            and bkeys[slot, 2] == move[1]:
        return bvals[slot] == 2
    beat = count_responses(h, move, rules) > 0
    bkeys[slot, 0] = h
    bkeys[slot, 1] = cards
    bkeys[slot, 2] = move[1]
    bvals[slot] = 2 if beat else 1
    return beat


@leaf
def _safe(pos, rules, buf, i, control):
    """Whether no seat of the other side can beat the move ``buf[i]`` (kept in column 2:
    0 unknown, 1 safe, 2 not)."""
    if buf[i, 2] == 0:
        buf[i, 2] = 1
        me = side_of(pos, pos[S_TO_MOVE])
        for s in range(pos[S_SEATS]):
            if side_of(pos, s) != me and _can_beat(control, hand_of(pos, s), buf[i], rules):
                buf[i, 2] = 2
                break
    return buf[i, 2] == 1


@leaf
def _lowest(hand):
    low = 0
    while count(hand, low) == 0:
        low += 1
    return low


@leaf
def _safe_split(hand, buf, safe, k, control, stamp, budget):
    """Whether ``hand`` splits into the safe moves ``buf[safe[:k]]``. Some part holds the
    lowest rank present, so a frame tries only those; failed hands are remembered under
    ``stamp``. Returns (found, budget left); a spent budget returns False."""
    frames, fkeys, fstamps = control[0], control[1], control[2]
    if hand == 0:
        return True, budget
    frames[0, 0] = np.int64(hand)
    frames[0, 1] = 0
    frames[0, 2] = _lowest(hand)
    top = 0
    while top >= 0:
        h = np.uint64(frames[top, 0])
        low = frames[top, 2]
        j = frames[top, 1]
        while j < k and (count(buf[safe[j], 0], low) == 0 or not _within(h, buf[safe[j], 0])):
            j += 1
        if j == k:
            slot = np.int64(mix64(h) >> np.uint64(52))
            fkeys[slot] = h
            fstamps[slot] = stamp
            top -= 1
            continue
        frames[top, 1] = j + 1
        rest = h - buf[safe[j], 0]
        if rest == 0:
            return True, budget
        slot = np.int64(mix64(rest) >> np.uint64(52))
        if fstamps[slot] == stamp and fkeys[slot] == rest:
            continue
        budget -= 1
        if budget < 0:
            return False, budget
        top += 1
        frames[top, 0] = np.int64(rest)
        frames[top, 1] = 0
        frames[top, 2] = _lowest(rest)
    return False, budget


@leaf
def _lead_out(pos, rules, hand, buf, lo, hi, control, stamp):
    """Whether the seat to act, leading with ``hand``, can play moves the other side cannot
    beat (everyone passes, it leads again) and then one last move that empties its hand.
    ``buf[lo:hi]`` holds every move it may lead from a hand holding ``hand``."""
    safe = control[7]
    k = 0
    covered = np.uint64(0)
    for i in range(lo, hi):
        if _within(hand, buf[i, 0]) and _safe(pos, rules, buf, i, control):
            if k < safe.shape[0]:
                safe[k] = i
                k += 1
            covered |= _ranks(buf[i, 0])
    if k == 0:
        return False
    budget = CONTROL_BUDGET
    for i in range(lo, hi):                         # the last move, then safe moves only
        last = buf[i, 0]
        if not _within(hand, last) or (_ranks(hand - last) & ~covered) != 0:
            continue
        found, budget = _safe_split(hand - last, buf, safe, k, control, stamp, budget)
        if found:
            return True
        if budget < 0:
            return False
    return False


@leaf
def _control(pos, rules, buf, base, n, control):
    """Whether the seat to act wins by keeping control (:func:`_lead_out`); answering, it
    first plays an answer nobody on the other side can beat. ``buf[base:base + n]``: its
    actions. Returns 1 (wins), 0 (not shown), or minus the rows it needs after them to list
    the moves it may lead (grow the buffer and call again)."""
    stamp = control[3][0] + 1
    control[3][0] = stamp
    hand = hand_of(pos, pos[S_TO_MOVE])
    for i in range(base, base + n):
        buf[i, 2] = 0
    if pos[S_LAST_INFO] == 0:
        return 1 if _lead_out(pos, rules, hand, buf, base, base + n, control, stamp) else 0
    lo = -1
    m = 0
    for i in range(base, base + n):
        if buf[i, 1] == 0 or not _safe(pos, rules, buf, i, control):
            continue
        if lo < 0:                        # the moves it may lead, once, after the answers
            lo = base + n
            m = leading_moves(hand, rules, buf[lo:])
            if lo + m > buf.shape[0]:
                return -m
            for j in range(lo, lo + m):
                buf[j, 2] = 0
        if _lead_out(pos, rules, hand - buf[i, 0], buf, lo, lo + m, control, stamp):
            return 1
    return 0


@leaf
def _gen(pos, rules, buf, base):
    """Write the actions of ``pos`` (in play) at ``buf[base:]``: :func:`.search.actions`
    one call shallower. Returns how many there are (as many as fit are written: grow the
    buffer and call again if they do not fit)."""
    return actions_of_play(hand_of(pos, pos[S_TO_MOVE]),
                           pos.view(np.uint64)[S_LAST_CARDS:S_LAST_INFO + 1], rules, buf[base:])


@leaf
def _drop_lost(pos, rules, buf, base, n, scratch, mkeys, mvals):
    """Drop the actions ``buf[base:base + n]`` after which the next seat, of the other side,
    plays its whole hand at once (they lose); returns how many are left. ``scratch``: rows
    for that hand's readings (when they do not fit, nothing is dropped); ``mkeys`` /
    ``mvals``: the min_plays memo (a hand it holds with more than one play has none)."""
    p = pos[S_TO_MOVE]
    nxt = p + 1 if p + 1 < pos[S_SEATS] else 0
    if side_of(pos, nxt) == side_of(pos, p):
        return n
    y = hand_of(pos, nxt)
    slot = _memo_slot(mkeys, y)
    if mkeys[slot] == y and mvals[slot] > 1:
        return n
    r = readings(y, rules, scratch)
    if r == 0 or r > scratch.shape[0]:
        return n
    last = pos.view(np.uint64)[S_LAST_CARDS:S_LAST_INFO + 1]
    k = base
    for i in range(base, base + n):
        lost = False
        for j in range(r):
            if buf[i, 1] != 0:
                lost = beats(scratch[j], buf[i], rules)
            else:                              # a pass: it leads, or answers the same play
                lost = nxt == pos[S_LAST_PLAYER] or beats(scratch[j], last, rules)
            if lost:
                break
        if not lost:
            buf[k, 0] = buf[i, 0]
            buf[k, 1] = buf[i, 1]
            k += 1
    return k - base


@kernel
def _fill(pos, rules, buf, base):
    """Write the actions of ``pos`` at ``buf[base:]``, growing the buffer (a copy) if they
    do not fit. Returns (buffer, n)."""
    n = actions(pos, rules, buf[base:])
    if base + n + _MIN_ROOM > buf.shape[0]:
        buf = _grow(buf, base, n + _MIN_ROOM)
        actions(pos, rules, buf[base:])
    return buf, n


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


@leaf
def _run(pos, rules, keys, vals, buf, undo, frames, key, mkeys, mvals, control, ctl, width,
         step, ply, result, n, hand):
    """The search loop of :func:`search` from ``step`` at ``ply``. It never allocates (so it
    runs without reference counting): when it needs a larger buffer or a min_plays the memo
    lacks, it returns a request (``_GROW_GEN``, ``_GROW_CONTROL``, ``_MISSES``) with its
    state, and :func:`search` serves it and resumes. Returns (step, ply, result, n, rows
    needed, hand); ``_DONE`` with the result (-1: a limit stopped it, ``pos`` restored)."""
    while True:
        if step == _ENTER:
            ctl[C_NODES] += 1
            if _stopped(ctl):
                for p in range(ply - 1, -1, -1):
                    _unmake_at(pos, buf, frames[p, 0] + frames[p, 2], undo, p)
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
            base = frames[ply, 0]
            n = _gen(pos, rules, buf, base)
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
            c = _control(pos, rules, buf, frames[ply, 0], n, control)
            if c < 0:
                return _GROW_CONTROL, ply, result, n, -c, hand
            if c == 1:
                result = 1
                step = _RETURN
            else:
                n = _drop_lost(pos, rules, buf, frames[ply, 0], n, control[4], mkeys, mvals)
                step = _LOOKUP
        if step == _LOOKUP:
            if _lookup_left(buf, frames[ply, 0], n, hand, mkeys, mvals) > 0:
                return _MISSES, ply, result, n, 0, hand
            step = _SORT
        if step == _SORT:
            _sort(buf, frames[ply, 0], n)
            frames[ply, 4] = ctl[C_NODES]
            frames[ply, 1] = n
            frames[ply, 2] = 0
            frames[ply, 3] = side_of(pos, pos[S_TO_MOVE])
            step = _NEXT
        if step == _RETURN:
            if ply == 0:
                return _DONE, 0, result, n, 0, hand
            ply -= 1
            child = side_of(pos, pos[S_TO_MOVE])
            _unmake_at(pos, buf, frames[ply, 0] + frames[ply, 2], undo, ply)
            if (result == 1) == (child == frames[ply, 3]):
                result = 1
                put_key(pos, key)
                _store(keys, vals, key, width, pos[S_HASH], 2, ctl[C_NODES] - frames[ply, 4])
                ctl[C_STORES] += 1
                continue
            frames[ply, 2] += 1
            step = _NEXT
        if step == _NEXT:
            if frames[ply, 2] == frames[ply, 1]:
                result = 0
                put_key(pos, key)
                _store(keys, vals, key, width, pos[S_HASH], 1, ctl[C_NODES] - frames[ply, 4])
                ctl[C_STORES] += 1
                step = _RETURN
                continue
            _make_at(pos, buf, frames[ply, 0] + frames[ply, 2], undo, ply)
            frames[ply + 1, 0] = frames[ply, 0] + frames[ply, 1]
            ply += 1
            step = _ENTER


@nrt_kernel
def search(pos, rules, table, work, ctl):
    """1 if the side to act in ``pos`` wins, 0 if it loses, -1 if a limit stopped it;
    ``pos`` is restored. Iterative (an explicit stack), so it caches and never overflows.

    ``table``: (keys, values) from :func:`new_table`; ``work``: :func:`new_work`; ``ctl``:
    counters and limits (``C_*``). Returns (result, work) (buffers may have grown).

    Each node probes the table, lists its actions, wins at once if one is the whole hand
    or if it keeps control (:func:`_control`), else tries them best first (:func:`_sort`).
    The loop runs in :func:`_run`; this serves its requests for memory and min_plays."""
    keys, vals = table
    buf, undo, frames, key, memo, control = work
    width = key_width(pos)
    frames[0, 0] = 0
    step, ply, result, n, need, hand = _ENTER, 0, 0, 0, 0, np.uint64(0)
    while True:
        if step == _GROW_GEN:
            buf = _grow(buf, frames[ply, 0], need + _MIN_ROOM)
            step = _GEN
        elif step == _GROW_CONTROL:
            buf = _grow(buf, frames[ply, 0] + n, need + _MIN_ROOM)
            step = _CONTROL
        elif step == _MISSES:
            memo = _fill_left(buf, frames[ply, 0], n, rules, hand, memo)
            step = _SORT
        step, ply, result, n, need, hand = _run(
            pos, rules, keys, vals, buf, undo, frames, key, memo[0], memo[1], control, ctl,
            width, step, ply, result, n, hand)
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
    """Search workspace for positions like ``pos``: (move buffer, undo stack, frames, key
    scratch, min_plays memo, control-check workspace)."""
    depth = _depth_bound(pos)
    return (new_buffer(1 << 14), np.zeros((depth, UNDO_SIZE), np.int64),
            np.zeros((depth, 5), np.int64), np.zeros(key_width(pos), np.uint64), new_memo(),
            new_control(pos))


@kernel
def action_value(pos, rules, move, table, work, ctl):
    """1 if the action ``move`` wins for the side to act, 0 if it loses, -1 if a limit
    stopped it; returns (value, work)."""
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
        work = (work[0], work[1], work[2], work[3], memo, work[5])
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
@nrt_kernel
def _perft(pos, rules, depth, buf, stop):
    """perft with an explicit stack; returns (count, buffer), the count -1 once
    ``stop[0]`` is non-zero (read every 1024 steps)."""
    undo = np.zeros((depth + 1, UNDO_SIZE), np.int64)
    frames = np.zeros((depth + 1, 3), np.int64)     # base, n, next index
    total = 0
    if depth == 1:
        return count_actions(pos, rules), buf
    ply = 0
    steps = 0
    buf, n = _fill(pos, rules, buf, 0)
    frames[0, 0] = 0
    frames[0, 1] = n
    frames[0, 2] = 0
    while True:
        steps += 1
        if (steps & _POLL) == 0 and stop[0] != 0:
            while ply > 0:                          # leave ``pos`` as it was given
                ply -= 1
                unmake(pos, buf[frames[ply, 0] + frames[ply, 2]], undo[ply])
            return -1, buf
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
    return perft_until(pos, rules, depth, np.zeros(1, np.int64))


@nogil_kernel
def perft_until(pos, rules, depth, stop):
    """:func:`perft`, or -1 once another thread sets ``stop[0]`` (``int64[1]``)."""
    total, _ = _perft(pos, rules, depth, new_buffer(1 << 14), stop)
    return total


@nogil_kernel
def perft_divide(pos, rules, depth, moves, out, stop):
    """``out[i]``: perft of the position after root action ``moves[i]`` (``depth`` counts
    the root action; a game-ending action counts 1 at depth 1, else 0); -1 from the action
    where another thread set ``stop[0]`` on."""
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
            out[i], buf = _perft(pos, rules, depth - 1, buf, stop)
        unmake(pos, moves[i], undo)
        if out[i] < 0:
            break
    return out


# ---------------------------------------------------------------------------- min_plays
@kernel
def min_plays(hand, rules):
    """The least number of plays that empty packed ``hand`` when nobody answers (leading
    every time): a partition of the hand into legal moves of fewest parts."""
    plays, _ = _min_plays(np.uint64(hand), rules, new_memo())
    return plays
