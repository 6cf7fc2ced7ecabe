"""``Position``: any position of the play phase, with a text form that round-trips.

A position is one hand per seat, the landlord (and five_player's partner: the landlord
side), the seat to act, and the unanswered play to beat with the seat that made it (both
None: the seat to act leads). The seats are the hands given, so two hands under ``classic``
make the usual two-player endgame puzzle. Text form (see the README)::

    HAND/HAND/... TO_MOVE LANDLORD[,PARTNER] LAST|- LAST_PLAYER|- RULES[:PROFILE] [WILD]
    448999TJJQQAR/336688TAA22B 0 0 - - classic
    3455KK/345522/789 1 0 KK 0 classic:douzero
    3457/4448/99 1 0 5557(5) 0 laizi 7

Under wild cards (``laizi``) the wild rank(s) are part of the position (``wild=``, and the
text's last field).
"""

from __future__ import annotations


from typing import Sequence

import numpy as np

from fastdou import cards as _cards
from fastdou.errors import FastdouError, PositionError
from fastdou.generation import as_move
from fastdou.hints import CardsLike, MoveLike, RulesLike
from fastdou.kernels import position_state as _ps
from fastdou.kernels import search as _search
from fastdou.moves import Move, mask_ranks, mask_text, wild_mask
from fastdou.rules import PROFILES, as_rules, rules as make_rules, rules_array


def _seat(name, value, seats, *, optional=False):
    """``value`` as a seat index 0..seats-1 (None allowed when ``optional``)."""
    if value is None and optional:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise PositionError(f"{name} must be a seat number (an int), not {value!r}")
    if not 0 <= value < seats:
        raise PositionError(f"{name} {int(value)} is out of range: seats are 0..{seats - 1}")
    return int(value)


def _move_text(move: Move, rules) -> str:
    """A move's text, with ``:kind`` when the text alone reads otherwise."""
    text = move.text()
    try:
        if Move.parse(text, rules, wild=mask_text(move.wilds) or None) == move:
            return text
    except FastdouError:
        pass
    return f"{text}:{move.kind.name.lower()}"


