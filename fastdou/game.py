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
from fastdou.checks import is_whole, seat as _seat, short, whole
from fastdou.compiling.cold_start import game_generator
from fastdou.errors import (ArgumentError, ConcurrentUseError, GameStateError, IllegalMoveError,
                            PositionError)
from fastdou.hints import CardsLike, MoveLike, RulesLike
from fastdou.kernels import action_ids as KA
from fastdou.kernels import encoding as KE
from fastdou.kernels import engine as E
from fastdou.kernels import position_state as KP
from fastdou.kernels import state as S
from fastdou.kernels.layout import REC_WIDTH
from fastdou.kernels.packing import contains
from fastdou.moves import Move, mask_text
from fastdou.record import PHASES, GameResult, _is_logged_id  # GameResult: exported from here
from fastdou.rules import Rules, as_rules, rules_array
from fastdou.stepper import Stepper
from fastdou.wild_actions import rank_of_mask

if TYPE_CHECKING:
    from fastdou.observation import Observation
    from fastdou.position import Position

_ACTIONS_HINT = 256   # a first buffer for legal actions; it grows to what a position needs
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
    E.skip_to_play(state, _played(rules), seat)
    begin["start"] = "play"
    if rules.bidding != "marked":
        begin["landlord"] = seat


def _as_id(action_id) -> int:
    """An action id given as a numpy integer, as an int; anything else is refused."""
    if isinstance(action_id, np.integer) and not isinstance(action_id, np.bool_):
        return int(action_id)
    raise IllegalMoveError(f"an action id is an int, not {short(action_id)}")


_INT64 = np.int64


def _played(rules: Rules) -> np.ndarray:
    """The rules array of the engine calls a Game makes: with wild cards too (the engine's
    ``legal_actions`` is then asked for the wild-card moves)."""
    return rules_array(rules, wild=True)


def legal_records_into(state: np.ndarray, array: np.ndarray, out: np.ndarray, wild: bool) -> int:
    """``engine.legal_actions`` of ``state`` into ``out`` (their number; more than ``len(out)``
    when it is too small): its wild-card body only for rules with wild cards (compiled apart,
    so classic loops never compile it)."""
    if wild:
        return E.legal_actions(state, array, out, True)
    return E.legal_actions(state, array, out)


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


