"""Move generation with wild cards (preset ``laizi``, RULES.md §4.8): the leads of a hand, or
its responses to a move, with one or two wild ranks.

A move is split three ways, each part generated once:

* no wild card: the classic moves of the hand's natural cards (its bombs hard);
* wild cards only: the classic moves of the wild cards alone, each standing for its own rank
  (a bomb of them is the wild bomb);
* natural and wild cards: per reading (kind, rank, length), the core's ranks each take the
  naturals chosen for them and wild cards for the rest; kickers are the other naturals
  chosen plus the other wild cards, each standing for any rank the kind's kicker rules allow;
  a bomb of them is soft (:func:`_one_rank`).

Given the reading, the cards fix the naturals of every core rank (kickers are never of a
core rank) and the naturals and wild cards left over as kickers, so each (cards, reading)
comes out of the last part once. Rows are ``(cards, info)`` records, the bomb class
(``BOMB_CLASS_*``) at ``INFO_CLASS_SHIFT`` of the info word; what each wild card stands for
is :mod:`wild`'s ``wild_readings``. ``rules`` is the classic rules array (profile standard).
"""

import numpy as np

from fastdou.kernels.bits import highest_bit, lowest_bit, span
from fastdou.kernels.generate import (
    _NIBBLE_ONES, NO_MULTISET, _ge, _put, _spread_run, _trio_forbidden, first_within, ge_tops,
    info, next_within,
)
from fastdou.kernels.jit import inline_leaf, kernel, leaf
from fastdou.kernels.layout import (
    BIG_JOKER, BOMB, BOMB_CLASS_HARD, BOMB_CLASS_NONE, BOMB_CLASS_ROCKET, BOMB_CLASS_SOFT,
    BOMB_CLASS_WILD, FOUR_TWO_PAIR, FOUR_TWO_SOLO, INFO_CLASS_SHIFT, K_CHAIN_MIN, K_CORE,
    K_KICKERS, KINDS, PAIR, PAIR_CHAIN, PASS, PLANE_PAIR, PLANE_SOLO, R_BOMB_MAX, R_BOMB_MIN,
    R_BOMB_WINGS, R_CHAIN_HIGH, R_CHAIN_LOW, R_KINDS, R_MAX_MOVE, R_ROCKET_KICKERS,
    R_SOFT_BELOW_HARD, RANK_2, REC_INFO, ROCKET, SMALL_JOKER, SOLO, SOLO_CHAIN, TRIO,
    TRIO_CHAIN, TRIO_PAIR, TRIO_SOLO,
)
from fastdou.kernels.moves import kind_of, leading_moves, length_of, rank_of, responses
from fastdou.kernels.packing import count, size, unit
from fastdou.kernels.records_out import put_record, room
from fastdou.kernels.wild import wild_ranks

_PAIR_KICKERS = (1 << TRIO_PAIR) | (1 << FOUR_TWO_PAIR) | (1 << PLANE_PAIR)


@leaf
def _bomb_power(cls, rank, rules):
    """The power a bomb of class ``cls`` (not NONE) and ``rank`` is compared by: by class,
    then rank; with ``R_SOFT_BELOW_HARD`` 0, soft and hard bombs by rank, then class."""
    if cls <= BOMB_CLASS_HARD and rules[R_SOFT_BELOW_HARD] == 0:
        return BOMB_CLASS_HARD * 32 + rank * 2 + cls - BOMB_CLASS_SOFT
    return cls * 32 + rank * 2


@leaf
def _answers_last(kind, rank, length, cls, last, rules):
    """Whether a move (kind, rank, length, bomb class) may answer the info word ``last``
    (every move answers a PASS, the lead)."""
    lk = kind_of(last)
    if lk == PASS:
        return True
    lc = np.int64(last >> np.uint64(INFO_CLASS_SHIFT))
    if cls != BOMB_CLASS_NONE:
        return lc == BOMB_CLASS_NONE or \
            _bomb_power(cls, rank, rules) > _bomb_power(lc, rank_of(last), rules)
    return lc == BOMB_CLASS_NONE and kind == lk and length == length_of(last) and \
        rank > rank_of(last)


