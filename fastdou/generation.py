"""The Python entry points of move generation: validate at the boundary, then call a kernel."""

from __future__ import annotations

import numba
import numpy as np

from fastdou import cards as _cards
from fastdou import kernels as K
from fastdou.checks import short
from fastdou.errors import ArgumentError, IllegalMoveError, InvalidCardsError
from fastdou.hints import CardsLike, MoveLike, RulesLike
from fastdou.kernels.batch import batch_offsets, fill_batch, generate_batch_into
from fastdou.kernels.layout import REC_WIDTH
from fastdou.moves import Move, MoveList, classify
from fastdou.rules import as_rules, rules_array

_PASS_RECORD = Move.PASS.record
# legal_moves' first output (rows): a hand with more moves is generated again into an array
# of its size. Counting first (``count_responses``) would compile the counters too: about
# half of a cold first call (measured: 16 s of 30).
_ROOM = 1024


def as_move(move, rules) -> Move:
    """A legal :class:`Move` under ``rules`` from a Move, its text, or None (the pass)."""
    if move is None:
        return Move.PASS
    if isinstance(move, str):
        return Move.parse(move, rules)
    if not isinstance(move, Move):
        raise IllegalMoveError(f"expected a Move, its text or None, not {short(move)}")
    if move.is_pass:
        return move
    _cards.parse(move.cards, rules)
    if move not in classify(move.cards, rules):
        raise IllegalMoveError(f"{move!r} is not a legal move under {rules.name} rules")
    return move


def legal_moves(hand: CardsLike, last: MoveLike | None = None,
                rules: RulesLike = "classic") -> MoveList:
    """Every move ``hand`` may play: all leads when ``last`` is None or a pass, otherwise the
    moves beating ``last``. Pass is not listed."""
    rules = as_rules(rules)
    packed = np.uint64(_cards.pack(_cards.parse(hand, rules)))
    record = as_move(last, rules).record
    out = np.empty((_ROOM, REC_WIDTH), dtype=np.uint64)
    n = K.responses(packed, record, rules_array(rules), out)
    if n > _ROOM:                       # generated again, into an array of its size
        out = np.empty((n, REC_WIDTH), dtype=np.uint64)
        K.responses(packed, record, rules_array(rules), out)
    return MoveList(out[:n].copy() if n < len(out) else out, rules)


def beats(a: MoveLike, b: MoveLike, rules: RulesLike = "classic") -> bool:
    """Whether move ``a`` beats move ``b`` (Moves or text; False when either is a pass)."""
    rules = as_rules(rules)
    return bool(K.beats(as_move(a, rules).record, as_move(b, rules).record, rules_array(rules)))


def _hands_array(hands, rules) -> np.ndarray:
    """Validate a ``(n, 15)`` integer array of hands; return it packed (``uint64[n]``)."""
    if not isinstance(hands, np.ndarray):
        try:
            hands = np.asarray(hands)
        except (ValueError, TypeError, OverflowError):
            raise InvalidCardsError(f"hands must be an (n, 15) integer array, not "
                                    f"{short(hands)}") from None
    if hands.ndim != 2 or hands.shape[1] != 15:
        raise InvalidCardsError(f"hands must have shape (n, 15), not {hands.shape}")
    if not np.issubdtype(hands.dtype, np.integer):
        raise InvalidCardsError(f"hands must hold integers, not {hands.dtype}")
    bad = np.argwhere((hands < 0) | (hands > rules.deck))
    if bad.size:
        i, r = (int(x) for x in bad[0])
        raise InvalidCardsError(f"hand {i} holds {int(hands[i, r])} of "
                                f"{_cards.TOKENS[r]!r}; the {rules.name} deck holds "
                                f"{int(rules.deck[r])}")
    return K.pack_rows(np.ascontiguousarray(hands, dtype=np.uint8),
                       np.empty(hands.shape[0], np.uint64))


def _lasts_array(lasts, n, rules) -> np.ndarray:
    """Validate ``lasts`` (None, a sequence of moves, or ``uint64[n, 2]`` records)."""
    if lasts is None:
        return np.zeros((n, REC_WIDTH), dtype=np.uint64)
    if isinstance(lasts, np.ndarray):
        if lasts.shape != (n, REC_WIDTH) or lasts.dtype != np.uint64:
            raise IllegalMoveError(f"lasts must be a uint64 array of shape ({n}, 2), "
                                   f"not {lasts.dtype} {lasts.shape}")
        lasts = np.ascontiguousarray(lasts)
        bad = K.first_invalid(lasts, rules_array(rules))
        if bad >= 0:
            raise IllegalMoveError(f"lasts[{bad}] = {lasts[bad].tolist()} is not a legal "
                                   f"move under {rules.name} rules (nor a pass [0, 0])")
        return lasts
    if not isinstance(lasts, (list, tuple)):
        raise IllegalMoveError(f"lasts must be None, a list of moves or a uint64 (n, 2) "
                               f"array, not {short(lasts)}")
    if len(lasts) != n:
        raise IllegalMoveError(f"{len(lasts)} lasts for {n} hands")
    out = np.zeros((n, REC_WIDTH), dtype=np.uint64)
    for i, last in enumerate(lasts):
        out[i] = as_move(last, rules).record
    return out


def fresh_batch(packed: np.ndarray, lasts: np.ndarray, rules: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`generate_batch` of packed hands into a new array, which numpy allocates (on
    Linux it asks for huge pages: a large output faults in far fewer pages than Numba's
    allocator gives, 1.8x faster on 200,000 classic leads)."""
    offsets = np.empty(packed.shape[0] + 1, np.int64)
    moves = np.empty((batch_offsets(packed, lasts, rules, offsets), REC_WIDTH), np.uint64)
    return fill_batch(packed, lasts, rules, offsets, moves), offsets


def generate_batch(hands: np.ndarray, lasts: np.ndarray | None = None,
                   rules: RulesLike = "classic", out: np.ndarray | None = None
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Moves of many hands at once, in parallel.

    ``hands``: integer array ``(n, 15)``; ``lasts``: None (every hand leads), a sequence of
    moves / texts / None, or ``uint64[n, 2]`` records (zero rows lead). Returns
    ``(moves, offsets)``: hand i's move records are ``moves[offsets[i]:offsets[i + 1]]``.

    ``out``: a ``uint64`` array of shape ``(capacity, 2)`` to write into, kept and passed
    again by the caller (no allocation, no fresh pages); ``moves`` is then ``out[:total]``.
    When it is too small, a new array of the exact size is allocated and returned instead.
    """
    rules = as_rules(rules)
    packed = _hands_array(hands, rules)
    lasts = _lasts_array(lasts, packed.shape[0], rules)
    if out is None:
        return fresh_batch(packed, lasts, rules_array(rules))
    if not (isinstance(out, np.ndarray) and out.dtype == np.uint64 and out.ndim == 2
            and out.shape[1] == REC_WIDTH and out.flags.c_contiguous and out.flags.writeable):
        what = f"{out.dtype} {out.shape}" if isinstance(out, np.ndarray) else short(out)
        raise ArgumentError(f"out must be a writeable C-contiguous uint64 array of shape "
                            f"(capacity, 2), not {what}")
    offsets = np.empty(packed.shape[0] + 1, np.int64)
    total = generate_batch_into(packed, lasts, rules_array(rules), out, offsets,
                                numba.get_num_threads())
    if total > out.shape[0]:
        out = fill_batch(packed, lasts, rules_array(rules), offsets,
                         np.empty((total, REC_WIDTH), np.uint64))
    return out[:total], offsets
