"""Moves as Python values: :class:`Move` (one reading of some cards) and :class:`MoveList`.

A move is (cards, kind, rank, length): ``rank`` is the rank the move is compared by (a chain's
top rank, a plane's top trio, a rocket's highest joker) and ``length`` the chain length (1 for
kinds that are not chains). Under rules with wild cards a move also knows the wild ranks
(``wilds``, a bit mask), from which its bomb class follows, and shows what each wild card
stands for (``5557(5)``). These objects are a view for people; bulk work uses the record
arrays of :mod:`fastdou.kernels`.
"""

from __future__ import annotations

import functools

import numpy as np

from fastdou import cards as _cards
from fastdou import kernels as K
from fastdou.checks import is_whole, short
from fastdou.errors import AmbiguousMoveError, FastdouError, IllegalMoveError, InvalidCardsError
from fastdou.hints import CardsLike, RulesLike
from fastdou.kernels.layout import (
    BOMB_CLASS_HARD, BOMB_CLASS_NONE, BOMB_CLASS_ROCKET, BOMB_CLASS_SOFT, BOMB_CLASS_WILD,
    COUNT_BITS, INFO_CLASS_SHIFT, INFO_FIELD_MASK, INFO_LENGTH_SHIFT, INFO_RANK_SHIFT, K_BOMB,
    K_CHAIN_MIN, K_CORE, KINDS, RANK_2, REC_WIDTH,
)
from fastdou.kernels.wild import WILD_SCRATCH, WILD_WIDTH, wild_readings
from fastdou.kinds import Kind
from fastdou.rules import as_rules, rules, rules_array

_READINGS_HINT = 8     # a first buffer for the readings of some cards; more get their own
_KIND_IDS = frozenset(int(k) for k in Kind)
BOMB_CLASSES = ("none", "soft", "hard", "wild", "rocket")     # by BOMB_CLASS_* value
_ALL_WILDS = (1 << (RANK_2 + 1)) - 1


def wild_mask(wild, rules) -> int:
    """The bit mask of the wild ranks ``wild`` names under ``rules`` (0 without wild cards):
    a rank token or index 3..2, or under ``wilds=2`` two of them (a pair, or text ``"79"``).
    IllegalMoveError when ``wild`` does not fit the rules."""
    if not rules.wilds:
        if wild is not None:
            raise IllegalMoveError(f"wild={short(wild)}: rules {rules.name!r} have no wild "
                                   f"cards (set wilds=1 or 2)")
        return 0
    if wild is None:
        raise IllegalMoveError(f"rules {rules.name!r} have {rules.wilds} wild rank(s): say "
                               f"which (wild=, or --wild on the command line: "
                               f"{'a rank' if rules.wilds == 1 else 'two ranks'} of 3..2)")
    if isinstance(wild, str) or is_whole(wild):
        ranks = _ranks_of(wild)
    elif isinstance(wild, (list, tuple)) and all(is_whole(w) or isinstance(w, str)
                                                 for w in wild):
        ranks = [r for w in wild for r in _ranks_of(w)]
    else:
        raise IllegalMoveError(f"wild= is a rank token or index 3..2 (or two), not {short(wild)}")
    if len(set(ranks)) != len(ranks) or len(ranks) != rules.wilds or \
            not all(0 <= r <= RANK_2 for r in ranks):
        raise IllegalMoveError(f"wild={short(wild)}: rules {rules.name!r} draw "
                               f"{rules.wilds} distinct wild rank(s) of 3..2 (never a joker)")
    return sum(1 << r for r in ranks)


def mask_ranks(wilds: int) -> list:
    """The ranks of the bit mask ``wilds``, low to high (rank indices)."""
    return [r for r in range(RANK_2 + 1) if wilds >> r & 1]


def mask_text(wilds: int) -> str:
    """The ranks of the bit mask ``wilds`` as text (``"79"``; empty for none)."""
    return "".join(_cards.TOKENS[r] for r in mask_ranks(wilds))


def wild_text(cards, wilds: int):
    """Card text with each ``W`` (a wild card) written as the wild rank's token, under one
    wild rank (the bit mask ``wilds``); anything else unchanged."""
    if not isinstance(cards, str) or "W" not in cards:
        return cards
    ranks = mask_ranks(wilds)
    if len(ranks) != 1:
        raise InvalidCardsError(f"'W' in {short(cards)} is a card of the wild rank: it needs "
                                f"rules with one wild rank, and wild= naming it")
    return cards.replace("W", _cards.TOKENS[ranks[0]])


def _ranks_of(w) -> list:
    if isinstance(w, str):
        counts = _cards.parse(w)
        return [r for r, c in enumerate(counts) for _ in range(int(c))]
    return [int(w)]


