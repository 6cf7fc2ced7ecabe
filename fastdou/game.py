"""``Game``: one hand of any preset, stepped from Python (bots, RL environments, solvers).

The state lives in one ``int64`` array driven by the compiled engine
(:mod:`fastdou.kernels.engine`), so a ``Game`` plays exactly like :func:`fastdou.simulate`.
``play`` checks an action, ``push`` / ``pop`` apply and undo without checking, ``clone``
copies; ``dumps`` / ``loads`` write and replay a JSON game record (:mod:`fastdou.record`).

A ``Game`` is for one thread at a time: a call made while another thread's call on the same
game runs raises ConcurrentUseError, never a corrupt state (clone it for each thread).
"""

from __future__ import annotations

import functools
import threading
from typing import TYPE_CHECKING, Sequence

import numpy as np

from fastdou import cards as _cards
from fastdou import record as _record
from fastdou._entry import entry_point
from fastdou.checks import is_whole, seat as _seat, short, whole
from fastdou.errors import (ArgumentError, ConcurrentUseError, GameStateError, IllegalMoveError,
                            PositionError)
from fastdou.hints import CardsLike, MoveLike, RulesLike
from fastdou.kernels import action_ids as KA
from fastdou.kernels import encoding as KE
from fastdou.kernels import engine as E
from fastdou.kernels import state as S
from fastdou.kernels.layout import REC_WIDTH
from fastdou.kernels.packing import contains
from fastdou.moves import Move
from fastdou.record import PHASES, GameResult, _is_logged_id  # GameResult: exported from here
from fastdou.rules import Rules, as_rules

if TYPE_CHECKING:
    from fastdou.actions import ActionTable
    from fastdou.observation import Observation
    from fastdou.position import Position

_ACTIONS_HINT = 256   # a first buffer for legal actions; it grows to what a position needs
_LOG_HINT = 128       # room for the states before this many actions; it doubles when full
STARTS = ("bidding", "play")
_PUSH_ERRORS = {KA.BAD_ID: "is not an action id of {rules}",
                KA.WRONG_PHASE: "is not an action of the {phase} phase",
                KA.NOT_HELD: "is a move seat {seat} does not hold"}


def _start_play(state, rules, begin: dict, start, landlord) -> None:
    """Apply ``start="play"`` (the landlord fixed, straight into play) to a fresh deal."""
    if not isinstance(start, str) or start not in STARTS:
        raise ArgumentError(f"start is 'bidding' or 'play', not {short(start)}")
    if start == "bidding":
        if landlord is not None:
            raise ArgumentError("landlord= fixes the landlord for start='play'")
        return
    if rules.bidding == "marked":
        if landlord is not None:
            raise ArgumentError(f"{rules.name} names its landlords by the marked card; "
                                f"landlord= does not apply")
        seat = 0
    else:
        seat = _seat("landlord", 0 if landlord is None else landlord, rules.players)
    E.skip_to_play(state, rules.array, seat)
    begin["start"] = "play"
    if rules.bidding != "marked":
        begin["landlord"] = seat


def _as_id(action_id) -> int:
    """An action id given as a numpy integer, as an int; anything else is refused."""
    if isinstance(action_id, np.integer) and not isinstance(action_id, np.bool_):
        return int(action_id)
    raise IllegalMoveError(f"an action id is an int, not {short(action_id)}")


_INT64 = np.int64
_IDS_CHUNK = 512      # a game's first buffer of legal ids (they go one after the other)
_IDS_MAX = 1 << 14    # its renewals double up to this (or what one position needs)
_STEP_ENTRY: dict = {}


def _conforms(a, ndim: int) -> bool:
    """Whether ``a`` is an aligned, C-contiguous, writable ``int64`` array of ``ndim``."""
    return type(a) is np.ndarray and a.dtype == np.int64 and a.ndim == ndim and \
        a.flags.c_contiguous and a.flags.writeable and a.flags.aligned


