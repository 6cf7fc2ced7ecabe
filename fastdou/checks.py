"""Argument checks shared by every public entry point: whole numbers that are whole numbers
(never floats or bools), ranges, and messages that cut long inputs and name types with the
right article."""

from __future__ import annotations

import numbers

import numpy as np

from fastdou.errors import ArgumentError

INT64_MAX = 2 ** 63 - 1
_SHOWN = 60


def short(value) -> str:
    """``repr(value)``, cut to a readable length."""
    if isinstance(value, (str, bytes)) and len(value) > _SHOWN:
        return repr(value[:_SHOWN - 12]) + f"... ({len(value):,} chars)"
    if isinstance(value, (list, tuple, dict, set, frozenset)) and len(value) > _SHOWN:
        return f"<{type(value).__name__} of {len(value):,} items>"
    try:
        text = repr(value)
    except Exception:                     # a hostile __repr__
        text = f"<{type(value).__name__}>"
    return text if len(text) <= _SHOWN else text[:_SHOWN - 12] + "..."


def is_whole(value) -> bool:
    """An ``int`` or numpy integer, not a bool."""
    return isinstance(value, (numbers.Integral, np.integer)) and \
        not isinstance(value, (bool, np.bool_))


def whole(name: str, value, lo: int = 0, hi: int = INT64_MAX, error=ArgumentError) -> int:
    """``value`` as an ``int`` in ``lo..hi``, or ``error`` naming ``name``."""
    if not is_whole(value):
        raise error(f"{name} must be a whole number, not {short(value)}")
    v = int(value)
    if not lo <= v <= hi:
        raise error(f"{name} must be {lo}..{hi}, not {v}")
    return v


def seat(name: str, value, players: int, error=ArgumentError) -> int:
    """A seat number ``0..players-1``."""
    return whole(name, value, 0, players - 1, error)


def flag(name: str, value, error=ArgumentError) -> bool:
    """A ``bool`` (or numpy bool)."""
    if not isinstance(value, (bool, np.bool_)):
        raise error(f"{name} must be True or False, not {short(value)}")
    return bool(value)


def type_phrase(value) -> str:
    """``value``'s type with its article, for messages: ``"an int"``, ``"a float"``,
    ``"None"`` (never ``"a int"``)."""
    if value is None:
        return "None"
    name = "numpy array" if isinstance(value, np.ndarray) else type(value).__name__
    vowel = name[:1].lower() in "aeiou" and not name.startswith(("uint", "uni", "use"))
    return ("an " if vowel else "a ") + name
