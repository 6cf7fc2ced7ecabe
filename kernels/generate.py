"""Move generation: every move of a hand, optionally only those of one kind, length, size or
above a rank / bomb power. Leading moves, responses and readings all run through ``emit``.

Moves are written as records into ``out`` (a ``uint64`` array of shape ``(cap, 2)``, see
``layout``, or a batch's stream, see ``records_out``); a generator returns how many moves
exist, writing the first ``cap`` of them, so ``cap = 0`` counts without building. Ranks are
walked as bit masks (bit r: rank r), so the loops visit only ranks that can take part.
"""

from collections import namedtuple

import numpy as np

from fastdou.kernels.bits import highest_bit, lowest_bit, span
from fastdou.kernels.layout import (
    BIG_JOKER, BOMB, BOMB_ORDER_RANK, CARRIER, COUNT_BITS, COUNT_MASK, DRESS, FOUR_TWO_PAIR,
    FOUR_TWO_SOLO, INFO_LENGTH_SHIFT, INFO_RANK_SHIFT, JOKER_BOMBS_ALL, JOKER_BOMBS_ANY,
    JOKER_BOMBS_LONE, K_BOMB, K_CHAIN_MIN, K_CORE, K_KICKERS, KINDS, N_KINDS, PAIR, PAIR_CHAIN,
    PASS, PLANE_PAIR, PLANE_SOLO, QUAD, QUAD_CHAIN, QUAD_TRIO, R_BOMB_MAX, R_BOMB_MIN, RANK_2,
    R_BOMB_ORDER, R_BOMB_WINGS, R_CHAIN_HIGH, R_CHAIN_LOW, R_DECKS, R_JOKER_BOMBS,
    R_JOKER_PAIRS, R_JOKER_SOLOS, R_KINDS, R_MAX_MOVE, R_ROCKET_KICKERS, R_WING_TRIO, ROCKET,
    SMALL_JOKER, SOLO, SOLO_CHAIN, SPACESHIP, TRIO, TRIO_CHAIN, TRIO_PAIR, TRIO_SOLO,
    WING_TRIO_ANYWHERE, WING_TRIO_NEVER,
)
from fastdou.kernels.jit import inline_kernel, inline_leaf, kernel, leaf
from fastdou.kernels.packing import count, size, unit
from fastdou.kernels.records_out import put_record, room

ANY = -1             # kind filter: every kind
NO_KIND = PASS       # kind filter: no kind but bombs
NO_BOMBS = 1 << 40   # bomb filter: no bomb is above this power
TOP_POWER = 1 << 20  # the power of a bomb that beats everything
RANKS = (1 << 15) - 1
NON_JOKERS = (1 << SMALL_JOKER) - 1
JOKERS = RANKS ^ NON_JOKERS
FOURS_KINDS = (1 << FOUR_TWO_SOLO) | (1 << FOUR_TWO_PAIR) | (1 << QUAD_TRIO) | (1 << DRESS)

# What ``emit`` and its counting twin know of one call: the filters (see :func:`query`), the
# kinds wanted, the largest move, the ranks above the filter's rank (``up``), and the ranks
# the hand holds at least once (``ones``), twice, three and four times (no jokers), as pairs
# and as solos (jokers as the rules allow).
Scan = namedtuple("Scan", ("kinds", "max_move", "want_len", "want_size", "above", "above2",
                           "up", "ones", "twos", "trios", "fours", "pairs", "solos"))


@inline_kernel
def info(kind, rank, length):
    """The info word of a move record."""
    return np.uint64(kind | (rank << INFO_RANK_SHIFT) | (length << INFO_LENGTH_SHIFT))


@inline_kernel
def link_size(kind):
    """Cards of each core rank of ``kind`` with its attachments: the size of a move of a kind
    that is not a chain, of one link of a chain (``layout.KINDS``)."""
    return KINDS[kind, K_CORE] + KINDS[kind, K_KICKERS]


@inline_leaf
def _put(out, n, cards, kind, rank, length):
    if n < room(out):
        put_record(out, n, cards, info(kind, rank, length))
    return n + 1


