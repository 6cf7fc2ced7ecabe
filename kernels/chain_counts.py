"""Counting chains without building them, for ``counting.count_moves``: a chain's count from
shifted masks (the ranks that start a run of each length, :func:`_runs`), the leading chains
from one table (:data:`CHAIN_FIELDS`), a plane's solo wings from a small generating-function
product (the kicker rules as its coefficients, :data:`WING_PRODUCTS`), the wings of planes
with pairs and of carriers as binomials (:func:`binomial`); only spaceships walk their (few)
candidates.
"""

from math import comb

import numpy as np

from fastdou.kernels.bits import lowest_bit, span
from fastdou.kernels.count_intrinsics import MAX_WINGS, popcount
from fastdou.kernels.generate import (
    JOKERS, RANKS, _ge, _trio_forbidden, chain_lengths, held, link_size, run_from,
)
from fastdou.kernels.jit import inline_leaf, kernel, leaf
from fastdou.kernels.layout import (
    ACE, BIG_JOKER, KINDS, K_CHAIN_MIN, K_CORE, N_RANKS, PLANE_SOLO, R_BOMB_WINGS, R_CHAIN_HIGH,
    R_CHAIN_LOW, R_QUAD_CHAIN_MIN, R_ROCKET_KICKERS, R_TRIO_CHAIN_MIN, R_WING_TRIO, SMALL_JOKER,
    SPACESHIP, WING_TRIO_NEVER, WING_TRIO_NOT_ADJACENT,
)
from fastdou.kernels.packing import count

_BINOMIALS = np.array([[comb(n, k) for k in range(MAX_WINGS + 1)] for n in range(16)],
                      np.int64)


@kernel
def binomial(n, k):
    """n choose k for 0 <= n <= 15 (a rank mask's popcount); 0 when k < 0 or k > n.
    A table: integer division costs more than the rest of a count."""
    if k < 0 or k > n:
        return 0
    return _BINOMIALS[n, k]


