"""The expert player's hand plan (:mod:`.expert`): a split of a one-deck hand into plays,
its worth, and what the unseen cards could beat. Everything works on packed hands
(:mod:`.packing`), scalars in and out, so that a decision allocates nothing.

A *plan* takes, in order: the rocket and the bombs (kept whole), the planes (runs of two or
more trios), then the pair chains (runs of three or more pairs) and the solo chains (runs of
five or more ranks, taken while they turn more lone cards into one play than they break
trios), in both orders, keeping the better; what is left plays as solos, pairs and trios, each
trio and each plane link carrying the lowest lone card or pair as its kicker. Its *worth* is
the sum of its plays' worths (the rank less 7: a 3 is -7, a 2 is +5; a chain its top rank
plus 1; a bomb 15, the rocket 20) less 7 for every play: fewer and higher plays are worth
more (the usual scale of rule-based Dou Dizhu players).

Chains found are listed in one ``int64`` of up to six 10-bit entries: kind width (1 solo
chain, 2 pair chain, 3 plane), lowest rank, length.
"""

import numpy as np

from fastdou.kernels.bits import lowest_bit
from fastdou.kernels.count_intrinsics import popcount
from fastdou.kernels.jit import leaf
from fastdou.kernels.layout import ACE, BIG_JOKER, RANK_2, SMALL_JOKER

_ONES = np.uint64(0x111111111111111)   # one card of each of the 15 ranks
MAX_CHAINS = 6
TURN = 7            # what one more play costs in a plan's worth
BOMB_WORTH = 15
ROCKET_WORTH = 20
NO_WORTH = -(1 << 40)


@leaf
def cnt(h, r):
    """Copies of rank ``r`` in packed hand ``h``."""
    return np.int64((np.uint64(h) >> np.uint64(4 * r)) & np.uint64(15))


@leaf
def span(s, length, k):
    """``k`` cards of each rank ``s .. s + length - 1``, packed."""
    return (np.uint64(k) * (_ONES >> np.uint64(4 * (15 - length)))) << np.uint64(4 * s)


_CHAIN_RANKS = np.uint64(0x111111111111)   # one card of each rank 3 .. A
_RANK_BOMBS = np.uint64(0x1111111111111)   # ... of each rank 3 .. 2
_BELOW_2 = _CHAIN_RANKS                    # ranks that may ride as a lone kicker
_BELOW_A = np.uint64(0x11111111111)        # ... as a pair kicker
# _RANK_BIT[b]: the nibbles of the ranks whose index has bit b set (for rank sums)
_RANK_BIT = (np.uint64(0x10101010101010), np.uint64(0x100110011001100),
             np.uint64(0x111000011110000), np.uint64(0x111111100000000))


@leaf
def _present(h):
    """Bit 4r set for every rank r of ``h`` (3 to A)."""
    h = np.uint64(h)
    return (h | (h >> np.uint64(1)) | (h >> np.uint64(2)) | (h >> np.uint64(3))) & _CHAIN_RANKS


@leaf
def _exactly(h, k):
    """Bit 4r set for every rank r (3 to A) that ``h`` holds exactly ``k`` times."""
    x = np.uint64(h) ^ (np.uint64(k) * _ONES)
    return ~(x | (x >> np.uint64(1)) | (x >> np.uint64(2)) | (x >> np.uint64(3))) & _CHAIN_RANKS


@leaf
def _exactly_all(h, k):
    """Bit 4r set for every rank r (all 15) that ``h`` holds exactly ``k`` times."""
    x = np.uint64(h) ^ (np.uint64(k) * _ONES)
    return ~(x | (x >> np.uint64(1)) | (x >> np.uint64(2)) | (x >> np.uint64(3))) & _ONES


@leaf
def _has_run(m, length):
    """Whether rank mask ``m`` (bit 4r) holds ``length`` consecutive ranks: a cheap test
    that spares the chain searches most hands."""
    t = m
    for i in range(1, length):
        t &= m >> np.uint64(4 * i)
    return t != 0


@leaf
def rank_worth(r):
    """A play's worth by its rank: 3 is -7, 10 is 0, 2 is +5, the big joker +7."""
    return r - 7


@leaf
def chain_at(chains, i):
    """(width, lowest rank, length) of entry ``i`` of a chain list."""
    e = (chains >> (10 * i)) & 1023
    return e & 3, (e >> 2) & 15, e >> 6


@leaf
def _add_chain(chains, nch, k, s, length):
    """The chain list with entry ``nch`` set; its new count."""
    return chains | ((k | (s << 2) | (length << 6)) << (10 * nch)), nch + 1


@leaf
def bombs_of(h):
    """(the rocket and the four-of-a-kinds of ``h``, packed; how many plays they are)."""
    fours = _exactly_all(h, 4) & _RANK_BOMBS
    out = fours * np.uint64(4)
    plays = popcount(fours)
    if cnt(h, SMALL_JOKER) == 1 and cnt(h, BIG_JOKER) == 1:
        out += span(SMALL_JOKER, 2, 1)
        plays += 1
    return out, np.int64(plays)


@leaf
def _take_runs(h, k, minlen, chains, nch):
    """Take every run of ``minlen`` or more ranks (3 to A) held exactly ``k`` times."""
    if not _has_run(_exactly(h, k), minlen):
        return h, chains, nch
    r = 0
    while r <= ACE:
        if cnt(h, r) != k:
            r += 1
            continue
        s = r
        while r <= ACE and cnt(h, r) == k:
            r += 1
        if r - s >= minlen and nch < MAX_CHAINS:
            h -= span(s, r - s, k)
            chains, nch = _add_chain(chains, nch, k, s, r - s)
    return h, chains, nch