@inline_kernel
def _nib(w, r):
    return (w >> np.uint64(COUNT_BITS * r)) & np.uint64(COUNT_MASK)


@inline_kernel
def is_bomb_kind(kind):
    """Whether ``kind`` is a bomb's (``layout.KINDS``): it beats every non-bomb."""
    return 0 <= kind < N_KINDS and KINDS[kind, K_BOMB] != 0


# Bomb powers: a bomb beats another iff its power is larger.
@kernel
def rank_bomb_power(cards, rank, rules):
    """A bomb of ``cards`` cards of ``rank``: more cards first, then the rank (or the rank
    alone: BOMB_ORDER_RANK)."""
    return rank if rules[R_BOMB_ORDER] == BOMB_ORDER_RANK else 16 * cards + rank


@kernel
def joker_bomb_power(jokers, rules):
    """A bomb of ``jokers`` jokers: every joker of the deck beats everything; fewer
    (JOKER_BOMBS_ANY) beat the rank bombs of up to twice as many cards."""
    return TOP_POWER if jokers >= 2 * rules[R_DECKS] else 32 * jokers + 15


@kernel
def lone_joker_power(rank):
    """A lone joker of ``rank`` (JOKER_BOMBS_LONE): above every rank bomb, big over small."""
    return TOP_POWER - BIG_JOKER + rank


@kernel
def bomb_power(cards, kind, rank, rules):
    """The power of a move (packed ``cards`` read as ``kind`` and ``rank``); -1 for a
    non-bomb."""
    if kind == ROCKET:
        return joker_bomb_power(count(cards, SMALL_JOKER) + count(cards, BIG_JOKER), rules)
    if kind != BOMB:
        return -1
    if rank >= SMALL_JOKER:
        return lone_joker_power(rank)
    return rank_bomb_power(size(cards), rank, rules)


_NIBBLE_ONES = np.uint64(0x1111111111111111)
_NIBBLE_TOPS = np.uint64(0x8888888888888888)
TOP_RANKS = np.int64(0x0888888888888888)        # bit 4r + 3 of every rank r


@inline_kernel
def ge_tops(h, k):
    """The ranks of packed hand ``h`` held at least ``k`` (1..8) times, as the top bit of
    their nibbles (bit 4r + 3 for rank r): adding 8 - k to every nibble sets its top bit
    exactly when the count is at least k (no nibble overflows: counts are at most 8)."""
    return np.int64((np.uint64(h) + np.uint64(8 - k) * _NIBBLE_ONES) & _NIBBLE_TOPS) & \
        TOP_RANKS


@inline_kernel
def _ge(h, k):
    """Mask of the ranks of which ``h`` holds at least ``k`` (1..8) cards: the top bits of
    :func:`ge_tops` gathered into 15 bits."""
    x = np.uint64(ge_tops(h, k)) >> np.uint64(3)
    x = (x | (x >> np.uint64(3))) & np.uint64(0x0303030303030303)
    x = (x | (x >> np.uint64(6))) & np.uint64(0x000F000F000F000F)
    x = (x | (x >> np.uint64(12))) & np.uint64(0x000000FF000000FF)
    x = (x | (x >> np.uint64(24))) & np.uint64(0xFFFF)
    return np.int64(x)


@inline_kernel
def _size_ok(s, want_size, max_move):
    return s <= max_move and (want_size == 0 or s == want_size)


@inline_kernel
def wanted(sc, kind, length):
    """Whether ``sc`` asks for moves of ``kind`` of chain ``length`` (enabled, and of the
    size wanted)."""
    return sc.kinds & (1 << kind) != 0 and \
        _size_ok(length * link_size(kind), sc.want_size, sc.max_move)


@kernel
def held(sc, copies):
    """The ranks held at least ``copies`` (1..4) times (``Scan``'s ``ones`` .. ``fours``):
    the links a chain of that width may use."""
    if copies == 1:
        return sc.ones
    if copies == 2:
        return sc.twos
    return sc.trios if copies == 3 else sc.fours


NO_MULTISET = np.uint64(1) << np.uint64(63)   # no multiset: packed cards use bits 0..59


