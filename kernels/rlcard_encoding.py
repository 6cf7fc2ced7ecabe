"""RLCard's Dou Dizhu observation vector, compiled: the ``obs`` that
``rlcard.envs.doudizhu.DoudizhuEnv._extract_state`` makes, read straight from a fastdou
classic play-phase state array (see ``fastdou.kernels.state``).

Card block (54 int8): rank ``r`` (0..12 for 3..2) fills entries ``4r .. 4r+3`` with a
thermometer of its count (``c`` ones, then zeros); entry 52 is the small joker, 53 the big.
A pass, an empty slot and "no action" are all zeros.

Seat 0 (the landlord), 790 entries, in order: its hand; the other two hands together; the
last action; the last 9 actions (oldest first, zero blocks before the first action); the
cards seat 2 (up) played; the cards seat 1 (down) played; seat 2's cards left (one-hot of
17); seat 1's cards left (one-hot of 17).

Seats 1 and 2 (farmers), 901 entries: hand; others' hands; last action; last 9 actions;
the landlord's played cards; the teammate's played cards; the landlord's "last" action;
the teammate's "last" action; the landlord's cards left (one-hot of 20); the teammate's
(one-hot of 17).

"Last action" is the last action unless it is a pass, then the one before (zeros when
that is a pass too). RLCard's quirks, reproduced when ``fix`` is 0:

* the farmer's "last" landlord and teammate actions are their FIRST play-phase actions
  (rlcard#292: a loop over ``reversed(trace)`` keeps the earliest); ``fix`` takes their
  most recent action (a pass: zeros);
* a one-hot of ``n`` cards left sets entry ``n - 1``, so 0 cards (a finished hand) sets
  the LAST entry, the same as a full hand; ``fix`` leaves the block all zeros.

The env's step is one call (:func:`play`, or :func:`step_into` writing into the env's
buffers): check the id against the legal ones, apply it
(``fastdou.kernels.action_ids.step_ids``, logging the state for undo), list the next
seat's legal ids in RLCard's order (:func:`order_ids`) and encode its observation.
"""

import numpy as np

from fastdou.kernels.action_ids import OVERFLOW, legal_ids, step_id, step_ids
from fastdou.kernels.engine import skip_to_play, start_from_hands
from fastdou.kernels.jit import first_class_kernel, kernel, leaf, nrt_kernel
from fastdou.kernels.layout import BOMB, INFO_FIELD_MASK, INFO_LENGTH_SHIFT
from fastdou.kernels.state import (G_HANDS, G_HISTORY, G_LAST_INFO, G_PLAYED, G_PLAYER,
                                   G_SEAT_FIRST, G_SEAT_LAST, G_TURNS, HISTORY_LEN)

ANSWER_GROUP = 1 << 32     # the key step between RLCard's answer groups

BLOCK = 54           # one card block
N_RECENT = 9         # actions in the "last 9 actions" part
LANDLORD_SIZE = 790
FARMER_SIZE = 901
LANDLORD_HAND_MAX = 20
FARMER_HAND_MAX = 17


@leaf
def write_cards(packed, out, at):
    """Write the card block of packed cards ``packed`` at ``out[at:at + 54]``."""
    p = np.uint64(packed)
    for r in range(13):
        c = np.int64((p >> np.uint64(4 * r)) & np.uint64(15))
        for k in range(4):
            out[at + 4 * r + k] = 1 if k < c else 0
    out[at + 52] = 1 if (p >> np.uint64(52)) & np.uint64(15) else 0
    out[at + 53] = 1 if (p >> np.uint64(56)) & np.uint64(15) else 0


@leaf
def _n_cards(packed):
    p = np.uint64(packed)
    n = 0
    for r in range(15):
        n += np.int64((p >> np.uint64(4 * r)) & np.uint64(15))
    return n


@leaf
def _write_left(n, size, fix, out, at):
    """One-hot of ``n`` cards left over ``size`` entries (RLCard's ``n - 1`` indexing)."""
    for k in range(size):
        out[at + k] = 0
    if n > 0:
        out[at + n - 1] = 1
    elif not fix:
        out[at + size - 1] = 1       # RLCard: one_hot[-1] = 1 for 0 cards


@leaf
def _action_cards(state, t):
    """Cards of play-phase action number ``t`` (0 for a pass); ``t`` must be in the ring."""
    slot = G_HISTORY + 3 * (t % HISTORY_LEN)
    return state[slot] if state[slot + 1] != 0 else 0


@leaf
def _seat_action(state, base, seat):
    """Cards of the seat action stored at ``base + 2 * seat`` (0: a pass or none yet)."""
    return state[base + 2 * seat] if state[base + 2 * seat + 1] > 0 else 0


