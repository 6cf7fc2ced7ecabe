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
* :func:`emit` ``(hand, rules, query(...), out)``: the generator itself, with filters
  (:func:`lead_query` every move, :func:`bomb_query` ``(power)`` the bombs above a power);
  the kinds it knows are the rows of ``layout.KINDS``.

Search (:mod:`fastdou.kernels.search`): a play-phase position is an ``int64`` array of
``SEARCH_SIZE`` entries (``S_SEATS``, ``S_TO_MOVE``, ``S_LAST_CARDS``, ``S_LAST_INFO``,
``S_LAST_PLAYER``, ``S_TEAM`` the landlord side's seat mask, ``S_WINNER``, ``S_HASH``,
``S_HANDS + seat``, ``S_WILDS`` the wild ranks' mask); ``fastdou.Position(...).array()``
builds one::

    @njit
    def wins(pos, rules, undo, ply):             # negamax on win / loss
        out = K.new_moves(K.count_actions(pos, rules))
        K.actions(pos, rules, out)               # the pass first unless leading
        me = K.side_of(pos, pos[K.S_TO_MOVE])
        for i in range(out.shape[0]):
            K.make(pos, out[i], undo[ply])
            won = K.is_terminal(pos) or (wins(pos, rules, undo, ply + 1)
                                         == (K.side_of(pos, pos[K.S_TO_MOVE]) == me))
            K.unmake(pos, out[i], undo[ply])
            if won:
                return True
        return False

* :func:`new_position` ``(hands, team, to_move, last, last_player) -> pos``;
* :func:`actions` ``(pos, rules, out) -> int``: the legal actions, ``[0, 0]`` (pass) first
  unless leading; :func:`count_actions` counts them; :func:`goes_out` ``(pos, rules,
  scratch)``: whether the seat to act can play its whole hand now;
* :func:`make` ``(pos, move, undo)`` plays a move or pass (unchecked) with the trick
  bookkeeping (the trick resets when the turn returns to the last player), filling
  ``undo`` (``int64[UNDO_SIZE]``); :func:`unmake` ``(pos, move, undo)`` restores it;
* :func:`is_terminal`, :func:`winning_side` (``LANDLORD_SIDE`` 0 / ``OTHER_SIDE`` 1, or -1),
  :func:`side_of` ``(pos, seat)``, :func:`is_leading`, :func:`hand_of`;
* :func:`position_hash` ``(pos)``: the 64-bit hash (``pos[S_HASH]``, kept by make / unmake);
  :func:`write_key` ``(pos, out)``: the full key (``key_width(pos)`` words) for tables that
  must never confuse two positions;
* :func:`perft` ``(pos, rules, depth)`` and :func:`min_plays` ``(hand, rules)``, compiled.
"""

from fastdou.kernels.batch import count_batch, generate_batch
from fastdou.kernels.counting import count_leading
from fastdou.kernels.fewest_plays import min_plays
from fastdou.kernels.generate import bomb_power, bomb_query, emit, lead_query, query
from fastdou.kernels.moves import (
    beats, count_responses, first_invalid, is_bomb, kind_of, leading_moves,
    length_of, new_moves, rank_of, readings, responses,
)
from fastdou.kernels.packing import contains, count, pack, pack_rows, size, unpack, unpack_rows
from fastdou.kernels.perft_count import perft
from fastdou.kernels.search import (
    LANDLORD_SIDE, OTHER_SIDE, S_HANDS, S_HASH, S_LAST_CARDS, S_LAST_INFO, S_LAST_PLAYER,
    S_SEATS, S_TEAM, S_TO_MOVE, S_WILDS, S_WINNER, SEARCH_SIZE, UNDO_SIZE, actions,
    count_actions,
    goes_out, hand_of, is_leading, is_terminal, key_width, make, new_position,
    position_hash, side_of, unmake, winning_side, write_key,
)

__all__ = [
    "beats", "bomb_power", "bomb_query", "contains", "count", "count_batch", "count_leading",
    "count_responses", "emit", "first_invalid", "generate_batch", "is_bomb", "kind_of",
    "lead_query", "leading_moves", "length_of", "new_moves", "pack", "pack_rows", "query",
    "rank_of", "readings", "responses", "size", "unpack", "unpack_rows",
    "LANDLORD_SIDE", "OTHER_SIDE", "S_HANDS", "S_HASH", "S_LAST_CARDS", "S_LAST_INFO",
    "S_LAST_PLAYER", "S_SEATS", "S_TEAM", "S_TO_MOVE", "S_WILDS", "S_WINNER", "SEARCH_SIZE",
    "UNDO_SIZE", "actions", "count_actions", "goes_out", "hand_of", "is_leading", "is_terminal",
    "key_width", "make", "min_plays", "new_position", "perft", "position_hash", "side_of",
    "unmake", "winning_side", "write_key",
]