def _chain_fields():
    """The leading chains of every rank mask of the chain ranks (which lie in 3..A: 12
    bits), as one table: ``CHAIN_FIELDS[m]`` holds, for x = 1..12, the number of chains of
    at least x links among the runs of ``m`` (a run of r ranks holds r - l + 1 chains of
    each length l <= r), in the field of ``FIELD_BITS[x]`` bits at ``FIELD_SHIFT[x]``
    (56 bits in all: the field of x holds at most 1 + 2 + ... + (13 - x)). x = 13: none."""
    size = ACE + 1
    bits = [0] + [(c * (c + 1) // 2).bit_length() for c in range(size, 0, -1)] + [0]
    shift = np.concatenate([[0], np.cumsum(bits[:-1])]).astype(np.uint64)
    masks = np.arange(1 << size, dtype=np.uint64)
    starts = masks.copy()
    per_length = []
    for length in range(1, size + 1):
        per_length.append(sum((starts >> np.uint64(b)) & np.uint64(1) for b in range(size)))
        starts &= masks >> np.uint64(length)
    table = np.zeros(1 << size, np.uint64)
    total = np.zeros(1 << size, np.uint64)
    for x in range(size, 0, -1):
        total += per_length[x - 1]
        table |= total << shift[x]
    return table, shift, np.array([(1 << b) - 1 for b in bits], np.uint64)


CHAIN_FIELDS, FIELD_SHIFT, FIELD_MASK = _chain_fields()


@inline_leaf
def _chain_count(chain, per, min_len, want_len, want_size, above, max_move):
    """Chains with no attachments. Leading: every length from the shortest wanted to the
    longest allowed, from :data:`CHAIN_FIELDS` (a difference of two fields). Above
    ``above``: ``starts`` holds the ranks that start a run of ``length`` ranks of
    ``chain``, those whose top s + length - 1 is above ``above`` are its chains."""
    lo = min_len
    hi = N_RANKS
    if want_len != 0:
        lo = max(lo, want_len)
        hi = want_len
    if want_size != 0:
        if want_size % per:
            return 0
        lo = max(lo, want_size // per)
        hi = min(hi, want_size // per)
    if above < 0:
        hi = min(hi, max_move // per, ACE + 1)
        if lo > hi:
            return 0
        row = CHAIN_FIELDS[chain]
        return np.int64((row >> FIELD_SHIFT[lo]) & FIELD_MASK[lo]) - \
            np.int64((row >> FIELD_SHIFT[hi + 1]) & FIELD_MASK[hi + 1])
    starts = chain
    for j in range(1, lo):
        starts &= chain >> j
    n = 0
    length = lo
    while starts and length <= hi and per * length <= max_move:
        cut = min(max(above - length + 2, 0), N_RANKS)   # the lowest start above
        n += popcount((starts >> cut) << cut)
        starts &= chain >> length
        length += 1
    return n


@leaf
def _wing_cap(h, rules, r, s, t, k, bomb_wings):
    """(most wing cards of rank r, whether exactly 3 is barred) for the chain s..t carrying
    k solo wings, as ``generate._plane_solo`` sets them."""
    cap = min(count(h, r), k)
    if not bomb_wings:
        cap = min(cap, 3)
    if cap >= 3 and _trio_forbidden(r, s, t, rules):
        if bomb_wings:
            return cap, True
        return 2, False
    return cap, False


def _wing_products():
    """``WING_PRODUCTS[b2, b3, m]``: the coefficient of x^m in (1 + x + x^2)^b2 (1 + x + x^2
    + x^3)^b3, for 0 <= b2, b3 <= 15 ranks and m <= MAX_WINGS."""
    powers = [[np.zeros(MAX_WINGS + 1, np.int64) for _ in range(N_RANKS + 1)] for _ in (2, 3)]
    for c, row in zip((2, 3), powers):
        row[0][0] = 1
        for b in range(1, N_RANKS + 1):
            row[b] = np.convolve(row[b - 1], np.ones(c + 1, np.int64))[:MAX_WINGS + 1]
    return np.array([[np.convolve(p2, p3)[:MAX_WINGS + 1] for p3 in powers[1]]
                     for p2 in powers[0]])


WING_PRODUCTS = _wing_products()


@leaf
def _solo_wings(h, rules, s, t, k, m1, m2, poly):
    """Number of ways to pick the ``k`` solo wings of the trio chain s..t (``_plane_solo``'s
    caps and bans): the coefficient of x^k in the product, over the ranks outside the
    chain, of the allowed counts' polynomials. Without bombs as wings every cap is 1, 2 or
    3 (2 for a trio barred next to the chain), so the product is a binomial times a
    :data:`WING_PRODUCTS` entry per power; with them, one rank at a time."""
    bomb_wings = rules[R_BOMB_WINGS] != 0
    cand = m1 & ~span(s, t)
    jokers = cand & JOKERS
    if rules[R_ROCKET_KICKERS] == 0 and jokers == JOKERS:
        cand ^= JOKERS     # (1 + ... small) + (1 + ... big) - 1: never both
    else:
        jokers = 0
    if not bomb_wings:
        mode = rules[R_WING_TRIO]
        barred = RANKS if mode == WING_TRIO_NEVER else 0
        if mode == WING_TRIO_NOT_ADJACENT:
            barred = span(max(s - 1, rules[R_CHAIN_LOW]), s - 1) | \
                span(t + 1, min(t + 1, rules[R_CHAIN_HIGH]))
        b3 = popcount(cand & _ge(h, 3) & ~barred) if k >= 3 else 0
        b2 = popcount(cand & m2) - b3 if k >= 2 else 0
        b1 = popcount(cand) - b2 - b3
        for j in range(k + 1):
            acc = 0
            for i in range(j + 1):
                acc += binomial(b1, j - i) * WING_PRODUCTS[b2, b3, i]
            poly[j] = acc
    else:
        ones = popcount(cand & ~m2)    # ranks held once: (1 + x) each
        for j in range(k + 1):
            poly[j] = binomial(ones, j)
        m = cand & m2
        while m:
            r = lowest_bit(m)
            m &= m - 1
            cap, bad = _wing_cap(h, rules, r, s, t, k, bomb_wings)
            for j in range(k, 0, -1):     # poly *= 1 + x + ... + x^cap (less x^3 if bad)
                acc = 0
                for i in range(1, min(cap, j) + 1):
                    if not (bad and i == 3):
                        acc += poly[j - i]
                poly[j] += acc
    if jokers == 0:
        return poly[k]
    n = 0
    for r in (SMALL_JOKER, BIG_JOKER):
        cap, bad = _wing_cap(h, rules, r, s, t, k, bomb_wings)
        for i in range(1, cap + 1):
            if not (bad and i == 3):
                n += poly[k - i]
    return n + poly[k]


@leaf
def _plane_solos(h, rules, sc, poly):
    """Trio chains with solo wings, one chain at a time (``poly``: a pointer to scratch of
    MAX_WINGS + 1 int64)."""
    chain = sc.trios & span(rules[R_CHAIN_LOW], rules[R_CHAIN_HIGH])
    n = 0
    starts = _runs(chain, rules[R_TRIO_CHAIN_MIN])     # the starts of a chain
    while starts:
        s = lowest_bit(starts)
        starts &= starts - 1
        lo, hi = chain_lengths(run_from(chain, s), s, link_size(PLANE_SOLO),
                               rules[R_TRIO_CHAIN_MIN], sc.want_len, sc.want_size,
                               sc.above, sc.max_move)
        for length in range(lo, hi + 1):
            n += _solo_wings(h, rules, s, s + length - 1, length, sc.ones, sc.twos, poly)
    return n


@leaf
def _winged_chains(rules, sc, kind, links, wings):
    """Chains of ``kind`` on the ranks in ``links`` carrying one group a link from the
    distinct ranks of ``wings`` off the chain: planes with pairs, carriers."""
    chain = links & span(rules[R_CHAIN_LOW], rules[R_CHAIN_HIGH])
    n = 0
    starts = _runs(chain, rules[KINDS[kind, K_CHAIN_MIN]])
    while starts:
        s = lowest_bit(starts)
        starts &= starts - 1
        lo, hi = chain_lengths(run_from(chain, s), s, link_size(kind),
                               rules[KINDS[kind, K_CHAIN_MIN]], sc.want_len,
                               sc.want_size, sc.above, sc.max_move)
        for length in range(lo, hi + 1):
            n += binomial(popcount(wings & ~span(s, s + length - 1)), length)
    return n


@leaf
def _spaceships(rules, sc):
    """Quad chain plus a trio chain of the same length elsewhere (``generate._spaceship``)."""
    lo_rank = rules[R_CHAIN_LOW]
    hi_rank = rules[R_CHAIN_HIGH]
    chain = sc.fours & span(lo_rank, hi_rank)
    n = 0
    starts = _runs(chain, rules[R_QUAD_CHAIN_MIN])
    while starts:
        s = lowest_bit(starts)
        starts &= starts - 1
        # top >= above here (not >): the trio chain breaks a tie of the quad chains.
        lo, hi = chain_lengths(run_from(chain, s), s, link_size(SPACESHIP),
                               rules[R_QUAD_CHAIN_MIN], sc.want_len, sc.want_size,
                               sc.above - 1, sc.max_move)
        for length in range(lo, hi + 1):
            t = s + length - 1
            for s2 in range(lo_rank, hi_rank - length + 2):
                t2 = s2 + length - 1
                if (s2 <= t and t2 >= s) or (t == sc.above and t2 <= sc.above2):
                    continue
                need = span(s2, t2)
                if sc.trios & need == need:
                    n += 1
    return n


@inline_leaf
def _plain_chains(rules, sc, chain_ranks, kind):
    """The chains of ``kind``, one that carries nothing, when ``sc`` asks for them (inlined
    with ``kind`` a constant: its link's size and the divisions by it are constants)."""
    if sc.kinds & (1 << kind) == 0:
        return 0
    return _chain_count(held(sc, KINDS[kind, K_CORE]) & chain_ranks, link_size(kind),
                        rules[KINDS[kind, K_CHAIN_MIN]], sc.want_len, sc.want_size,
                        sc.above, sc.max_move)


@kernel
def _runs(chain, length):
    """The ranks that start a run of at least ``length`` (>= 1) consecutive ranks of
    ``chain``: runs of 2, 4 and 8 by doubling shifts, then one overlapping shift (selects,
    no branch; 15 bits hold no run of more than 15)."""
    r2 = chain & (chain >> 1)
    r4 = r2 & (r2 >> 2)
    r8 = r4 & (r4 >> 4)
    x = r8 if length >= 8 else r4 if length >= 4 else r2 if length >= 2 else chain
    k = 8 if length >= 8 else 4 if length >= 4 else 2 if length >= 2 else 1
    return x & (x >> min(length - k, N_RANKS))
