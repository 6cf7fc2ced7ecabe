"""Search kernels: a play-phase position as a small ``int64`` array, make / unmake of a move or
a pass with the trick bookkeeping, the terminal test, and a 64-bit position hash.

Position array (``SEARCH_SIZE`` entries, indexed by the ``S_*`` constants):

* ``S_SEATS`` seats n (2..8); ``S_TO_MOVE`` the seat to act; ``S_TEAM`` bit mask of the
  landlord side's seats (the landlord and five_player's partner);
* ``S_LAST_CARDS`` / ``S_LAST_INFO`` the move record to beat (0 / 0 while leading) and
  ``S_LAST_PLAYER`` the seat that made it (-1 while leading);
* ``S_WINNER`` the seat that emptied its hand (-1 while in play);
* ``S_HASH`` the position hash, kept up to date by :func:`make` / :func:`unmake`;
* ``S_HANDS + s`` seat s's packed hand (stored as int64);
* ``S_WILDS`` the bit mask of the wild ranks (0 without wild cards).

A move is a record ``uint64[2]`` (``[0, 0]`` is the pass). :func:`make` applies one without
checking it and fills an undo buffer (``int64[UNDO_SIZE]``); :func:`unmake` restores the
position exactly. When every other seat has passed, the trick resets: the player who made
the last play leads. The hash depends only on the position (hands, seat to act, the move to
beat and who made it, the wild ranks), not on the way it was reached.

Wild cards: :func:`actions` and :func:`count_actions` take ``wild=True`` (the wild-card
generator over ``S_WILDS``; None, the default, compiles none of it), as
``engine.legal_actions`` does.
"""

import numpy as np

from fastdou.kernels.deal import mix64
from fastdou.kernels.jit import kernel, leaf, nrt_kernel
from fastdou.kernels.layout import REC_CARDS, REC_INFO, REC_WIDTH
from fastdou.kernels.moves import actions_of_play, beats, count_responses, readings
from fastdou.kernels.packing import size
from fastdou.kernels.wild_moves import wild_actions_of_play

S_SEATS = 0
S_TO_MOVE = 1
S_LAST_CARDS = 2
S_LAST_INFO = 3
S_LAST_PLAYER = 4
S_TEAM = 5
S_WINNER = 6
S_HASH = 7
S_HANDS = 8
MAX_SEATS = 8
S_WILDS = S_HANDS + MAX_SEATS
SEARCH_SIZE = S_WILDS + 1

U_TO_MOVE = 0
U_LAST_CARDS = 1
U_LAST_INFO = 2
U_LAST_PLAYER = 3
U_WINNER = 4
U_HASH = 5
UNDO_SIZE = 6

LANDLORD_SIDE = 0
OTHER_SIDE = 1

_SEAT_KEY = np.uint64(0x9E3779B97F4A7C15)
_LAST_KEY = np.uint64(0xC2B2AE3D27D4EB4F)
_TURN_KEY = np.uint64(0x165667B19E3779F9)
_WILDS_KEY = np.uint64(0x27D4EB2F165667C5)


@leaf
def _hand_term(seat, hand):
    return mix64(np.uint64(hand) + np.uint64(seat + 1) * _SEAT_KEY)


@leaf
def _turn_term(to_move, last_cards, last_info, last_player):
    word = np.uint64(last_info) | (np.uint64(to_move) << np.uint64(32)) | \
        (np.uint64(last_player + 1) << np.uint64(40))
    return mix64(mix64(np.uint64(last_cards) ^ _LAST_KEY) ^ word ^ _TURN_KEY)


@leaf
def position_hash(pos):
    """The 64-bit hash of a position, computed from scratch (``pos[S_HASH]`` holds it)."""
    h = _turn_term(pos[S_TO_MOVE], pos[S_LAST_CARDS], pos[S_LAST_INFO], pos[S_LAST_PLAYER])
    for s in range(pos[S_SEATS]):
        h ^= _hand_term(s, pos[S_HANDS + s])
    if pos[S_WILDS] != 0:                  # no term without wild cards: classic hashes stay
        h ^= mix64(np.uint64(pos[S_WILDS]) ^ _WILDS_KEY)
    return np.int64(h)