@kernel
def wild_beats(a, b, rules):
    """Whether record ``a`` beats record ``b``, both moves with wild cards (info words with
    their bomb class; False when either is a pass): non-bombs as classic (same kind and
    length, higher rank; wild moves of one kind and length have as many cards), bombs by
    class and rank."""
    ka = kind_of(a[REC_INFO])
    if ka == PASS or kind_of(b[REC_INFO]) == PASS:
        return False
    cls = np.int64(a[REC_INFO] >> np.uint64(INFO_CLASS_SHIFT))
    return _answers_last(ka, rank_of(a[REC_INFO]), length_of(a[REC_INFO]), cls, b[REC_INFO],
                         rules)


@leaf
def _put_ways(out, n, base, j, wild, word):
    """:func:`_put_split` with both wild ranks held: one record per way of taking the ``j``
    wild cards from them (each way is other cards)."""
    lo, k_lo, hi, k_hi = wild
    for c_lo in range(max(0, j - k_hi), min(k_lo, j) + 1):
        cards = base + unit(lo, c_lo)
        if j > c_lo:
            cards += unit(hi, j - c_lo)
        if n < room(out):
            put_record(out, n, cards, word)
        n += 1
    return n


@inline_leaf
def _put_split(out, n, base, j, wild, word):
    """Emit ``base`` (natural cards, not empty) with ``j`` wild cards as the move ``word``,
    once per way of taking them from the wild ranks ``wild = (lo, k_lo, hi, k_hi)``."""
    if wild[3] == 0:       # one wild rank held (the common case, inlined): one way
        if n < room(out):
            put_record(out, n, base + unit(wild[0], j), word)
        return n + 1
    return _put_ways(out, n, base, j, wild, word)


@inline_leaf
def _at_most(nat, most):
    """``nat`` with every count capped at ``most`` (a nibble counts how many of 1..most its
    count reaches)."""
    caps = np.uint64(0)
    for k in range(1, most + 1):
        caps += np.uint64(ge_tops(nat, k)) >> np.uint64(3)
    return caps


@inline_leaf
def _core_have(nat, s, t, m):
    """The naturals the core of ``m`` cards on each rank s..t can use (at most ``m`` a rank),
    the mask of ranks with any, and how many wild cards the core needs at least."""
    have = _at_most(nat, m) & _spread_run(s, t - s + 1) * np.uint64(15)
    return have, _ge(have, 1), m * (t - s + 1) - size(have)


@leaf
def _one_pair(out, n, core, d, caps, cand, e, wild, word):
    """:func:`_pair_kickers` of one pair (``e`` wild cards free for it), in its order: two
    wild cards, then per rank a natural with a wild card and the natural pair."""
    if e >= 2 and core != 0:
        n = _put_split(out, n, core, d + 2, wild, word)
    m = cand if e >= 1 else (_ge(caps, 2) if d > 0 else 0)   # e = 0: natural pairs only
    while m:
        r = lowest_bit(m)
        m &= m - 1
        if e >= 1:
            n = _put_split(out, n, core + unit(r, 1), d + 1, wild, word)
        if d > 0 and count(caps, r) >= 2:
            n = _put_split(out, n, core + unit(r, 2), d, wild, word)
    return n