@leaf
def _take_solo_chains(h, chains, nch):
    """Take solo chains while one turns at least two more lone cards into a play than it
    breaks trios (the shortest of the best gain: it breaks the fewest pairs)."""
    while nch < MAX_CHAINS and _has_run(_present(h), 5):
        best_gain = 0
        best_s = -1
        best_len = 0
        for s in range(ACE - 3):
            if cnt(h, s) == 0 or (s > 0 and cnt(h, s - 1) == 1):
                continue          # a lone card just below would make a better start
            gain = -1
            for e in range(s, ACE + 1):
                c = cnt(h, e)
                if c == 0:
                    break
                gain += 1 if c == 1 else (-1 if c == 3 else 0)
                if e - s >= 4 and gain > best_gain:
                    best_gain = gain
                    best_s = s
                    best_len = e - s + 1
        if best_s < 0:
            return h, chains, nch
        h -= span(best_s, best_len, 1)
        chains, nch = _add_chain(chains, nch, 1, best_s, best_len)
    return h, chains, nch


@leaf
def _rank_sum(m):
    """Sum of the ranks r whose bit 4r is set in ``m``."""
    total = np.int64(0)
    for b in range(4):
        total += np.int64(popcount(m & _RANK_BIT[b])) << b
    return total


@leaf
def _worth(rest, chains, nch, bomb_plays, bomb_worth):
    """(worth, plays) of a plan: its chains, its bombs and the solos, pairs and trios of
    ``rest``, the lowest lone cards (below 2) and pairs (below A) riding on trios."""
    worth = bomb_worth
    riders = np.int64(0)
    for i in range(nch):
        k, s, length = chain_at(chains, i)
        worth += rank_worth(s + length - 1) + 1
        if k == 3:
            riders += length
    ones = _exactly_all(rest, 1)
    twos = _exactly_all(rest, 2)
    held = ones | twos | _exactly_all(rest, 3)
    riders += popcount(_exactly_all(rest, 3))
    plays = nch + bomb_plays + np.int64(popcount(held))
    worth += _rank_sum(held) - 7 * np.int64(popcount(held))
    kick = (ones & _BELOW_2) | (twos & _BELOW_A)
    while riders > 0 and kick != 0:
        r = lowest_bit(np.int64(kick)) >> 2       # a kicker: no play and no worth of its own
        kick &= kick - np.uint64(1)
        riders -= 1
        plays -= 1
        worth -= rank_worth(r)
    return worth - TURN * plays, plays


@leaf
def plan(h):
    """(worth, plays, chains, chain count, rest) of the better of the two plans of packed
    hand ``h``; ``rest`` the solos, pairs and trios left (bombs and rocket apart)."""
    bombs, bomb_plays = bombs_of(h)
    bomb_worth = BOMB_WORTH * bomb_plays
    if cnt(bombs, BIG_JOKER) == 1:
        bomb_worth += ROCKET_WORTH - BOMB_WORTH
    base, chains0, n0 = _take_runs(h - bombs, 3, 2, np.int64(0), np.int64(0))
    # pair chains first, then solo chains
    a, ca, na = _take_runs(base, 2, 3, chains0, n0)
    a, ca, na = _take_solo_chains(a, ca, na)
    wa, pa = _worth(a, ca, na, bomb_plays, bomb_worth)
    if not (_has_run(_exactly(base, 2), 3) and _has_run(_present(base), 5)):
        return wa, pa, ca, na, a          # no pair chain and solo chain to order: one plan
    # solo chains first, then pair chains
    b, cb, nb = _take_solo_chains(base, chains0, n0)
    b, cb, nb = _take_runs(b, 2, 3, cb, nb)
    wb, pb = _worth(b, cb, nb, bomb_plays, bomb_worth)
    if wb > wa:
        return wb, pb, cb, nb, b
    return wa, pa, ca, na, a


@leaf
def worth(h):
    """The worth of packed hand ``h``'s plan (0 for an empty hand)."""
    if h == 0:
        return 0
    return plan(h)[0]


@leaf
def unseen_bomb_above(unseen, power):
    """Whether the unseen cards hold a bomb above ``power`` (rank bombs 0..12, the rocket
    13), pooled as if one seat held them all (the cautious reading)."""
    if cnt(unseen, SMALL_JOKER) == 1 and cnt(unseen, BIG_JOKER) == 1:
        return True
    for r in range(max(power + 1, 0), RANK_2 + 1):
        if cnt(unseen, r) == 4:
            return True
    return False


@leaf
def beatable(width, rank, length, unseen):
    """Whether the unseen cards could beat a play of ``width`` cards a rank (1 solo, 2
    pair, 3 trio with or without kicker, 4 bomb), over ``length`` ranks topped by ``rank``
    (``length`` 1: not a chain). Kickers are assumed to be found."""
    if width == 4:
        return unseen_bomb_above(unseen, rank)
    if unseen_bomb_above(unseen, -1):
        return True
    if length == 1:
        top = BIG_JOKER if width == 1 else RANK_2
        for r in range(rank + 1, top + 1):
            if cnt(unseen, r) >= width:
                return True
        return False
    run = 0
    for r in range(rank - length + 2, ACE + 1):
        run = run + 1 if cnt(unseen, r) >= width else 0
        if run >= length:
            return True
    return False