@inline_leaf
def first_within(caps, cand, total):
    """The first packed multiset of ``total`` cards within ``caps`` over the ranks ``cand``
    (low ranks filled first); ``NO_MULTISET`` when ``caps`` holds fewer."""
    w = np.uint64(0)
    rem = total
    m = cand
    while m and rem:
        r = lowest_bit(m)
        m &= m - 1
        take = min(np.int64(_nib(caps, r)), rem)
        w += np.uint64(take) << np.uint64(COUNT_BITS * r)
        rem -= take
    return NO_MULTISET if rem else w


@inline_leaf
def next_within(w, caps, cand):
    """The multiset after ``w`` of the same size within ``caps``, in decreasing
    lexicographic order: a unit of the highest rank that can give one moves up, the units
    above it refilled low first; ``NO_MULTISET`` after the last."""
    tail = 0
    room = 0
    m = cand
    i = -1
    while m:
        r = highest_bit(m)
        m ^= 1 << r
        x = np.int64(_nib(w, r))
        if x > 0 and room > tail:
            i = r
            break
        tail += x
        room += np.int64(_nib(caps, r))
    if i < 0:
        return NO_MULTISET
    w = (w & np.uint64((1 << (COUNT_BITS * (i + 1))) - 1)) - \
        (np.uint64(1) << np.uint64(COUNT_BITS * i))
    return w + first_within(caps, cand & ~((1 << (i + 1)) - 1), tail + 1)


@leaf
def _wings(out, n, head, caps, cand, per, no_rocket, trio_bad):
    """Emit the move ``head`` = (core, kind, rank, length) with ``per`` x W added, for every
    packed multiset W of ``length`` units with W <= caps (:func:`first_within`'s order).

    ``cand``: mask of the ranks with a non-zero cap. ``no_rocket``: W may not hold both
    jokers. ``trio_bad``: ranks where W may not hold exactly 3.
    """
    core, kind, rank, length = head
    mult = np.uint64(per)
    w = first_within(caps, cand, length)
    while w != NO_MULTISET:
        ok = not (no_rocket and _nib(w, SMALL_JOKER) and _nib(w, BIG_JOKER))
        t = trio_bad
        while ok and t:
            r = lowest_bit(t)
            t &= t - 1
            ok = _nib(w, r) != 3
        if ok:
            n = _put(out, n, core + w * mult, kind, rank, length)
        w = next_within(w, caps, cand)
    return n


@leaf
def _same_rank(out, n, mask, kind, copies):
    """``copies`` cards of each rank in ``mask``: solos, pairs, trios, quads."""
    while mask:
        r = lowest_bit(mask)
        mask &= mask - 1
        n = _put(out, n, unit(r, copies), kind, r, 1)
    return n


@leaf
def _kickers(out, n, core, mask, copies, kind, rank):
    """``core`` with ``copies`` cards of each rank in ``mask`` in turn (a trio's kicker)."""
    while mask:
        k = lowest_bit(mask)
        mask &= mask - 1
        n = _put(out, n, core + unit(k, copies), kind, rank, 1)
    return n


@kernel
def _trio_forbidden(r, lo, hi, rules):
    """Whether exactly three wing cards of rank r are barred next to the chain lo..hi."""
    mode = rules[R_WING_TRIO]
    if mode == WING_TRIO_ANYWHERE:
        return False
    if mode == WING_TRIO_NEVER:
        return True
    return (r == lo - 1 and r >= rules[R_CHAIN_LOW]) or (r == hi + 1 and r <= rules[R_CHAIN_HIGH])


