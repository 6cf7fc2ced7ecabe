"""The solver's proven shortcuts: the control check (:func:`_control`: the seat to act wins
at once when its side plays moves nobody on the other side can answer, then one last move)
and :func:`_drop_lost` (drop the actions after which the next seat, of the other side, goes
out at once). Each proves what it skips, so the search stays exact.
"""

import numpy as np

from fastdou.kernels.deal import mix64
from fastdou.kernels.fewest_plays import _memo_slot
from fastdou.kernels.jit import leaf, nrt_kernel
from fastdou.kernels.layout import BOMB, ROCKET, SPACESHIP
from fastdou.kernels.moves import beats, count_responses, kind_of, leading_moves, readings
from fastdou.kernels.packing import count, size
from fastdou.kernels.search import (
    S_HANDS, S_LAST_CARDS, S_LAST_INFO, S_LAST_PLAYER, S_SEATS, S_TO_MOVE, hand_of, side_of,
)
from fastdou.kernels.solver_buffers import new_buffer

CONTROL_BUDGET = 64      # split frames one control check may open
_FAIL_SLOTS = 1 << 12
_BEAT_SLOTS = 1 << 16
_NIB_LOW = np.uint64(0x1111111111111111)

# the parts of the control-check workspace (:func:`new_control`)
CW_FRAMES = 0       # the split search's explicit stack, a row per part (``SF_*`` columns)
CW_FAIL_KEYS = 1    # hands found not to split into safe moves (a slot per hand)
CW_FAIL_STAMPS = 2  # the check that found each (a failure counts within its own check only)
CW_STAMP = 3        # ``[0]``: the last check's stamp
CW_SCRATCH = 4      # move rows for a hand's readings (:func:`_drop_lost`)
CW_BEAT_KEYS = 5    # the can-beat cache's keys (``BK_*`` columns)
CW_BEAT_VALS = 6    # its values: 0 free, 1 no answer, 2 an answer
CW_SAFE = 7         # rows (in the move buffer) of the safe moves found

# columns of a split frame (:func:`_safe_split`)
SF_HAND = 0         # the hand left to split (packed, as int64)
SF_NEXT = 1         # index (in the safe moves) of the next move to try
SF_LOW = 2          # its lowest rank present (every part tried holds it)
SF_WIDTH = 3

# columns of a can-beat cache key (:func:`_can_beat`)
BK_HAND = 0         # the hand that would answer
BK_CARDS = 1        # the move's cards (0 but for a spaceship, a bomb or a rocket)
BK_INFO = 2         # the move's info word
BK_WIDTH = 3


@nrt_kernel
def new_control(pos):
    """Control-check workspace (``CW_*``): (split frames, failed-split keys and stamps,
    stamp counter, scratch rows for a hand's readings, can-beat cache keys and values,
    safe-move indices)."""
    cards = 0
    for s in range(pos[S_SEATS]):
        cards += size(np.uint64(pos[S_HANDS + s]))
    return (np.zeros((cards + 2, SF_WIDTH), np.int64), np.zeros(_FAIL_SLOTS, np.uint64),
            np.zeros(_FAIL_SLOTS, np.int64), np.zeros(1, np.int64), new_buffer(16),
            np.zeros((_BEAT_SLOTS, BK_WIDTH), np.uint64), np.zeros(_BEAT_SLOTS, np.uint8),
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
    bkeys, bvals = control[CW_BEAT_KEYS], control[CW_BEAT_VALS]
    h = np.uint64(hand)
    kind = kind_of(move[1])
    # the answers to a move depend on its kind, length and rank only, but for a spaceship
    # (its trio chain breaks ties) and a bomb (its power): key those by their cards too
    cards = move[0] if kind == SPACESHIP or kind == BOMB or kind == ROCKET else np.uint64(0)
    slot = np.int64(mix64(h ^ mix64(cards ^ mix64(move[1]))) >> np.uint64(48))
    if bvals[slot] != 0 and bkeys[slot, BK_HAND] == h and bkeys[slot, BK_CARDS] == cards \
            and bkeys[slot, BK_INFO] == move[1]:
        return bvals[slot] == 2
    beat = count_responses(h, move, rules) > 0
    bkeys[slot, BK_HAND] = h
    bkeys[slot, BK_CARDS] = cards
    bkeys[slot, BK_INFO] = move[1]
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
    frames, fkeys, fstamps = control[CW_FRAMES], control[CW_FAIL_KEYS], control[CW_FAIL_STAMPS]
    if hand == 0:
        return True, budget
    frames[0, SF_HAND] = np.int64(hand)
    frames[0, SF_NEXT] = 0
    frames[0, SF_LOW] = _lowest(hand)
    top = 0
    while top >= 0:
        h = np.uint64(frames[top, SF_HAND])
        low = frames[top, SF_LOW]
        j = frames[top, SF_NEXT]
        while j < k and (count(buf[safe[j], 0], low) == 0 or not _within(h, buf[safe[j], 0])):
            j += 1
        if j == k:
            slot = np.int64(mix64(h) >> np.uint64(52))
            fkeys[slot] = h
            fstamps[slot] = stamp
            top -= 1
            continue
        frames[top, SF_NEXT] = j + 1
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
        frames[top, SF_HAND] = np.int64(rest)
        frames[top, SF_NEXT] = 0
        frames[top, SF_LOW] = _lowest(rest)
    return False, budget


@leaf
def _lead_out(pos, rules, hand, buf, lo, hi, control, stamp):
    """Whether the seat to act, leading with ``hand``, can play moves the other side cannot
    beat (everyone passes, it leads again) and then one last move that empties its hand.
    ``buf[lo:hi]`` holds every move it may lead from a hand holding ``hand``."""
    safe = control[CW_SAFE]
    k = np.int64(0)             # not literals: _safe_split would compile twice
    covered = np.uint64(0)
    for i in range(lo, hi):
        if _within(hand, buf[i, 0]) and _safe(pos, rules, buf, i, control):
            if k < safe.shape[0]:
                safe[k] = i
                k += 1
            covered |= _ranks(buf[i, 0])
    if k == 0:
        return False
    budget = np.int64(CONTROL_BUDGET)
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
    stamp = control[CW_STAMP][0] + 1
    control[CW_STAMP][0] = stamp
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
