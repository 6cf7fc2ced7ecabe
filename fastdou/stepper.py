"""The one stepper by action id, shared by :class:`fastdou.Game` and the RLCard and DouZero
adapters: a state array and its undo log, the legal ids, the rules and table arrays, and
the compiled step, one call a step.

The legal ids go one position after the other into one buffer (a fresh one when full), so
an array of ids handed out never changes. The rules and table arrays are private writable
copies (Numba's dispatch takes them faster than the read-only public ones; never written).
The step is ``_KERNEL``, called through Numba's entry point for its argument types
(:mod:`fastdou.compiling.entry_points`): ``kernels.action_ids.step_ids`` for a ``Game``; an adapter's
subclass names its own kernel, which calls ``step_ids`` and then adds its ecosystem's
outputs into ``_extra`` (RLCard's ordered ids and ``obs``, DouZero's grouped actions).
A step checked against the legal ids (``play_id``) is the same call, the id looked for
among them in compiled code.
"""

from __future__ import annotations

import numpy as np

from fastdou.compiling.entry_points import entry_point
from fastdou.kernels import action_ids as KA
from fastdou.kernels import state as S
from fastdou.kernels import wild as KW
from fastdou.kernels import wild_steps as KWS
from fastdou.kernels.layout import REC_WIDTH
from fastdou.rules import rules_array
from fastdou.wild_actions import rank_of_mask

LOG_HINT = 128        # room for the states before this many actions; it doubles when full
IDS_CHUNK = 512       # a stepper's first buffer of legal ids (they go one after the other)
IDS_MAX = 1 << 14     # its renewals double up to this (or what one position needs)
_ENTRY: dict = {}     # (kernel, rules) -> its entry point
_TABLES: dict = {}    # rules -> its writable (rules array, keys, key_ids, id_records, selection)


def conforms(a, ndim: int) -> bool:
    """Whether ``a`` is an aligned, C-contiguous, writable ``int64`` array of ``ndim``."""
    return type(a) is np.ndarray and a.dtype == np.int64 and a.ndim == ndim and \
        a.flags.c_contiguous and a.flags.writeable and a.flags.aligned


def kernel_table(rules) -> tuple:
    """``(rules array, keys, key_ids, id_records, selection)`` of ``rules`` as private
    writable arrays, shared by every stepper of those rules; never written. Under a wild
    rank, ``offsets`` follows (``kernels.wild_steps``)."""
    table = _TABLES.get(rules)
    if table is None:
        from fastdou.actions import action_table
        table = _TABLES[rules] = (rules_array(rules, wild=True),) + \
            action_table(rules)._writable
    return table


