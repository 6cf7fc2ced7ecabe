"""Type aliases for the public API's arguments (for readers and type checkers; nothing here is
checked at run time: the functions validate their arguments themselves)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence, Union

import numpy as np

if TYPE_CHECKING:
    from fastdou.moves import Move
    from fastdou.rules import Rules

RulesLike = Union[str, "Rules"]
"""A preset's name or a :class:`fastdou.Rules`."""
CardsLike = Union[str, Sequence[int], np.ndarray]
"""Cards as text (``"3334AA"``), 15 counts, or a packed ``uint64`` (``fastdou.cards.parse``)."""
MoveLike = Union["Move", str]
"""A :class:`fastdou.Move` or its text."""
