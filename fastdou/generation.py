"""The Python entry points of move generation: validate at the boundary, then call a kernel."""

from __future__ import annotations

import numba
import numpy as np

from fastdou import cards as _cards
from fastdou import kernels as K
from fastdou.checks import short
from fastdou.errors import ArgumentError, IllegalMoveError, InvalidCardsError
from fastdou.hints import CardsLike, MoveLike, RulesLike
from fastdou.kernels.batch import fill_batch, generate_batch_into
from fastdou.kernels.layout import REC_WIDTH
from fastdou.kernels.wild_batch import wild_batch_offsets, wild_fill_batch, wild_first_invalid
from fastdou.kernels.wild_moves import wild_beats, wild_moves
from fastdou.moves import (
    Move, MoveList, _classify, mask_ranks, mask_text, wild_mask, wild_text,
)
from fastdou.rules import as_rules, rules_array

_PASS_RECORD = Move.PASS.record
# legal_moves' first output (rows): a hand with more moves is generated again into an array
# of its size. Counting first (``count_responses``) would compile the counters too: about
# half of a cold first call (measured: 16 s of 30).
_ROOM = 1024


def as_move(move, rules, wilds: int = 0) -> Move:
    """A legal :class:`Move` under ``rules`` (and the wild ranks ``wilds``, a bit mask) from
    a Move, its text, or None (the pass)."""
    if move is None:
        return Move.PASS
    if isinstance(move, str):
        return Move.parse(move, rules, wild=mask_ranks(wilds) or None)
    if not isinstance(move, Move):
        raise IllegalMoveError(f"expected a Move, its text or None, not {short(move)}")
    if move.is_pass:
        return move
    _cards.parse(move.cards, rules)
    if move not in _classify(move.cards, rules, wilds):
        raise IllegalMoveError(f"{move!r} is not a legal move under {rules.name} rules"
                               + (f" with wild {mask_text(wilds)}" if wilds else ""))
    return move


def legal_moves(hand: CardsLike, last: MoveLike | None = None,
                rules: RulesLike = "classic", *, wild=None) -> MoveList:
    """Every move ``hand`` may play: all leads when ``last`` is None or a pass, otherwise the
    moves beating ``last``. Pass is not listed.

    Under rules with wild cards, ``wild`` names the wild rank: a rank token or index 3..2
    (``wild="7"``), two of them under ``wilds=2`` (``wild="79"`` or ``("7", "9")``); each
    move is listed once per (cards, kind, rank, length, bomb class). Under one wild rank,
    ``W`` in text is a card of it (``"3334W"``)."""
    rules = as_rules(rules)
    wilds = wild_mask(wild, rules)
    packed = np.uint64(_cards.pack(_cards.parse(wild_text(hand, wilds), rules)))
    record = as_move(last, rules, wilds).record
    if wilds:
        def generate(out):
            return wild_moves(packed, np.int64(wilds), rules_array(rules, wild=True), record,
                              out)
    else:
        def generate(out):
            return K.responses(packed, record, rules_array(rules), out)
    out = np.empty((_ROOM, REC_WIDTH), dtype=np.uint64)
    n = generate(out)
    if n > _ROOM:                       # generated again, into an array of its size
        out = np.empty((n, REC_WIDTH), dtype=np.uint64)
        generate(out)
    return MoveList(out[:n].copy() if n < len(out) else out, rules, wilds)


def beats(a: MoveLike, b: MoveLike, rules: RulesLike = "classic", *, wild=None) -> bool:
    """Whether move ``a`` beats move ``b`` (Moves or text; False when either is a pass);
    ``wild`` as for :func:`legal_moves`."""
    rules = as_rules(rules)
    wilds = wild_mask(wild, rules)
    a, b = as_move(a, rules, wilds).record, as_move(b, rules, wilds).record
    if wilds:
        return bool(wild_beats(a, b, rules_array(rules, wild=True)))
    return bool(K.beats(a, b, rules_array(rules)))


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


def _lasts_array(lasts, n, rules, wilds=None) -> np.ndarray:
    """Validate ``lasts`` (None, a sequence of moves, or ``uint64[n, 2]`` records), under
    the wild-rank masks ``wilds`` (``int64[n]``) when given."""
    if lasts is None:
        return np.zeros((n, REC_WIDTH), dtype=np.uint64)
    if isinstance(lasts, np.ndarray):
        if lasts.shape != (n, REC_WIDTH) or lasts.dtype != np.uint64:
            raise IllegalMoveError(f"lasts must be a uint64 array of shape ({n}, 2), "
                                   f"not {lasts.dtype} {lasts.shape}")
        lasts = np.ascontiguousarray(lasts)
        bad = K.first_invalid(lasts, rules_array(rules)) if wilds is None else \
            wild_first_invalid(lasts, wilds, rules_array(rules, wild=True))
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
        out[i] = as_move(last, rules, 0 if wilds is None else int(wilds[i])).record
    return out