def _step_entry(game):
    """The compiled ``KA.step_ids`` for ``game``: Numba's entry point for its argument
    types (``fastdou._entry``: it skips the typing of 12 arguments, about 0.5 us a call)
    when its state and log have the types the entry point was compiled for; else the
    dispatcher. The entry point is given only arrays of its exact types: the table and
    rules arrays of a rules object, the ids buffers this class makes, and a state and log
    checked here (``push_id`` makes the action id an int)."""
    state, log = game._state, game._log
    if not (_conforms(state, 1) and _conforms(log, 2)):
        return KA.step_ids
    ra, keys, key_ids, id_records, selection = game._kernel
    ids, _, records = game._ids
    key = (game.rules, records.dtype, ids.dtype)
    if key not in _STEP_ENTRY:
        _STEP_ENTRY[key] = entry_point(KA.step_ids, (state, ra, keys, key_ids, id_records,
                                                     selection, records, ids, log, 0, 0, 0))
    return _STEP_ENTRY[key]


def _in_use():
    raise ConcurrentUseError("this Game is used from two threads at once (a call is running "
                             "on another thread): clone it for each thread")


def _exclusive(method):
    """``method`` holding the game's lock (one thread's calls at a time; see ``_busy``)."""
    @functools.wraps(method)
    def exclusive(self, *args, **kwargs):
        if not self._busy.acquire(False):
            _in_use()
        try:
            return method(self, *args, **kwargs)
        finally:
            self._busy.release()
    return exclusive


_WRITABLE_RULES: dict = {}


def _writable_rules(rules) -> np.ndarray:
    """A private writable copy of ``rules.array`` (shared by games; never written)."""
    if rules not in _WRITABLE_RULES:
        _WRITABLE_RULES[rules] = np.array(rules.array)
    return _WRITABLE_RULES[rules]


