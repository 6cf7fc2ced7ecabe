"""Counting moves without building them: a closed form per kind, the filters of ``emit``.

:func:`count_moves` returns exactly what ``generate.emit`` returns for the same hand, rules
and query, but never enumerates a kicker or a wing: a kind's count comes from the rank
masks (popcounts and binomials), a chain's from shifted masks (the ranks that start a
run of each length), a plane's solo wings from a small generating-function product (the
kicker rules as its coefficients). Only bombs and spaceships walk their (few) candidates.

:func:`count_answers` is its twin for a response (``moves.count_responses``, which inlines
it into the caller): every bomb, and the one kind and chain length of the last move above
its rank. A response has 2-3 moves, so the fixed costs decide: the usual kinds and the
usual bombs are counted without a branch on the kind (consecutive positions' kinds vary,
so such a branch mispredicts), on the packed counts' nibbles, from what the rules decide
worked out once in the rules array (:func:`answer_fields`), and the rare ones in calls
that return no status (:func:`quiet_call`), so that the caller keeps no reference counts.
Leading chains come from one table (:data:`CHAIN_FIELDS`).
"""

from math import comb

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from fastdou.kernels.bits import lowest_bit, span
from fastdou.kernels.generate import (
    _NIBBLE_ONES, _NIBBLE_TOPS, JOKERS, NO_BOMBS, NON_JOKERS, RANKS, TOP_RANKS, _ge, _size_ok,
    _trio_forbidden, bomb_power, chain_lengths, ge_tops, held, is_bomb_kind, joker_bomb_power,
    lead_query, link_size, lone_joker_power, query, rank_bomb_power, run_from, scan, trio_top,
    wanted,
)
from fastdou.kernels.jit import inline_kernel, inline_leaf, kernel, leaf
from fastdou.kernels.layout import (
    ACE, BIG_JOKER, CARRIER, DRESS, FOUR_TWO_PAIR, FOUR_TWO_SOLO, INFO_FIELD_MASK,
    INFO_LENGTH_SHIFT, INFO_RANK_SHIFT, JOKER_BOMBS_ALL, JOKER_BOMBS_ANY, JOKER_BOMBS_LONE,
    KINDS, K_BOMB, K_CHAIN_MIN, K_CORE, N_KINDS, N_RANKS, PAIR, PAIR_CHAIN, PASS, PLANE_PAIR,
    PLANE_SOLO, QUAD, QUAD_CHAIN, QUAD_TRIO, R_ANSWER_RANKS, R_BOMBS_CLOSED, R_BOMB_MAX,
    R_BOMB_MIN, R_BOMB_WINGS, R_CHAIN_HIGH, R_CHAIN_LOW, R_DECKS, R_JOKER_BOMBS, R_JOKER_PAIRS,
    R_JOKER_SOLOS, R_KINDS, R_MAX_MOVE, R_PAIR_TOPS, R_QUAD_CHAIN_MIN, R_ROCKET_KICKERS,
    R_TRIO_CHAIN_MIN, R_WING_TRIO, SMALL_JOKER, SOLO, SOLO_CHAIN, SPACESHIP, TRIO, TRIO_CHAIN,
    TRIO_PAIR, TRIO_SOLO, WING_TRIO_NEVER, WING_TRIO_NOT_ADJACENT,
)
from fastdou.kernels.packing import count

