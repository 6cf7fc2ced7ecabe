"""Action ids in compiled code: the kernels behind :class:`fastdou.ActionTable`.

A table lowers to three arrays (``ActionTable.kernel_args``):

* ``keys``: the play records in an open-addressing hash table ``(m, 2)`` (``hash_plays``),
  with ``key_ids`` their ids;
* ``id_records``: ``(size, 2)``, the record of every id (``[value, 0]`` for a selection
  action, ``[0, 0]`` for pass, and ``RESERVED`` info for an id that is no action);
* ``selection``: the ids of the phase actions, indexed by the ``SEL_*`` constants (-1 when
  the preset has none).

Every function is ``@njit`` and callable from a user's own ``@njit`` code. The stepping
path (``legal_ids`` to ``step_ids``) is compiled without reference counting (``leaf``): a
step then costs about half as much (measured: 300 against 600 ns a classic step from an
``@njit`` loop); they reach the engine through ``engine_legal_actions`` and
``engine_apply``, compiled with reference counting (see ``nrt_kernel``).
"""

import numpy as np

from fastdou.kernels.engine import apply, legal_actions
from fastdou.kernels.jit import kernel, leaf, nrt_kernel
from fastdou.kernels.layout import BIDDING_MODES, M_BIDS, M_CALL, M_GRAB, R_BIDDING
from fastdou.kernels.packing import contains
from fastdou.kernels.state import (G_BIDDER, G_HANDS, G_PHASE, G_PLAYER, PH_BID, PH_DONE,
                                   PH_DOUBLE, PH_PLAY, PH_REVEAL)

# The stepping path's leaves reach the engine through these two, counted always (see
# ``jit.nrt_kernel``: the engine allocates where a redeal has no deck buffer).


@nrt_kernel
def engine_legal_actions(state, rules, out):
    """``engine.legal_actions``, compiled with reference counting whoever calls it."""
    return legal_actions(state, rules, out)


@nrt_kernel
def engine_apply(state, rules, action):
    """``engine.apply`` (no scratch), compiled with reference counting whoever calls it."""
    apply(state, rules, action)


SEL_PASS = 0      # pass, decline, no: the 0 action of every phase
SEL_BID = 1       # bid 1 (bid k is selection[SEL_BID] + k - 1)
SEL_CALL = 2
SEL_GRAB = 3
SEL_REVEAL = 4
SEL_DOUBLE = 5
N_SEL = 6
RESERVED = np.uint64(0xFFFFFFFF)   # the info of an id that is no action (OpenSpiel's deals)

# What push_id reports.
OK = 0
BAD_ID = 1        # out of range or reserved
WRONG_PHASE = 2   # a play id outside play, a phase action in play or another phase
NOT_HELD = 3      # the player does not hold the cards
HAND_OVER = 4     # the hand is over
LOG_FULL = 5      # step_ids: no log row left for the state (nothing applied)
NOT_LEGAL = 6     # step_ids checked: not one of the legal ids (nothing applied)
OVERFLOW = 8      # step_ids: -(OVERFLOW + n), applied, but the n legal ids did not fit


_MIX_CARDS = np.uint64(0x9E3779B97F4A7C15)
_MIX_INFO = np.uint64(0xC2B2AE3D27D4EB4F)


@leaf
def _slot(cards, info, mask):
    h = (np.uint64(cards) * _MIX_CARDS) ^ (np.uint64(info) * _MIX_INFO)
    return np.int64((h ^ (h >> np.uint64(29))) & mask)


@kernel
def hash_plays(records, ids, keys, key_ids):
    """Fill the open-addressing table ``keys`` (``(m, 2)``, ``m`` a power of two above
    ``len(records)``; info 0 marks an empty slot) and ``key_ids`` with ``records``' ids."""
    mask = np.uint64(keys.shape[0] - 1)
    keys[:, :] = 0
    for k in range(records.shape[0]):
        i = _slot(records[k, 0], records[k, 1], mask)
        while keys[i, 1] != 0:
            i = (i + 1) & np.int64(mask)
        keys[i, 0] = records[k, 0]
        keys[i, 1] = records[k, 1]
        key_ids[i] = ids[k]


@leaf
def play_id(keys, key_ids, cards, info):
    """The id of the play ``(cards, info)`` in a table built by ``hash_plays``, or -1."""
    mask = np.uint64(keys.shape[0] - 1)
    i = _slot(cards, info, mask)
    while keys[i, 1] != 0:
        if keys[i, 0] == cards and keys[i, 1] == info:
            return key_ids[i]
        i = (i + 1) & np.int64(mask)
    return -1


@kernel
def play_ids(keys, key_ids, pass_id, records, out):
    """``play_id`` of every record into ``out`` (``pass_id`` for the pass record)."""
    for k in range(records.shape[0]):
        out[k] = pass_id if records[k, 1] == 0 else \
            play_id(keys, key_ids, records[k, 0], records[k, 1])


