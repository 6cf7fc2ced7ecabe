"""Move generation with wild cards (preset ``laizi``, RULES.md §4.8): the leads of a hand, or
its responses to a move, with one or two wild ranks.

A move is split three ways, each part generated once:

* no wild card: the classic moves of the hand's natural cards (its bombs hard);
* wild cards only: the classic moves of the wild cards alone, each standing for its own rank
  (a bomb of them is the wild bomb);
* natural and wild cards: per reading (kind, rank, length), the core's ranks each take the
  naturals chosen for them and wild cards for the rest; kickers are the other naturals
  chosen plus the other wild cards, each standing for any rank the kind's kicker rules allow.

Given the reading, the cards fix the naturals of every core rank (kickers are never of a
core rank) and the naturals and wild cards left over as kickers, so each (cards, reading)
comes out of the last part once. Rows are ``(cards, info)`` records, the bomb class
(``BOMB_CLASS_*``) at ``INFO_CLASS_SHIFT`` of the info word; what each wild card stands for
is :mod:`wild`'s ``wild_readings``. ``rules`` is the classic rules array (profile standard).
"""

import numpy as np

from fastdou.kernels.bits import highest_bit, lowest_bit
from fastdou.kernels.generate import _trio_forbidden, info
from fastdou.kernels.jit import kernel, leaf
from fastdou.kernels.layout import (
    BIG_JOKER, BOMB, BOMB_CLASS_HARD, BOMB_CLASS_NONE, BOMB_CLASS_ROCKET, BOMB_CLASS_SOFT,
    BOMB_CLASS_WILD, COUNT_BITS, FOUR_TWO_PAIR, FOUR_TWO_SOLO, INFO_CLASS_SHIFT, PAIR,
    PAIR_CHAIN, PASS, PLANE_PAIR, PLANE_SOLO, R_BOMB_WINGS, R_CHAIN_HIGH, R_CHAIN_LOW, R_KINDS,
    R_MAX_MOVE, R_PAIR_CHAIN_MIN, R_ROCKET_KICKERS, R_SOLO_CHAIN_MIN, R_TRIO_CHAIN_MIN,
    RANK_2, REC_CARDS, REC_INFO, REC_WIDTH, ROCKET, SMALL_JOKER, SOLO, SOLO_CHAIN, TRIO,
    TRIO_CHAIN, TRIO_PAIR, TRIO_SOLO,
)
from fastdou.kernels.moves import kind_of, leading_moves, length_of, rank_of, responses
from fastdou.kernels.packing import count, unit
from fastdou.kernels.records_out import put_record, room

_NONE = np.uint64(1) << np.uint64(63)   # no multiset: packed cards use bits 0..59
# The classic moves of the wild cards alone: at most 8 cards of two ranks, under 64 moves.
ONLY_WILD_SCRATCH = 64
_NON_JOKERS = (1 << SMALL_JOKER) - 1


@leaf
def _first_within(caps, cand, total):
    """The first packed multiset of ``total`` cards within ``caps`` over the ranks ``cand``,
    low ranks filled first; ``_NONE`` when ``caps`` holds fewer."""
    w = np.uint64(0)
    rem = total
    m = cand
    while m and rem:
        r = lowest_bit(m)
        m &= m - 1
        take = min(count(caps, r), rem)
        w += unit(r, take)
        rem -= take
    return _NONE if rem else w


@leaf
def _next_within(w, caps, cand):
    """The multiset after ``w`` of the same size within ``caps`` (the order of
    :func:`_first_within`: a unit moves from the highest rank that can give one to the ranks
    above it); ``_NONE`` after the last."""
    tail = 0
    space = 0
    m = cand
    i = -1
    while m:
        r = highest_bit(m)
        m ^= 1 << r
        x = count(w, r)
        if x > 0 and space > tail:
            i = r
            break
        tail += x
        space += count(caps, r)
    if i < 0:
        return _NONE
    w = (w & np.uint64((1 << (COUNT_BITS * (i + 1))) - 1)) - unit(i, 1)
    rest = _first_within(caps, cand & ~((1 << (i + 1)) - 1), tail + 1)
    return w + rest


