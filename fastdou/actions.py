"""Action ids: one fixed integer per action of a preset (:func:`action_table`).

Layout (docs/rules.md §10): the play ids first, one per (cards, reading) move of the preset's
move universe, then the pass, then the landlord-selection actions the preset uses, in the
order ``bid_1 .. bid_<max_bid>``, ``call``, ``grab``, ``reveal``, ``double``. The pass id is
every phase's 0 action (pass, decline, no). Play order:

* classic, ``standard`` profile: RLCard's ``ACTION_2_ID`` (pass = 27471), see
  :func:`_rlcard_key`;
* classic, ``openspiel`` profile: OpenSpiel's player action ids (0 pass, 1..3 bids, plays
  from 4; its deal is chance outcomes, another id space), see :mod:`fastdou.openspiel_ids`;
  house rules that select the landlord otherwise (other bids, calls, doubles) have actions
  OpenSpiel has no id for, and take the order below;
* every other table: by (kind, chain length, rank, cards).
"""

from __future__ import annotations

import functools

import numpy as np

from fastdou import cards as _cards
from fastdou import kernels as K
from fastdou.checks import is_whole, short
from fastdou.errors import IllegalMoveError, RulesError
from fastdou.hints import RulesLike
from fastdou.kernels import action_ids as KA
from fastdou.kernels import layout as L
from fastdou.kinds import Kind
from fastdou.moves import Move
from fastdou.rules import BIDDING, DOUBLING, Rules, as_rules, rules_array

try:                        # OpenSpiel's order (its own module; absent: the canonical one)
    from fastdou.openspiel_ids import openspiel_ids as _openspiel_ids
except ImportError:
    _openspiel_ids = None

_UNIVERSE_ROOM = 1 << 16   # rows tried first for a move universe (classic's: 27,472)
_SELECTION_VALUE = {"call": 1, "grab": 1, "reveal": 1, "double": 1}
_SELECTION_SLOT = {"bid": KA.SEL_BID, "call": KA.SEL_CALL, "grab": KA.SEL_GRAB,
                   "reveal": KA.SEL_REVEAL, "double": KA.SEL_DOUBLE}


def _universe(rules) -> np.ndarray:
    """Every move the preset's full deck could play: records ``(n, 2)``."""
    deck = np.uint64(_cards.pack(rules.deck))
    array = rules_array(rules)
    out = np.empty((_UNIVERSE_ROOM, L.REC_WIDTH), np.uint64)
    n = K.leading_moves(deck, array, out)
    if n > len(out):
        out = np.empty((n, L.REC_WIDTH), np.uint64)
        K.leading_moves(deck, array, out)
    return out[:n].copy()


def _rlcard_key(move: Move):
    """RLCard's order: by kind and chain length (fastdou's kind ids follow RLCard's groups),
    then rank, then the cards as sorted text, except that RLCard lists the kickers of planes
    of three or more trios with solo wings in sections: three trios: wings of three distinct
    ranks, then a trio of wings, then a pair and a solo (by the pair's rank); four or five
    trios: wings holding a joker, then wings without."""
    counts = move.cards
    text = tuple(np.repeat(np.arange(L.N_RANKS), counts))
    section = 0
    if move.kind == Kind.PLANE_SOLO and move.length >= 3:
        wings = counts - move.core()
        if move.length == 3:
            if wings.max() == 3:
                section = (1, 0)
            elif wings.max() == 2:
                section = (2, int(np.argmax(wings)))
            else:
                section = (0, 0)
        else:
            section = (0 if wings[L.SMALL_JOKER:].any() else 1, 0)
    return (int(move.kind), move.length, move.rank, section, text)


def _canonical_order(records: np.ndarray) -> np.ndarray:
    info = records[:, 1]
    kind = info & np.uint64(L.INFO_FIELD_MASK)
    rank = (info >> np.uint64(L.INFO_RANK_SHIFT)) & np.uint64(L.INFO_FIELD_MASK)
    length = info >> np.uint64(L.INFO_LENGTH_SHIFT)
    return np.lexsort((records[:, 0], rank, length, kind))


OPENSPIEL_BIDS = ["bid_1", "bid_2", "bid_3"]     # OpenSpiel's only selection actions