class Game:
    """One hand of play. Build it with :meth:`new` or :meth:`from_hands`."""

    def __init__(self, rules: Rules, state: np.ndarray, start: dict):
        self.rules = rules
        self._state = state
        self._start = start          # how the hand began, for the game record
        self._log = np.empty((_LOG_HINT, S.STATE_SIZE), np.int64)  # row k: the state
        self._actions: list = []     # before action k; the actions, for pop and the record
        self._table = None           # the action table, fetched when ids are first used
        self._kernel = None          # (rules array, table arrays), writable: see _id_args
        self._step = None            # the compiled step by id: see _setup_ids
        self._ids = None             # the legal ids are written here: (ids, read-only view,
        self._ids_end = 0            # records scratch), each position's after the last, up
        self._n_ids = -1             # to _ids_end; the last _n_ids are legal now (-1: unknown)
        self._actions_buf = None     # legal action records (see _records)
        self._busy = threading.RLock()  # held by the running call; the hot paths take it
                                     # inline, the others through _exclusive

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        del state["_busy"]           # a lock is not copied: the copy gets its own
        state["_step"] = None        # a compiled entry point: picked again when needed
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._busy = threading.RLock()

    # ----------------------------------------------------------------- construction
    @classmethod
    def new(cls, rules: RulesLike = "classic", *, seed: int = 0, deal: int = 0,
            start: str = "bidding", landlord: int | None = None) -> "Game":
        """Deal ``deal`` of ``seed``: the same cards, first bidder and redeals as
        :func:`fastdou.simulate` plays for that deal.

        ``start="play"`` fixes the landlord and goes straight into play (DouZero's and
        RLCard's setting): seat ``landlord`` (default 0) takes the kitty at base score 1 and
        leads; marked-card rules keep the landlords the deal names."""
        rules = as_rules(rules)
        seed, deal = whole("seed", seed), whole("deal", deal)
        state = E.new_state()
        E.start(state, rules.array, int(seed), int(deal))
        begin = {"seed": int(seed), "deal": int(deal)}
        _start_play(state, rules, begin, start, landlord)
        return cls(rules, state, begin)

    @classmethod
    def from_hands(cls, hands: Sequence[CardsLike], rules: RulesLike = "classic", *,
                   kitty: CardsLike | None = None, first: int = 0,
                   landlords: tuple[int, int] | None = None, marked: str | int | None = None,
                   seed: int = 0, start: str = "bidding",
                   landlord: int | None = None) -> "Game":
        """A hand dealt by the caller: one hand per seat (any card notation) and the kitty.

        Bidding opens with seat ``first``. Marked-card rules (five_player) take
        ``landlords=(bright, dark)`` instead (``dark == bright``: a lone landlord) and
        optionally ``marked``, the marked card's rank (a token such as ``"7"``, or its index,
        0 for 3; the dark landlord's first play holding that rank then reveals it, RULES.md
        §4.5). Redeals,
        if nobody takes the landlord, deal from ``seed``. ``start="play"``: seat
        ``landlord`` (default 0) takes the kitty and leads at once (see :meth:`new`).
        """
        rules = as_rules(rules)
        seed, hands, kit, first, landlords, mark = _record.dealt_start(
            hands, rules, kitty, first, landlords, marked, seed)
        game = cls._from_deal(rules, hands, kit, first=first, landlords=landlords, mark=mark,
                              seed=seed)
        _start_play(game._state, rules, game._start, start, landlord)
        return game

    # ----------------------------------------------------------------- positions
    @classmethod
    def from_position(cls, position: Position | str) -> "Game":
        """Continue a hand from a :class:`~fastdou.Position` (or its text), in the play
        phase: the position's seats, landlord side, seat to act and play to beat; base
        score 1, multiplier 1, no plays yet (spring counts from here). A Position carries
        no two_player handicap."""
        from fastdou.position import Position
        pos = Position.parse(position) if isinstance(position, str) else position
        if not isinstance(pos, Position):
            raise PositionError(f"expected a Position or its text, not {short(pos)}")
        state = E.new_state()
        E._reset(state, 0, 0)
        for s, counts in enumerate(pos.hands):
            state[S.G_HANDS + s] = np.int64(np.uint64(_cards.pack(counts)))
        state[S.G_FIRST] = pos.landlord
        state[S.G_LANDLORD] = pos.landlord
        state[S.G_PARTNER] = -1 if pos.partner is None else pos.partner
        state[S.G_TEAM] = pos.team
        state[S.G_BID] = 1
        E.begin_play(state, pos.rules.array)
        state[S.G_PLAYER] = pos.to_move
        if pos.last is not None:
            state[S.G_LAST_CARDS] = np.int64(np.uint64(pos.last.packed))
            state[S.G_LAST_INFO] = pos.last.info
            state[S.G_LAST_PLAYER] = pos.last_player
        return cls(pos.rules, state, {"position": str(pos)})

    def position(self) -> Position:
        """The current :class:`~fastdou.Position` (play phase only)."""
        from fastdou.position import Position
        st = self._state
        if self.phase != "play":
            raise PositionError(f"a position is a play-phase state; the game is in its "
                                f"{self.phase} phase")
        if self.rules.handicap and st[S.G_GRABS] > 0:
            raise PositionError("a two_player hand with a grab handicap has no Position "
                                "form (a Position ends only when a hand is empty)")
        leading = st[S.G_LAST_INFO] == 0
        partner = int(st[S.G_PARTNER])
        hands = [self.perfect_information_hand(s) for s in range(self.rules.players)]
        return Position(hands, self.rules,
                        landlord=self.landlord, partner=None if partner < 0 else partner,
                        to_move=self.current_player,
                        last=None if leading else self.last_move,
                        last_player=None if leading else int(st[S.G_LAST_PLAYER]))

    # ----------------------------------------------------------------- views
    @property
    def state(self) -> np.ndarray:
        """A copy of the engine state (see ``fastdou.kernels.state``)."""
        return self._state.copy()

    @property
    def current_player(self) -> int:
        return int(self._state[S.G_PLAYER])

    @property
    def phase(self) -> str:
        """``"bid"``, ``"reveal"``, ``"double"``, ``"play"`` or ``"done"``."""
        return PHASES[int(self._state[S.G_PHASE])]

    @property
    def landlord(self) -> int:
        return int(self._state[S.G_LANDLORD])

    @property
    def multiplier(self) -> int:
        return int(self._state[S.G_MULT])

    def perfect_information_hand(self, seat: int) -> np.ndarray:
        """The 15 counts seat ``seat`` holds: perfect information, hidden from the other
        seats (a seat's own view is :meth:`observation`)."""
        seat = _seat("seat", seat, self.rules.players)
        return _cards.unpack(int(self._state[S.G_HANDS + seat]))

    @property
    def last_move(self) -> Move:
        """The move to beat (``Move.PASS`` when the player to act leads)."""
        return Move.from_record(self._state[[S.G_LAST_CARDS, S.G_LAST_INFO]].astype(np.uint64))

    def is_terminal(self) -> bool:
        return self._state[S.G_PHASE] == S.PH_DONE

    @property
    def scores(self) -> tuple:
        """Every seat's score change once the hand is over (``result().scores`` without
        building the rest of the result)."""
        if not self.is_terminal():
            raise GameStateError("the hand is not over")
        return tuple(float(self._state[S.G_SCORES + s]) / S.SCORE_UNIT
                     for s in range(self.rules.players))

    # ----------------------------------------------------------------- actions
    def _records(self) -> np.ndarray:
        """The legal action records, in a buffer of this game's that grows to the most any
        position needed (so a large lead, emperor's, is generated once a call, not twice);
        read them before the next call."""
        out = self._actions_buf
        if out is None:
            out = self._actions_buf = np.empty((_ACTIONS_HINT, REC_WIDTH), np.uint64)
        n = E.legal_actions(self._state, self.rules.array, out)
        if n > len(out):
            out = self._actions_buf = np.empty((n, REC_WIDTH), np.uint64)
            E.legal_actions(self._state, self.rules.array, out)
        return out[:n]

    @_exclusive
    def legal_actions(self) -> list:
        """Bids / calls / reveals / doubles as ints (0: pass or no), or in the play phase
        every legal :class:`Move`, ``Move.PASS`` first when passing is legal."""
        records = self._records()
        if self.phase == "play":
            return [Move.from_record(r) for r in records]
        return [int(r[0]) for r in records]

    def _record_of(self, action) -> np.ndarray:
        if self.phase == "play":
            if isinstance(action, str):
                action = Move.parse(action, self.rules)
            if not isinstance(action, Move):
                raise IllegalMoveError(f"the play phase takes a Move or its text, "
                                       f"not {short(action)}")
            return action.record
        if not is_whole(action):
            raise IllegalMoveError(f"the {self.phase} phase takes an int, not {short(action)}")
        if not 0 <= action <= self.rules.max_bid:      # bids 1..max_bid; call, double.. 1
            raise IllegalMoveError(self._why_illegal(int(action), None))
        return np.array([int(action), 0], dtype=np.uint64)

    @_exclusive
    def play(self, action: MoveLike | int) -> None:
        """Apply ``action`` after checking it is legal now (IllegalMoveError says why)."""
        if self.is_terminal():
            raise IllegalMoveError("the hand is over")
        record = self._record_of(action)
        records = self._records()
        if not ((records == record).all(axis=1)).any():
            raise IllegalMoveError(self._why_illegal(action, record))
        self.push(action, _record=record)

    def _why_illegal(self, action, record) -> str:
        seat = self.current_player
        if self.phase != "play":
            allowed = ", ".join(str(a) for a in self.legal_actions())
            return f"{action!r} is not allowed in the {self.phase} phase now ({allowed})"
        move = Move.from_record(record)
        if move.is_pass:
            return f"seat {seat} leads and may not pass"
        held = self.perfect_information_hand(seat)
        if (move.cards > held).any():
            return f"seat {seat} does not hold {move.text()}"
        last = self.last_move
        if last.is_pass:
            return f"{move.text()} is not a legal lead"
        return f"{move.text()} does not beat {last.text()}"

    @_exclusive
    def push(self, action: MoveLike | int, *, _record: np.ndarray | None = None) -> None:
        """Apply ``action`` without checking that it is legal now (fast): only that it is an
        action of this phase and, in play, that the player holds its cards. A move that does
        not beat the last one, or a pass when leading, is applied as given."""
        if self.is_terminal():
            raise GameStateError("the hand is over")
        record = _record if _record is not None else self._record_of(action)
        if self.phase == "play":        # the one check push keeps: no card is played twice
            held = np.uint64(self._state[S.G_HANDS + self.current_player])
            if not contains(held, record[0]):
                raise IllegalMoveError(f"seat {self.current_player} does not hold "
                                       f"{Move.from_record(record).text()}")
        self._log_row()[:] = self._state
        self._actions.append(Move.from_record(record) if isinstance(action, str) else action)
        self._n_ids = -1
        E.apply(self._state, self.rules.array, record)

    def _log_row(self) -> np.ndarray:
        """The log row for the state before the next action (the log grows when full)."""
        k = len(self._actions)
        if k == len(self._log):
            self._log = np.concatenate([self._log, np.empty_like(self._log)])
        return self._log[k]

    # ----------------------------------------------------------------- action ids
    @property
    def action_table(self) -> ActionTable:
        """The :class:`~fastdou.ActionTable` of this game's rules."""
        if self._table is None:
            from fastdou.actions import action_table
            self._table = action_table(self.rules)
        return self._table

    def _id_args(self) -> tuple:
        """``(rules array, keys, key_ids, id_records, selection)`` as writable arrays, which
        Numba's dispatch takes faster than the read-only public ones; never written."""
        if self._kernel is None:
            self._kernel = (_writable_rules(self.rules),) + self.action_table._writable
        return self._kernel

    def _setup_ids(self):
        """Allocate the ids buffers and pick the compiled step (see ``_step_entry``)."""
        self._id_args()
        if self._ids is None:
            self._new_ids(_IDS_CHUNK)
        self._step = _step_entry(self)
        return self._step

    def _new_ids(self, room: int) -> None:
        """A fresh buffer for the legal ids (the views handed out keep the old one)."""
        ids = np.empty(room, np.int64)
        view = ids.view()
        view.flags.writeable = False
        old = self._ids[2] if self._ids is not None else None
        records = old if old is not None and len(old) >= room else \
            np.empty((room, REC_WIDTH), np.uint64)
        self._ids = (ids, view, records)
        self._ids_end = 0
        self._n_ids = -1

    def _write_ids(self) -> int:
        """Write the legal ids after the last ones (in a fresh buffer when they do not fit);
        returns their count."""
        ra, keys, key_ids, _, selection = self._kernel or self._id_args()
        if self._ids is None:
            self._new_ids(_IDS_CHUNK)
        ids, _, records = self._ids
        off = self._ids_end
        room = min(len(ids) - off, len(records))
        n = KA.legal_ids(self._state, ra, keys, key_ids, selection, records[:room], ids[off:])
        if n > room:
            self._renew_ids(n)
            ids, _, records = self._ids
            off = 0
            KA.legal_ids(self._state, ra, keys, key_ids, selection, records, ids)
        self._ids_end, self._n_ids = off + n, n
        return n

    def _renew_ids(self, n: int) -> None:
        """A fresh buffer with room for ``n`` ids (twice the last, up to ``_IDS_MAX``)."""
        self._new_ids(max(n, min(2 * len(self._ids[0]), _IDS_MAX)))
        if self._step is not None:
            self._step = _step_entry(self)

    def legal_action_ids(self) -> np.ndarray:
        """The ids (``int64``) of the legal actions, in :meth:`legal_actions`' order: a
        read-only array, which later steps never change (``.copy()`` it to write to it)."""
        if not self._busy.acquire(False):
            _in_use()
        try:
            n = self._n_ids
            if n < 0:
                n = self._write_ids()
            end = self._ids_end
            return self._ids[1][end - n:end]
        finally:
            self._busy.release()

    def action_mask(self) -> np.ndarray:
        """A ``bool`` array over the action table: True at every legal id."""
        mask = np.zeros(self.action_table.size, bool)
        mask[self.legal_action_ids()] = True
        return mask

    @_exclusive
    def play_id(self, action_id: int) -> None:
        """Apply the action of id ``action_id`` after checking it is legal now."""
        t = self.action_table
        if not t.is_action(action_id):
            raise IllegalMoveError(f"{short(action_id)} is not an action id of "
                                   f"{self.rules.name} (0..{t.size - 1})")
        if self.is_terminal():
            raise IllegalMoveError("the hand is over")
        if not (self.legal_action_ids() == action_id).any():
            action = t.action(action_id)
            if isinstance(action, str):
                raise IllegalMoveError(f"{action} (id {action_id}) is not allowed in the "
                                       f"{self.phase} phase now")
            raise IllegalMoveError(f"id {action_id}: " + self._why_illegal(
                action, action.record if self.phase == "play" else None))
        self.push_id(action_id)

    def push_id(self, action_id: int) -> None:
        """Apply the action of id ``action_id`` without checking that it is legal now, as
        :meth:`push` does (only that it is an action of this phase and, in play, that the
        player holds its cards)."""
        # The hot path of a Python agent: one lock, one compiled call, the rest in
        # _pushed_slowly (the lock is reentrant: that may push again).
        if not self._busy.acquire(False):
            _in_use()
        try:
            if type(action_id) is not int:
                action_id = int(action_id) if type(action_id) is _INT64 else _as_id(action_id)
            step = self._step or self._setup_ids()
            ra, keys, key_ids, id_records, selection = self._kernel
            ids, _, records = self._ids
            off = self._ids_end
            try:
                n = step(self._state, ra, keys, key_ids, id_records, selection, records, ids,
                         self._log, action_id, len(self._actions), off)
            except OverflowError:               # an int beyond int64: no action id
                n = -KA.BAD_ID
            if n < 0:
                self._pushed_slowly(-n, action_id)
                return
            self._actions.append(~action_id)    # an action pushed by id is logged as ~id
            self._ids_end = off + n
            self._n_ids = n
        finally:
            self._busy.release()

    def _pushed_slowly(self, status: int, action_id: int) -> None:
        """``push_id`` when its step said more than the ids' count (``KA.step_ids``): the
        ids did not fit (a fresh buffer, written when asked), the log was full (grow it and
        step again), or why ``action_id`` was refused."""
        if status >= KA.OVERFLOW:
            self._actions.append(~action_id)
            self._renew_ids(status - KA.OVERFLOW)
        elif status == KA.LOG_FULL:
            self._log_row()                      # grows the log
            self.push_id(action_id)
        elif status == KA.HAND_OVER:
            raise GameStateError("the hand is over")
        else:
            raise IllegalMoveError(f"id {short(action_id)} " + _PUSH_ERRORS[status].format(
                rules=self.rules.name, phase=self.phase, seat=self.current_player))

    @property
    @_exclusive
    def history(self) -> tuple:
        """Every action so far: ``(seat, phase, action)``, actions as :meth:`push` takes
        them (a :class:`Move` in play, an int elsewhere)."""
        return _record.history(self)

    # ----------------------------------------------------------------- per-seat views
    @_exclusive
    def observation(self, seat: int) -> Observation:
        """What seat ``seat`` may know now: a :class:`~fastdou.Observation`."""
        from fastdou.observation import observe
        return observe(self, _seat("seat", seat, self.rules.players))

    def encode(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """fastdou's numeric encoding of :meth:`observation` (``int8``, layout in
        ``fastdou.kernels.encoding``), written into ``out`` when given."""
        seat = _seat("seat", seat, self.rules.players)
        size = int(KE.encoding_size(self.rules.array))
        if out is None:
            out = np.empty(size, np.int8)
        elif not (isinstance(out, np.ndarray) and out.dtype == np.int8 and out.shape == (size,)
                  and out.flags.c_contiguous and out.flags.writeable):
            raise ArgumentError(f"out is a writeable, contiguous int8 array of shape ({size},)")
        if not self._busy.acquire(False):
            _in_use()
        try:
            KE.encode(self._state, self.rules.array, seat, out)
        finally:
            self._busy.release()
        return out

    def pop(self) -> Move | int:
        """Undo the last action exactly and return it."""
        if not self._busy.acquire(False):
            _in_use()
        try:
            if not self._actions:
                raise GameStateError("no action to undo")
            action = self._actions.pop()
            self._state[:] = self._log[len(self._actions)]
            self._n_ids = -1
        finally:
            self._busy.release()
        return ~action if _is_logged_id(action) else action

    @_exclusive
    def clone(self) -> "Game":
        g = Game(self.rules, self._state.copy(), dict(self._start))
        g._log = self._log.copy()
        g._actions = list(self._actions)
        return g

    # ----------------------------------------------------------------- result and record
    def result(self) -> GameResult:
        """The outcome of the finished hand: a :class:`GameResult`."""
        return _record.result(self)

    @property
    def deals(self) -> list:
        """Every deal of the hand, redeals included: ``{"after": k, "hands": [...], "kitty":
        ...}``, ``k`` the index of the action that ended the deal before (-1 for the first).
        Hands as dealt, before the landlord takes the kitty (with marked-card rules the
        bright landlord holds it)."""
        return _record.deals(self)

    @_exclusive
    def record(self) -> dict:
        """The game record: rules, how the hand began, every action, and every deal."""
        return _record.record(self)

    def dumps(self) -> str:
        """The game record as JSON."""
        return _record.dumps(self)

    @classmethod
    def loads(cls, text: str) -> "Game":
        """Replay a JSON game record (every action checked) to the state it reached.

        A record that is not of the documented form raises ``RecordError``; an action that
        is illegal where it stands raises ``IllegalMoveError`` naming its position."""
        return _record.loads(cls, text)

    @classmethod
    def _from_deal(cls, rules: Rules, hands: list, kitty: list, first: int = 0,
                   landlords: tuple | None = None, mark: int = -1, seed: int = 0) -> "Game":
        """A fresh deal (bidding not begun) from a valid deal: :meth:`from_hands`' once it
        has checked its input, or the OpenSpiel adapter's, valid by construction (dealt by
        chance). Hands and kitty as lists of 15 int counts, not checked; ``mark`` the
        marked card's rank or -1; ``seed`` the seed of redeals."""
        from operator import lshift, mul
        places = list(hands) + [kitty]
        texts = ["".join(map(mul, _cards.TOKENS, h)) for h in places]
        shifts = range(0, _cards.PACKED_BITS, _cards.COUNT_BITS)
        packed = [sum(map(lshift, h, shifts)) for h in places]
        bright, dark = landlords if landlords is not None else (0, 0)
        state = E.new_state()
        state[S.G_SEED] = seed
        E.start_from_hands(state, rules.array, np.array(packed[:-1], np.uint64),
                           np.uint64(packed[-1]), first, bright, dark)
        begin = {"seed": seed, "hands": texts[:-1], "kitty": texts[-1], "first": first}
        if rules.bidding == "marked":
            begin["landlords"] = [bright, dark]
        if mark >= 0:
            state[S.G_MARKED] = 4 * mark            # the suit does not matter to play
            begin["marked"] = _cards.TOKENS[mark]
        return cls(rules, state, begin)

    def __repr__(self) -> str:
        actions = int(self._state[S.G_ACTIONS])
        if not self.is_terminal():
            return (f"<Game {self.rules.name} {self.phase}, seat {self.current_player} "
                    f"to act, {actions} actions>")
        return (f"<Game {self.rules.name} finished, {_record.outcome(self)}, "
                f"{actions} actions>")
