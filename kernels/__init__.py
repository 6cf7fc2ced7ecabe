"""fastdou's compiled core: Numba kernels over integer arrays, callable from your ``@njit`` code.

Data (see :mod:`fastdou.kernels.layout`):

* a hand or a move's cards is a packed ``uint64`` (4 bits per rank; :func:`pack` /
  :func:`unpack` convert from and to 15 counts);
* a move is a record, a ``uint64`` array of 2: ``[cards, kind | rank << 8 | length << 16]``;
  arrays of moves have shape ``(n, 2)``; :func:`kind_of`, :func:`rank_of`, :func:`length_of`
  read the info word;
* rules are ``fastdou.rules(...).array``, an ``int64`` array.

Kernels trust their inputs, as compiled code must: a hand's counts must lie within the deck
of the rules passed (``Rules.deck``), records must be moves of those rules, arrays must have
the documented shapes and dtypes. The Python API (``fastdou.legal_moves``, ``Game``, ...)
checks all of that before it calls a kernel; code calling kernels directly checks it once at
its own boundary.

Generators take an output array and return how many moves exist, writing as many as fit, so
``out`` of length 0 counts without building (or use the ``count_*`` functions)::

    from numba import njit
    from fastdou import kernels as K

    @njit
    def total_replies(hand, last, rules):
        out = K.new_moves(K.count_responses(hand, last, rules))
        K.responses(hand, last, rules, out)
        return out.shape[0]

Functions:

* :func:`leading_moves` ``(hand, rules, out) -> int``: every move the hand may lead;
* :func:`responses` ``(hand, last, rules, out) -> int``: every move beating record ``last``
  (a PASS record leads); pass itself is never listed;
* :func:`count_leading`, :func:`count_responses`: the same counts without building;
* :func:`readings` ``(cards, rules, out) -> int``: every reading of a multiset played whole;
* :func:`beats` ``(a, b, rules) -> bool``: whether record ``a`` beats record ``b``;
* :func:`first_invalid` ``(records, rules) -> int``: the first record that is no legal move;
* :func:`generate_batch` ``(hands, lasts, rules) -> (moves, offsets)``: responses of many
  hands in parallel (``prange``); :func:`count_batch` counts them;
* :func:`emit` ``(hand, rules, query(...), out)``: the generator itself, with filters.
"""

from fastdou.kernels.batch import count_batch, generate_batch
from fastdou.kernels.generate import bomb_power, emit, query
from fastdou.kernels.moves import (
    beats, count_leading, count_responses, first_invalid, is_bomb, kind_of, leading_moves,
    length_of, new_moves, rank_of, readings, responses,
)
from fastdou.kernels.packing import contains, count, pack, pack_rows, size, unpack, unpack_rows

__all__ = [
    "beats", "bomb_power", "contains", "count", "count_batch", "count_leading",
    "count_responses", "emit", "first_invalid", "generate_batch", "is_bomb", "kind_of",
    "leading_moves", "length_of", "new_moves", "pack", "pack_rows", "query", "rank_of",
    "readings", "responses", "size", "unpack", "unpack_rows",
]