class ActionTable:
    """The ids of one preset's actions. Build it with :func:`action_table`."""

    def __init__(self, rules: Rules):
        self.rules = rules
        universe = _universe(rules)
        if rules.name == "classic" and rules.profile == "openspiel" and rules.players == 3 \
                and _openspiel_ids is not None and self._selection_names() == OPENSPIEL_BIDS:
            from fastdou.openspiel_ids import OPENSPIEL_PASS, OPENSPIEL_SIZE
            play_ids = _openspiel_ids(universe)
            size, pass_id = OPENSPIEL_SIZE, OPENSPIEL_PASS
            selection = [("bid_%d" % b, pass_id + b) for b in range(1, 4)]
        else:
            if rules.name == "classic" and rules.profile == "standard" and rules.players == 3:
                moves = [Move.from_record(r) for r in universe]
                order = sorted(range(len(moves)), key=lambda i: _rlcard_key(moves[i]))
            else:
                order = _canonical_order(universe)
            play_ids = np.empty(len(universe), np.int64)
            play_ids[np.asarray(order, np.int64)] = np.arange(len(universe))
            pass_id = len(universe)
            selection = [(n, pass_id + 1 + i) for i, n in enumerate(self._selection_names())]
            size = pass_id + 1 + len(selection)
        self.size = int(size)
        self.pass_id = int(pass_id)
        self.n_plays = len(universe)
        id_records = np.zeros((size, 2), np.uint64)
        id_records[:, 1] = KA.RESERVED
        id_records[play_ids] = universe
        id_records[pass_id] = 0
        sel = np.full(KA.N_SEL, -1, np.int64)
        sel[KA.SEL_PASS] = pass_id
        self._selection = {}
        for name, i in selection:
            kind, _, value = name.partition("_")
            id_records[i] = (int(value) if value else _SELECTION_VALUE[name], 0)
            self._selection[name] = i
            if sel[_SELECTION_SLOT[kind]] < 0:        # bids: the id of bid_1
                sel[_SELECTION_SLOT[kind]] = i
        slots = 1 << (2 * len(universe)).bit_length()      # at most half full
        keys = np.zeros((slots, 2), np.uint64)
        key_ids = np.zeros(slots, np.int64)
        KA.hash_plays(universe, play_ids, keys, key_ids)
        # Game passes the writable originals (Numba's dispatch takes read-only arrays
        # markedly slower); the attributes are read-only views of them.
        self._writable = (keys, key_ids, id_records, sel)
        self.keys, self.key_ids, self.id_records, self.selection = (
            _read_only(a) for a in self._writable)
        self._names = None

    def _selection_names(self) -> list:
        """The selection actions of this preset's modes (``kernels.layout``'s modes table)."""
        r = self.rules
        bidding = L.BIDDING_MODES[BIDDING[r.bidding]]
        doubling = L.DOUBLING_MODES[DOUBLING[r.doubling]]
        names = []
        if bidding[L.M_BIDS]:
            names += ["bid_%d" % b for b in range(1, r.max_bid + 1)]
        for flag, name in ((L.M_CALL, "call"), (L.M_GRAB, "grab"), (L.M_REVEAL, "reveal")):
            if bidding[flag]:
                names.append(name)
        if doubling[L.D_FARMERS] or doubling[L.D_LANDLORD]:
            names.append("double")
        return names

    # ----------------------------------------------------------------- lookups
    @property
    def kernel_args(self) -> tuple:
        """``(keys, key_ids, id_records, selection)`` for :mod:`fastdou.kernels.action_ids`."""
        return self.keys, self.key_ids, self.id_records, self.selection

    @property
    def selection_names(self) -> tuple:
        return tuple(self._selection)

    def is_action(self, i: int) -> bool:
        """Whether ``i`` is an id of this table (not out of range, not reserved)."""
        return is_whole(i) and 0 <= i < self.size and self.id_records[i, 1] != KA.RESERVED

    def _check_id(self, i) -> int:
        if not self.is_action(i):
            raise IllegalMoveError(f"{short(i)} is not an action id of {self.rules.name} "
                                   f"(0..{self.size - 1})")
        return int(i)

    def action(self, i: int) -> Move | str:
        """The action of id ``i``: a :class:`Move` (``Move.PASS`` for the pass id) or the
        name of a selection action (``"bid_2"``, ``"call"``, ...)."""
        i = self._check_id(i)
        if i == self.pass_id:
            return Move.PASS
        name = self._name_of_selection(i)
        return name if name is not None else Move.from_record(self.id_records[i])

    def _name_of_selection(self, i):
        for name, j in self._selection.items():
            if j == i:
                return name
        return None

    def id(self, action: Move | str | int) -> int:
        """The id of ``action``: a :class:`Move`, a move's text (one reading), ``"pass"``,
        or a selection name."""
        if isinstance(action, str):
            if action == "pass":
                return self.pass_id
            if action in self._selection:
                return self._selection[action]
            action = Move.parse(action, self.rules)
        if not isinstance(action, Move):
            raise IllegalMoveError(f"an action is a Move, its text or a selection name "
                                   f"({', '.join(self._selection)}), not {short(action)}")
        if action.is_pass:
            return self.pass_id
        i = int(KA.play_id(self.keys, self.key_ids, np.uint64(action.packed),
                           np.uint64(action.info)))
        if i < 0:
            raise IllegalMoveError(f"{action.text()} ({action.kind.name}) is not a move of "
                                   f"{self.rules.name}")
        return i

    def ids(self, records: np.ndarray) -> np.ndarray:
        """The ids of play records ``(n, 2)`` (the pass record gives the pass id); -1 for a
        record that is no move of the table."""
        records = np.asarray(records)
        if records.ndim != 2 or records.shape[1] != L.REC_WIDTH or \
                records.dtype != np.uint64:
            raise IllegalMoveError(f"records are a uint64 array of shape (n, 2), not "
                                   f"{records.dtype} {records.shape}")
        out = np.empty(len(records), np.int64)
        KA.play_ids(self.keys, self.key_ids, self.pass_id, np.ascontiguousarray(records), out)
        return out

    def records(self, ids: np.ndarray) -> np.ndarray:
        """The records of ``ids`` (``[value, 0]`` for a selection action)."""
        ids = np.asarray(ids)
        if ids.dtype.kind not in "iu" or ids.ndim != 1:
            raise IllegalMoveError(f"ids are a 1-d integer array, not {ids.dtype} {ids.shape}")
        bad = (ids < 0) | (ids >= self.size)
        if not bad.any():
            bad = self.id_records[ids, 1] == KA.RESERVED
        if bad.any():
            self._check_id(int(ids[np.flatnonzero(bad)[0]]))
        return self.id_records[ids]

    @property
    def moves(self) -> list:
        """The play :class:`Move` of every play id, in id order."""
        plays = np.flatnonzero((self.id_records[:, 1] != KA.RESERVED)
                               & (self.id_records[:, 1] != 0))
        return [Move.from_record(r) for r in self.id_records[plays]]

    @property
    def names(self) -> list:
        """A string per id: the move's cards as sorted text (RLCard's form for classic),
        ``"pass"``, the selection names, ``""`` for a reserved id."""
        if self._names is None:
            names = []
            for i in range(self.size):
                if not self.is_action(i):
                    names.append("")
                elif i == self.pass_id:
                    names.append("pass")
                else:
                    sel = self._name_of_selection(i)
                    names.append(sel if sel is not None else
                                 _cards.to_text(_cards.unpack(int(self.id_records[i, 0]))))
            self._names = names
        return list(self._names)

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return (f"<ActionTable {self.rules.name} ({self.rules.profile}): {self.size} ids, "
                f"pass {self.pass_id}>")


