"""Card notation: parse every form of docs/rules.md §1.1 into 15 counts, and write it back.

Accepted inputs (case-insensitive, spaces and commas ignored in text):

* text: ``"33344455BR"``, ``"10 J Q K A"``; tokens ``3``-``9``, ``T``/``10``, ``J``, ``Q``,
  ``K``, ``A``, ``2``, small joker ``B``/``X``/``小王``, big joker ``R``/``D``/``大王``;
* a numpy integer array of 15 counts (a count vector);
* a list or tuple of DouZero integers (3..14 for 3..A, 17 for 2, 20 and 30 for the jokers).

Counts are checked against the deck of the rules in use (by default one deck; a preset's by
its name, or a ``Rules``' own), never against a hand size. Problems raise
:class:`~fastdou.errors.InvalidCardsError`.
"""

from __future__ import annotations

import numpy as np

from fastdou.checks import is_whole, short, type_phrase
from fastdou.errors import InvalidCardsError, RulesError
from fastdou.kernels.layout import COUNT_BITS, COUNT_MASK, MAX_DECK, N_RANKS, packed
from fastdou.presets import preset_deck

MAX_TEXT = 1000      # characters of card text read at most (the largest deck has 108 cards)
MAX_CARDS = MAX_DECK  # cards in a DouZero list at most
PACKED_BITS = COUNT_BITS * N_RANKS

TOKENS = "3456789TJQKA2BR"
_ALIASES = {"10": 7, "X": 13, "小王": 13, "D": 14, "大王": 14}
_TOKEN_INDEX = {t: i for i, t in enumerate(TOKENS)} | _ALIASES
DOUZERO = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)
_DOUZERO_INDEX = {v: i for i, v in enumerate(DOUZERO)}
_ONE_DECK = np.array([4] * 13 + [1, 1], dtype=np.uint8)


def _deck(rules) -> tuple:
    """``(deck counts, its name in messages)`` of ``rules``: None (one deck), a preset's name,
    or a ``Rules`` (anything with a ``deck`` array and a ``name``: this module sits below
    :mod:`fastdou.rules`)."""
    if rules is None:
        return _ONE_DECK, "one deck"
    if isinstance(rules, str):
        return preset_deck(rules), f"the {rules} deck"
    deck, name = getattr(rules, "deck", None), getattr(rules, "name", None)
    if not isinstance(deck, np.ndarray) or not isinstance(name, str):
        raise RulesError(f"rules must be a preset name or a Rules object, not {short(rules)}")
    return deck, f"the {name} deck"


def _from_text(text: str) -> np.ndarray:
    if len(text) > MAX_TEXT:
        raise InvalidCardsError(f"card text of {len(text):,} characters is longer than any "
                                f"hand ({MAX_TEXT} at most): {short(text)}")
    counts = np.zeros(N_RANKS, dtype=np.int64)
    s = text.upper().replace(" ", "").replace(",", "")
    i = 0
    while i < len(s):
        for width in (2, 1):
            token = s[i:i + width]
            if len(token) == width and token in _TOKEN_INDEX:
                counts[_TOKEN_INDEX[token]] += 1
                i += width
                break
        else:
            raise InvalidCardsError(f"unknown card token {s[i]!r} in {short(text)}")
    return counts


def _from_douzero(values) -> np.ndarray:
    if len(values) > MAX_CARDS:
        raise InvalidCardsError(f"a list of {len(values):,} cards is longer than any deck "
                                f"({MAX_CARDS} cards)")
    counts = np.zeros(N_RANKS, dtype=np.int64)
    for v in values:
        if not is_whole(v) or int(v) not in _DOUZERO_INDEX:
            raise InvalidCardsError(
                f"{short(v)} is not a DouZero card (3..14, 17, 20, 30); pass a numpy array of "
                f"15 counts for a count vector")
        counts[_DOUZERO_INDEX[int(v)]] += 1
    return counts


