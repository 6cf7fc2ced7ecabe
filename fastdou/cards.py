"""Card notation: parse every form of RULES.md §1 into 15 counts, and write it back.

Accepted inputs (case-insensitive, spaces and commas ignored in text):

* text: ``"33344455BR"``, ``"10 J Q K A"``; tokens ``3``-``9``, ``T``/``10``, ``J``, ``Q``,
  ``K``, ``A``, ``2``, small joker ``B``/``X``/``小王``, big joker ``R``/``D``/``大王``;
* a numpy integer array of 15 counts (a count vector);
* a list or tuple of DouZero integers (3..14 for 3..A, 17 for 2, 20 and 30 for the jokers).

Counts are checked against the deck of the rules in use (by default one deck), never against
a hand size. Problems raise :class:`~fastdou.errors.InvalidCardsError`.
"""

from __future__ import annotations

import numpy as np

from fastdou.errors import InvalidCardsError
from fastdou.kernels.layout import N_RANKS

TOKENS = "3456789TJQKA2BR"
_ALIASES = {"10": 7, "X": 13, "小王": 13, "D": 14, "大王": 14}
_TOKEN_INDEX = {t: i for i, t in enumerate(TOKENS)} | _ALIASES
DOUZERO = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)
_DOUZERO_INDEX = {v: i for i, v in enumerate(DOUZERO)}
_ONE_DECK = np.array([4] * 13 + [1, 1], dtype=np.uint8)


def _deck(rules) -> np.ndarray:
    return _ONE_DECK if rules is None else rules.deck


def _deck_name(rules) -> str:
    return "one deck" if rules is None else f"the {rules.name} deck"


def _from_text(text: str) -> np.ndarray:
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
            raise InvalidCardsError(f"unknown card token {s[i]!r} in {text!r}")
    return counts


def _from_douzero(values) -> np.ndarray:
    counts = np.zeros(N_RANKS, dtype=np.int64)
    for v in values:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) \
                or int(v) not in _DOUZERO_INDEX:
            raise InvalidCardsError(
                f"{v!r} is not a DouZero card (3..14, 17, 20, 30); pass a numpy array of "
                f"15 counts for a count vector")
        counts[_DOUZERO_INDEX[int(v)]] += 1
    return counts


def _from_vector(vec: np.ndarray) -> np.ndarray:
    if vec.shape != (N_RANKS,):
        raise InvalidCardsError(f"a count vector has shape (15,), not {vec.shape}")
    if not np.issubdtype(vec.dtype, np.integer):
        raise InvalidCardsError(f"a count vector holds integers, not {vec.dtype}")
    bad = np.flatnonzero(vec < 0)
    if bad.size:
        r = int(bad[0])
        raise InvalidCardsError(f"negative count {int(vec[r])} for {TOKENS[r]!r}")
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
        raise InvalidCardsError(f"cannot read cards from a {type(cards).__name__}")
    deck = _deck(rules)
    over = np.flatnonzero(counts > deck)
    if over.size:
        r = int(over[0])
        raise InvalidCardsError(
            f"{int(counts[r])} of {TOKENS[r]!r}, but {_deck_name(rules)} holds {int(deck[r])}")
    return counts.astype(np.uint8)


def to_text(counts) -> str:
    """Canonical RLCard text, sorted low to high: ``'33344455BR'`` (empty for no cards)."""
    return "".join(TOKENS[r] * int(c) for r, c in enumerate(counts))


def to_douzero(counts) -> list[int]:
    """DouZero's sorted integer list."""
    return [DOUZERO[r] for r, c in enumerate(counts) for _ in range(int(c))]


def to_rlcard(counts) -> str:
    """RLCard's card string (the canonical text)."""
    return to_text(counts)


def from_rlcard(text: str, rules=None) -> np.ndarray:
    """Counts of an RLCard string."""
    return parse(str(text), rules)


def from_douzero(values, rules=None) -> np.ndarray:
    """Counts of a DouZero integer list."""
    return parse(list(values), rules)


def pack(counts) -> int:
    """The packed ``uint64`` form kernels use (4 bits per rank), as a Python int."""
    return sum(int(c) << (4 * r) for r, c in enumerate(counts))


def unpack(packed: int) -> np.ndarray:
    """15 ``uint8`` counts of a packed multiset."""
    packed = int(packed)
    return np.array([(packed >> (4 * r)) & 15 for r in range(N_RANKS)], dtype=np.uint8)