class Stepper:
    """A state stepped by action id (see the module docstring). ``_actions`` lists what was
    applied (an id ``a`` as ``~a``); ``_log[k]`` is the state before action ``k``."""

    # (state, table, bufs, log, extra, a, k, end, n), as step_ids (a staticmethod: a Numba
    # dispatcher is a descriptor, which would bind the stepper as its first argument)
    _KERNEL = staticmethod(KA.step_ids)

    def __init__(self, rules, state: np.ndarray):
        self.rules = rules
        self._state = state
        self._log = np.empty((LOG_HINT, S.STATE_SIZE), np.int64)
        self._actions: list = []
        self._table = None           # the action table, fetched when ids are first used
        self._kernel = None          # kernel_table(rules), when ids are first used
        self._step = None            # the compiled step: see _setup_ids
        self._ids = None             # (ids, read-only view, records scratch)
        self._bufs = None            # (ids, records), as the kernel takes them
        self._ids_end = 0            # the ids are written up to here; the last _n_ids
        self._n_ids = -1             # are legal now (-1: unknown)
        self._extra = ()             # what a subclass's kernel writes to

    @property
    def action_table(self):
        """The :class:`~fastdou.ActionTable` of these rules."""
        if self._table is None:
            from fastdou.actions import action_table
            self._table = action_table(self.rules)
        return self._table

    def _id_record(self, a: int, state: np.ndarray) -> np.ndarray:
        """The record of action id ``a`` in ``state`` (under its wild rank, if any)."""
        if not self.rules.wilds:
            return self.action_table.id_records[a]
        return self.action_table.records(np.array([a]), rank_of_mask(state[S.G_WILDS]))[0]

    def _setup_ids(self):
        """The table arrays, the ids buffers and the compiled step (see ``_entry``)."""
        self._buffers()
        self._step = self._entry()
        return self._step

    def _buffers(self) -> None:
        """The table arrays and the ids buffers, when first needed."""
        if self._kernel is None:
            self._kernel = kernel_table(self.rules)
        if self._ids is None:
            self._new_ids(IDS_CHUNK)

    def _entry(self):
        """``_KERNEL``'s entry point when the state and log have the types it was made for
        (the other arrays are this class's, and ``_extra`` a subclass's, of fixed types:
        its kernel's entry point is made for them); else the dispatcher. Under a wild rank,
        ``kernels.wild_steps.wild_step_ids``."""
        kernel = KWS.wild_step_ids if self.rules.wilds else self._KERNEL
        if not (conforms(self._state, 1) and conforms(self._log, 2)):
            return kernel
        key = (kernel, self.rules)
        if key not in _ENTRY:
            _ENTRY[key] = entry_point(kernel, (self._state, self._kernel, self._bufs,
                                               self._log, self._extra, 0, 0, 0, 0))
        return _ENTRY[key]

    def _take_over(self, other: "Stepper") -> None:
        """Step on in ``other``'s table arrays, ids buffers, ``_extra`` and compiled step
        (``other`` of this class and rules, this stepper's state and log fresh), the ids
        after ``other``'s last ones, so no array handed out changes; ``other`` makes fresh
        ones when next used."""
        self._kernel, self._ids, self._bufs = other._kernel, other._ids, other._bufs
        self._ids_end, self._extra, self._step = other._ids_end, other._extra, other._step
        other._ids = other._bufs = other._step = None
        other._extra, other._n_ids = (), -1

    def _new_ids(self, room: int) -> None:
        """A fresh buffer for the legal ids (the views handed out keep the old one)."""
        ids = np.empty(room, np.int64)
        view = ids.view()
        view.flags.writeable = False
        old = self._ids[2] if self._ids is not None else None
        records = old if old is not None and len(old) >= room else \
            np.empty((room, REC_WIDTH), np.uint64)
        self._ids = (ids, view, records)
        self._bufs = (ids, records)
        if self.rules.wilds:                      # classic readings: this stepper's own
            self._bufs += (np.empty((KW.WILD_SCRATCH, REC_WIDTH), np.uint64),)
        self._ids_end = 0
        self._n_ids = -1

    def _renew_ids(self, n: int) -> None:
        """A fresh buffer with room for ``n`` ids (twice the last, up to ``IDS_MAX``)."""
        self._new_ids(max(n, min(2 * len(self._ids[0]), IDS_MAX)))

    def _list_ids(self, records: np.ndarray, out: np.ndarray) -> int:
        """Write the legal ids into ``out`` (``records``: scratch as long); their count
        (when more than fit, nothing past the room is written)."""
        if self.rules.wilds:
            return KWS.wild_legal_ids(self._state, self._kernel, records, out, self._bufs[2])
        ra, keys, key_ids, _, selection = self._kernel
        return KA.legal_ids(self._state, ra, keys, key_ids, selection, records, out)

    def _write_ids(self) -> int:
        """Write the legal ids after the last ones (in a fresh buffer when they do not fit);
        returns their count."""
        if self._kernel is None or self._ids is None:
            self._buffers()
        ids, _, records = self._ids
        off = self._ids_end
        room = min(len(ids) - off, len(records))
        n = self._list_ids(records[:room], ids[off:off + room])
        if n > room:
            self._renew_ids(n)
            ids, _, records = self._ids
            off = 0
            self._list_ids(records, ids)
        self._ids_end, self._n_ids = off + n, n
        return n

    def _legal_ids(self) -> np.ndarray:
        """The legal ids now: a read-only view that later steps never change."""
        n = self._n_ids
        if n < 0:
            n = self._write_ids()
        end = self._ids_end
        return self._ids[1][end - n:end]

    def _stepped(self, a: int, n: int) -> int:
        """Apply action id ``a`` (an int), checked against the legal ids when ``n`` is their
        count ``_n_ids`` (``play_id``; -1: ``push_id``'s checks only). Returns the new legal
        ids' count; ``-status`` when ``a`` was refused (``kernels.action_ids``; nothing
        changed)."""
        step = self._step or self._setup_ids()
        end = self._ids_end
        try:
            m = step(self._state, self._kernel, self._bufs, self._log, self._extra, a,
                     len(self._actions), end, n)
        except OverflowError:                   # an int beyond int64: no action id
            return -KA.BAD_ID
        if m < 0:
            return self._stepped_slowly(-m, a, n)
        self._actions.append(~a)
        self._ids_end = end + m
        self._n_ids = m
        return m

    def _stepped_slowly(self, status: int, a: int, n: int) -> int:
        """``_stepped`` when the kernel said more than a count: the ids did not fit (a
        fresh buffer, written when asked: ``_n_ids`` unknown), the log was full (grow it
        and step again), or why ``a`` was refused."""
        if status >= KA.OVERFLOW:
            self._actions.append(~a)
            self._renew_ids(status - KA.OVERFLOW)
            return status - KA.OVERFLOW
        if status == KA.LOG_FULL:
            self._log_row()                     # grows the log
            return self._stepped(a, n)
        return -status

    def _log_row(self) -> np.ndarray:
        """The log row for the state before the next action (the log grows when full)."""
        k = len(self._actions)
        if k == len(self._log):
            self._log = np.concatenate([self._log, np.empty_like(self._log)])
        return self._log[k]

    def _unstep(self):
        """Restore the state before the last action; returns that action as logged."""
        action = self._actions.pop()
        self._state[:] = self._log[len(self._actions)]
        self._n_ids = -1
        return action