@leaf
def _ranks(p, cand):
    """How many ranks of ``cand`` the packed ``p`` holds."""
    n = 0
    m = cand
    while m:
        r = lowest_bit(m)
        m &= m - 1
        n += count(p, r) > 0
    return n


@leaf
def _answers_last(kind, rank, length, cls, last):
    """Whether a move (kind, rank, length, bomb class) may answer the info word ``last``
    (every move answers a PASS, the lead)."""
    lk = kind_of(last)
    if lk == PASS:
        return True
    lc = np.int64(last >> np.uint64(INFO_CLASS_SHIFT))
    if cls != BOMB_CLASS_NONE:
        return lc == BOMB_CLASS_NONE or cls > lc or (cls == lc and rank > rank_of(last))
    return lc == BOMB_CLASS_NONE and kind == lk and length == length_of(last) and \
        rank > rank_of(last)


@leaf
def _put_split(out, n, base, j, wild, kind, rank, length, cls):
    """Emit ``base`` (natural cards, not empty) with ``j`` wild cards, once per way of taking
    them from the wild ranks ``wild = (lo, k_lo, hi, k_hi)`` (each way is other cards)."""
    lo, k_lo, hi, k_hi = wild
    word = info(kind, rank, length) | (np.uint64(cls) << np.uint64(INFO_CLASS_SHIFT))
    for c_lo in range(max(0, j - k_hi), min(k_lo, j) + 1):
        cards = base + unit(lo, c_lo)
        if j > c_lo:
            cards += unit(hi, j - c_lo)
        if n < room(out):
            put_record(out, n, cards, word)
        n += 1
    return n


@leaf
def _core_have(nat, s, t, m):
    """The naturals the core of ``m`` cards on each rank s..t can use (at most ``m`` a rank)
    and how many wild cards it needs at least."""
    have = np.uint64(0)
    short = 0
    for r in range(s, t + 1):
        x = min(count(nat, r), m)
        have += unit(r, x)
        short += m - x
    return have, short


@leaf
def _kicker_ok(kind, kick, rules, s, t):
    """Whether natural kickers ``kick`` (within their caps) are legal for ``kind`` on the
    core ranks s..t, whatever wild kickers join them (each can stand for a rank no rule
    bars: there are more free ranks than wild kickers)."""
    if kind == TRIO_PAIR or kind == FOUR_TWO_PAIR or kind == PLANE_PAIR:
        units = 1 if kind == TRIO_PAIR else (2 if kind == FOUR_TWO_PAIR else t - s + 1)
        return _ranks(kick, _NON_JOKERS) <= units
    if rules[R_ROCKET_KICKERS] == 0 and count(kick, SMALL_JOKER) and count(kick, BIG_JOKER):
        return False
    if kind == PLANE_SOLO and rules[R_BOMB_WINGS] != 0:
        for r in (s - 1, t + 1):
            if 0 <= r <= RANK_2 and count(kick, r) == 3 and _trio_forbidden(r, s, t, rules):
                return False
    return True


@leaf
def _kicker_caps(kind, avail, rules, s, t, total):
    """Per-rank caps of the natural kickers of ``kind`` on the core ranks s..t, and the mask
    of ranks with one."""
    pairs = kind == TRIO_PAIR or kind == FOUR_TWO_PAIR or kind == PLANE_PAIR
    caps = np.uint64(0)
    cand = 0
    top = RANK_2 if pairs else BIG_JOKER
    for r in range(top + 1):
        if s <= r <= t:
            continue
        cap = min(count(avail, r), total, 2 if pairs else 4)
        if kind == PLANE_SOLO and rules[R_BOMB_WINGS] == 0:
            cap = min(cap, 3)
            if cap == 3 and _trio_forbidden(r, s, t, rules):
                cap = 2
        if cap > 0:
            caps += unit(r, cap)
            cand |= 1 << r
    return caps, cand