MAX_WINGS = 27   # the most solo wings a plane can carry (108 cards / 4)
_KICKER_WAYS = np.zeros(N_KINDS, np.int64)     # count_answers' choices of kickers, by kind
_KICKER_WAYS[[TRIO_SOLO, TRIO_PAIR, FOUR_TWO_SOLO, FOUR_TWO_PAIR, QUAD_TRIO, DRESS]] = range(1, 7)
_WINGED = (1 << PLANE_SOLO) | (1 << PLANE_PAIR) | (1 << CARRIER) | (1 << SPACESHIP)


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an integer (LLVM ``ctpop``)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@intrinsic
def quiet_call(typingctx, fn, args):
    """``fn(*args)`` for a kernel ``fn`` that never raises, without checking its status.

    A call to a compiled function returns a status the caller tests, branching to its
    error exit; a caller that passes a view of an array (``lasts[i]``) then keeps the
    view's reference count (two atomic operations) around any such call, which costs more
    than a count. With this call the caller's counts around it are pruned. ``fn`` must
    not raise (no division by a variable, no allocation): its status is dropped.
    """
    if not isinstance(fn, types.Dispatcher) or not isinstance(args, types.BaseTuple):
        return None
    argtys = tuple(types.unliteral(a) for a in args)
    fn.dispatcher.compile(argtys)
    cres = fn.dispatcher.overloads[argtys]

    def codegen(context, builder, signature, llargs):
        context.active_code_library.add_linking_library(cres.library)
        values = cgutils.unpack_tuple(builder, llargs[1], len(argtys))
        values = [context.cast(builder, v, a, t) for v, a, t in zip(values, args, argtys)]
        _, result = context.call_internal_no_propagate(builder, cres.fndesc, cres.signature,
                                                        values)
        return result

    return cres.signature.return_type(fn, args), codegen


@intrinsic
def _stack_poly(typingctx):
    """A pointer to MAX_WINGS + 1 int64 on the calling kernel's stack, valid while it runs:
    scratch that needs no allocation (and so no reference counting)."""
    def codegen(context, builder, signature, args):
        block = cgutils.alloca_once(builder, ir.ArrayType(ir.IntType(64), MAX_WINGS + 1))
        return builder.bitcast(block, ir.IntType(64).as_pointer())

    return types.CPointer(types.int64)(), codegen


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


_NIB_NON_JOKERS = np.int64((1 << (4 * SMALL_JOKER)) - 1) & TOP_RANKS   # ge_tops' bits
_NIB_JOKERS = TOP_RANKS ^ _NIB_NON_JOKERS
_RANK_NIBBLES = np.uint64((1 << (4 * SMALL_JOKER)) - 1)    # the counts of ranks 3..2
_BYTE_LOWS = np.uint64(0x0F0F0F0F0F0F0F0F)
_BYTE_ONES = np.uint64(0x0101010101010101)


@inline_kernel
def _sizes_from(h, k):
    """Sum over the ranks 3..2 of max(0, count - k + 1), for 1 <= k <= 8: the rank bombs of
    k cards or more (each size from k up to the count), over the packed counts at once.

    As in ``generate._ge``, count + 8 - k sets a nibble's top bit when count >= k; less
    that bit and plus one, the selected nibbles hold count - k + 1; then a horizontal sum.
    """
    z = np.uint64(h) + np.uint64(8 - k) * _NIBBLE_ONES
    top = z & _NIBBLE_TOPS
    v = (z - top + _NIBBLE_ONES) & ((top >> np.uint64(3)) * np.uint64(15)) & _RANK_NIBBLES
    v = (v & _BYTE_LOWS) + ((v >> np.uint64(4)) & _BYTE_LOWS)
    return np.int64((v * _BYTE_ONES) >> np.uint64(56))


@inline_kernel
def _nib_span(lo, hi):
    """The ranks lo..hi (lo <= hi) as nibble top bits."""
    return ((1 << (4 * hi + 4)) - (1 << (4 * lo))) & TOP_RANKS


@inline_kernel
def _nib_runs(ranks, length):
    """The ranks (nibble top bits) that start a run of at least ``length`` (>= 1) of
    ``ranks``: runs of 1, 2, 4 and 8 by doubling shifts, combined by the bits of
    ``length`` (no branch; none longer than the 15 ranks)."""
    run = ranks
    starts = ranks
    at = 0                   # ranks covered so far
    for j in range(4):
        bit = (length >> j) & 1
        starts &= (run >> (4 * at)) | (bit - 1)
        at += bit << j
        run &= run >> (4 << j)
    return starts & -np.int64(length <= N_RANKS)


