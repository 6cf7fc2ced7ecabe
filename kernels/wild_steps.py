"""Stepping by action id with one wild rank (preset ``laizi``): :mod:`action_ids`' stepping
path over the ids of :mod:`wild_ids`.

A table is ``(rules, keys, key_ids, id_records, selection, offsets)``: the rules array with
wild cards, the classic table's ``keys``, ``key_ids`` and ``id_records`` (the substituted
moves), the wild table's ``selection`` ids and the play blocks' ``offsets``. The plays are ids
``0 .. offsets[-1] - 1``, then the pass and the phase actions in the classic table's order
(the classic id plus ``shift = offsets[-1] - n_classic_plays``). The wild rank is the state's
``G_WILDS``. Like the classic path these are leaves; ``scratch`` (classic readings) is the
stepper's own, so two games never share it.
"""

import numpy as np

from fastdou.kernels.action_ids import (
    BAD_ID, HAND_OVER, LOG_FULL, NOT_HELD, NOT_LEGAL, OK, OVERFLOW, SEL_PASS, WRONG_PHASE,
    action_id, engine_apply, is_among, phase_of_id,
)
from fastdou.kernels.engine import legal_actions
from fastdou.kernels.jit import leaf, nrt_kernel
from fastdou.kernels.packing import contains
from fastdou.kernels.state import G_HANDS, G_PHASE, G_PLAYER, G_WILDS, PH_DONE, PH_PLAY
from fastdou.kernels.wild import wild_ranks
from fastdou.kernels.wild_ids import wild_id_record, wild_play_id


@nrt_kernel
def engine_wild_legal_actions(state, rules, out):
    """``engine.legal_actions`` with wild cards, compiled with reference counting."""
    return legal_actions(state, rules, out, True)


@leaf
def wild_rank(state):
    """The state's one wild rank (0..12), -1 before play."""
    return wild_ranks(state[G_WILDS], np.uint64(0))[0]


@leaf
def wild_action_id(state, table, value, info, scratch):
    """The id of the action record ``[value, info]`` of the phase ``state`` is in, or -1:
    a record ``engine.legal_actions`` listed (a play is not read again to check it)."""
    rules, keys, key_ids, id_records, selection, offsets = table
    if state[G_PHASE] == PH_PLAY and info != 0:
        return wild_play_id(value, info, wild_rank(state), rules, keys, key_ids, offsets,
                            scratch, True)
    return action_id(state, rules, keys, key_ids, selection, value, info)


@leaf
def wild_legal_ids(state, table, records, out, scratch):
    """The ids of the legal actions, in ``legal_actions``' order, into ``out``; returns how
    many there are (``records``: scratch with room for as many records as ``out``)."""
    n = engine_wild_legal_actions(state, table[0], records)
    for i in range(min(n, out.shape[0])):
        out[i] = wild_action_id(state, table, records[i, 0], records[i, 1], scratch)
    return n


@leaf
def wild_in_table(table, a):
    """Whether ``a`` is an id of the wild table (the plays, the pass, the phase actions)."""
    id_records, selection, offsets = table[3], table[4], table[5]
    return 0 <= a < selection[SEL_PASS] + id_records.shape[0] - (offsets.shape[0] - 1)


@leaf
def wild_check_id(state, table, a, scratch):
    """``(status, value, info)``: what pushing id ``a`` would say (``OK`` or why not; the
    player's cards are looked at) and, when ``OK``, the action's record."""
    rules, keys, key_ids, id_records, selection, offsets = table
    classic_pass = offsets.shape[0] - 1           # the classic table's pass row
    pass_id = selection[SEL_PASS]                 # offsets[-1]: the plays come first
    none = np.uint64(0)
    if not wild_in_table(table, a):
        return BAD_ID, none, none
    if a < pass_id:
        if state[G_PHASE] == PH_DONE:
            return HAND_OVER, none, none
        if state[G_PHASE] != PH_PLAY:
            return WRONG_PHASE, none, none
        cards, info = wild_id_record(a, wild_rank(state), rules, keys, key_ids, id_records,
                                     offsets, scratch)
        if cards == 0:                            # no move under this wild rank
            return BAD_ID, none, none
        if not contains(np.uint64(state[G_HANDS + state[G_PLAYER]]), cards):
            return NOT_HELD, none, none
        return OK, cards, info
    status = phase_of_id(state, rules, id_records, selection, a, a - pass_id + classic_pass)
    if status != OK:
        return status, none, none
    return OK, id_records[a - pass_id + classic_pass, 0], none


@leaf
def wild_step_ids(state, table, bufs, log, extra, a, k, end, n):
    """:func:`action_ids.step_ids` over wild ids: ``bufs`` is ``(ids, records, scratch)``,
    ``scratch`` a ``(wild.WILD_SCRATCH, 2)`` record buffer."""
    ids, records, scratch = bufs
    if n >= 0 and not is_among(ids, end - n, end, a):
        return -NOT_LEGAL
    if k >= log.shape[0]:
        return -LOG_FULL
    status, value, info = wild_check_id(state, table, a, scratch)
    if status != OK:
        return -status
    for j in range(state.shape[0]):    # a loop: ``log[k, :] = state`` has a copy path
        log[k, j] = state[j]
    engine_apply(state, table[0], (value, info))
    m = wild_legal_ids(state, table, records, ids[end:], scratch)
    if m > ids.shape[0] - end or m > records.shape[0]:
        return -(OVERFLOW + m)
    return m