def _from_vector(vec: np.ndarray) -> np.ndarray:
    if vec.shape != (N_RANKS,):
        raise InvalidCardsError(f"a count vector has shape (15,), not {vec.shape}")
    if not np.issubdtype(vec.dtype, np.integer):
        raise InvalidCardsError(f"a count vector holds integers, not {vec.dtype}")
    bad = np.flatnonzero((vec < 0) | (vec > 15))     # compared in vec's own dtype: no wrap
    if bad.size:
        r = int(bad[0])
        raise InvalidCardsError(f"impossible count {int(vec[r])} for {TOKENS[r]!r} "
                                f"(0..8 in two decks)")
    return vec.astype(np.int64)


def parse(cards, rules=None) -> np.ndarray:
    """Read ``cards`` in any accepted notation into 15 ``uint8`` counts.

    Raises InvalidCardsError naming the bad token or count, including more copies of a rank
    than the deck of ``rules`` (default: one deck) holds.
    """
    if isinstance(cards, str):
        counts = _from_text(cards)
    elif isinstance(cards, np.ndarray):
        counts = _from_vector(cards)
    elif isinstance(cards, (list, tuple)):
        counts = _from_douzero(cards)
    else:
        raise InvalidCardsError(f"cannot read cards from {type_phrase(cards)}; give "
                                f"text, a DouZero list or a numpy array of 15 counts")
    deck, deck_name = _deck(rules)
    over = np.flatnonzero(counts > deck)
    if over.size:
        r = int(over[0])
        raise InvalidCardsError(
            f"{int(counts[r])} of {TOKENS[r]!r}, but {deck_name} holds {int(deck[r])}")
    return counts.astype(np.uint8)


def counts_of(counts) -> np.ndarray:
    """``counts`` checked as 15 whole counts 0..15 (what a packed hand can hold), as int64."""
    if isinstance(counts, np.ndarray):
        return _from_vector(counts)
    if not isinstance(counts, (list, tuple)) or len(counts) != N_RANKS \
            or not all(is_whole(c) for c in counts):
        raise InvalidCardsError(f"counts are 15 whole numbers, not {short(counts)}")
    for r, c in enumerate(counts):
        if not 0 <= int(c) <= 15:
            raise InvalidCardsError(f"impossible count {int(c)} for {TOKENS[r]!r} "
                                    f"(0..8 in two decks)")
    return np.array([int(c) for c in counts], dtype=np.int64)


def to_text(counts) -> str:
    """Canonical RLCard text, sorted low to high: ``'33344455BR'`` (empty for no cards)."""
    return "".join(TOKENS[r] * int(c) for r, c in enumerate(counts_of(counts)))


def to_douzero(counts) -> list[int]:
    """DouZero's sorted integer list."""
    return [DOUZERO[r] for r, c in enumerate(counts_of(counts)) for _ in range(int(c))]


def to_rlcard(counts) -> str:
    """RLCard's card string (the canonical text)."""
    return to_text(counts)


def from_rlcard(text: str, rules=None) -> np.ndarray:
    """Counts of an RLCard string."""
    return parse(str(text), rules)


def from_douzero(values, rules=None) -> np.ndarray:
    """Counts of a DouZero integer list."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise InvalidCardsError(f"a DouZero hand is a list of card values, not {short(values)}")
    return parse(list(values), rules)


def pack(counts) -> int:
    """The packed ``uint64`` form kernels use (4 bits per rank), as a Python int."""
    return packed(counts_of(counts))


def unpack(packed) -> np.ndarray:
    """15 ``uint8`` counts of a packed multiset (a whole number below 2**60)."""
    if not is_whole(packed) or not 0 <= int(packed) < 1 << PACKED_BITS:
        raise InvalidCardsError(f"a packed hand is a whole number 0 <= p < 2**60, "
                                f"not {short(packed)}")
    packed = int(packed)
    return np.array([(packed >> (COUNT_BITS * r)) & COUNT_MASK for r in range(N_RANKS)],
                    dtype=np.uint8)