@leaf
def _plane_solo(out, n, h, rules, sc, core, s, t):
    """The trio chain ``core`` on ranks s..t with one single wing a link, from the ranks
    outside it."""
    length = t - s + 1
    cand = sc.ones & ~span(s, t)
    if length == 2:
        return _two_wings(out, n, sc, (core, PLANE_SOLO, t, 2), cand,
                          rules[R_ROCKET_KICKERS] == 0)
    bomb_wings = rules[R_BOMB_WINGS] != 0
    caps = np.uint64(0)
    trio_bad = 0
    m = cand
    while m:
        r = lowest_bit(m)
        m &= m - 1
        cap = min(count(h, r), length)
        if not bomb_wings:
            cap = min(cap, 3)
        if cap >= 3 and _trio_forbidden(r, s, t, rules):
            if bomb_wings:
                trio_bad |= 1 << r
            else:
                cap = 2
        caps += unit(r, cap)
    return _wings(out, n, (core, PLANE_SOLO, t, length), caps, cand, 1,
                  rules[R_ROCKET_KICKERS] == 0, trio_bad)


@leaf
def _two_wings(out, n, sc, head, cand, no_rocket):
    """Emit the move ``head`` = (core, kind, rank, length) with two more cards from
    ``cand``: a pair of a rank (held twice), or two ranks; never both jokers when
    ``no_rocket``. In ``_wings``' order: a rank's pair, then the rank with each above it."""
    core, kind, rank, length = head
    ma = cand
    while ma:
        a = lowest_bit(ma)
        ma &= ma - 1
        with_a = core + unit(a, 1)
        if (sc.twos >> a) & 1:
            n = _put(out, n, with_a + unit(a, 1), kind, rank, length)
        mb = ma
        if no_rocket and a == SMALL_JOKER:
            mb &= ~(1 << BIG_JOKER)
        while mb:
            b = lowest_bit(mb)
            mb &= mb - 1
            n = _put(out, n, with_a + unit(b, 1), kind, rank, length)
    return n


@kernel
def _spread(mask):
    """A packed multiset with one card of each rank in ``mask``."""
    w = np.uint64(0)
    while mask:
        r = lowest_bit(mask)
        mask &= mask - 1
        w += unit(r, 1)
    return w


@kernel
def run_from(chain, s):
    """Number of consecutive ranks of mask ``chain`` from ``s`` up."""
    return lowest_bit(~(chain >> s))


@kernel
def _run_starts(chain, k):
    """The ranks of mask ``chain`` that start a run of at least ``k`` ranks (by doubling:
    a few steps, not a loop of ``k`` that LLVM would vectorise)."""
    starts = chain
    have = 1
    while have < k:
        step = min(have, k - have)
        starts &= starts >> step
        have += step
    return starts