def _wild_masks(wild, n, rules) -> np.ndarray:
    """The wild ranks of ``n`` hands as bit masks (``int64[n]``): one ``wild=`` for all, or
    an integer array of rank indices, shape ``(n,)`` (one wild rank) or ``(n, 2)``."""
    if not isinstance(wild, np.ndarray) or not rules.wilds:
        return np.full(n, wild_mask(wild, rules), np.int64)
    shape = (n,) if rules.wilds == 1 else (n, rules.wilds)
    if wild.shape != shape or not np.issubdtype(wild.dtype, np.integer):
        raise IllegalMoveError(f"wild must be one wild= for every hand or an integer array of "
                               f"shape {shape} (rank indices 0..12), not {wild.dtype} "
                               f"{wild.shape}")
    ranks = wild.reshape(n, -1).astype(np.int64)
    twice = ranks[:, 0] == ranks[:, 1] if ranks.shape[1] == 2 else np.zeros(n, bool)
    bad = np.flatnonzero(((ranks < 0) | (ranks > 12)).any(axis=1) | twice)
    if bad.size:
        raise IllegalMoveError(f"wild[{bad[0]}] = {wild[bad[0]].tolist()}: wild ranks are "
                               f"distinct rank indices 0..12 (3..2)")
    return np.bitwise_or.reduce(np.left_shift(1, ranks), axis=1).astype(np.int64)


def generate_batch(hands: np.ndarray, lasts: np.ndarray | None = None,
                   rules: RulesLike = "classic", out: np.ndarray | None = None, *,
                   wild=None) -> tuple[np.ndarray, np.ndarray]:
    """Moves of many hands at once, in parallel.

    ``hands``: integer array ``(n, 15)``; ``lasts``: None (every hand leads), a sequence of
    moves / texts / None, or ``uint64[n, 2]`` records (zero rows lead). Returns
    ``(moves, offsets)``: hand i's move records are ``moves[offsets[i]:offsets[i + 1]]``.

    ``out``: a ``uint64`` array of shape ``(capacity, 2)`` to write into, kept and passed
    again by the caller (no allocation, no fresh pages); ``moves`` is then ``out[:total]``.
    When it is too small, a new array of the exact size is allocated and returned instead.

    Under rules with wild cards, ``wild`` names the wild ranks: as for :func:`legal_moves`
    for every hand, or per hand an integer array of rank indices (shape ``(n,)``, or
    ``(n, 2)`` under ``wilds=2``); records carry the bomb class.
    """
    rules = as_rules(rules)
    packed = _hands_array(hands, rules)
    if out is not None and not (
            isinstance(out, np.ndarray) and out.dtype == np.uint64 and out.ndim == 2
            and out.shape[1] == REC_WIDTH and out.flags.c_contiguous and out.flags.writeable):
        what = f"{out.dtype} {out.shape}" if isinstance(out, np.ndarray) else short(out)
        raise ArgumentError(f"out must be a writeable C-contiguous uint64 array of shape "
                            f"(capacity, 2), not {what}")
    if rules.wilds or wild is not None:
        wilds = _wild_masks(wild, packed.shape[0], rules)
        lasts = _lasts_array(lasts, packed.shape[0], rules, wilds)
        array = rules_array(rules, wild=True)
        offsets = np.empty(packed.shape[0] + 1, np.int64)
        total = wild_batch_offsets(packed, lasts, wilds, array, offsets)
        if out is None or total > out.shape[0]:
            out = np.empty((total, REC_WIDTH), np.uint64)
        wild_fill_batch(packed, lasts, wilds, array, offsets, out)
        return out[:total], offsets
    lasts = _lasts_array(lasts, packed.shape[0], rules)
    if out is None:
        return K.generate_batch(packed, lasts, rules_array(rules))
    offsets = np.empty(packed.shape[0] + 1, np.int64)
    total = generate_batch_into(packed, lasts, rules_array(rules), out, offsets,
                                numba.get_num_threads())
    if total > out.shape[0]:
        out = fill_batch(packed, lasts, rules_array(rules), offsets,
                         np.empty((total, REC_WIDTH), np.uint64))
    return out[:total], offsets