@leaf
def action_id(state, rules, keys, key_ids, selection, value, info):
    """The id of the action record ``[value, info]`` of the phase ``state`` is in, or -1."""
    phase = state[G_PHASE]
    if phase == PH_PLAY:
        if info == 0:
            return selection[SEL_PASS]
        return play_id(keys, key_ids, value, info)
    v = np.int64(value)
    if v == 0:
        return selection[SEL_PASS]
    if phase == PH_BID:
        mode = rules[R_BIDDING]
        if BIDDING_MODES[mode, M_BIDS]:
            return selection[SEL_BID] + v - 1
        if BIDDING_MODES[mode, M_GRAB] and state[G_BIDDER] >= 0:   # after the call
            return selection[SEL_GRAB]
        if BIDDING_MODES[mode, M_CALL]:
            return selection[SEL_CALL]
        return -1
    if phase == PH_REVEAL:
        return selection[SEL_REVEAL]
    if phase == PH_DOUBLE:
        return selection[SEL_DOUBLE]
    return -1


@leaf
def legal_ids(state, rules, keys, key_ids, selection, records, out):
    """The ids of the legal actions, in ``legal_actions``' order, into ``out``; returns how
    many there are (``records`` is scratch with room for as many records as ``out``; when
    the count exceeds it, nothing past it is written)."""
    n = engine_legal_actions(state, rules, records)
    for i in range(min(n, out.shape[0])):
        out[i] = action_id(state, rules, keys, key_ids, selection, records[i, 0],
                           records[i, 1])
    return n


@leaf
def phase_of_id(state, rules, id_records, selection, a, row):
    """Whether id ``a``, of row ``row`` of ``id_records`` (the id itself, but for the wild
    table's ids), is an action of ``state``'s phase: ``OK``, ``BAD_ID`` or ``WRONG_PHASE``
    (the held cards are not looked at)."""
    if row < 0 or row >= id_records.shape[0] or id_records[row, 1] == RESERVED:
        return BAD_ID
    phase = state[G_PHASE]
    if phase == PH_DONE:
        return HAND_OVER
    if a == selection[SEL_PASS]:
        return OK
    is_play = id_records[row, 1] != 0
    if phase == PH_PLAY:
        return OK if is_play else WRONG_PHASE
    if is_play:
        return WRONG_PHASE
    # a phase action: this phase's id for the same value must be ``a`` itself
    same = action_id(state, rules, id_records[:0], selection[:0], selection,
                     id_records[row, 0], id_records[row, 1])
    return OK if same == a else WRONG_PHASE


@leaf
def check_id(state, rules, id_records, selection, a):
    """What ``push_id`` would say of id ``a`` (``OK`` or why not), applying nothing: that
    it is an action of this phase and, in play, that the player holds its cards."""
    status = phase_of_id(state, rules, id_records, selection, a, a)
    if status == OK and state[G_PHASE] == PH_PLAY and \
            not contains(np.uint64(state[G_HANDS + state[G_PLAYER]]), id_records[a, 0]):
        return NOT_HELD
    return status


@leaf
def push_id(state, rules, id_records, selection, a):
    """Apply action id ``a`` for the player to act after ``check_id``; returns ``OK`` or
    why not (and then applies nothing)."""
    status = check_id(state, rules, id_records, selection, a)
    if status == OK:
        engine_apply(state, rules, id_records[a])
    return status


@leaf
def push_id_logged(state, rules, id_records, selection, a, log, k):
    """``push_id``, first copying ``state`` into row ``k`` of ``log`` (for undo)."""
    for j in range(state.shape[0]):    # a loop: ``log[k, :] = state`` has a copy path
        log[k, j] = state[j]
    return push_id(state, rules, id_records, selection, a)


@leaf
def step_id(state, rules, keys, key_ids, id_records, selection, a, log, k, records, out):
    """``push_id_logged``, then the new legal ids into ``out`` as ``legal_ids`` does: returns
    their count, or ``-status`` when ``a`` was refused (and nothing was applied)."""
    status = push_id_logged(state, rules, id_records, selection, a, log, k)
    if status != OK:
        return -status
    return legal_ids(state, rules, keys, key_ids, selection, records, out)


@leaf
def is_among(ids, lo, hi, a):
    """Whether id ``a`` is one of ``ids[lo:hi]``."""
    for i in range(lo, hi):
        if ids[i] == a:
            return True
    return False


@leaf
def step_ids(state, table, bufs, log, extra, a, k, end, n):
    """The one step by id of ``Game`` and the adapters (``fastdou.stepper``; ``extra``, the
    adapters' arrays, is not read here): ``step_id`` writing the new legal ids into
    ``ids[end:]``. ``table`` is ``(rules, keys, key_ids, id_records, selection)``, ``bufs``
    ``(ids, records)`` (records: scratch). With ``n >= 0`` the id must be one of the legal
    ids ``ids[end - n:end]`` (``play_id``); with ``n < 0`` only ``push_id``'s checks apply.
    Returns the new ids' count ``m``; or ``-status`` when nothing was applied
    (``NOT_LEGAL``, ``push_id``'s, or ``LOG_FULL``: ``log`` has no row ``k``); or
    ``-(OVERFLOW + m)`` when ``a`` was applied but the ``m`` ids did not all fit in ``ids``
    or ``records``."""
    rules, keys, key_ids, id_records, selection = table
    ids, records = bufs
    if n >= 0 and not is_among(ids, end - n, end, a):
        return -NOT_LEGAL
    if k >= log.shape[0]:
        return -LOG_FULL
    m = step_id(state, rules, keys, key_ids, id_records, selection, a, log, k, records,
                ids[end:])
    if m > ids.shape[0] - end or m > records.shape[0]:
        return -(OVERFLOW + m)
    return m