@leaf
def _with_kickers(out, n, core, d, kind, s, t, units, per, nat, wild, rules):
    """The core naturals ``core`` (``d`` wild cards complete it) with every choice of
    kickers: ``units`` of ``per`` cards from the naturals outside s..t and the wild cards
    left; each (cards, reading) with at least one wild card and one natural."""
    k = wild[1] + wild[3]
    length = t - s + 1 if kind == PLANE_SOLO or kind == PLANE_PAIR else 1
    total = units * per
    avail = nat - core
    for r in range(s, t + 1):
        avail -= unit(r, count(avail, r))
    caps, cand = _kicker_caps(kind, avail, rules, s, t, total)
    for w_k in range(0, min(k - d, total) + 1):
        if d + w_k == 0:
            continue
        kick = _first_within(caps, cand, total - w_k)
        while kick != _NONE:
            if (core | kick) != 0 and _kicker_ok(kind, kick, rules, s, t):
                n = _put_split(out, n, core + kick, d + w_k, wild, kind, t, length,
                               BOMB_CLASS_NONE)
            kick = _next_within(kick, caps, cand)
    return n


@leaf
def _cores(out, n, nat, wild, rules, kind, s, t, m, units, per):
    """Every way of making the core of ``m`` cards on each rank s..t from naturals and wild
    cards, each with its kickers (``units`` of ``per`` cards; none when ``units`` is 0)."""
    k = wild[1] + wild[3]
    have, short = _core_have(nat, s, t, m)
    if short > k:
        return n
    cand = 0
    for r in range(s, t + 1):
        if count(have, r):
            cand |= 1 << r
    length = t - s + 1 if units == 0 or kind == PLANE_SOLO or kind == PLANE_PAIR else 1
    for extra in range(0, k - short + 1):
        swap = _first_within(have, cand, extra)      # naturals a wild card stands in for
        while swap != _NONE:
            core = have - swap
            d = short + extra
            if units == 0:
                if d > 0 and core != 0:
                    cls = BOMB_CLASS_NONE
                    if kind == BOMB:
                        cls = BOMB_CLASS_SOFT
                    n = _put_split(out, n, core, d, wild, kind, t, length, cls)
            else:
                n = _with_kickers(out, n, core, d, kind, s, t, units, per, nat, wild, rules)
            swap = _next_within(swap, have, cand)
    return n


@leaf
def _same_kind(out, n, nat, wild, rules, last, kind):
    """Every move of ``kind`` with natural and wild cards that may answer ``last``."""
    lk = kind_of(last)
    lead = lk == PASS
    if kind == SOLO or kind == PAIR or kind == TRIO or kind == BOMB or kind == TRIO_SOLO or \
            kind == TRIO_PAIR or kind == FOUR_TWO_SOLO or kind == FOUR_TWO_PAIR:
        m = 4 if kind == BOMB or kind == FOUR_TWO_SOLO or kind == FOUR_TWO_PAIR else \
            (3 if kind >= TRIO else kind)
        units = 0
        per = 1
        if kind == TRIO_SOLO or kind == TRIO_PAIR:
            units = 1
            per = kind - TRIO
        elif kind == FOUR_TWO_SOLO or kind == FOUR_TWO_PAIR:
            units = 2
            per = 1 if kind == FOUR_TWO_SOLO else 2
        low = 0
        if not lead and kind_of(last) == kind:
            low = rank_of(last) + 1
        for r in range(low, RANK_2 + 1):
            if m + units * per > rules[R_MAX_MOVE]:
                continue
            n = _cores(out, n, nat, wild, rules, kind, r, r, m, units, per)
        return n
    m = 1 if kind == SOLO_CHAIN else (2 if kind == PAIR_CHAIN else 3)
    min_len = rules[R_SOLO_CHAIN_MIN] if kind == SOLO_CHAIN else \
        (rules[R_PAIR_CHAIN_MIN] if kind == PAIR_CHAIN else rules[R_TRIO_CHAIN_MIN])
    per = 1 if kind == PLANE_SOLO else 2
    link = m + (per if kind == PLANE_SOLO or kind == PLANE_PAIR else 0)
    lo = rules[R_CHAIN_LOW]
    hi = rules[R_CHAIN_HIGH]
    for length in range(min_len, hi - lo + 2):
        if link * length > rules[R_MAX_MOVE]:
            break
        if not lead and length != length_of(last):
            continue
        for s in range(lo, hi - length + 2):
            t = s + length - 1
            if not lead and t <= rank_of(last):
                continue
            units = length if kind == PLANE_SOLO or kind == PLANE_PAIR else 0
            n = _cores(out, n, nat, wild, rules, kind, s, t, m, units, per)
    return n