@kernel
def new_position(hands, team, to_move, last, last_player, wilds=0):
    """A position: packed ``hands`` (``uint64[n]``), landlord-side mask ``team``, the seat
    ``to_move``, the record ``last`` to beat (a pass record: ``to_move`` leads),
    ``last_player`` (ignored when leading) and the wild ranks' bit mask ``wilds``.
    Unchecked: validate in Python first."""
    pos = np.zeros(SEARCH_SIZE, np.int64)
    pos[S_WILDS] = wilds
    pos[S_SEATS] = hands.shape[0]
    for s in range(hands.shape[0]):
        pos[S_HANDS + s] = np.int64(hands[s])
    pos[S_TEAM] = team
    pos[S_TO_MOVE] = to_move
    leading = last[REC_INFO] == 0
    pos[S_LAST_CARDS] = 0 if leading else np.int64(last[REC_CARDS])
    pos[S_LAST_INFO] = 0 if leading else np.int64(last[REC_INFO])
    pos[S_LAST_PLAYER] = -1 if leading else last_player
    pos[S_WINNER] = -1
    pos[S_HASH] = position_hash(pos)
    return pos


@leaf
def is_leading(pos):
    """Whether the seat to act leads a new trick (and so may not pass)."""
    return pos[S_LAST_INFO] == 0


@leaf
def is_terminal(pos):
    """Whether a hand has been emptied."""
    return pos[S_WINNER] >= 0


@leaf
def side_of(pos, seat):
    """``LANDLORD_SIDE`` (0) or ``OTHER_SIDE`` (1)."""
    return LANDLORD_SIDE if (pos[S_TEAM] >> seat) & 1 else OTHER_SIDE


@leaf
def winning_side(pos):
    """The side of the seat that went out, or -1 while in play."""
    if pos[S_WINNER] < 0:
        return -1
    return side_of(pos, pos[S_WINNER])


@nrt_kernel
def last_move(pos, out):
    """Write the record to beat into ``out`` (``uint64[2]``; a pass record when leading)."""
    out[REC_CARDS] = np.uint64(pos[S_LAST_CARDS])
    out[REC_INFO] = np.uint64(pos[S_LAST_INFO])
    return out


@nrt_kernel
def _last_view(pos):
    """The record to beat as a ``uint64[2]`` view of ``pos`` (no allocation)."""
    return pos.view(np.uint64)[S_LAST_CARDS:S_LAST_INFO + 1]


@leaf
def hand_of(pos, seat):
    """Seat ``seat``'s packed hand (``uint64``)."""
    return np.uint64(pos[S_HANDS + seat])


@leaf
def make(pos, move, undo):
    """Play record ``move`` (``[0, 0]``: pass) for the seat to act; fill ``undo``.

    Unchecked: the move must be legal (:func:`actions` lists the legal ones). A move that
    empties the hand sets the winner; the turn then passes on as usual.
    """
    undo[U_TO_MOVE] = pos[S_TO_MOVE]
    undo[U_LAST_CARDS] = pos[S_LAST_CARDS]
    undo[U_LAST_INFO] = pos[S_LAST_INFO]
    undo[U_LAST_PLAYER] = pos[S_LAST_PLAYER]
    undo[U_WINNER] = pos[S_WINNER]
    undo[U_HASH] = pos[S_HASH]
    p = pos[S_TO_MOVE]
    nxt = p + 1
    if nxt == pos[S_SEATS]:
        nxt = 0
    h = np.uint64(pos[S_HASH]) ^ _turn_term(p, pos[S_LAST_CARDS], pos[S_LAST_INFO],
                                            pos[S_LAST_PLAYER])
    info = move[REC_INFO]
    if info == 0:
        if nxt == pos[S_LAST_PLAYER]:        # everyone else passed: the trick is won
            pos[S_LAST_CARDS] = 0
            pos[S_LAST_INFO] = 0
            pos[S_LAST_PLAYER] = -1
    else:
        old = np.uint64(pos[S_HANDS + p])
        new = old - move[REC_CARDS]
        pos[S_HANDS + p] = np.int64(new)
        h ^= _hand_term(p, old) ^ _hand_term(p, new)
        pos[S_LAST_CARDS] = np.int64(move[REC_CARDS])
        pos[S_LAST_INFO] = np.int64(info)
        pos[S_LAST_PLAYER] = p
        if new == 0:
            pos[S_WINNER] = p
    pos[S_TO_MOVE] = nxt
    h ^= _turn_term(nxt, pos[S_LAST_CARDS], pos[S_LAST_INFO], pos[S_LAST_PLAYER])
    pos[S_HASH] = np.int64(h)


