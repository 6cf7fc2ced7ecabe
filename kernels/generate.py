"""Move generation: every move of a hand, optionally only those of one kind, length, size or
above a rank / bomb power. Leading moves, responses and readings all run through ``emit``.

Moves are written as records into ``out`` (a ``uint64`` array of shape ``(cap, 2)``, see
``layout``); a generator returns how many moves exist, writing the first ``cap`` of them, so
``cap = 0`` counts without building. Ranks are walked as bit masks (bit r: rank r), so the
loops visit only ranks that can take part.
"""

import numpy as np

from fastdou.kernels.bits import highest_bit, lowest_bit, span
from fastdou.kernels.layout import (
    BIG_JOKER, BOMB, BOMB_ORDER_RANK, CARRIER, COUNT_BITS, COUNT_MASK, DRESS, FOUR_TWO_PAIR,
    FOUR_TWO_SOLO, INFO_LENGTH_SHIFT, INFO_RANK_SHIFT, JOKER_BOMBS_ALL, JOKER_BOMBS_ANY,
    JOKER_BOMBS_LONE, PAIR, PAIR_CHAIN, PLANE_PAIR, PLANE_SOLO, QUAD, QUAD_CHAIN, QUAD_TRIO,
    R_BOMB_MAX, R_BOMB_MIN, R_BOMB_ORDER, R_BOMB_WINGS, R_CHAIN_HIGH, R_CHAIN_LOW, R_DECKS,
    R_JOKER_BOMBS, R_JOKER_PAIRS, R_JOKER_SOLOS, R_KINDS, R_MAX_MOVE, R_PAIR_CHAIN_MIN,
    R_QUAD_CHAIN_MIN, R_ROCKET_KICKERS, R_SOLO_CHAIN_MIN, R_TRIO_CHAIN_MIN, R_WING_TRIO,
    ROCKET, SMALL_JOKER, SOLO, SOLO_CHAIN, SPACESHIP, TRIO, TRIO_CHAIN, TRIO_PAIR, TRIO_SOLO,
    WING_TRIO_ANYWHERE, WING_TRIO_NEVER,
)
from fastdou.kernels.jit import kernel, leaf
from fastdou.kernels.packing import count, size, unit

ANY = -1             # kind filter: every kind
NO_BOMBS = 1 << 40   # bomb filter: no bomb is above this power
TOP_POWER = 1 << 20  # the power of a bomb that beats everything
RANKS = (1 << 15) - 1
NON_JOKERS = (1 << SMALL_JOKER) - 1
JOKERS = RANKS ^ NON_JOKERS


@kernel
def info(kind, rank, length):
    """The info word of a move record."""
    return np.uint64(kind | (rank << INFO_RANK_SHIFT) | (length << INFO_LENGTH_SHIFT))


@leaf
def _put(out, n, cards, kind, rank, length):
    if n < out.shape[0]:
        out[n, 0] = cards
        out[n, 1] = info(kind, rank, length)
    return n + 1


@kernel
def _nib(w, r):
    return (w >> np.uint64(COUNT_BITS * r)) & np.uint64(COUNT_MASK)


@kernel
def bomb_power(cards, kind, rank, rules):
    """Order of bombs: a bomb beats another iff its power is larger; -1 for a non-bomb."""
    if kind == ROCKET:
        if rules[R_JOKER_BOMBS] == JOKER_BOMBS_ANY:
            jokers = count(cards, SMALL_JOKER) + count(cards, BIG_JOKER)
            if jokers < 2 * rules[R_DECKS]:
                return 32 * jokers + 15   # above rank bombs of up to 2J cards
        return TOP_POWER
    if kind != BOMB:
        return -1
    if rank >= SMALL_JOKER:                # a lone joker (jinling): above every rank bomb
        return TOP_POWER - BIG_JOKER + rank
    if rules[R_BOMB_ORDER] == BOMB_ORDER_RANK:
        return rank
    return 16 * size(cards) + rank