def _read_only(a: np.ndarray) -> np.ndarray:
    view = a.view()
    view.setflags(write=False)
    return view


# The play ids one fixed table would need under two wild ranks: a block per classic play and
# pair of stand-in multisets, one for each wild rank's cards (tests/engine/test_wild_ids_game.py
# counts it).
TWO_WILD_PLAY_IDS = 1_901_651_328


@functools.lru_cache(maxsize=64)
def _table(rules):
    if rules.wilds == 1:        # the plays of the same rules without wild cards, by stand-ins
        from fastdou.wild_actions import WildActionTable
        return WildActionTable(rules, _table(rules.replace(wilds=0)))
    if rules.wilds:
        raise RulesError(f"action ids take one wild rank; rules {rules.name!r} have "
                         f"wilds={rules.wilds} (天地癞子), whose fixed table would hold "
                         f"{TWO_WILD_PLAY_IDS:,} play ids (docs/rules.md §10.1): play them "
                         f"by move (legal_moves, Game.push)")
    return ActionTable(rules)


def action_table(rules: RulesLike = "classic"):
    """The action ids of ``rules`` (a preset name or :class:`~fastdou.Rules`): an
    :class:`ActionTable`, a :class:`~fastdou.wild_actions.WildActionTable` under one wild
    rank; cached."""
    return _table(as_rules(rules))