@leaf
def _rank_bombs(h, rules, want_size, above_power):
    """Rank bombs of a power above ``above_power`` (``generate._bombs``' first part)."""
    max_move = rules[R_MAX_MOVE]
    bmin = rules[R_BOMB_MIN]
    bmax = rules[R_BOMB_MAX]
    if bmin <= 0:
        return 0
    if above_power < 0 and want_size == 0 and bmin <= bmax <= min(8, max_move):
        return _rank_sizes(h, bmin, bmax)
    n = 0
    m = _ge(h, bmin) & NON_JOKERS
    while m:
        r = lowest_bit(m)
        m &= m - 1
        for s in range(bmin, min(count(h, r), bmax) + 1):
            if rank_bomb_power(s, r, rules) > above_power and _size_ok(s, want_size, max_move):
                n += 1
    return n


@leaf
def _joker_bombs(h, rules, want_size, above_power):
    """Joker bombs of a power above ``above_power`` (``generate._bombs``' second part)."""
    max_move = rules[R_MAX_MOVE]
    jb = rules[R_JOKER_BOMBS]
    small = count(h, SMALL_JOKER)
    big = count(h, BIG_JOKER)
    n = 0
    if jb == JOKER_BOMBS_LONE:
        for r in range(SMALL_JOKER, BIG_JOKER + 1):
            if count(h, r) >= 1 and lone_joker_power(r) > above_power \
                    and _size_ok(1, want_size, max_move):
                n += 1
    elif jb == JOKER_BOMBS_ALL:
        d = rules[R_DECKS]
        if small >= d and big >= d and joker_bomb_power(2 * d, rules) > above_power \
                and _size_ok(2 * d, want_size, max_move):
            n += 1
    elif jb == JOKER_BOMBS_ANY:
        for b in range(small + 1):
            for g in range(big + 1):
                j = b + g
                if j < 2 or not _size_ok(j, want_size, max_move):
                    continue
                if joker_bomb_power(j, rules) > above_power:
                    n += 1
    return n


@leaf
def _bomb_count(h, rules, want_size, above_power):
    """Bombs of a power above ``above_power`` (``generate._bombs``)."""
    return _rank_bombs(h, rules, want_size, above_power) + \
        _joker_bombs(h, rules, want_size, above_power)


@inline_leaf
def _plain_chains(rules, sc, chain_ranks, kind):
    """The chains of ``kind``, one that carries nothing, when ``sc`` asks for them (inlined
    with ``kind`` a constant: its link's size and the divisions by it are constants)."""
    if sc.kinds & (1 << kind) == 0:
        return 0
    return _chain_count(held(sc, KINDS[kind, K_CORE]) & chain_ranks, link_size(kind),
                        rules[KINDS[kind, K_CHAIN_MIN]], sc.want_len, sc.want_size,
                        sc.above, sc.max_move)


@inline_kernel
def _kicker_ways(ways, n1, n2, n_pairs, n_trios, rocket):
    """Write into ``ways`` (by :data:`_KICKER_WAYS`) the choices of kickers of one core rank
    of each kind, from the numbers of ranks held at least once (``n1``) and twice (``n2``),
    of pairs and of trios, the core's rank among them; ``rocket``: 1 when both jokers are
    held but may not be kickers together. Index 0: a kind without kickers. (No table
    lookups, nothing that branches: each count is at least 1 whenever a core rank is held.)"""
    ways[0] = 1
    ways[1] = n1 - 1                                          # trio + solo
    ways[2] = n_pairs - 1                                     # trio + pair
    ways[3] = (n2 - 1) + ((n1 - 1) * (n1 - 2) >> 1) - rocket   # four + two solos
    ways[4] = (n_pairs - 1) * (n_pairs - 2) >> 1              # four + two pairs
    ways[5] = n_trios - 1                                     # four + trio
    ways[6] = (n_trios - 1) * (n_pairs - 2)                   # four + trio + pair