_NIBBLE_ONES = np.uint64(0x1111111111111111)
_NIBBLE_TOPS = np.uint64(0x8888888888888888)


@kernel
def _ge(h, k):
    """Mask of the ranks of which ``h`` holds at least ``k`` (1..8) cards.

    Adding 8 - k to every nibble sets its top bit exactly when the count is at least k (no
    nibble overflows: counts are at most 8); the top bits are then gathered into 15 bits.
    """
    x = ((np.uint64(h) + np.uint64(8 - k) * _NIBBLE_ONES) & _NIBBLE_TOPS) >> np.uint64(3)
    x = (x | (x >> np.uint64(3))) & np.uint64(0x0303030303030303)
    x = (x | (x >> np.uint64(6))) & np.uint64(0x000F000F000F000F)
    x = (x | (x >> np.uint64(12))) & np.uint64(0x000000FF000000FF)
    x = (x | (x >> np.uint64(24))) & np.uint64(0xFFFF)
    return np.int64(x) & RANKS


@kernel
def _size_ok(s, want_size, max_move):
    return s <= max_move and (want_size == 0 or s == want_size)


@leaf
def _wings(out, n, core, kind, rank, length, caps, cand, k, per, no_rocket, trio_bad):
    """Emit ``core`` + ``per`` x W for every packed multiset W of ``k`` units with W <= caps.

    ``cand``: mask of the ranks with a non-zero cap. ``no_rocket``: W may not hold both
    jokers. ``trio_bad``: ranks where W may not hold exactly 3. W runs through all vectors
    in decreasing lexicographic order (low ranks filled first).
    """
    w = np.uint64(0)
    rem = k
    m = cand
    while m and rem:
        r = lowest_bit(m)
        m &= m - 1
        take = min(np.int64(_nib(caps, r)), rem)
        w += np.uint64(take) << np.uint64(COUNT_BITS * r)
        rem -= take
    if rem:
        return n
    mult = np.uint64(per)
    while True:
        ok = not (no_rocket and _nib(w, SMALL_JOKER) and _nib(w, BIG_JOKER))
        t = trio_bad
        while ok and t:
            r = lowest_bit(t)
            t &= t - 1
            ok = _nib(w, r) != 3
        if ok:
            n = _put(out, n, core + w * mult, kind, rank, length)
        # Next: the highest rank i holding a unit that can move to the ranks above it.
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
            return n
        w = (w & np.uint64((1 << (COUNT_BITS * (i + 1))) - 1)) - \
            (np.uint64(1) << np.uint64(COUNT_BITS * i))
        rem = tail + 1
        m = cand & ~((1 << (i + 1)) - 1)
        while rem:
            r = lowest_bit(m)
            m &= m - 1
            take = min(np.int64(_nib(caps, r)), rem)
            w += np.uint64(take) << np.uint64(COUNT_BITS * r)
            rem -= take


@leaf
def _same_rank(out, n, mask, kind, copies):
    """``copies`` cards of each rank in ``mask``: solos, pairs, trios, quads."""
    while mask:
        r = lowest_bit(mask)
        mask &= mask - 1
        n = _put(out, n, unit(r, copies), kind, r, 1)
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
def _plane_solo(out, n, h, rules, core, s, t, length, m1):
    """A trio chain s..t with ``length`` single wings from the ranks outside it."""
    cand = m1 & ~span(s, t)
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
    return _wings(out, n, core, PLANE_SOLO, t, length, caps, cand, length, 1,
                  rules[R_ROCKET_KICKERS] == 0, trio_bad)


@kernel
def _spread(mask):
    """A packed multiset with one card of each rank in ``mask``."""
    w = np.uint64(0)
    while mask:
        r = lowest_bit(mask)
        mask &= mask - 1
        w += unit(r, 1)
    return w