@leaf
def encode_into(state, seat, fix, out):
    """Write seat ``seat``'s RLCard observation of ``state`` into ``out`` (790 int8 for
    seat 0, 901 for a farmer); ``fix`` != 0 takes the corrected readings above."""
    turns = state[G_TURNS]          # play-phase actions (start="play")
    write_cards(state[G_HANDS + seat], out, 0)
    others = np.int64(0)
    for s in range(3):
        if s != seat:
            others += state[G_HANDS + s]
    write_cards(others, out, BLOCK)
    last = np.int64(0)
    if turns > 0:
        last = _action_cards(state, turns - 1)
        if last == 0 and turns > 1:
            last = _action_cards(state, turns - 2)
    write_cards(last, out, 2 * BLOCK)
    at = 3 * BLOCK
    for k in range(N_RECENT):
        t = turns - N_RECENT + k
        write_cards(_action_cards(state, t) if t >= 0 else 0, out, at)
        at += BLOCK
    if seat == 0:
        write_cards(state[G_PLAYED + 2], out, at)
        write_cards(state[G_PLAYED + 1], out, at + BLOCK)
        at += 2 * BLOCK
        _write_left(_n_cards(state[G_HANDS + 2]), FARMER_HAND_MAX, fix, out, at)
        _write_left(_n_cards(state[G_HANDS + 1]), FARMER_HAND_MAX, fix, out,
                    at + FARMER_HAND_MAX)
        return
    mate = 3 - seat
    seen = G_SEAT_LAST if fix else G_SEAT_FIRST
    write_cards(state[G_PLAYED], out, at)
    write_cards(state[G_PLAYED + mate], out, at + BLOCK)
    write_cards(_seat_action(state, seen, 0), out, at + 2 * BLOCK)
    write_cards(_seat_action(state, seen, mate), out, at + 3 * BLOCK)
    at += 4 * BLOCK
    _write_left(_n_cards(state[G_HANDS]), LANDLORD_HAND_MAX, fix, out, at)
    _write_left(_n_cards(state[G_HANDS + mate]), FARMER_HAND_MAX, fix, out,
                at + LANDLORD_HAND_MAX)


@nrt_kernel
def encode(state, seat, fix):
    """Seat ``seat``'s RLCard observation of ``state`` as a new int8 array."""
    out = np.empty(LANDLORD_SIZE if seat == 0 else FARMER_SIZE, dtype=np.int8)
    encode_into(state, seat, fix, out)
    return out


@kernel
def vector_size(rules):
    """Entries of one game's RLCard row in ``fastdou.VectorEnv``: the 901 of a farmer's
    ``obs`` (the landlord's 790, then zeros). The landlord is seat 0 (``start="play"``)."""
    return FARMER_SIZE


@first_class_kernel
def vector_encode(state, rules, seat, out):
    """Write ``seat``'s RLCard ``obs`` (RLCard's own reading, quirks included) into
    ``out`` (int8, ``vector_size``), zeros after the landlord's 790."""
    out[:] = 0
    encode_into(state, seat, 0, out)


@nrt_kernel
def card_rows(packed):
    """The card block of every packed multiset of ``packed[n]``: an ``(n, 54)`` int8 array
    (RLCard's ``_cards2array`` of each action)."""
    out = np.empty((packed.shape[0], BLOCK), dtype=np.int8)
    for i in range(packed.shape[0]):
        write_cards(packed[i], out[i], 0)
    return out