@leaf
def count_moves(h, rules, q):
    """Number of moves ``generate.emit(h, rules, q, out)`` finds, without building any."""
    h = np.uint64(h)
    sc = scan(h, rules, q)
    n1, n2, n3, n4 = popcount(sc.ones), popcount(sc.twos), popcount(sc.trios), \
        popcount(sc.pairs)
    n = 0
    for kind, mask in ((SOLO, sc.solos), (PAIR, sc.pairs), (TRIO, sc.trios), (QUAD, sc.fours)):
        if wanted(sc, kind, 1):
            n += popcount(mask & sc.up)
    # Trios and fours with kickers: each core rank above times its choices of kickers.
    ways = _stack_poly()
    rocket = np.int64(rules[R_ROCKET_KICKERS] == 0) & np.int64(sc.ones & JOKERS == JOKERS)
    _kicker_ways(ways, n1, n2, n4, n3, rocket)
    t_up = popcount(sc.trios & sc.up)
    for kind in (TRIO_SOLO, TRIO_PAIR):
        if wanted(sc, kind, 1):
            n += t_up * ways[_KICKER_WAYS[kind]]
    f_up = popcount(sc.fours & sc.up)
    if f_up:
        for kind in (FOUR_TWO_SOLO, FOUR_TWO_PAIR, QUAD_TRIO, DRESS):
            if wanted(sc, kind, 1):
                n += f_up * ways[_KICKER_WAYS[kind]]
    chain_ranks = span(rules[R_CHAIN_LOW], rules[R_CHAIN_HIGH])
    n += _plain_chains(rules, sc, chain_ranks, SOLO_CHAIN) + \
        _plain_chains(rules, sc, chain_ranks, PAIR_CHAIN) + \
        _plain_chains(rules, sc, chain_ranks, TRIO_CHAIN) + \
        _plain_chains(rules, sc, chain_ranks, QUAD_CHAIN)
    # Chains with wings: two adjacent trios (quads) on chain ranks at least (min_len >= 2).
    t_chain = sc.trios & chain_ranks
    if t_chain & (t_chain >> 1):
        if sc.kinds & (1 << PLANE_SOLO):
            n += _plane_solos(h, rules, sc, _stack_poly())
        if sc.kinds & (1 << PLANE_PAIR):
            n += _winged_chains(rules, sc, PLANE_PAIR, sc.trios, sc.pairs)
    f_chain = sc.fours & chain_ranks
    if f_chain & (f_chain >> 1):
        if sc.kinds & (1 << CARRIER):
            n += _winged_chains(rules, sc, CARRIER, sc.fours, sc.trios)
        if sc.kinds & (1 << SPACESHIP):
            n += _spaceships(rules, sc)
    if q[5] < NO_BOMBS:
        if q[5] < 0 and sc.want_size == 0 and rules[R_BOMBS_CLOSED]:      # every bomb
            n += _closed_bombs(h, rules)
        else:
            n += _bomb_count(h, rules, sc.want_size, q[5])
    return n


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


@kernel
def _above(starts, cut):
    """The bits of ``starts`` from ``cut`` (clamped to 0..N_RANKS) up."""
    cut = min(max(cut, 0), N_RANKS)
    return (starts >> cut) << cut


@leaf
def _winged_starts(starts, length, wings):
    """Over the chains of ``length`` links starting in ``starts``, the ways to carry one
    group a link from the distinct ranks of ``wings`` off the chain (binomials)."""
    n = 0
    while starts:
        s = lowest_bit(starts)
        starts &= starts - 1
        n += binomial(popcount(wings & ~span(s, s + length - 1)), length)
    return n


@leaf
def _solo_winged_starts(h, rules, starts, length):
    """Over the trio chains of ``length`` links starting in ``starts``, the ways to carry
    their solo wings (:func:`_solo_wings`)."""
    poly = _stack_poly()
    ones = _ge(h, 1)
    twos = _ge(h, 2)
    n = 0
    while starts:
        s = lowest_bit(starts)
        starts &= starts - 1
        n += _solo_wings(h, rules, s, s + length - 1, length, ones, twos, poly)
    return n


@leaf
def _spaceships_of(fours, trios, length, above, above2):
    """Spaceships of ``length`` (``generate._spaceship``) from the chain ranks held four
    (three) times: per quad chain topping at least ``above``, the trio chains off it, less
    those topping at most ``above2`` when the quad chain tops at ``above`` (a tie)."""
    trio_starts = _runs(trios, length)
    quads = _above(_runs(fours, length), above - length + 1)
    n = 0
    while quads:
        s = lowest_bit(quads)
        quads &= quads - 1
        t = s + length - 1
        free = trio_starts & ~span(max(s - length + 1, 0), t)
        n += popcount(free)
        if t == above:
            n -= popcount(free & span(0, above2 - length + 1))
    return n


