"""Action ids with one wild rank (preset ``laizi``, RULES.md §4.8): :class:`WildActionTable`,
what :func:`fastdou.action_table` gives for rules with ``wilds=1``.

One fixed table whatever rank is wild (``kernels/wild_ids.py``): the plays first, each classic
play of the same rules (the substituted move) a block of ids, one per multiset of at most 4 of
its ranks 3..2 the wild cards could stand in for; then the pass and the selection actions in
the classic table's order. An id is a move only under some wild ranks, so turning one into a
move takes the wild rank (``wild=``: a rank token or index 3..2).
"""

from __future__ import annotations

import numpy as np

from fastdou import cards as _cards
from fastdou.checks import is_whole, short
from fastdou.errors import IllegalMoveError
from fastdou.kernels import layout as L
from fastdou.kernels import wild_ids as KW
from fastdou.moves import Move
from fastdou.rules import Rules, rules_array


def _rank(wild) -> int:
    """The wild rank 0..12 of ``wild``: a rank token or index."""
    if isinstance(wild, str) and len(wild) in (1, 2):
        counts = _cards.parse(wild)
        if counts.sum() == 1 and counts[:13].any():
            return int(np.argmax(counts))
    elif is_whole(wild) and not isinstance(wild, bool) and 0 <= wild <= 12:
        return int(wild)
    raise IllegalMoveError(f"wild is one wild rank, a token or index 3..2, not {short(wild)}")


def rank_of_mask(mask: int) -> int | None:
    """The wild rank 0..12 of a one-rank wilds bit mask (a Move's or a state's); None for 0."""
    return int(mask).bit_length() - 1 if mask else None


class WildActionTable:
    """The ids of rules with one wild rank. Build it with :func:`fastdou.action_table`."""

    def __init__(self, rules: Rules, classic):
        self.rules = rules
        self.classic = classic                    # the ActionTable of the substituted moves
        keys, key_ids, id_records, classic_sel = classic._writable
        sizes = np.zeros(classic.n_plays, np.int64)
        KW.block_sizes(id_records[:classic.n_plays], sizes)
        offsets = np.zeros(classic.n_plays + 1, np.int64)
        np.cumsum(sizes, out=offsets[1:])
        self.n_plays = int(offsets[-1])
        shift = self.n_plays - classic.n_plays
        self.pass_id = classic.pass_id + shift
        self.size = classic.size + shift
        selection = np.where(classic_sel >= 0, classic_sel + shift, -1)
        self._selection = {n: i + shift for n, i in classic._selection.items()}
        self._writable = (keys, key_ids, id_records, selection, offsets)
        self.offsets = offsets.view()
        self.offsets.flags.writeable = False
        self.selection = selection.view()
        self.selection.flags.writeable = False

    @property
    def selection_names(self) -> tuple:
        return tuple(self._selection)

    def is_action(self, i: int) -> bool:
        """Whether ``i`` is an id of this table (under some wild rank)."""
        return is_whole(i) and 0 <= i < self.size

    def _check_id(self, i) -> int:
        if not self.is_action(i):
            raise IllegalMoveError(f"{short(i)} is not an action id of {self.rules.name} "
                                   f"(0..{self.size - 1})")
        return int(i)

    def action(self, i: int, wild=None) -> Move | str:
        """The action of id ``i``: a :class:`Move` under the wild rank ``wild`` (needed for a
        play id), ``Move.PASS``, or a selection action's name."""
        i = self._check_id(i)
        if i == self.pass_id:             # under a wild rank, the pass a Game lists
            return Move.PASS if wild is None else \
                Move.from_record(np.zeros(L.REC_WIDTH, np.uint64), 1 << _rank(wild), self.rules)
        for name, j in self._selection.items():
            if j == i:
                return name
        if wild is None:
            raise IllegalMoveError(f"id {i} is a play: its move depends on the wild rank "
                                   f"(wild=)")
        record = self.records(np.array([i]), wild)[0]
        return Move.from_record(record, 1 << _rank(wild), self.rules)

    def id(self, action: Move | str | int, wild=None) -> int:
        """The id of ``action``: a :class:`Move` made under one wild rank, its text with
        ``wild``, ``"pass"``, or a selection name."""
        if isinstance(action, str):
            if action == "pass":
                return self.pass_id
            if action in self._selection:
                return self._selection[action]
            action = Move.parse(action, self.rules, wild=None if wild is None else
                                _cards.TOKENS[_rank(wild)])
        if not isinstance(action, Move):
            raise IllegalMoveError(f"an action is a Move, its text or a selection name "
                                   f"({', '.join(self._selection)}), not {short(action)}")
        if action.is_pass:
            return self.pass_id
        if not action.wilds:
            raise IllegalMoveError(f"{action.text()} was made without a wild rank: make it "
                                   f"with wild= (or take it from a Game of {self.rules.name})")
        i = int(self.ids(action.record[None, :], rank_of_mask(action.wilds))[0])
        if i < 0:
            raise IllegalMoveError(f"{action.text()} ({action.kind.name}) is not a move of "
                                   f"{self.rules.name}")
        return i

    def ids(self, records: np.ndarray, wild=None) -> np.ndarray:
        """The ids of play records ``(n, 2)`` (with their bomb classes) under the wild rank
        ``wild`` (the pass record gives the pass id); -1 for a record that is no move."""
        records = np.asarray(records)
        if records.ndim != 2 or records.shape[1] != L.REC_WIDTH or \
                records.dtype != np.uint64:
            raise IllegalMoveError(f"records are a uint64 array of shape (n, 2), not "
                                   f"{records.dtype} {records.shape}")
        keys, key_ids, _, _, offsets = self._writable
        out = np.empty(len(records), np.int64)
        KW.wild_ids_of(np.ascontiguousarray(records), _rank(wild),
                       rules_array(self.rules, wild=True), keys, key_ids, offsets,
                       self.pass_id, out)
        return out

    def records(self, ids: np.ndarray, wild=None) -> np.ndarray:
        """The records of ``ids`` under the wild rank ``wild`` (``[value, 0]`` for a
        selection action; ``wild`` may be None when no id is a play); an id that is no move
        under it is an IllegalMoveError."""
        ids = np.asarray(ids)
        if ids.dtype.kind not in "iu" or ids.ndim != 1:
            raise IllegalMoveError(f"ids are a 1-d integer array, not {ids.dtype} {ids.shape}")
        bad = (ids < 0) | (ids >= self.size)
        if bad.any():
            self._check_id(int(ids[np.flatnonzero(bad)[0]]))
        keys, key_ids, id_records, _, offsets = self._writable
        ids = ids.astype(np.int64)
        out = np.zeros((len(ids), L.REC_WIDTH), np.uint64)
        plays = ids < self.n_plays
        if plays.any():
            found = np.zeros((int(plays.sum()), L.REC_WIDTH), np.uint64)
            KW.wild_records_of(np.ascontiguousarray(ids[plays]), _rank(wild),
                               rules_array(self.rules, wild=True), keys, key_ids, id_records,
                               offsets, found)
            out[plays] = found
        none = plays & (out[:, 0] == 0)
        if none.any():
            raise IllegalMoveError(f"id {int(ids[np.flatnonzero(none)[0]])} is no move when "
                                   f"{_cards.TOKENS[_rank(wild)]} is wild")
        out[~plays] = id_records[ids[~plays] - self.n_plays + self.classic.n_plays]
        return out

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return (f"<WildActionTable {self.rules.name}: {self.size} ids, pass {self.pass_id}>")