@leaf
def _chains(out, n, h, rules, kind, width, wide, min_len, want_len, want_size, above, above2,
            masks):
    """Chains of ``width`` cards a rank (``wide``: the ranks with that many), and the kinds
    built on them: planes, carriers, spaceships."""
    m1, pairs, trios = masks
    chain = wide & span(rules[R_CHAIN_LOW], rules[R_CHAIN_HIGH])
    max_move = rules[R_MAX_MOVE]
    per = width
    if kind == PLANE_SOLO:
        per = 4
    elif kind == PLANE_PAIR:
        per = 5
    elif kind == CARRIER or kind == SPACESHIP:
        per = 7
    starts = chain
    while starts:
        s = lowest_bit(starts)
        starts &= starts - 1
        core = np.uint64(0)
        t = s
        while (chain >> t) & 1:
            core += unit(t, width)
            length = t - s + 1
            t += 1
            if per * length > max_move:
                break
            if length < min_len or (want_len != 0 and length != want_len):
                continue
            if want_size != 0 and per * length != want_size:
                continue
            top = t - 1
            if kind == SPACESHIP:
                if top >= above:
                    n = _spaceship(out, n, rules, core, s, top, length, above, above2, trios)
                continue
            if top <= above:
                continue
            if kind == PLANE_SOLO:
                n = _plane_solo(out, n, h, rules, core, s, top, length, m1)
            elif kind == PLANE_PAIR:
                cand = pairs & ~span(s, top)
                n = _wings(out, n, core, kind, top, length, _spread(cand), cand, length, 2,
                           False, 0)
            elif kind == CARRIER:
                cand = trios & ~span(s, top)
                n = _wings(out, n, core, kind, top, length, _spread(cand), cand, length, 3,
                           False, 0)
            else:
                n = _put(out, n, core, kind, top, length)
    return n


@leaf
def _spaceship(out, n, rules, quads, s, t, length, above, above2, trios):
    """Quad chain s..t plus every trio chain of the same length on other chain ranks."""
    for s2 in range(rules[R_CHAIN_LOW], rules[R_CHAIN_HIGH] - length + 2):
        t2 = s2 + length - 1
        if (s2 <= t and t2 >= s) or (t == above and t2 <= above2):
            continue
        need = span(s2, t2)
        if trios & need == need:
            n = _put(out, n, quads + _spread(need) * np.uint64(3), SPACESHIP, t, length)
    return n


@leaf
def _bombs(out, n, h, rules, want_size, above_power):
    """Every bomb of the hand whose power exceeds ``above_power``."""
    max_move = rules[R_MAX_MOVE]
    bmin = rules[R_BOMB_MIN]
    if bmin > 0:
        order_rank = rules[R_BOMB_ORDER] == BOMB_ORDER_RANK
        m = _ge(h, bmin) & NON_JOKERS
        while m:
            r = lowest_bit(m)
            m &= m - 1
            for s in range(bmin, min(count(h, r), rules[R_BOMB_MAX]) + 1):
                power = r if order_rank else 16 * s + r
                if power > above_power and _size_ok(s, want_size, max_move):
                    n = _put(out, n, unit(r, s), BOMB, r, 1)
    jb = rules[R_JOKER_BOMBS]
    small = count(h, SMALL_JOKER)
    big = count(h, BIG_JOKER)
    if jb == JOKER_BOMBS_LONE:
        for r in range(SMALL_JOKER, BIG_JOKER + 1):
            if count(h, r) >= 1 and TOP_POWER - BIG_JOKER + r > above_power \
                    and _size_ok(1, want_size, max_move):
                n = _put(out, n, unit(r, 1), BOMB, r, 1)
    elif jb == JOKER_BOMBS_ALL:
        d = rules[R_DECKS]
        if small >= d and big >= d and TOP_POWER > above_power \
                and _size_ok(2 * d, want_size, max_move):
            n = _put(out, n, unit(SMALL_JOKER, d) + unit(BIG_JOKER, d), ROCKET, BIG_JOKER, 1)
    elif jb == JOKER_BOMBS_ANY:
        all_jokers = 2 * rules[R_DECKS]
        for b in range(small + 1):
            for g in range(big + 1):
                j = b + g
                if j < 2 or not _size_ok(j, want_size, max_move):
                    continue
                power = TOP_POWER if j == all_jokers else 32 * j + 15
                if power > above_power:
                    n = _put(out, n, unit(SMALL_JOKER, b) + unit(BIG_JOKER, g), ROCKET,
                             BIG_JOKER if g > 0 else SMALL_JOKER, 1)
    return n


