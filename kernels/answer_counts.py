"""Counting the answers to a move without building them: :func:`count_answers`, the twin of
``counting.count_moves`` for a response (``moves.count_responses``, which inlines it into the
caller), and :func:`answer_fields`, what the rules decide for it worked out once in the
rules array (``Rules.array`` calls it).

A response is every bomb, and the one kind and chain length of the last move above its
rank. It has 2-3 moves, so the fixed costs decide: the usual kinds and the usual bombs are
counted without a branch on the kind (consecutive positions' kinds vary, so such a branch
mispredicts), on the packed counts' nibbles, from the rules array's derived entries, and the
rare ones in calls that return no status (``count_intrinsics.quiet_call``), so that the
caller keeps no reference counts.
"""

import numpy as np

from fastdou.kernels.bits import lowest_bit, span
from fastdou.kernels.bomb_counts import (
    _NIB_JOKERS, _NIB_NON_JOKERS, _bomb_count, _closed_bombs, count_bombs,
)
from fastdou.kernels.chain_counts import _runs, _solo_wings, binomial
from fastdou.kernels.count_intrinsics import _stack_poly, popcount, quiet_call
from fastdou.kernels.counting import _KICKER_WAYS, _kicker_ways, count_leading, count_moves
from fastdou.kernels.generate import (
    NON_JOKERS, NO_BOMBS, RANKS, TOP_RANKS, _ge, bomb_power, ge_tops, is_bomb_kind, link_size,
    query, trio_top,
)
from fastdou.kernels.jit import inline_kernel, inline_leaf, kernel, leaf
from fastdou.kernels.layout import (
    CARRIER, INFO_FIELD_MASK, INFO_LENGTH_SHIFT, INFO_RANK_SHIFT, JOKER_BOMBS_ANY, KINDS,
    K_BOMB, K_CHAIN_MIN, K_CORE, N_KINDS, N_RANKS, PAIR, PASS, PLANE_PAIR, PLANE_SOLO,
    R_ANSWER_RANKS, R_BOMBS_CLOSED, R_BOMB_MAX, R_BOMB_MIN, R_CHAIN_HIGH, R_CHAIN_LOW, R_DECKS,
    R_JOKER_BOMBS, R_JOKER_PAIRS, R_JOKER_SOLOS, R_KINDS, R_MAX_MOVE, R_PAIR_TOPS,
    R_ROCKET_KICKERS, SOLO, SPACESHIP,
)

_WINGED = (1 << PLANE_SOLO) | (1 << PLANE_PAIR) | (1 << CARRIER) | (1 << SPACESHIP)


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