@inline_kernel
def _rank_sizes(h, bmin, bmax):
    """The rank bombs of ``h`` of bmin..bmax cards (bmax <= 8; none if bmin <= 0), every
    size up to each rank's count."""
    if bmin <= 0:
        return 0
    if bmin == bmax:
        return popcount(ge_tops(h, bmin) & _NIB_NON_JOKERS)
    return _sizes_from(h, bmin) - (_sizes_from(h, bmax + 1) if bmax < 8 else 0)


@inline_kernel
def _closed_bombs(h, rules):
    """The bombs of ``h`` when ``rules[R_BOMBS_CLOSED]``: its rank bombs of bmin..bmax cards
    (every size up to each rank's count; none if bmin <= 0), and its joker bombs (one of
    every joker, or each lone joker)."""
    d = rules[R_DECKS]
    jb = rules[R_JOKER_BOMBS]
    jokers = ge_tops(h, 1) & _NIB_JOKERS
    every = np.int64(ge_tops(h, d) & _NIB_JOKERS == _NIB_JOKERS)
    return _rank_sizes(h, rules[R_BOMB_MIN], rules[R_BOMB_MAX]) + \
        every * np.int64(jb == JOKER_BOMBS_ALL) + \
        popcount(jokers) * np.int64(jb == JOKER_BOMBS_LONE)


@leaf
def count_bombs(h, rules, above_power):
    """Number of bombs of packed hand ``h`` above ``above_power``: the answers to a bomb
    (``emit`` under ``bomb_query(above_power)``)."""
    return _bomb_count(np.uint64(h), rules, 0, above_power)


@leaf
def count_leading(hand, rules):
    """Number of moves ``hand`` may lead, without building them (:func:`count_moves`)."""
    return count_moves(hand, rules, lead_query())


@leaf
def _count_bombs_above(h, rules, cards, kind, rank):
    """The bombs of ``h`` above the bomb of ``cards``, ``kind`` and ``rank``."""
    return count_bombs(h, rules, bomb_power(cards, kind, rank, rules))


@inline_leaf
def count_answers(h, rules, cards, info):
    """Number of moves of packed hand ``h`` beating the move of packed ``cards`` and info
    word ``info`` (``moves.count_responses``), as ``emit`` finds them under
    ``response_query``.

    A pass: every move (:func:`count_leading`). A bomb: the bombs above it. Otherwise
    every bomb and the moves of that kind and chain length above its rank: the runs of the
    ranks held enough times, times the choices of kickers. Inlined (``moves``): every call
    in it is a :func:`quiet_call`, nothing in it raises. What the rules decide comes
    worked out in the rules array (:func:`answer_fields`).
    """
    h = np.uint64(h)
    kind = np.int64(info & np.uint64(INFO_FIELD_MASK))
    above = np.int64((info >> np.uint64(INFO_RANK_SHIFT)) & np.uint64(INFO_FIELD_MASK))
    length = np.int64((info >> np.uint64(INFO_LENGTH_SHIFT)) & np.uint64(INFO_FIELD_MASK))
    if kind == PASS:
        return quiet_call(count_leading, (h, rules))
    if is_bomb_kind(kind):
        return quiet_call(_count_bombs_above, (h, rules, cards, kind, above))
    if rules[R_BOMBS_CLOSED]:         # every bomb
        n = _closed_bombs(h, rules)
    else:
        n = quiet_call(_bomb_count, (h, rules, np.int64(0), np.int64(-1)))
    if kind >= N_KINDS:
        return n
    ranks = rules[R_ANSWER_RANKS + kind]
    if ranks == 0:
        return n
    chain_min = KINDS[kind, K_CHAIN_MIN]
    if (ranks < 0) | ((chain_min >= 0) & (length <= 0)):
        return n + quiet_call(_winged_answers, (h, rules, kind, above, length, cards))
    # Every other kind in one pass without branches (the kinds of consecutive positions
    # vary, so a branch per kind mispredicts: the tests above are bitwise, one branch
    # each), on the packed counts' nibbles: the ranks held ``width`` times that start a
    # chain of ``links`` (1 for a kind that is no chain) topping above ``above``, each with
    # every choice of its kickers; none when the chain's length is not allowed.
    is_chain = np.int64(chain_min >= 0)
    links = 1 + is_chain * (length - 1)
    allowed = (link_size(kind) * links <= rules[R_MAX_MOVE]) & \
        (links >= rules[max(chain_min, 0)] * is_chain)
    starts = _nib_runs(ge_tops(h, KINDS[kind, K_CORE]) & ranks, links) & -np.int64(allowed)
    cut = 4 * min(max(above - links + 2, 0), N_RANKS)        # the lowest start above
    ways = _stack_poly()
    ones = ge_tops(h, 1)
    twos = ge_tops(h, 2)
    rocket = np.int64(rules[R_ROCKET_KICKERS] == 0) & \
        np.int64(ones & _NIB_JOKERS == _NIB_JOKERS)
    _kicker_ways(ways, popcount(ones), popcount(twos), popcount(twos & rules[R_PAIR_TOPS]),
                 popcount(ge_tops(h, 3) & _NIB_NON_JOKERS), rocket)
    return n + popcount((starts >> cut) << cut) * ways[_KICKER_WAYS[kind]]