class Game(Stepper):
    """One hand of play. Build it with :meth:`new` or :meth:`from_hands`."""

    def __init__(self, rules: Rules, state: np.ndarray, start: dict):
        # the state, its log (row k: the state before action k), the actions (for pop and
        # the record; an id a as ~a) and the ids' buffers: fastdou.stepper
        Stepper.__init__(self, rules, state)
        self._start = start          # how the hand began, for the game record
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
        with game_generator(rules):          # on an empty cache, on two cores
            state = E.new_state()
            E.start(state, _played(rules), int(seed), int(deal))
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
        with game_generator(rules):
            game = cls._from_deal(rules, hands, kit, first=first, landlords=landlords,
                                  mark=mark, seed=seed)
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
        with game_generator(pos.rules):
            state = E.new_state()
            KP.state_of_position(state, rules_array(pos.rules, wild=True), pos.array(),
                                 pos.landlord)
        return cls(pos.rules, state, {"position": str(pos)})

    def position(self) -> Position:
        """The current :class:`~fastdou.Position` (play phase only)."""
        from fastdou.position import Position, state_array
        arr = state_array(self._state, self.rules, self.phase)
        return Position.from_array(arr, self.rules, self.landlord)

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

    @property
    def wild(self) -> str | None:
        """Under wild cards, the wild rank(s) as text (``"7"``, ``"79"``: what ``wild=``
        takes) once play has drawn them; None before, and without wild cards."""
        return mask_text(self._wilds) or None

    @property
    def _wilds(self) -> int:
        return int(self._state[S.G_WILDS])

    def perfect_information_hand(self, seat: int) -> np.ndarray:
        """The 15 counts seat ``seat`` holds: perfect information, hidden from the other
        seats (a seat's own view is :meth:`observation`)."""
        seat = _seat("seat", seat, self.rules.players)
        return _cards.unpack(int(self._state[S.G_HANDS + seat]))

    @property
    def last_move(self) -> Move:
        """The move to beat (``Move.PASS`` when the player to act leads)."""
        return Move.from_record(self._state[[S.G_LAST_CARDS, S.G_LAST_INFO]].astype(np.uint64),
                                self._wilds, self.rules)

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
        array, wild = _played(self.rules), bool(self.rules.wilds)
        n = legal_records_into(self._state, array, out, wild)
        if n > len(out):
            out = self._actions_buf = np.empty((n, REC_WIDTH), np.uint64)
            legal_records_into(self._state, array, out, wild)
        return out[:n]

    @_exclusive
    def legal_actions(self) -> list:
        """Bids / calls / reveals / doubles as ints (0: pass or no), or in the play phase
        every legal :class:`Move`, ``Move.PASS`` first when passing is legal."""
        records = self._records()
        if self.phase == "play":
            wilds, rules = self._wilds, self.rules
            return [Move.from_record(r, wilds, rules) for r in records]
        return [int(r[0]) for r in records]

    def _record_of(self, action) -> np.ndarray:
        if self.phase == "play":
            if isinstance(action, str):
                action = Move.parse(action, self.rules, wild=self.wild)
            if not isinstance(action, Move):
                raise IllegalMoveError(f"the play phase takes a Move or its text, "
                                       f"not {short(action)}")
            if action.wilds != self._wilds and not action.is_pass:
                under = f"wild {mask_text(action.wilds)}" if action.wilds else "no wild card"
                raise IllegalMoveError(f"{action.text()} is a move under {under}; this hand "
                                       f"is played with {mask_text(self._wilds) or 'none'} wild")
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
        move = Move.from_record(record, self._wilds, self.rules)
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
                                       f"{self._move(record).text()}")
        self._log_row()[:] = self._state
        self._actions.append(self._move(record) if isinstance(action, str) else action)
        self._n_ids = -1
        E.apply(self._state, _played(self.rules), record)

    def _move(self, record) -> Move:
        return Move.from_record(record, self._wilds, self.rules)

    # ----------------------------------------------------------------- action ids
    def legal_action_ids(self) -> np.ndarray:
        """The ids (``int64``) of the legal actions, in :meth:`legal_actions`' order: a
        read-only array, which later steps never change (``.copy()`` it to write to it)."""
        if not self._busy.acquire(False):
            _in_use()
        try:
            return self._legal_ids()
        finally:
            self._busy.release()

    def action_mask(self) -> np.ndarray:
        """A ``bool`` array over the action table: True at every legal id."""
        mask = np.zeros(self.action_table.size, bool)
        mask[self.legal_action_ids()] = True
        return mask

    def play_id(self, action_id: int) -> None:
        """Apply the action of id ``action_id`` after checking it is legal now (one of
        :meth:`legal_action_ids`, looked for in the compiled step)."""
        if not self._busy.acquire(False):
            _in_use()
        try:
            if type(action_id) is not int:
                action_id = int(action_id) if type(action_id) is _INT64 else \
                    self._refused_play(action_id)
            if self._n_ids < 0:
                self._write_ids()
            if self._stepped(action_id, self._n_ids) < 0:
                self._refused_play(action_id)
        finally:
            self._busy.release()

    def _refused_play(self, action_id) -> int:
        """Why ``play_id`` refuses ``action_id`` (IllegalMoveError); an id of another
        integer type that is legal now, as an int."""
        t = self.action_table
        if not t.is_action(action_id):
            raise IllegalMoveError(f"{short(action_id)} is not an action id of "
                                   f"{self.rules.name} (0..{t.size - 1})")
        if self.is_terminal():
            raise IllegalMoveError("the hand is over")
        if (self._legal_ids() == action_id).any():
            return int(action_id)
        action = t.action(action_id, rank_of_mask(self._wilds)) if self.rules.wilds else \
            t.action(action_id)
        if isinstance(action, str):
            raise IllegalMoveError(f"{action} (id {action_id}) is not allowed in the "
                                   f"{self.phase} phase now")
        raise IllegalMoveError(f"id {action_id}: " + self._why_illegal(
            action, action.record if self.phase == "play" else None))

    def push_id(self, action_id: int) -> None:
        """Apply the action of id ``action_id`` without checking that it is legal now, as
        :meth:`push` does (only that it is an action of this phase and, in play, that the
        player holds its cards)."""
        # The hot path of a Python agent: one lock, one compiled call (fastdou.stepper)
        if not self._busy.acquire(False):
            _in_use()
        try:
            if type(action_id) is not int:
                action_id = int(action_id) if type(action_id) is _INT64 else _as_id(action_id)
            m = self._stepped(action_id, -1)
            if m < 0:
                self._refused_push(-m, action_id)
        finally:
            self._busy.release()

    def _refused_push(self, status: int, action_id: int) -> None:
        """Why ``push_id`` refused ``action_id``: ``status`` as ``KA.push_id`` says."""
        if status == KA.HAND_OVER:
            raise GameStateError("the hand is over")
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
        arr = rules_array(self.rules, wild=True)
        size = int(KE.encoding_size(arr))
        if out is None:
            out = np.empty(size, np.int8)
        elif not (isinstance(out, np.ndarray) and out.dtype == np.int8 and out.shape == (size,)
                  and out.flags.c_contiguous and out.flags.writeable):
            raise ArgumentError(f"out is a writeable, contiguous int8 array of shape ({size},)")
        if not self._busy.acquire(False):
            _in_use()
        try:
            KE.encode(self._state, arr, seat, out)
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
            action = self._unstep()
        finally:
            self._busy.release()
        return ~action if _is_logged_id(action) else action

    @_exclusive
    def clone(self) -> "Game":
        g = Game(self.rules, self._state.copy(), dict(self._start))
        k = len(self._actions)
        if k > len(g._log):
            g._log = np.empty_like(self._log)
        g._log[:k] = self._log[:k]          # the rows in use: a search clones often
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
        E.start_dealt(state, _played(rules), np.array(packed[:-1], np.uint64),
                      np.uint64(packed[-1]), int(first), int(bright), int(dark), int(seed),
                      4 * int(mark) if mark >= 0 else -1)   # the suit does not matter to play
        begin = {"seed": seed, "hands": texts[:-1], "kitty": texts[-1], "first": first}
        if rules.bidding == "marked":
            begin["landlords"] = [bright, dark]
        if mark >= 0:
            begin["marked"] = _cards.TOKENS[mark]
        return cls(rules, state, begin)

    def __repr__(self) -> str:
        actions = int(self._state[S.G_ACTIONS])
        if not self.is_terminal():
            return (f"<Game {self.rules.name} {self.phase}, seat {self.current_player} "
                    f"to act, {actions} actions>")
        return (f"<Game {self.rules.name} finished, {_record.outcome(self)}, "
                f"{actions} actions>")
