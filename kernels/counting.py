"""Counting moves without building them: a closed form per kind, the filters of ``emit``.

:func:`count_moves` returns exactly what ``generate.emit`` returns for the same hand, rules
and query, but never enumerates a kicker or a wing: a kind's count comes from the rank
masks (popcounts and binomials), its chains' from ``chain_counts``, its bombs' from
``bomb_counts``. :func:`count_leading` counts the moves a hand may lead; the answers to a
move are counted by ``answer_counts.count_answers``.
"""

import numpy as np

from fastdou.kernels.bits import span
from fastdou.kernels.bomb_counts import _bomb_count, _closed_bombs
from fastdou.kernels.chain_counts import (
    _plain_chains, _plane_solos, _spaceships, _winged_chains,
)
from fastdou.kernels.count_intrinsics import _stack_poly, popcount
from fastdou.kernels.generate import JOKERS, NO_BOMBS, lead_query, scan, wanted
from fastdou.kernels.jit import inline_kernel, leaf
from fastdou.kernels.layout import (
    CARRIER, DRESS, FOUR_TWO_PAIR, FOUR_TWO_SOLO, N_KINDS, PAIR, PAIR_CHAIN, PLANE_PAIR,
    PLANE_SOLO, QUAD, QUAD_CHAIN, QUAD_TRIO, R_BOMBS_CLOSED, R_CHAIN_HIGH, R_CHAIN_LOW,
    R_ROCKET_KICKERS, SOLO, SOLO_CHAIN, SPACESHIP, TRIO, TRIO_CHAIN, TRIO_PAIR, TRIO_SOLO,
)

_KICKER_WAYS = np.zeros(N_KINDS, np.int64)     # count_answers' choices of kickers, by kind
_KICKER_WAYS[[TRIO_SOLO, TRIO_PAIR, FOUR_TWO_SOLO, FOUR_TWO_PAIR, QUAD_TRIO, DRESS]] = range(1, 7)


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


@leaf
def count_leading(hand, rules):
    """Number of moves ``hand`` may lead, without building them (:func:`count_moves`)."""
    return count_moves(hand, rules, lead_query())