@leaf
def _fours(out, n, h, rules, kinds, want_size, fours, m1, pairs, trios):
    """Kinds built on exactly four of a rank: four_two_solo/pair, quad_trio, dress."""
    max_move = rules[R_MAX_MOVE]
    no_rocket = rules[R_ROCKET_KICKERS] == 0
    solo2 = kinds & (1 << FOUR_TWO_SOLO) and _size_ok(6, want_size, max_move)
    pair2 = kinds & (1 << FOUR_TWO_PAIR) and _size_ok(8, want_size, max_move)
    quad_trio = kinds & (1 << QUAD_TRIO) and _size_ok(7, want_size, max_move)
    dress = kinds & (1 << DRESS) and _size_ok(9, want_size, max_move)
    while fours:
        f = lowest_bit(fours)
        fours &= fours - 1
        core = unit(f, 4)
        others = ~(1 << f)
        if solo2:
            ma = m1 & others
            while ma:
                a = lowest_bit(ma)
                ma &= ma - 1
                if count(h, a) >= 2:
                    n = _put(out, n, core + unit(a, 2), FOUR_TWO_SOLO, f, 1)
                mb = ma
                while mb:
                    b = lowest_bit(mb)
                    mb &= mb - 1
                    if not (no_rocket and a == SMALL_JOKER):
                        n = _put(out, n, core + unit(a, 1) + unit(b, 1), FOUR_TWO_SOLO, f, 1)
        if pair2:
            ma = pairs & others
            while ma:
                a = lowest_bit(ma)
                ma &= ma - 1
                mb = ma
                while mb:
                    b = lowest_bit(mb)
                    mb &= mb - 1
                    n = _put(out, n, core + unit(a, 2) + unit(b, 2), FOUR_TWO_PAIR, f, 1)
        if quad_trio or dress:
            mt = trios & others
            while mt:
                t = lowest_bit(mt)
                mt &= mt - 1
                if quad_trio:
                    n = _put(out, n, core + unit(t, 3), QUAD_TRIO, f, 1)
                if dress:
                    mp = pairs & others & ~(1 << t)
                    while mp:
                        p = lowest_bit(mp)
                        mp &= mp - 1
                        n = _put(out, n, core + unit(t, 3) + unit(p, 2), DRESS, f, 1)
    return n


@kernel
def query(want_kind, want_len, want_size, above, above2, above_power):
    """The filters of :func:`emit` as one tuple of int64 (one compiled ``emit`` for all).

    want_kind: ANY, or the one non-bomb kind to produce (0 for none); want_len / want_size:
    chain length / card count required (0: any); above (and above2, the trio chain's top,
    for spaceships): only ranks above it for the wanted kind; above_power: only bombs of a
    larger power (NO_BOMBS: none).
    """
    return (np.int64(want_kind), np.int64(want_len), np.int64(want_size), np.int64(above),
            np.int64(above2), np.int64(above_power))