@leaf
def _two_pairs(out, n, core, d, caps, cand, e, wild, word):
    """:func:`_pair_kickers` of two pairs (``e`` wild cards free for them), in its order:
    four wild cards; per rank one natural (three wild cards) or its pair (two); per two
    ranks a natural of each (two wild cards), with the first's pair or the second's (one),
    or both pairs."""
    if e >= 4 and core != 0:
        n = _put_split(out, n, core, d + 4, wild, word)
    if e >= 2:
        m = cand
        while m:
            r = lowest_bit(m)
            m &= m - 1
            if e >= 3:
                n = _put_split(out, n, core + unit(r, 1), d + 3, wild, word)
            if count(caps, r) >= 2:
                n = _put_split(out, n, core + unit(r, 2), d + 2, wild, word)
    ma = cand if e >= 1 else (_ge(caps, 2) if d > 0 else 0)   # e = 0: natural pairs only
    while ma:
        a = lowest_bit(ma)
        ma &= ma - 1
        full_a = count(caps, a) >= 2
        mb = ma
        while mb:
            b = lowest_bit(mb)
            mb &= mb - 1
            both = core + unit(a, 1) + unit(b, 1)
            full_b = count(caps, b) >= 2
            if e >= 2:
                n = _put_split(out, n, both, d + 2, wild, word)
            if e >= 1:
                if full_a:
                    n = _put_split(out, n, both + unit(a, 1), d + 1, wild, word)
                if full_b:
                    n = _put_split(out, n, both + unit(b, 1), d + 1, wild, word)
            if d > 0 and full_a and full_b:
                n = _put_split(out, n, both + unit(a, 1) + unit(b, 1), d, wild, word)
    return n