@kernel
def deal_start(state, rules, deck):
    """Set ``state`` to RLCard's deal ``deck`` (54 card indices of RLCard's sorted deck:
    rank-major, 52 and 53 the jokers; seats take 17 each in turn, the last 3 are the kitty)
    in play, the landlord at seat 0 holding the kitty: ``Game.from_hands(...,
    start="play", landlord=0).state`` without the Python checks."""
    hands = np.zeros(3, np.uint64)
    kitty = np.uint64(0)
    for i in range(54):
        c = deck[i]
        r = c // 4 if c < 52 else c - 39          # 52 -> 13 (small joker), 53 -> 14
        unit = np.uint64(1) << np.uint64(4 * r)
        if i < 51:
            hands[i // 17] += unit
        else:
            kitty += unit
    state[:] = 0
    start_from_hands(state, rules, hands, kitty, 0, 0, 0)
    skip_to_play(state, rules, 0)


@leaf
def _type_of(info):
    """RLCard's move type of a record's info word: its kind and chain length."""
    i = np.int64(info)
    return (i & INFO_FIELD_MASK) | (((i >> INFO_LENGTH_SHIFT) & INFO_FIELD_MASK) << 8)


@leaf
def _shell_sort(pairs, m):
    """Sort rows ``pairs[:m]`` (key, value) by key in place (no allocation: Shell's sort,
    gaps 1, 4, 13, ...; keys are distinct here, so the order is the one any sort gives)."""
    gap = 1
    while gap < m // 3:
        gap = 3 * gap + 1
    while gap >= 1:
        for i in range(gap, m):
            key = pairs[i, 0]
            value = pairs[i, 1]
            j = i
            while j >= gap and pairs[j - gap, 0] > key:
                pairs[j, 0] = pairs[j - gap, 0]
                pairs[j, 1] = pairs[j - gap, 1]
                j -= gap
            pairs[j, 0] = key
            pairs[j, 1] = value
        gap //= 3


@leaf
def order_ids_into(last, id_records, position, ids, n, scratch):
    """:func:`order_ids` with ``scratch``, a ``(>= n, 2)`` uint64 array (a ``records``
    buffer will do), instead of allocating."""
    if n < 2:
        return
    first = 0 if last == 0 else 1  # answering: ids[0] is the pass and stays first
    target = _type_of(last)
    for i in range(first, n):
        a = ids[i]
        key = a
        if last != 0:
            key = position[a]
            info = id_records[a, 1]
            if _type_of(info) != target:
                key += ANSWER_GROUP * (2 if (np.int64(info) & INFO_FIELD_MASK) == BOMB else 1)
        scratch[i - first, 0] = np.uint64(key)
        scratch[i - first, 1] = np.uint64(a)
    _shell_sort(scratch, n - first)
    for i in range(first, n):
        ids[i] = np.int64(scratch[i - first, 1])


@kernel
def order_ids(last, id_records, position, ids, n):
    """Put legal ids ``ids[:n]`` in RLCard's order. Leading (``last``, the info word of the
    move to beat, is 0): ascending ids. Answering: the pass (``ids[0]``), then the answers
    of the move's type in RLCard's enumeration order (``position``), then the rocket, then
    the bombs (a bomb answered: the higher bombs, then the rocket)."""
    order_ids_into(last, id_records, position, ids, n, np.empty((max(n, 1), 2), np.uint64))


@kernel
def legal(state, rules, keys, key_ids, id_records, selection, position, records, ids):
    """The player to act's legal ids in RLCard's order into ``ids``; returns how many
    (when more than fit, nothing is ordered: call again with room for them)."""
    n = legal_ids(state, rules, keys, key_ids, selection, records, ids)
    if n <= ids.shape[0]:
        order_ids(state[G_LAST_INFO], id_records, position, ids, n)
    return n


@nrt_kernel
def play(state, rules, keys, key_ids, id_records, selection, position, a, n, log, k,
         records, ids, fix):
    """One env step: refuse id ``a`` unless it is among the legal ``ids[:n]`` (returns
    ``(-1, empty, empty)``); else log the state in ``log[k]``, apply ``a``, write the next
    seat's legal ids into ``ids`` and return ``(their count, the next seat's observation,
    a copy of its legal ids)``."""
    legal_now = False
    for i in range(n):
        if ids[i] == a:
            legal_now = True
            break
    if not legal_now:
        return -1, np.empty(0, np.int8), ids[:0].copy()
    nxt = (state[G_PLAYER] + 1) % 3
    m = step_id(state, rules, keys, key_ids, id_records, selection, a, log, k, records, ids)
    if m < 0:
        return -1, np.empty(0, np.int8), ids[:0].copy()
    if m > ids.shape[0]:           # ids too short: the caller lists them again (legal)
        return m, encode(state, nxt, fix), ids[:0].copy()
    order_ids(state[G_LAST_INFO], id_records, position, ids, m)
    return m, encode(state, nxt, fix), ids[:m].copy()


@leaf
def step_into(state, table, bufs, log, extra, a, k, end, n):
    """``action_ids.step_ids`` for the env's step from Python (``fastdou.stepper``), then
    the next seat's observation into ``obs`` and its legal ids, in RLCard's order, into
    ``ids[end:end + m]``; ``extra`` is ``(position, obs, fix)``. Returns what ``step_ids``
    returns (when the ids did not fit, none are ordered: list them again with
    :func:`legal`)."""
    position, obs, fix = extra
    nxt = (state[G_PLAYER] + 1) % 3
    m = step_ids(state, table, bufs, log, extra, a, k, end, n)
    if -OVERFLOW < m < 0:
        return m
    encode_into(state, nxt, fix, obs)
    if m >= 0:
        ids, records = bufs
        order_ids_into(state[G_LAST_INFO], table[3], position, ids[end:end + m], m, records)
    return m