def _pairs(row, wilds: int) -> tuple:
    """The sorted ``(wild rank, rank)`` pairs of a ``wild_readings`` row."""
    return tuple((w, t) for w, stands in zip(mask_ranks(wilds), row[2:4])
                 for t, c in enumerate(_cards.unpack(int(stands))) for _ in range(int(c)))


class Move:
    """One reading of a multiset of cards. Immutable and hashable.

    ``Move.parse("333444+55", rules)`` reads text; ``move.text()`` writes it back;
    ``Move.PASS`` is the pass. ``wilds`` is the bit mask of the wild ranks the move is played
    under (0 without wild cards); the rules a wild move was made under (when known) decide
    only how it is shown, never what it is.
    """

    __slots__ = ("packed", "kind", "rank", "length", "wilds", "_rules", "_stands")
    PASS: "Move"

    def __init__(self, packed: int, kind: Kind | int, rank: int = 0, length: int = 1, *,
                 wilds: int = 0):
        if not is_whole(kind) or int(kind) not in _KIND_IDS:
            raise IllegalMoveError(f"unknown kind id {short(kind)}")
        for name, v, top in (("packed", packed, (1 << 60) - 1), ("rank", rank, 14),
                             ("length", length, INFO_FIELD_MASK), ("wilds", wilds, _ALL_WILDS)):
            if not is_whole(v) or not 0 <= v <= top:
                raise IllegalMoveError(f"a move's {name} is a whole number 0..{top}, "
                                       f"not {short(v)}")
        if bin(int(wilds)).count("1") > 2:
            raise IllegalMoveError(f"a move's wilds mask names one or two ranks, not "
                                   f"{short(wilds)}")
        self._set(int(packed), Kind(int(kind)), int(rank), int(length), int(wilds))

    def _set(self, packed, kind, rank, length, wilds=0, rules=None, stands=None):
        object.__setattr__(self, "packed", packed)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "length", length)
        object.__setattr__(self, "wilds", wilds)
        object.__setattr__(self, "_rules", rules)
        object.__setattr__(self, "_stands", stands)

    def __setattr__(self, name, value):
        raise AttributeError("Move is immutable")

    def __reduce__(self):
        return _move, (self.packed, int(self.kind), self.rank, self.length, self.wilds)

    def __delattr__(self, name):
        raise AttributeError("Move is immutable")

    # --------------------------------------------------------------- records
    @classmethod
    def from_record(cls, record: np.ndarray, wilds: int = 0, rules=None) -> "Move":
        """The Move of a kernel record ``[cards, info]`` (played under the wild ranks
        ``wilds`` and, for showing it, ``rules``)."""
        info = int(record[1])
        move = cls.__new__(cls)      # the kernels' fields are in range by construction
        move._set(int(record[0]), Kind(info & INFO_FIELD_MASK),
                  (info >> INFO_RANK_SHIFT) & INFO_FIELD_MASK,
                  (info >> INFO_LENGTH_SHIFT) & INFO_FIELD_MASK, wilds, rules)
        return move

    @property
    def info(self) -> int:
        """The kernels' info word (with the bomb class under wild cards)."""
        word = int(self.kind) | self.rank << INFO_RANK_SHIFT | self.length << INFO_LENGTH_SHIFT
        return word | self._class_id() << INFO_CLASS_SHIFT if self.wilds else word

    def _class_id(self) -> int:
        if self.kind == Kind.ROCKET:
            return BOMB_CLASS_ROCKET
        if self.kind != Kind.BOMB:
            return BOMB_CLASS_NONE
        if self.packed != 4 << (COUNT_BITS * self.rank):
            return BOMB_CLASS_SOFT
        return BOMB_CLASS_WILD if self.wilds >> self.rank & 1 else BOMB_CLASS_HARD

    @property
    def bomb_class(self) -> str | None:
        """Under wild cards the move's bomb class (``"none"``, ``"soft"``, ``"hard"``,
        ``"wild"``, ``"rocket"``; RULES.md §4.8); None without them."""
        return BOMB_CLASSES[self._class_id()] if self.wilds else None

    @property
    def stands_for(self) -> tuple:
        """What each wild card of the move stands for, as sorted ``(wild rank, rank)`` pairs
        of rank indices (a wild card standing for its own rank is natural): the canonical
        substitution, the fewest wild cards standing in, then the lowest ranks. Empty
        without wild cards (or for a Move built by hand that is no reading of its cards)."""
        if not self.wilds or self.is_pass:
            return ()
        if self._stands is None:
            object.__setattr__(self, "_stands", self._substitution())
        return self._stands

    def _substitution(self) -> tuple:
        r = self._rules if self._rules is not None else \
            rules(wilds=bin(self.wilds).count("1"))
        out = np.empty((WILD_SCRATCH, WILD_WIDTH), np.uint64)
        n = wild_readings(np.uint64(self.packed), np.int64(self.wilds),
                          rules_array(r, wild=True), out)
        for row in out[:min(n, WILD_SCRATCH)]:
            if int(row[1]) == self.info:
                return _pairs(row, self.wilds)
        return ()                 # a Move built by hand that is no reading of its cards

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
        (``kernels.layout.KINDS``: the core's cards a rank); under wild cards, the wild cards
        standing in for a core rank are in it."""
        counts = self.cards
        width = int(KINDS[self.kind, K_CORE])
        if width == 0:                                 # the pass, bombs: all core
            return counts
        core = np.zeros_like(counts)
        if KINDS[self.kind, K_CHAIN_MIN] >= 0:
            core[self.rank - self.length + 1:self.rank + 1] = width
        else:
            core[self.rank] = width
        stand_ins = [(w, t) for w, t in self.stands_for if w != t]
        if not stand_ins:
            return np.minimum(core, counts)  # a Move built by hand may not be a real reading
        natural = counts.copy()
        for w, _ in stand_ins:
            natural[w] -= 1
        out = np.minimum(core, natural)       # naturals first, wild cards for the rest
        filled = out.copy()
        for w, t in stand_ins:
            if filled[t] < core[t]:
                filled[t] += 1
                out[w] += 1
        return out

    def text(self) -> str:
        """Cards as text, attachments after a '+': ``'333444+55'``; ``'pass'`` for a pass.
        Under wild cards, what they stand for follows in parentheses, in the order of
        :attr:`stands_for` (``'5557(5)'``, the soft bomb; ``'555+7(7)'``, the trio_solo),
        unless the move is wild cards alone (which stand for themselves)."""
        if self.is_pass:
            return "pass"
        core = self.core()
        rest = self.cards - core
        main = _cards.to_text(core)
        main = main + "+" + _cards.to_text(rest) if rest.any() else main
        pairs = self.stands_for
        if pairs and len(pairs) < len(self):       # wild cards alone stand for themselves
            main += "(" + "".join(_cards.TOKENS[t] for _, t in pairs) + ")"
        return main

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        """Text that evaluates back to this move (with ``Move`` and ``Kind`` in scope): the
        classic parse where classic reads it so, else :meth:`of`, which needs no rules."""
        if self.is_pass:
            return "Move.PASS"
        if self.wilds:
            return (f"Move({self.packed:#x}, Kind.{self.kind.name}, {self.rank}, {self.length}, "
                    f"wilds={self.wilds:#x})")
        parsed = f"Move.parse({self.text()!r}, kind=Kind.{self.kind.name})"
        try:
            if Move.parse(self.text(), kind=self.kind) == self:
                return parsed
        except FastdouError:
            pass
        return f"Move.of({self.text()!r}, Kind.{self.kind.name}, {self.rank}, {self.length})"

    def _key(self):
        return (self.packed, int(self.kind), self.rank, self.length, self.wilds)

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
              kind: Kind | str | int | None = None, wild=None) -> "Move":
        """Read a move from text such as ``'333444+55'`` or ``'pass'``.

        A '+' separates the main part from the attachments and picks the reading with that
        main part; ``kind`` (a Kind or its name) picks a kind. Under wild cards (``wild``, see
        :func:`fastdou.legal_moves`) ranks in parentheses at the end say what the move's wild
        cards stand for, one per wild card in any order (``'5557(5)'``); without them every
        substitution is read. Raises IllegalMoveError for cards with no such reading,
        AmbiguousMoveError when several readings remain.
        """
        rules = as_rules(rules)
        options = readings_of_text(text, rules, kind=kind, wilds=wild_mask(wild, rules))
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


def readings_of_text(text: str, rules, *, kind=None, wilds: int = 0) -> list:
    """Every move a move's text may mean (at least one; pass for ``'pass'``): the readings of
    its cards, narrowed to those whose main part is the part before a '+', to ``kind`` and,
    under the wild ranks ``wilds`` (a bit mask), to what the parentheses say the wild cards
    stand for. Raises IllegalMoveError when none is left."""
    rules = as_rules(rules)
    if not isinstance(text, str):
        raise IllegalMoveError(f"a move's text must be a str, not {short(text)}")
    if text.strip().lower() in ("pass", "p", ""):
        return [Move.PASS]
    text, stands = _stands_text(wild_text(text, wilds), wilds)
    main, plus, _ = text.partition("+")
    options = _classify(_cards.parse(text.replace("+", ""), rules), rules, wilds)
    if stands is not None:
        options = [m for m in options if _stands_as(m, stands, rules)]
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


def _stands_text(text: str, wilds: int) -> tuple:
    """``(text, counts)``: the text without its parentheses, and the counts of the ranks
    they hold (None without them)."""
    head, paren, tail = text.partition("(")
    if not paren:
        return text, None
    if not wilds:
        raise IllegalMoveError(f"{short(text)}: parentheses say what wild cards stand for, "
                               f"and these rules have none")
    inner, close, after = tail.partition(")")
    if not close or after.strip() or "(" in inner:
        raise IllegalMoveError(f"{short(text)}: write what the wild cards stand for once, "
                               f"in parentheses at the end, e.g. 5557(5)")
    stands = _cards.parse(inner)
    if stands[RANK_2 + 1:].any():
        raise IllegalMoveError(f"{short(text)}: a wild card stands for a rank 3..2, "
                               f"never a joker")
    return head, stands


def _stands_as(move: Move, stands: np.ndarray, rules) -> bool:
    """Whether the wild cards of ``move`` standing for the ranks ``stands`` (counts, one per
    wild card) read as ``move``."""
    counts = move.cards.astype(np.int64)
    wild = np.zeros(len(counts), bool)
    wild[mask_ranks(move.wilds)] = True
    if stands.sum() != counts[wild].sum():
        return False
    natural = np.where(wild, 0, counts)
    if not natural.any():            # wild cards alone stand for their own ranks
        return bool(np.array_equal(stands, counts))
    sub = natural + stands
    if sub.max() > 4:
        return False
    return any((m.kind, m.rank, m.length) == (move.kind, move.rank, move.length)
               for m in _classify(sub.astype(np.uint8), _without_wilds(rules), 0))


@functools.lru_cache(maxsize=16)
def _without_wilds(rules):
    """``rules`` without wild cards: how the cards a move's wild cards stand for read."""
    return rules.replace(wilds=0)


Move.PASS = Move(0, Kind.PASS, 0, 0)


def _move(packed, kind, rank, length, wilds):
    """A Move from its fields (unpickling)."""
    return Move(packed, kind, rank, length, wilds=wilds)


def _kind_named(name) -> Kind:
    if isinstance(name, Kind):
        return name
    if isinstance(name, str) and name.upper() in Kind.__members__:
        return Kind[name.upper()]
    if is_whole(name) and int(name) in _KIND_IDS:
        return Kind(int(name))
    raise IllegalMoveError(f"unknown kind {short(name)}")


def classify(cards: CardsLike, rules: RulesLike = "classic", *, wild=None) -> list[Move]:
    """Every reading of ``cards`` played as one move (empty if none); under wild cards
    (``wild``, see :func:`fastdou.legal_moves`) one per (kind, rank, length, bomb class)."""
    rules = as_rules(rules)
    wilds = wild_mask(wild, rules)
    return _classify(_cards.parse(wild_text(cards, wilds), rules), rules, wilds)


def _classify(counts: np.ndarray, rules, wilds: int) -> list[Move]:
    packed = np.uint64(_cards.pack(counts))
    if wilds:
        rows = np.empty((WILD_SCRATCH, WILD_WIDTH), np.uint64)
        n = wild_readings(packed, np.int64(wilds), rules_array(rules, wild=True), rows)
        moves = [Move.from_record(row[:2], wilds, rules) for row in rows[:n]]
        for m, row in zip(moves, rows):
            object.__setattr__(m, "_stands", _pairs(row, wilds))
        return moves
    out = np.empty((_READINGS_HINT, REC_WIDTH), dtype=np.uint64)
    n = K.readings(packed, rules_array(rules), out)
    if n > out.shape[0]:
        out = np.empty((n, REC_WIDTH), dtype=np.uint64)
        K.readings(packed, rules_array(rules), out)
    return [Move.from_record(r) for r in out[:n]]


class MoveList:
    """The moves of one position: ``len``, iteration, ``in``, indexing; ``.array`` holds the
    raw ``(n, 2)`` records. Pass is never in it. ``wilds``: the bit mask of the wild ranks
    (0 without wild cards)."""

    __slots__ = ("array", "rules", "wilds")

    def __init__(self, array: np.ndarray, rules: RulesLike, wilds: int = 0):
        self.array = array
        self.rules = rules
        self.wilds = wilds

    def __len__(self) -> int:
        return self.array.shape[0]

    def __iter__(self):
        return (Move.from_record(r, self.wilds, self.rules) for r in self.array)

    def __getitem__(self, i):
        """A Move, or a MoveList for a slice."""
        if isinstance(i, slice):
            return MoveList(self.array[i], self.rules, self.wilds)
        return Move.from_record(self.array[i], self.wilds, self.rules)

    def __contains__(self, move) -> bool:
        """Whether a Move is listed; text is listed if any of its readings is."""
        if isinstance(move, str):
            try:
                return any(m in self for m in readings_of_text(move, self.rules,
                                                               wilds=self.wilds))
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