@leaf
def _pair_kickers(out, n, core, d, caps, cand, units, wild, k, word):
    """``core`` (``d`` wild cards complete it) with ``units`` kicker pairs of distinct ranks
    (``caps``: 2 where the naturals outside the core hold a pair, 1 a single): each pair two
    naturals, a natural and a wild card, or two wild cards (standing for a rank no other
    pair holds: there are more free ranks than pairs); ``k`` wild cards in all. One or two
    pairs are :func:`_one_pair` and :func:`_two_pairs`, the same moves in the same order."""
    ones = (caps | (caps >> np.uint64(1))) & _NIBBLE_ONES
    twos = (caps >> np.uint64(1)) & _NIBBLE_ONES
    # the ranks holding a natural, and how many hold two: the rest of 2 x units are wild
    for size in range(max(0, units - (k - d) // 2), units + 1):
        ranks = first_within(ones, cand, size)
        while ranks != NO_MULTISET:
            full = ranks & twos
            within = _ge(full, 1)
            for f in range(max(0, 2 * units - size - (k - d)), size + 1):
                w_k = 2 * units - size - f
                if d + w_k == 0:
                    continue
                pairs = first_within(full, within, f)
                while pairs != NO_MULTISET:
                    if (core | ranks) != 0:
                        n = _put_split(out, n, core + ranks + pairs, d + w_k, wild, word)
                    pairs = next_within(pairs, full, within)
            ranks = next_within(ranks, ones, cand)
    return n


@inline_leaf
def _few_solos(out, n, core, need, caps, cand, j, wild, word, no_rocket):
    """``core`` with ``need`` (at most 2) natural solo kickers within ``caps`` over the ranks
    ``cand`` and ``j`` wild cards: :func:`first_within`'s order (a rank's pair, then the rank
    with each above it), never both jokers when ``no_rocket`` (no rule on three of a rank
    can bar two cards)."""
    if need == 0:
        if core != 0:
            n = _put_split(out, n, core, j, wild, word)
        return n
    ma = cand
    while ma:
        a = lowest_bit(ma)
        ma &= ma - 1
        with_a = core + unit(a, 1)
        if need == 1:
            n = _put_split(out, n, with_a, j, wild, word)
            continue
        if count(caps, a) >= 2:
            n = _put_split(out, n, with_a + unit(a, 1), j, wild, word)
        mb = ma
        if no_rocket and a == SMALL_JOKER:
            mb &= ~(1 << BIG_JOKER)
        while mb:
            b = lowest_bit(mb)
            mb &= mb - 1
            n = _put_split(out, n, with_a + unit(b, 1), j, wild, word)
    return n


@inline_leaf
def _kicker_ok(kind, kick, rules, s, t):
    """Whether natural solo kickers ``kick`` (within their caps) are legal for ``kind`` on
    the core ranks s..t, whatever wild kickers join them (each can stand for a rank no rule
    bars: there are more free ranks than wild kickers)."""
    if rules[R_ROCKET_KICKERS] == 0 and count(kick, SMALL_JOKER) and count(kick, BIG_JOKER):
        return False
    if kind == PLANE_SOLO and rules[R_BOMB_WINGS] != 0:
        for r in (s - 1, t + 1):
            if 0 <= r <= RANK_2 and count(kick, r) == 3 and _trio_forbidden(r, s, t, rules):
                return False
    return True


@leaf
def _kicker_caps(kind, nat, rules, total):
    """Per-rank caps of the natural kickers of ``kind`` (``total`` cards), and the mask of
    ranks with one, before the core's ranks are taken out (:func:`_off_core`)."""
    pairs = (1 << kind) & _PAIR_KICKERS != 0
    most = min(total, 2 if pairs else 4)
    if kind == PLANE_SOLO and rules[R_BOMB_WINGS] == 0:
        most = min(most, 3)
    top = RANK_2 if pairs else BIG_JOKER
    return _at_most(nat, most) & _spread_run(0, top + 1) * np.uint64(15), \
        _ge(nat, 1) & span(0, top)


@inline_leaf
def _off_core(kind, caps, cand, rules, s, t):
    """:func:`_kicker_caps`' caps and ranks for the core on ranks s..t: kickers are of other
    ranks, and without bomb wings a plane's wing of three is capped at two where barred."""
    caps &= ~(_spread_run(s, t - s + 1) * np.uint64(15))
    cand &= ~span(s, t)
    if kind == PLANE_SOLO and rules[R_BOMB_WINGS] == 0:
        m = _ge(caps, 3)            # caps hold 3 only where three a rank is the cap
        while m:
            r = lowest_bit(m)
            m &= m - 1
            if _trio_forbidden(r, s, t, rules):
                caps -= unit(r, 1)
    return caps, cand


@inline_leaf
def _next_swap(swap, have, cand, extra):
    """:func:`next_within` for the ``extra`` naturals wild cards stand in for, without its
    scan in the common cases: none, one (the next rank of ``cand``) or two (the higher one
    moved up, else the lower one and the other refilled above it)."""
    if extra == 0:
        return NO_MULTISET
    a = lowest_bit(np.int64(swap)) >> 2
    above = cand & ~((2 << a) - 1)
    if extra == 1:
        return unit(lowest_bit(above), 1) if above else NO_MULTISET
    if extra > 2:
        return next_within(swap, have, cand)
    b = highest_bit(np.int64(swap)) >> 2
    above_b = cand & ~((2 << b) - 1)
    if above_b:
        return swap - unit(b, 1) + unit(lowest_bit(above_b), 1)
    if a == b:                  # else b, a rank of cand, is above a
        return NO_MULTISET
    c = lowest_bit(above)
    if count(have, c) >= 2:
        return unit(c, 2)
    above &= above - 1
    return unit(c, 1) + unit(lowest_bit(above), 1) if above else NO_MULTISET


@inline_leaf
def _chain_cores(out, n, nat, wild, s, t, m, word):
    """:func:`_cores` of a chain without kickers: each way of making it, once."""
    k = wild[1] + wild[3]
    have, cand, short = _core_have(nat, s, t, m)
    for extra in range(0, k - short + 1):
        swap = first_within(have, cand, extra)       # naturals a wild card stands in for
        while swap != NO_MULTISET:
            if short + extra > 0 and have != swap:
                n = _put_split(out, n, have - swap, short + extra, wild, word)
            swap = _next_swap(swap, have, cand, extra)
    return n


@leaf
def _cores(out, n, nat, wild, rules, kind, s, t, m, caps, kick_cand):
    """Every way of making the core of ``m`` cards on each rank s..t from naturals and wild
    cards, for a kind with kickers, each with every choice of kickers (``KINDS``: so many
    cards a core rank, from the naturals outside s..t within :func:`_kicker_caps`' ``caps``
    and ``kick_cand``, and the wild cards left); each (cards, reading) with at least one wild
    card and one natural."""
    k = wild[1] + wild[3]
    have, cand, short = _core_have(nat, s, t, m)
    if short > k:
        return n
    total = KINDS[kind, K_KICKERS] * (t - s + 1)
    word = info(kind, t, t - s + 1)
    if total:
        caps, kick_cand = _off_core(kind, caps, kick_cand, rules, s, t)
    for extra in range(0, k - short + 1):
        swap = first_within(have, cand, extra)       # naturals a wild card stands in for
        while swap != NO_MULTISET:
            core = have - swap
            d = short + extra
            if (1 << kind) & _PAIR_KICKERS:
                if total == 2:
                    n = _one_pair(out, n, core, d, caps, kick_cand, k - d, wild, word)
                elif total == 4:
                    n = _two_pairs(out, n, core, d, caps, kick_cand, k - d, wild, word)
                else:
                    n = _pair_kickers(out, n, core, d, caps, kick_cand, total // 2, wild, k,
                                      word)
            else:
                for w_k in range(0, min(k - d, total) + 1):
                    if d + w_k == 0:
                        continue
                    if total - w_k <= 2:
                        n = _few_solos(out, n, core, total - w_k, caps, kick_cand, d + w_k,
                                       wild, word, rules[R_ROCKET_KICKERS] == 0)
                    else:
                        kick = first_within(caps, kick_cand, total - w_k)
                        while kick != NO_MULTISET:
                            if (core | kick) != 0 and _kicker_ok(kind, kick, rules, s, t):
                                n = _put_split(out, n, core + kick, d + w_k, wild, word)
                            kick = next_within(kick, caps, kick_cand)
            swap = _next_swap(swap, have, cand, extra)
    return n


@inline_leaf
def _over(sums, k):
    """One card of each rank whose nibble of ``sums`` (each at most ``k`` + 3) exceeds
    ``k``."""
    if k < 8:
        return np.uint64(ge_tops(sums, k + 1)) >> np.uint64(3)
    over = np.uint64(0)
    for r in range(BIG_JOKER + 1):
        if count(sums, r) > k:
            over += unit(r, 1)
    return over


@inline_leaf
def _core_ranks(nat, m, k, low):
    """The ranks from ``low`` to 2 whose naturals leave at most ``k`` cards of a core of
    ``m`` to the wild cards."""
    ranks = span(0, RANK_2) if m <= k else _ge(nat, m - k) & span(0, RANK_2)
    return ranks & ~span(0, low - 1)


@leaf
def _one_rank(out, n, nat, wild, kind, m, cls, low):
    """The moves of ``kind`` without kickers on one rank (``m`` cards: a pair, a trio, a bomb
    of bomb class ``cls``) of the ranks from ``low`` up with natural and wild cards: per rank,
    the naturals it holds (at most ``m``) with wild cards for the rest, then each way of a
    wild card more standing in for a natural."""
    k = wild[1] + wild[3]
    ranks = _core_ranks(nat, m, k, low)
    tag = np.uint64(cls) << np.uint64(INFO_CLASS_SHIFT)
    while ranks:
        r = lowest_bit(ranks)
        ranks &= ranks - 1
        word = info(kind, r, 1) | tag
        for d in range(max(m - min(count(nat, r), m), 1), min(k, m - 1) + 1):
            n = _put_split(out, n, unit(r, m - d), d, wild, word)
    return n


@leaf
def _same_kind(out, n, nat, wild, rules, last, kind):
    """Every move of ``kind`` with natural and wild cards that may answer ``last``."""
    lead = kind_of(last) == PASS
    m = KINDS[kind, K_CORE]
    link = m + KINDS[kind, K_KICKERS]
    k = wild[1] + wild[3]
    if KINDS[kind, K_CHAIN_MIN] < 0:
        low = 0 if lead or kind_of(last) != kind else rank_of(last) + 1
        if link > rules[R_MAX_MOVE]:
            return n
        if link == m:
            return _one_rank(out, n, nat, wild, kind, m, BOMB_CLASS_NONE, low)
        ranks = _core_ranks(nat, m, k, low)
        caps, cand = _kicker_caps(kind, nat, rules, KINDS[kind, K_KICKERS])
        while ranks:
            r = lowest_bit(ranks)
            ranks &= ranks - 1
            n = _cores(out, n, nat, wild, rules, kind, r, r, m, caps, cand)
        return n
    lo = rules[R_CHAIN_LOW]
    hi = rules[R_CHAIN_HIGH]
    chain = _spread_run(lo, hi - lo + 1)
    lack = chain * np.uint64(m) - (_at_most(nat, m) & chain * np.uint64(15))
    caps, cand = np.uint64(0), 0
    # per start s (nibble s) of a chain still within reach, the cards its links lack
    sums = np.uint64(0)
    live = chain                          # one card of each such start
    for length in range(1, hi - lo + 2):
        if link * length > rules[R_MAX_MOVE]:
            break
        live &= _spread_run(lo, hi - lo + 2 - length)
        sums = (sums + (lack >> np.uint64(4 * (length - 1)))) & live * np.uint64(15)
        live &= ~_over(sums, k)          # nor any longer chain from there
        sums &= live * np.uint64(15)
        if live == 0:
            break
        if length < rules[KINDS[kind, K_CHAIN_MIN]] or not (lead or length == length_of(last)):
            continue
        if link > m:
            caps, cand = _kicker_caps(kind, nat, rules, KINDS[kind, K_KICKERS] * length)
        starts = _ge(live, 1) if lead else _ge(live, 1) & ~span(0, rank_of(last) - length + 1)
        while starts:
            s = lowest_bit(starts)
            starts &= starts - 1
            if link == m:
                n = _chain_cores(out, n, nat, wild, s, s + length - 1, m,
                                 info(kind, s + length - 1, length))
            else:
                n = _cores(out, n, nat, wild, rules, kind, s, s + length - 1, m, caps, cand)
    return n


# A solo is one card, natural or wild: never of this part.
_MIXED_KINDS = (PAIR, TRIO, TRIO_SOLO, TRIO_PAIR, SOLO_CHAIN, PAIR_CHAIN, TRIO_CHAIN,
                PLANE_SOLO, PLANE_PAIR, FOUR_TWO_SOLO, FOUR_TWO_PAIR)


@leaf
def _one_rank_alone(out, n, r, c, last, rules):
    """The classic moves of ``c`` cards of rank ``r`` alone that answer the info word
    ``last`` (not a bomb), in the classic generator's order: a solo, a pair, a trio, then
    the bombs."""
    lk = kind_of(last)
    for kind, size in ((SOLO, 1), (PAIR, 2), (TRIO, 3)):
        if size <= c and rules[R_KINDS] & (1 << kind) and \
                (lk == PASS or (kind == lk and r > rank_of(last))):
            n = _put(out, n, unit(r, size), kind, r, 1)
    if rules[R_BOMB_MIN] > 0:
        for size in range(rules[R_BOMB_MIN], min(c, rules[R_BOMB_MAX]) + 1):
            n = _put(out, n, unit(r, size), BOMB, r, 1)
    return n


@inline_leaf
def _bombs_in(h, rules):
    """Whether the classic moves of ``h`` may hold a bomb or the rocket (else none to tag)."""
    return _ge(h, rules[R_BOMB_MIN]) != 0 or \
        (count(h, SMALL_JOKER) != 0 and count(h, BIG_JOKER) != 0)


@leaf
def _tag(out, start, stop, bomb_class):
    """Add the bomb class to the records ``start .. stop`` a classic generator wrote (its
    bombs ``bomb_class``: hard of natural cards, the wild bomb of wild cards alone)."""
    for i in range(start, min(stop, room(out))):
        kind = kind_of(out[i, REC_INFO])
        cls = BOMB_CLASS_ROCKET if kind == ROCKET else (bomb_class if kind == BOMB else 0)
        out[i, REC_INFO] |= np.uint64(cls) << np.uint64(INFO_CLASS_SHIFT)


@leaf
def wild_moves_into(hand, wilds, rules, last, out):
    """:func:`wild_moves` for callers compiled without reference counting: it allocates
    nothing."""
    h = np.uint64(hand)
    lo, k_lo, hi, k_hi = wild_ranks(np.int64(wilds), h)
    wild_cards = (unit(lo, k_lo) if lo >= 0 else np.uint64(0)) + \
        (unit(hi, k_hi) if hi >= 0 else np.uint64(0))
    nat = h - wild_cards
    word = last[REC_INFO]
    lk = kind_of(word)
    lc = np.int64(word >> np.uint64(INFO_CLASS_SHIFT))
    n = np.int64(0)
    # no wild card: the classic moves of the naturals, their bombs hard
    if lk == PASS:
        n = leading_moves(nat, rules, out)
    elif lc == BOMB_CLASS_NONE:
        n = responses(nat, last, rules, out)
    else:
        for r in range(RANK_2 + 1):
            if count(nat, r) == 4 and _answers_last(BOMB, r, 1, BOMB_CLASS_HARD, word, rules):
                if n < room(out):
                    put_record(out, n, unit(r, 4), info(BOMB, r, 1))
                n += 1
        if count(nat, SMALL_JOKER) and count(nat, BIG_JOKER) and lc < BOMB_CLASS_ROCKET:
            if n < room(out):
                put_record(out, n, unit(SMALL_JOKER, 1) + unit(BIG_JOKER, 1),
                           info(ROCKET, BIG_JOKER, 1))
            n += 1
    if _bombs_in(nat, rules):
        _tag(out, 0, n, BOMB_CLASS_HARD)
    if wild_cards == 0:
        return n
    # wild cards only: each stands for its own rank, four of them the wild bomb
    if lc == BOMB_CLASS_NONE:
        start = n
        if k_hi == 0:
            n = _one_rank_alone(out, n, lo, k_lo, word, rules)
        else:
            n += responses(wild_cards, last, rules, out[min(n, room(out)):])
        if _bombs_in(wild_cards, rules):
            _tag(out, start, n, BOMB_CLASS_WILD)
    else:
        for r in (lo, hi):
            if r >= 0 and count(wild_cards, r) == 4 and \
                    _answers_last(BOMB, r, 1, BOMB_CLASS_WILD, word, rules):
                if n < room(out):
                    put_record(out, n, unit(r, 4), info(BOMB, r, 1)
                               | (np.uint64(BOMB_CLASS_WILD) << np.uint64(INFO_CLASS_SHIFT)))
                n += 1
    # natural and wild cards together
    wild = (lo, k_lo, hi, k_hi)
    if lk == PASS or lc == BOMB_CLASS_NONE:
        for kind in _MIXED_KINDS:
            if (lk == PASS or kind == lk) and rules[R_KINDS] & (1 << kind):
                n = _same_kind(out, n, nat, wild, rules, word, kind)
    if lc <= BOMB_CLASS_SOFT or (lc == BOMB_CLASS_HARD and rules[R_SOFT_BELOW_HARD] == 0):
        low = rank_of(word) + 1 if lk == BOMB else 0
        n = _one_rank(out, n, nat, wild, BOMB, rules[R_BOMB_MIN], BOMB_CLASS_SOFT, low)
    return n


@kernel
def wild_moves(hand, wilds, rules, last, out):
    """The moves of the packed ``hand`` that answer the record ``last`` (cards, info with
    the bomb class; a PASS record ``[0, 0]`` to lead), ``wilds`` the bit mask of the wild
    ranks: records in ``out`` of shape ``(cap, 2)``, each info word with its bomb class.
    Returns how many moves there are, writing the first ``cap``."""
    return wild_moves_into(hand, wilds, rules, last, out)


@inline_leaf
def wild_actions_of_play(hand, wilds, last, rules, out):
    """``moves.actions_of_play`` with wild cards: the pass record first when there is a
    ``last`` move to answer, then :func:`wild_moves_into`."""
    if kind_of(last[REC_INFO]) == PASS:
        return wild_moves_into(hand, wilds, rules, last, out)
    if out.shape[0] > 0:
        out[0, 0] = 0
        out[0, 1] = 0
    return 1 + wild_moves_into(hand, wilds, rules, last, out[1:])