def answer_fields(a):
    """Work out the rules array ``a``'s derived entries (``layout.R_BOMBS_CLOSED`` on) from
    those before them, for :func:`count_answers`: whether every bomb has a closed form
    (rank bombs of at most 8 cards or none, a joker bomb of every joker, lone jokers or
    none), the ranks that pair, and each kind's core ranks as one pass counts them."""
    bmin, bmax, max_move = a[R_BOMB_MIN], a[R_BOMB_MAX], a[R_MAX_MOVE]
    a[R_BOMBS_CLOSED] = a[R_JOKER_BOMBS] != JOKER_BOMBS_ANY and 2 * a[R_DECKS] <= max_move \
        and (bmin <= 0 or bmin <= bmax <= min(8, max_move))
    a[R_PAIR_TOPS] = _NIB_NON_JOKERS | (_NIB_JOKERS if a[R_JOKER_PAIRS] else 0)
    for kind in range(N_KINDS):
        if kind == PASS or KINDS[kind, K_BOMB] or not a[R_KINDS] >> kind & 1:
            ranks = 0
        elif (1 << kind) & _WINGED:
            ranks = -1
        elif KINDS[kind, K_CHAIN_MIN] >= 0:
            ranks = _nib_span.py_func(a[R_CHAIN_LOW], a[R_CHAIN_HIGH])
        elif kind == PAIR:
            ranks = a[R_PAIR_TOPS]
        else:
            ranks = _NIB_NON_JOKERS | (_NIB_JOKERS if kind == SOLO and a[R_JOKER_SOLOS] else 0)
        a[R_ANSWER_RANKS + kind] = ranks


@leaf
def _winged_answers(h, rules, kind, above, length, cards):
    """The answers of ``count_answers`` to a chain with wings (or a chain of no length),
    bombs aside."""
    above2 = trio_top(cards, above, length) if kind == SPACESHIP else -1
    if length <= 0:
        return count_moves(h, rules, query(kind, length, 0, above, above2, NO_BOMBS))
    if length < rules[KINDS[kind, K_CHAIN_MIN]] or link_size(kind) * length > \
            rules[R_MAX_MOVE]:
        return 0
    chain_ranks = span(rules[R_CHAIN_LOW], rules[R_CHAIN_HIGH])
    width = KINDS[kind, K_CORE]       # the ranks held ``width`` times (``generate.held``)
    chain = _ge(h, width) & chain_ranks
    if kind == SPACESHIP:
        return _spaceships_of(chain, _ge(h, 3) & chain_ranks, length, above, above2)
    starts = _above(_runs(chain, length), above - length + 2)    # tops above ``above``
    if kind == PLANE_SOLO:
        return _solo_winged_starts(h, rules, starts, length)
    if kind == PLANE_PAIR:
        return _winged_starts(starts, length, _ge(h, 2) &
                              (RANKS if rules[R_JOKER_PAIRS] else NON_JOKERS))
    return _winged_starts(starts, length, _ge(h, 3) & NON_JOKERS)      # carriers