class Position:
    """A play-phase position. ``Position(hands, rules="classic", *, landlord=0,
    partner=None, to_move=None, last=None, last_player=None, wild=None)``; immutable and
    hashable.

    ``hands``: one hand per seat (2..8 seats, any notation :func:`fastdou.cards.parse`
    reads, each non-empty, all together within the deck); ``to_move`` defaults to the
    landlord; ``last``: the play to beat (a Move or its text), made by ``last_player``;
    ``wild``: under rules with wild cards, the wild rank(s) (as ``legal_moves`` takes them;
    ``wilds`` keeps the bit mask). ``rules`` is kept with ``players`` set to the number of
    seats.
    """

    __slots__ = ("rules", "hands", "landlord", "partner", "to_move", "last", "last_player",
                 "wilds")

    def __init__(self, hands: Sequence[CardsLike], rules: RulesLike = "classic", *,
                 landlord: int = 0, partner: int | None = None, to_move: int | None = None,
                 last: MoveLike | None = None, last_player: int | None = None, wild=None):
        rules = as_rules(rules)
        try:
            wilds = wild_mask(wild, rules)
        except FastdouError as e:
            raise PositionError(str(e)) from None
        if isinstance(hands, (str, bytes)) or not hasattr(hands, "__len__"):
            raise PositionError("hands must be a sequence of hands, one per seat")
        seats = len(hands)
        if not 2 <= seats <= _search.MAX_SEATS:
            raise PositionError(f"a position has 2 to {_search.MAX_SEATS} seats, "
                                f"not {seats}")
        rules = rules.seated(seats)
        counts = []
        for s, h in enumerate(hands):
            try:
                c = _cards.parse(h, rules)
            except FastdouError as e:
                raise PositionError(f"seat {s}: {e}") from None
            if c.sum() == 0:
                raise PositionError(f"seat {s} holds no cards (the game would be over)")
            c.flags.writeable = False
            counts.append(c)
        landlord = _seat("landlord", landlord, seats)
        partner = _seat("partner", partner, seats, optional=True)
        if partner is not None and partner == landlord:
            raise PositionError(f"partner {partner} is the landlord itself")
        if partner is not None and seats < 3:
            raise PositionError(f"a partner leaves no farmer among {seats} seats")
        to_move = landlord if to_move is None else _seat("to_move", to_move, seats)
        if isinstance(last, Move) and last.is_pass or \
                isinstance(last, str) and last.strip().lower() in ("pass", "-", ""):
            last = None
        if last is None:
            if last_player is not None:
                raise PositionError("last_player given without last (the play to beat)")
        else:
            try:
                last = as_move(last, rules, wilds)
            except FastdouError as e:
                raise PositionError(f"last {last!r} is not a legal move: {e}") from None
            if last_player is None:
                raise PositionError(f"last {last.text()!r} needs last_player, the seat "
                                    f"that played it")
            last_player = _seat("last_player", last_player, seats)
            if last_player == to_move:
                raise PositionError(f"last_player {last_player} is also to move: the trick "
                                    f"would have ended (give last=None to lead)")
        total = sum(c.astype(np.int64) for c in counts)
        if last is not None:
            total = total + last.cards
        over = np.flatnonzero(total > rules.deck)
        if over.size:
            r = int(over[0])
            raise PositionError(f"the hands{' and last' if last is not None else ''} hold "
                                f"{int(total[r])} of {_cards.TOKENS[r]!r}; the "
                                f"{rules.name} deck has {int(rules.deck[r])}")
        for name, value in (("rules", rules), ("hands", tuple(counts)),
                            ("landlord", landlord), ("partner", partner),
                            ("to_move", to_move), ("last", last),
                            ("last_player", last_player), ("wilds", wilds)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError("Position is immutable")

    # ----------------------------------------------------------------- views
    @property
    def seats(self) -> int:
        return len(self.hands)

    @property
    def team(self) -> int:
        """Bit mask of the landlord side's seats."""
        return (1 << self.landlord) | (0 if self.partner is None else 1 << self.partner)

    def side(self, seat: int) -> str:
        """``"landlord"`` or ``"farmers"`` (the landlord side's opponents)."""
        return "landlord" if (self.team >> seat) & 1 else "farmers"

    def is_leading(self) -> bool:
        return self.last is None

    @property
    def wild(self) -> str | None:
        """The wild rank(s) as text (``"7"``), None without wild cards."""
        return mask_text(self.wilds) or None

    def array(self) -> np.ndarray:
        """The position as the search kernels' ``int64`` array (:mod:`fastdou.kernels`)."""
        hands = np.array([_cards.pack(c) for c in self.hands], dtype=np.uint64)
        last = (self.last or Move.PASS).record
        lp = -1 if self.last_player is None else self.last_player
        return _search.new_position(hands, self.team, self.to_move, last, lp, self.wilds)

    @classmethod
    def from_array(cls, arr: np.ndarray, rules: RulesLike, landlord: int) -> "Position":
        """The position of a search array (:meth:`array`'s form), ``landlord`` leading the
        landlord side ``arr[S_TEAM]`` (any other seat of it is the partner); checked as
        any Position is."""
        seats = int(arr[_search.S_SEATS])
        others = int(arr[_search.S_TEAM]) & ~(1 << landlord)
        leading = arr[_search.S_LAST_INFO] == 0
        last = arr[[_search.S_LAST_CARDS, _search.S_LAST_INFO]].astype(np.uint64)
        wilds = int(arr[_search.S_WILDS])
        rules = as_rules(rules)
        return cls([_cards.unpack(int(np.uint64(arr[_search.S_HANDS + s])))
                    for s in range(seats)], rules, landlord=landlord,
                   partner=others.bit_length() - 1 if others else None,
                   to_move=int(arr[_search.S_TO_MOVE]),
                   last=None if leading else Move.from_record(last, wilds, rules),
                   last_player=None if leading else int(arr[_search.S_LAST_PLAYER]),
                   wild=mask_ranks(wilds) or None)

    # ----------------------------------------------------------------- text
    def __str__(self) -> str:
        hands = "/".join(_cards.to_text(c) for c in self.hands)
        side = str(self.landlord) + ("" if self.partner is None else f",{self.partner}")
        last = "-" if self.last is None else _move_text(self.last, self.rules)
        lp = "-" if self.last_player is None else str(self.last_player)
        name = self.rules.name + ("" if self.rules.profile == "standard"
                                  else f":{self.rules.profile}")
        wild = f" {self.wild}" if self.wilds else ""
        return f"{hands} {self.to_move} {side} {last} {lp} {name}{wild}"

    @classmethod
    def parse(cls, text: str, rules: RulesLike | None = None) -> "Position":
        """Read the text form (``str(pos)``). ``rules``, if given, replaces the text's rules
        field (for house rules, which the text names only by preset and profile)."""
        if not isinstance(text, str):
            raise PositionError(f"a position's text must be a str, not {type(text).__name__}")
        fields = text.split()
        if len(fields) not in (6, 7):
            raise PositionError(f"a position's text has 6 fields (hands, to move, landlord, "
                                f"last, last player, rules) and the wild rank(s) under wild "
                                f"cards, not {len(fields)}: {text!r}")
        hands, to_move, side, last, lp, name = fields[:6]
        wild = fields[6] if len(fields) == 7 else None
        if rules is None:
            preset, _, profile = name.partition(":")
            if profile and profile not in PROFILES:
                raise PositionError(f"unknown profile {profile!r} in {name!r}")
            try:
                rules = make_rules(preset, profile=profile or None)
            except FastdouError as e:
                raise PositionError(str(e)) from None
        rules = as_rules(rules)

        def number(field, what):
            if not (field.isascii() and field.isdigit()):
                raise PositionError(f"{what} must be a seat number, not {field!r}")
            return int(field)

        landlord, _, partner = side.partition(",")
        move = None
        if last != "-":
            move_text, _, kind = last.partition(":")
            try:
                move = Move.parse(move_text, rules, kind=kind or None, wild=wild)
            except FastdouError as e:
                raise PositionError(f"last {last!r} is not a legal move: {e}") from None
        return cls(hands.split("/"), rules, landlord=number(landlord, "landlord"),
                   partner=number(partner, "partner") if partner else None,
                   to_move=number(to_move, "to_move"), last=move,
                   last_player=None if lp == "-" else number(lp, "last_player"), wild=wild)

    def _key(self):
        return (str(self), self.rules)

    def __eq__(self, other):
        return isinstance(other, Position) and self._key() == other._key()

    def __hash__(self):
        return hash(str(self))

    def __repr__(self) -> str:
        return f"Position.parse({str(self)!r})"


def state_array(state: np.ndarray, rules, phase: str) -> np.ndarray:
    """The search array of engine ``state`` (a Game's, of ``rules``, in ``phase``):
    PositionError unless it is in its play phase and has a Position form."""
    arr = np.zeros(_search.SEARCH_SIZE, np.int64)
    status = _ps.position_of_state(state, rules_array(rules, wild=True), arr)
    if status == _ps.NOT_IN_PLAY:
        raise PositionError(f"a position is a play-phase state; the game is in its "
                            f"{phase} phase")
    if status == _ps.HANDICAPPED:
        raise PositionError("a two_player hand with a grab handicap has no Position "
                            "form (a Position ends only when a hand is empty)")
    return arr
