"""Moves as Python values: :class:`Move` (one reading of some cards) and :class:`MoveList`.

A move is (cards, kind, rank, length): ``rank`` is the rank the move is compared by (a chain's
top rank, a plane's top trio, a rocket's highest joker) and ``length`` the chain length (1 for
kinds that are not chains). These objects are a view for people; bulk work uses the record
arrays of :mod:`fastdou.kernels`.
"""

from __future__ import annotations

import numpy as np

from fastdou import cards as _cards
from fastdou import kernels as K
from fastdou.checks import is_whole, short
from fastdou.errors import AmbiguousMoveError, FastdouError, IllegalMoveError
from fastdou.hints import CardsLike, RulesLike
from fastdou.kernels.layout import (
    INFO_FIELD_MASK, INFO_LENGTH_SHIFT, INFO_RANK_SHIFT, K_BOMB, K_CHAIN_MIN, K_CORE, KINDS,
    REC_WIDTH,
)
from fastdou.kinds import Kind
from fastdou.rules import as_rules, rules_array

_READINGS_HINT = 8     # a first buffer for the readings of some cards; more get their own
_KIND_IDS = frozenset(int(k) for k in Kind)


class Move:
    """One reading of a multiset of cards. Immutable and hashable.

    ``Move.parse("333444+55", rules)`` reads text; ``move.text()`` writes it back;
    ``Move.PASS`` is the pass.
    """

    __slots__ = ("packed", "kind", "rank", "length")
    PASS: "Move"

    def __init__(self, packed: int, kind: Kind | int, rank: int = 0, length: int = 1):
        if not is_whole(kind) or int(kind) not in _KIND_IDS:
            raise IllegalMoveError(f"unknown kind id {short(kind)}")
        for name, v, top in (("packed", packed, (1 << 60) - 1), ("rank", rank, 14),
                             ("length", length, INFO_FIELD_MASK)):
            if not is_whole(v) or not 0 <= v <= top:
                raise IllegalMoveError(f"a move's {name} is a whole number 0..{top}, "
                                       f"not {short(v)}")
        self._set(int(packed), Kind(int(kind)), int(rank), int(length))

    def _set(self, packed, kind, rank, length):
        object.__setattr__(self, "packed", packed)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "length", length)

    def __setattr__(self, name, value):
        raise AttributeError("Move is immutable")

    def __delattr__(self, name):
        raise AttributeError("Move is immutable")

    # --------------------------------------------------------------- records
    @classmethod
    def from_record(cls, record: np.ndarray) -> "Move":
        """The Move of a kernel record ``[cards, info]``."""
        info = int(record[1])
        move = cls.__new__(cls)      # the kernels' fields are in range by construction
        move._set(int(record[0]), Kind(info & INFO_FIELD_MASK),
                  (info >> INFO_RANK_SHIFT) & INFO_FIELD_MASK,
                  (info >> INFO_LENGTH_SHIFT) & INFO_FIELD_MASK)
        return move

    @property
    def info(self) -> int:
        return int(self.kind) | self.rank << INFO_RANK_SHIFT | self.length << INFO_LENGTH_SHIFT

    @property
    def record(self) -> np.ndarray:
        """This move as a kernel record (``uint64[2]``)."""
        return np.array([self.packed, self.info], dtype=np.uint64)

    # --------------------------------------------------------------- views
    @property
    def cards(self) -> np.ndarray:
        """The 15 counts of the move's cards (``uint8``)."""
        return _cards.unpack(self.packed)

    def __len__(self) -> int:
        return int(self.cards.sum())

    @property
    def is_pass(self) -> bool:
        """Whether this is the pass."""
        return self.kind == Kind.PASS

    @property
    def is_bomb(self) -> bool:
        """Whether this is a bomb (a rank bomb, or any joker bomb)."""
        return bool(KINDS[self.kind, K_BOMB])

    def core(self) -> np.ndarray:
        """The counts of the move's main part (the chain, trio or four), without attachments
        (``kernels.layout.KINDS``: the core's cards a rank)."""
        counts = self.cards
        width = int(KINDS[self.kind, K_CORE])
        if width == 0:                                 # the pass, bombs: all core
            return counts
        core = np.zeros_like(counts)
        if KINDS[self.kind, K_CHAIN_MIN] >= 0:
            core[self.rank - self.length + 1:self.rank + 1] = width
        else:
            core[self.rank] = width
        return np.minimum(core, counts)     # a Move built by hand may not be a real reading

    def text(self) -> str:
        """Cards as text, attachments after a '+': ``'333444+55'``; ``'pass'`` for a pass."""
        if self.is_pass:
            return "pass"
        core = self.core()
        rest = self.cards - core
        main = _cards.to_text(core)
        return main + "+" + _cards.to_text(rest) if rest.any() else main

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        """Text that evaluates back to this move (with ``Move`` and ``Kind`` in scope): the
        classic parse where classic reads it so, else :meth:`of`, which needs no rules."""
        if self.is_pass:
            return "Move.PASS"
        parsed = f"Move.parse({self.text()!r}, kind=Kind.{self.kind.name})"
        try:
            if Move.parse(self.text(), kind=self.kind) == self:
                return parsed
        except FastdouError:
            pass
        return f"Move.of({self.text()!r}, Kind.{self.kind.name}, {self.rank}, {self.length})"

    def _key(self):
        return (self.packed, int(self.kind), self.rank, self.length)

    def __eq__(self, other):
        return isinstance(other, Move) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    # --------------------------------------------------------------- parsing
    @classmethod
    def of(cls, text: str, kind: Kind | str | int, rank: int, length: int = 1) -> "Move":
        """The move with these cards (text, up to two decks; a '+' is ignored) and fields,
        whatever the rules: what ``repr`` writes where classic cannot parse a move."""
        if not isinstance(text, str):
            raise IllegalMoveError(f"a move's text must be a str, not {short(text)}")
        counts = _cards.parse(text.replace("+", ""), _two_decks())
        return cls(_cards.pack(counts), _kind_named(kind), rank, length)

    @classmethod
    def parse(cls, text: str, rules: RulesLike = "classic", *,
              kind: Kind | str | int | None = None) -> "Move":
        """Read a move from text such as ``'333444+55'`` or ``'pass'``.

        A '+' separates the main part from the attachments and picks the reading with that
        main part; ``kind`` (a Kind or its name) picks a kind. Raises IllegalMoveError for
        cards with no such reading, AmbiguousMoveError when several readings remain.
        """
        options = readings_of_text(text, rules, kind=kind)
        if len(options) > 1:
            plain = [m for m in options if np.array_equal(m.core(), m.cards)]
            options = plain if len(plain) == 1 and "+" not in text else options
        if len(options) > 1:
            raise AmbiguousMoveError(
                f"{short(text)} reads as {', '.join(repr(m) for m in options)}; say which "
                f"with a '+' or kind=")
        return options[0]