@kernel
def hand_masks(h, rules, q):
    """What ``emit`` and its counting twin read of packed hand ``h`` under filters ``q``: the
    kinds wanted, the largest move, the ranks above ``q``'s rank, and the rank masks held
    at least once, twice, three and four times (no jokers), as pairs and as solos."""
    want_kind, _, _, above, _, _ = q
    kinds = rules[R_KINDS]
    if want_kind != ANY:
        kinds &= 1 << want_kind
    up = RANKS & ~span(0, min(above, BIG_JOKER))
    m1 = _ge(h, 1)
    m2 = _ge(h, 2)
    pairs = m2 & (RANKS if rules[R_JOKER_PAIRS] else NON_JOKERS)
    solos = m1 & (RANKS if rules[R_JOKER_SOLOS] else NON_JOKERS)
    return (kinds, rules[R_MAX_MOVE], up, m1, m2, _ge(h, 3) & NON_JOKERS,
            _ge(h, 4) & NON_JOKERS, pairs, solos)


@kernel
def emit(h, rules, q, out):
    """The core generator: every move of packed hand ``h`` passing the filters ``q`` (see
    :func:`query`). Returns the number of moves; writes the first ``out.shape[0]``."""
    want_kind, want_len, want_size, above, above2, above_power = q
    h = np.uint64(h)
    n = 0
    kinds, max_move, up, m1, m2, trios, fours, pairs, solos = hand_masks(h, rules, q)
    for kind, copies, mask in ((SOLO, 1, solos), (PAIR, 2, pairs), (TRIO, 3, trios),
                               (QUAD, 4, fours)):
        if kinds & (1 << kind) and _size_ok(copies, want_size, max_move):
            n = _same_rank(out, n, mask & up, kind, copies)
    solo1 = kinds & (1 << TRIO_SOLO) and _size_ok(4, want_size, max_move)
    pair1 = kinds & (1 << TRIO_PAIR) and _size_ok(5, want_size, max_move)
    if solo1 or pair1:
        m = trios & up
        while m:
            t = lowest_bit(m)
            m &= m - 1
            core = unit(t, 3)
            if solo1:
                mk = m1 & ~(1 << t)
                while mk:
                    k = lowest_bit(mk)
                    mk &= mk - 1
                    n = _put(out, n, core + unit(k, 1), TRIO_SOLO, t, 1)
            if pair1:
                mk = pairs & ~(1 << t)
                while mk:
                    k = lowest_bit(mk)
                    mk &= mk - 1
                    n = _put(out, n, core + unit(k, 2), TRIO_PAIR, t, 1)
    if kinds & ((1 << FOUR_TWO_SOLO) | (1 << FOUR_TWO_PAIR) | (1 << QUAD_TRIO) | (1 << DRESS)):
        n = _fours(out, n, h, rules, kinds, want_size, fours & up, m1, pairs, trios)
    masks = (m1, pairs, trios)
    if kinds & (1 << SOLO_CHAIN):
        n = _chains(out, n, h, rules, SOLO_CHAIN, 1, m1, rules[R_SOLO_CHAIN_MIN], want_len,
                    want_size, above, above2, masks)
    if kinds & (1 << PAIR_CHAIN):
        n = _chains(out, n, h, rules, PAIR_CHAIN, 2, m2, rules[R_PAIR_CHAIN_MIN], want_len,
                    want_size, above, above2, masks)
    trio_min = rules[R_TRIO_CHAIN_MIN]
    for kind in (TRIO_CHAIN, PLANE_SOLO, PLANE_PAIR):
        if kinds & (1 << kind):
            n = _chains(out, n, h, rules, kind, 3, trios, trio_min, want_len, want_size,
                        above, above2, masks)
    quad_min = rules[R_QUAD_CHAIN_MIN]
    for kind in (QUAD_CHAIN, CARRIER, SPACESHIP):
        if kinds & (1 << kind):
            n = _chains(out, n, h, rules, kind, 4, fours, quad_min, want_len, want_size,
                        above, above2, masks)
    if above_power < NO_BOMBS:
        n = _bombs(out, n, h, rules, want_size, above_power)
    return n