_MIXED_KINDS = (SOLO, PAIR, TRIO, TRIO_SOLO, TRIO_PAIR, SOLO_CHAIN, PAIR_CHAIN, TRIO_CHAIN,
                PLANE_SOLO, PLANE_PAIR, FOUR_TWO_SOLO, FOUR_TWO_PAIR)


@leaf
def _tag(out, start, stop, cls_of_bomb):
    """Add the bomb class to the records ``start .. stop`` written by a classic generator."""
    for i in range(start, min(stop, room(out))):
        kind = kind_of(out[i, REC_INFO])
        cls = BOMB_CLASS_ROCKET if kind == ROCKET else (cls_of_bomb if kind == BOMB else 0)
        out[i, REC_INFO] |= np.uint64(cls) << np.uint64(INFO_CLASS_SHIFT)


@leaf
def wild_moves_into(hand, wilds, rules, last, out, scratch):
    """:func:`wild_moves` with its scratch given: a ``uint64`` array of shape
    ``(ONLY_WILD_SCRATCH, 2)``."""
    h = np.uint64(hand)
    w = np.int64(wilds)
    lo = np.int64(-1)
    hi = np.int64(-1)
    for r in range(RANK_2 + 1):
        if (w >> r) & 1:
            if lo < 0:
                lo = np.int64(r)
            else:
                hi = np.int64(r)
    k_lo = count(h, lo) if lo >= 0 else np.int64(0)
    k_hi = count(h, hi) if hi >= 0 else np.int64(0)
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
            if count(nat, r) == 4 and _answers_last(BOMB, r, 1, BOMB_CLASS_HARD, word):
                if n < room(out):
                    put_record(out, n, unit(r, 4), info(BOMB, r, 1))
                n += 1
        if count(nat, SMALL_JOKER) and count(nat, BIG_JOKER) and lc < BOMB_CLASS_ROCKET:
            if n < room(out):
                put_record(out, n, unit(SMALL_JOKER, 1) + unit(BIG_JOKER, 1),
                           info(ROCKET, BIG_JOKER, 1))
            n += 1
    _tag(out, 0, n, BOMB_CLASS_HARD)
    if wild_cards == 0:
        return n
    # wild cards only: each stands for its own rank
    m = min(leading_moves(wild_cards, rules, scratch), scratch.shape[0])
    for i in range(m):
        rec_info = scratch[i, REC_INFO]
        kind = kind_of(rec_info)
        cls = BOMB_CLASS_WILD if kind == BOMB else BOMB_CLASS_NONE
        if _answers_last(kind, rank_of(rec_info), length_of(rec_info), cls, word):
            if n < room(out):
                put_record(out, n, scratch[i, REC_CARDS],
                           rec_info | (np.uint64(cls) << np.uint64(INFO_CLASS_SHIFT)))
            n += 1
    # natural and wild cards together
    wild = (lo, k_lo, hi, k_hi)
    if lk == PASS or lc == BOMB_CLASS_NONE:
        for kind in _MIXED_KINDS:
            if (lk == PASS or kind == lk) and rules[R_KINDS] & (1 << kind):
                n = _same_kind(out, n, nat, wild, rules, word, kind)
    if lc <= BOMB_CLASS_SOFT:
        n = _same_kind(out, n, nat, wild, rules, word, BOMB)
    return n


@kernel
def wild_moves(hand, wilds, rules, last, out):
    """The moves of the packed ``hand`` that answer the record ``last`` (cards, info with
    the bomb class; a PASS record ``[0, 0]`` to lead), ``wilds`` the bit mask of the wild
    ranks: records in ``out`` of shape ``(cap, 2)``, each info word with its bomb class.
    Returns how many moves there are, writing the first ``cap``."""
    scratch = np.empty((ONLY_WILD_SCRATCH, REC_WIDTH), np.uint64)
    return wild_moves_into(hand, wilds, rules, last, out, scratch)