def _two_decks():
    from fastdou.rules import rules
    return rules("four_player")         # two full decks: every count any preset can hold


def readings_of_text(text: str, rules, *, kind=None) -> list:
    """Every move a move's text may mean (at least one; pass for ``'pass'``): the readings of
    its cards, narrowed to those whose main part is the part before a '+' and to ``kind``.
    Raises IllegalMoveError when none is left."""
    rules = as_rules(rules)
    if not isinstance(text, str):
        raise IllegalMoveError(f"a move's text must be a str, not {short(text)}")
    if text.strip().lower() in ("pass", "p", ""):
        return [Move.PASS]
    main, plus, _ = text.partition("+")
    options = classify(_cards.parse(text.replace("+", ""), rules), rules)
    if kind is not None:
        want = kind if isinstance(kind, Kind) else _kind_named(kind)
        options = [m for m in options if m.kind == want]
    if not options:
        raise IllegalMoveError(f"{short(text)} is not a legal move under {rules.name} rules"
                               + (f" as {_kind_named(kind).name.lower()}"
                                  if kind is not None else ""))
    if plus:
        core = _cards.parse(main, rules)
        options = [m for m in options if np.array_equal(m.core(), core)]
        if not options:
            raise IllegalMoveError(f"{short(text)}: no reading has {short(main)} as its "
                                   f"main part")
    return options


Move.PASS = Move(0, Kind.PASS, 0, 0)


def _kind_named(name) -> Kind:
    if isinstance(name, Kind):
        return name
    if isinstance(name, str) and name.upper() in Kind.__members__:
        return Kind[name.upper()]
    if is_whole(name) and int(name) in _KIND_IDS:
        return Kind(int(name))
    raise IllegalMoveError(f"unknown kind {short(name)}")


def classify(cards: CardsLike, rules: RulesLike = "classic") -> list[Move]:
    """Every reading of ``cards`` played as one move (empty if none)."""
    rules = as_rules(rules)
    packed = np.uint64(_cards.pack(_cards.parse(cards, rules)))
    out = np.empty((_READINGS_HINT, REC_WIDTH), dtype=np.uint64)
    n = K.readings(packed, rules_array(rules), out)
    if n > out.shape[0]:
        out = np.empty((n, REC_WIDTH), dtype=np.uint64)
        K.readings(packed, rules_array(rules), out)
    return [Move.from_record(r) for r in out[:n]]


class MoveList:
    """The moves of one position: ``len``, iteration, ``in``, indexing; ``.array`` holds the
    raw ``(n, 2)`` records. Pass is never in it."""

    __slots__ = ("array", "rules")

    def __init__(self, array: np.ndarray, rules: RulesLike):
        self.array = array
        self.rules = rules

    def __len__(self) -> int:
        return self.array.shape[0]

    def __iter__(self):
        return (Move.from_record(r) for r in self.array)

    def __getitem__(self, i):
        """A Move, or a MoveList for a slice."""
        if isinstance(i, slice):
            return MoveList(self.array[i], self.rules)
        return Move.from_record(self.array[i])

    def __contains__(self, move) -> bool:
        """Whether a Move is listed; text is listed if any of its readings is."""
        if isinstance(move, str):
            try:
                return any(m in self for m in readings_of_text(move, self.rules))
            except FastdouError:
                return False
        if not isinstance(move, Move):
            return False
        return bool(np.any((self.array[:, 0] == np.uint64(move.packed))
                           & (self.array[:, 1] == np.uint64(move.info))))

    def texts(self) -> list[str]:
        return [m.text() for m in self]

    def __repr__(self) -> str:
        shown = ", ".join(m.text() for m in list(self)[:8])
        more = ", ..." if len(self) > 8 else ""
        return f"<MoveList of {len(self)}: {shown}{more}>"