@kernel
def chain_lengths(run, s, per, min_len, want_len, want_size, above, max_move):
    """The chain lengths from start ``s`` along a run of ``run`` ranks that pass the
    filters, as (lowest, highest): at least ``min_len``, at most ``max_move`` cards of
    ``per`` a link, the length / size wanted, and a top rank s + length - 1 above
    ``above``. Empty when lowest > highest."""
    lo = max(min_len, above - s + 2, 1)
    hi = run if per * run <= max_move else max_move // per
    if want_len != 0:
        lo = max(lo, want_len)
        hi = min(hi, want_len)
    if want_size != 0:
        if want_size % per:
            return 1, 0
        lo = max(lo, want_size // per)
        hi = min(hi, want_size // per)
    return lo, hi


@kernel
def _spread_run(s, k):
    """A packed multiset with one card of each of the ``k`` ranks from ``s`` up."""
    if k <= 0:
        return np.uint64(0)
    return (_NIBBLE_ONES >> np.uint64(64 - COUNT_BITS * k)) << np.uint64(COUNT_BITS * s)


@inline_kernel
def _chain_starts(rules, sc, kind):
    """The ranks held ``K_CORE`` times of ``kind`` on the chain ranks, and those that start a
    run of the least length of ``kind``."""
    chain = held(sc, KINDS[kind, K_CORE]) & span(rules[R_CHAIN_LOW], rules[R_CHAIN_HIGH])
    return chain, _run_starts(chain, rules[KINDS[kind, K_CHAIN_MIN]])


@inline_leaf
def _plain_chains(out, n, rules, sc, kind):
    """The chains of ``kind`` that carry nothing (solo, pair, trio, quad chains; ``kind`` a
    literal, so that each is compiled on its own). By start, then length."""
    width = KINDS[kind, K_CORE]
    chain, starts = _chain_starts(rules, sc, kind)
    while starts:
        s = lowest_bit(starts)
        starts &= starts - 1
        lo, hi = chain_lengths(run_from(chain, s), s, width, rules[KINDS[kind, K_CHAIN_MIN]],
                               sc.want_len, sc.want_size, sc.above, sc.max_move)
        core = _spread_run(s, lo - 1) * np.uint64(width)
        for length in range(lo, hi + 1):
            top = s + length - 1
            core += unit(top, width)
            n = _put(out, n, core, kind, top, length)
    return n


@inline_leaf
def _winged_chains(out, n, h, rules, sc, kind):
    """The chains of ``kind`` with what they carry (``_chains``); most hands have none,
    and then no call is made."""
    chain, starts = _chain_starts(rules, sc, kind)
    return _chains(out, n, h, rules, sc, kind, chain, starts) if starts else n


_WINGED_CHAINS = (1 << PLANE_SOLO) | (1 << PLANE_PAIR) | (1 << CARRIER) | (1 << SPACESHIP)


@leaf
def chains_of(out, n, h, rules, sc, kind):
    """The chains of one chain ``kind`` given at run time, as ``emit`` makes them."""
    if (1 << kind) & _WINGED_CHAINS:
        return _winged_chains(out, n, h, rules, sc, kind)
    return _plain_chains(out, n, rules, sc, kind)


@leaf
def _chains(out, n, h, rules, sc, kind, chain, starts):
    """The chains of ``kind`` (``layout.KINDS``: cards a link, least length) with what they
    carry: wings, a carrier's trios, a spaceship's trio chain, from the ranks ``starts`` of
    the ranks ``chain`` (``_chain_starts``). By start, then length."""
    width = KINDS[kind, K_CORE]
    group = KINDS[kind, K_KICKERS]    # a plane or carrier's wing group per link
    per = link_size(kind)
    ship = kind == SPACESHIP
    above = sc.above - 1 if ship else sc.above     # a spaceship may tie the quad chain
    while starts:
        s = lowest_bit(starts)
        starts &= starts - 1
        lo, hi = chain_lengths(run_from(chain, s), s, per, rules[KINDS[kind, K_CHAIN_MIN]],
                               sc.want_len, sc.want_size, above, sc.max_move)
        core = _spread_run(s, lo - 1) * np.uint64(width)
        for length in range(lo, hi + 1):
            top = s + length - 1
            core += unit(top, width)
            if ship:
                n = _spaceship(out, n, rules, sc, core, s, top)
            elif kind == PLANE_SOLO:
                n = _plane_solo(out, n, h, rules, sc, core, s, top)
            else:                  # a pair (trio) of each of ``length`` ranks off the chain
                cand = (sc.pairs if group == 2 else sc.trios) & ~span(s, top)
                n = _wings(out, n, (core, kind, top, length), _spread(cand), cand, group,
                           False, 0)
    return n


@kernel
def trio_top(cards, quad_top, length):
    """The top rank of a spaceship's trio chain (its cards less the quad chain of ``length``
    links topping at ``quad_top``)."""
    rest = np.uint64(cards)
    for r in range(quad_top - length + 1, quad_top + 1):
        rest -= unit(r, 4)
    for r in range(RANK_2, -1, -1):
        if count(rest, r) >= 3:
            return r
    return -1


@leaf
def _spaceship(out, n, rules, sc, quads, s, t):
    """The quad chain ``quads`` on s..t plus every trio chain of the same length on other
    chain ranks (above the query's, ``above2``, when the quad chains tie)."""
    length = t - s + 1
    for s2 in range(rules[R_CHAIN_LOW], rules[R_CHAIN_HIGH] - length + 2):
        t2 = s2 + length - 1
        if (s2 <= t and t2 >= s) or (t == sc.above and t2 <= sc.above2):
            continue
        need = span(s2, t2)
        if sc.trios & need == need:
            n = _put(out, n, quads + _spread(need) * np.uint64(3), SPACESHIP, t, length)
    return n


@leaf
def _bombs(out, n, h, rules, want_size, above_power):
    """Every bomb of the hand whose power exceeds ``above_power``."""
    max_move = rules[R_MAX_MOVE]
    bmin = rules[R_BOMB_MIN]
    if bmin > 0:
        m = _ge(h, bmin) & NON_JOKERS
        while m:
            r = lowest_bit(m)
            m &= m - 1
            for s in range(bmin, min(count(h, r), rules[R_BOMB_MAX]) + 1):
                if rank_bomb_power(s, r, rules) > above_power \
                        and _size_ok(s, want_size, max_move):
                    n = _put(out, n, unit(r, s), BOMB, r, 1)
    jb = rules[R_JOKER_BOMBS]
    small = count(h, SMALL_JOKER)
    big = count(h, BIG_JOKER)
    if jb == JOKER_BOMBS_LONE:
        for r in range(SMALL_JOKER, BIG_JOKER + 1):
            if count(h, r) >= 1 and lone_joker_power(r) > above_power \
                    and _size_ok(1, want_size, max_move):
                n = _put(out, n, unit(r, 1), BOMB, r, 1)
    elif jb == JOKER_BOMBS_ALL:
        d = rules[R_DECKS]
        if small >= d and big >= d and joker_bomb_power(2 * d, rules) > above_power \
                and _size_ok(2 * d, want_size, max_move):
            n = _put(out, n, unit(SMALL_JOKER, d) + unit(BIG_JOKER, d), ROCKET, BIG_JOKER, 1)
    elif jb == JOKER_BOMBS_ANY:
        for b in range(small + 1):
            for g in range(big + 1):
                j = b + g
                if j < 2 or not _size_ok(j, want_size, max_move):
                    continue
                if joker_bomb_power(j, rules) > above_power:
                    n = _put(out, n, unit(SMALL_JOKER, b) + unit(BIG_JOKER, g), ROCKET,
                             BIG_JOKER if g > 0 else SMALL_JOKER, 1)
    return n


@leaf
def _fours(out, n, h, rules, sc):
    """Kinds built on exactly four of a rank: four_two_solo/pair, quad_trio, dress."""
    no_rocket = rules[R_ROCKET_KICKERS] == 0
    solo2 = wanted(sc, FOUR_TWO_SOLO, 1)
    pair2 = wanted(sc, FOUR_TWO_PAIR, 1)
    quad_trio = wanted(sc, QUAD_TRIO, 1)
    dress = wanted(sc, DRESS, 1)
    fours = sc.fours & sc.up
    while fours:
        f = lowest_bit(fours)
        fours &= fours - 1
        core = unit(f, 4)
        others = ~(1 << f)
        if solo2:
            n = _two_wings(out, n, sc, (core, FOUR_TWO_SOLO, f, 1), sc.ones & others,
                           no_rocket)
        if pair2:
            ma = sc.pairs & others
            while ma:
                a = lowest_bit(ma)
                ma &= ma - 1
                mb = ma
                while mb:
                    b = lowest_bit(mb)
                    mb &= mb - 1
                    n = _put(out, n, core + unit(a, 2) + unit(b, 2), FOUR_TWO_PAIR, f, 1)
        if quad_trio or dress:
            mt = sc.trios & others
            while mt:
                t = lowest_bit(mt)
                mt &= mt - 1
                if quad_trio:
                    n = _put(out, n, core + unit(t, 3), QUAD_TRIO, f, 1)
                if dress:
                    mp = sc.pairs & others & ~(1 << t)
                    while mp:
                        p = lowest_bit(mp)
                        mp &= mp - 1
                        n = _put(out, n, core + unit(t, 3) + unit(p, 2), DRESS, f, 1)
    return n


@inline_kernel
def query(want_kind, want_len, want_size, above, above2, above_power):
    """The filters of :func:`emit` as one tuple of int64 (one compiled ``emit`` for all).

    want_kind: ANY, or the one non-bomb kind to produce (NO_KIND: bombs only); want_len /
    want_size: chain length / card count required (0: any); above (and above2, the trio
    chain's top, for spaceships): only ranks above it for the wanted kind; above_power: only
    bombs of a larger power (NO_BOMBS: none). See :func:`lead_query`, :func:`bomb_query`.
    """
    return (np.int64(want_kind), np.int64(want_len), np.int64(want_size), np.int64(above),
            np.int64(above2), np.int64(above_power))


@kernel
def lead_query():
    """The filters of every move (a lead)."""
    return query(ANY, 0, 0, -1, -1, -1)


@kernel
def bomb_query(above_power):
    """The filters of the bombs above ``above_power`` alone (the answers to a bomb)."""
    return query(NO_KIND, 0, 0, -1, -1, above_power)


@kernel
def scan(h, rules, q):
    """The :data:`Scan` of packed hand ``h`` under filters ``q``: what ``emit`` and its
    counting twin read."""
    want_kind, want_len, want_size, above, above2, _ = q
    kinds = rules[R_KINDS]
    if want_kind != ANY:
        kinds &= 1 << want_kind
    ones = _ge(h, 1)
    twos = _ge(h, 2)
    return Scan(kinds, rules[R_MAX_MOVE], want_len, want_size, above, above2,
                RANKS & ~span(0, min(above, BIG_JOKER)), ones, twos, _ge(h, 3) & NON_JOKERS,
                _ge(h, 4) & NON_JOKERS, twos & (RANKS if rules[R_JOKER_PAIRS] else NON_JOKERS),
                ones & (RANKS if rules[R_JOKER_SOLOS] else NON_JOKERS))


@leaf
def emit(h, rules, q, out):
    """The core generator: every move of packed hand ``h`` passing the filters ``q`` (see
    :func:`query`). Returns the number of moves; writes the first ``out.shape[0]``."""
    h = np.uint64(h)
    sc = scan(h, rules, q)
    n = np.int64(0)          # (typed: a literal 0 would compile each callee once more)
    for kind, mask in ((SOLO, sc.solos), (PAIR, sc.pairs), (TRIO, sc.trios), (QUAD, sc.fours)):
        if wanted(sc, kind, 1):
            n = _same_rank(out, n, mask & sc.up, kind, KINDS[kind, K_CORE])
    solo1 = wanted(sc, TRIO_SOLO, 1)            # a trio with a kicker: any other rank (a
    pair1 = wanted(sc, TRIO_PAIR, 1)            # solo), any other pair
    if solo1 or pair1:
        m = sc.trios & sc.up
        while m:
            t = lowest_bit(m)
            m &= m - 1
            core = unit(t, 3)
            if solo1:
                n = _kickers(out, n, core, sc.ones & ~(1 << t), 1, TRIO_SOLO, t)
            if pair1:
                n = _kickers(out, n, core, sc.pairs & ~(1 << t), 2, TRIO_PAIR, t)
    if sc.kinds & FOURS_KINDS and sc.fours & sc.up:
        n = _fours(out, n, h, rules, sc)
    # Chains in kind order: those that carry nothing with their kind a literal (each compiled
    # on its own), the others with one ``_chains``.
    if sc.kinds & (1 << SOLO_CHAIN):
        n = _plain_chains(out, n, rules, sc, SOLO_CHAIN)
    if sc.kinds & (1 << PAIR_CHAIN):
        n = _plain_chains(out, n, rules, sc, PAIR_CHAIN)
    if sc.kinds & (1 << TRIO_CHAIN):
        n = _plain_chains(out, n, rules, sc, TRIO_CHAIN)
    for kind in (PLANE_SOLO, PLANE_PAIR):
        if sc.kinds & (1 << kind):
            n = _winged_chains(out, n, h, rules, sc, kind)
    if sc.kinds & (1 << QUAD_CHAIN):
        n = _plain_chains(out, n, rules, sc, QUAD_CHAIN)
    for kind in (CARRIER, SPACESHIP):
        if sc.kinds & (1 << kind):
            n = _winged_chains(out, n, h, rules, sc, kind)
    if q[5] < NO_BOMBS and (sc.ones & JOKERS or rules[R_BOMB_MIN] > 0
                            and _ge(h, rules[R_BOMB_MIN]) & NON_JOKERS):
        n = _bombs(out, n, h, rules, sc.want_size, q[5])    # (none without either)
    return n
