"""One pass over a chunk of per-deal results (``play.RESULT_FIELDS`` columns and score
changes) summing what :class:`fastdou.sim.summary.Totals` keeps: the numpy version made some 60
passes over the chunk (measured: about 200 ns a deal, 4% of a random game).

Sums of squares are kept as the sums of the squares' high and low 32 bits (exact in
``uint64``), which the caller joins as ``(high << 32) + low``; a score of magnitude
``SQUARE_SAFE`` or more (whose square would not fit) sets ``BIG_SCORE`` in the returned
flags and the caller sums that chunk's squares itself. A bid outside ``0 .. N_BIDS - 1``
sets ``ODD_BID`` (the caller counts that chunk's bids itself).
"""

import numpy as np

from fastdou.kernels.jit import kernel
from fastdou.kernels.state import (
    BOMB_SIZE_BITS, SIDE_FARMERS, SIDE_LANDLORD, SIDE_VOID, SPRUNG_ANTI, SPRUNG_SPRING,
)

SQUARE_SAFE = 3_000_000_000
N_BIDS = 64
BIG_SCORE = 1
ODD_BID = 2

# counts[...]: deals summed over the chunk.
T_VOID, T_WINS, T_MULT, T_BOMBS, T_ROCKETS, T_SPRING, T_ANTI, T_PLAYS, T_REDEALS = range(9)
N_COUNTS = 9
# sides[k, ...], k 0 the landlord side, 1 the others: scores, squares' high and low halves,
# seats summed over.
S_SCORE, S_SQ_HI, S_SQ_LO, S_SEATS = range(4)
# seats[s, ...]: the seat's scores and squares (every deal), times it was the landlord, sat
# on the landlord side, won there, sat as a farmer, won there (decided deals).
P_SCORE, P_SQ_HI, P_SQ_LO, P_LANDLORD, P_LORD, P_LORD_WINS, P_FARMER, P_FARMER_WINS = range(8)
N_SEAT_FIELDS = 8
_LOW = np.uint64(0xFFFFFFFF)
_32 = np.uint64(32)


@kernel
def _square_into(row, hi, lo, v):
    """Add the square of ``v`` to ``row[hi]`` / ``row[lo]``; returns whether it is too big."""
    if v >= SQUARE_SAFE or v <= -SQUARE_SAFE:
        return True
    sq = np.uint64(v * v)
    row[hi] += np.int64(sq >> _32)
    row[lo] += np.int64(sq & _LOW)
    return False


@kernel
def chunk_totals(res, scores, cols, features, counts, sides, seats, feature, bids):
    """Add the chunk ``res`` / ``scores`` into the (zeroed or running) sums ``counts``,
    ``sides``, ``seats`` (see the ``T_``, ``S_``, ``P_`` indices), ``feature[f]`` (total,
    deals with any) and ``bids[b]`` (decided deals won at bid b). ``cols``: the columns
    winner, landlord, team, multiplier, bombs, rockets, spring, plays, redeals, bid of
    ``res``; ``features[f]``: (column, shift): the column, or (shift >= 0) the 7-bit count at
    that shift of it (``state.G_BOMB_SIZES``). Returns the flags ``BIG_SCORE`` / ``ODD_BID``."""
    winner, landlord, team, mult, bombs, rockets, spring, plays, redeals, bid = \
        cols[0], cols[1], cols[2], cols[3], cols[4], cols[5], cols[6], cols[7], cols[8], \
        cols[9]
    players = scores.shape[1]
    flags = 0
    for d in range(res.shape[0]):
        row = res[d]
        w = row[winner]
        decided = w != SIDE_VOID
        won = w == SIDE_LANDLORD
        counts[T_BOMBS] += row[bombs]
        counts[T_ROCKETS] += row[rockets]
        counts[T_SPRING] += row[spring] == SPRUNG_SPRING
        counts[T_ANTI] += row[spring] == SPRUNG_ANTI
        counts[T_PLAYS] += row[plays]
        counts[T_REDEALS] += row[redeals]
        for f in range(features.shape[0]):
            v = row[features[f, 0]]
            if features[f, 1] >= 0:
                v = (v >> features[f, 1]) & ((1 << BOMB_SIZE_BITS) - 1)
            feature[f, 0] += v
            feature[f, 1] += v > 0
        for s in range(players):
            v = scores[d, s]
            seats[s, P_SCORE] += v
            if _square_into(seats[s], P_SQ_HI, P_SQ_LO, v):
                flags |= BIG_SCORE
        if not decided:
            counts[T_VOID] += 1
            continue
        counts[T_WINS] += won
        counts[T_MULT] += row[mult]
        b = row[bid]
        if 0 <= b < N_BIDS:
            bids[b] += 1
        else:
            flags |= ODD_BID
        lord = row[landlord]
        if 0 <= lord < players:
            seats[lord, P_LANDLORD] += 1
        for s in range(players):
            k = 0 if (row[team] >> s) & 1 == 1 else 1
            v = scores[d, s]
            sides[k, S_SCORE] += v
            sides[k, S_SEATS] += 1
            if _square_into(sides[k], S_SQ_HI, S_SQ_LO, v):
                flags |= BIG_SCORE
            if k == 0:
                seats[s, P_LORD] += 1
                seats[s, P_LORD_WINS] += won
            else:
                seats[s, P_FARMER] += 1
                seats[s, P_FARMER_WINS] += w == SIDE_FARMERS
    return flags