@leaf
def unmake(pos, move, undo):
    """Undo :func:`make` of ``move`` with the ``undo`` buffer it filled."""
    p = undo[U_TO_MOVE]
    if move[REC_INFO] != 0:
        pos[S_HANDS + p] = np.int64(np.uint64(pos[S_HANDS + p]) + move[REC_CARDS])
    pos[S_TO_MOVE] = p
    pos[S_LAST_CARDS] = undo[U_LAST_CARDS]
    pos[S_LAST_INFO] = undo[U_LAST_INFO]
    pos[S_LAST_PLAYER] = undo[U_LAST_PLAYER]
    pos[S_WINNER] = undo[U_WINNER]
    pos[S_HASH] = undo[U_HASH]


@kernel
def actions(pos, rules, out, wild=None):
    """The legal actions of the seat to act, as records in ``out``: the pass ``[0, 0]``
    first unless leading, then every move (the generator's order). Returns how many there
    are, writing as many as fit (``out`` of length 0 counts). None once terminal.
    ``wild=True``: under the wild ranks ``S_WILDS``."""
    if pos[S_WINNER] >= 0:
        return 0
    hand = np.uint64(pos[S_HANDS + pos[S_TO_MOVE]])
    if wild is None:       # pruned while compiling, as in engine.legal_actions
        return actions_of_play(hand, _last_view(pos), rules, out)
    return wild_actions_of_play(hand, pos[S_WILDS], _last_view(pos), rules, out)


@kernel
def count_actions(pos, rules, wild=None):
    """The number of legal actions (:func:`actions`) without building them (under wild
    cards, ``wild=True``, by the generator writing none)."""
    if pos[S_WINNER] >= 0:
        return 0
    hand = np.uint64(pos[S_HANDS + pos[S_TO_MOVE]])
    last = _last_view(pos)
    if wild is None:
        return (0 if last[REC_INFO] == 0 else 1) + count_responses(hand, last, rules)
    return wild_actions_of_play(hand, pos[S_WILDS], last, rules,
                                np.empty((0, REC_WIDTH), np.uint64))


@kernel
def _one_rank_or_jokers(hand):
    """Whether ``hand`` holds a single rank, or jokers only (the shapes a bomb can have)."""
    rest = np.uint64(hand) & np.uint64((1 << (4 * 13)) - 1)
    if rest == 0:
        return True
    if np.uint64(hand) != rest:
        return False
    while (rest & np.uint64(15)) == 0:
        rest >>= np.uint64(4)
    return rest < np.uint64(16)


@kernel
def goes_out(pos, rules, scratch):
    """Whether the seat to act can play its whole hand now (an immediate win).

    ``scratch``: a move buffer of a few rows (8 are always enough in one deck)."""
    hand = np.uint64(pos[S_HANDS + pos[S_TO_MOVE]])
    if pos[S_LAST_INFO] != 0 and size(hand) != size(np.uint64(pos[S_LAST_CARDS])) \
            and not _one_rank_or_jokers(hand):
        return False             # neither the same size as the play to beat nor a bomb
    n = readings(hand, rules, scratch)
    if n == 0:
        return False
    if pos[S_LAST_INFO] == 0:
        return True
    if n > scratch.shape[0]:
        scratch = np.empty((n, REC_WIDTH), np.uint64)
        readings(hand, rules, scratch)
    last = _last_view(pos)
    for i in range(n):
        if beats(scratch[i], last, rules):
            return True
    return False


@leaf
def key_width(pos):
    """Words of a position's full key (:func:`write_key`): one per seat, and two."""
    return pos[S_SEATS] + 2


@nrt_kernel
def write_key(pos, out):
    """Write the position's full key into ``out[:key_width(pos)]`` (``uint64``): equal keys
    mean equal positions of one wild mask (for transposition tables that must never
    confuse two)."""
    put_key(pos, out)
    return out


@leaf
def put_key(pos, out):
    """:func:`write_key` without returning ``out`` (no reference counting: for hot loops)."""
    n = pos[S_SEATS]
    for s in range(n):
        out[s] = np.uint64(pos[S_HANDS + s])
    out[n] = np.uint64(pos[S_LAST_CARDS])
    out[n + 1] = np.uint64(pos[S_LAST_INFO]) | (np.uint64(pos[S_TO_MOVE]) << np.uint64(32)) \
        | (np.uint64(pos[S_LAST_PLAYER] + 1) << np.uint64(40))


@leaf
def cards_left(pos, seat):
    """Number of cards seat ``seat`` holds."""
    return size(np.uint64(pos[S_HANDS + seat]))
