"""Built-in policies. A policy is an ``@njit`` function

    policy(state, actions, n, rng) -> (index, rng)

``state``: the game state (read it, never write it; see :mod:`fastdou.kernels.state`). It
holds every seat's hand: a policy meant to play fair reads only its own hand
(``G_HANDS + state[G_PLAYER]``) and what the table has seen;
``actions``: ``uint64[n, 2]`` records of the legal actions, in the engine's order (the pass
first when it is legal); ``rng``: a ``uint64`` random state to draw from with
:func:`fastdou.kernels.deal.next_below` and hand back. It returns the index of the chosen
action and the new random state.
"""

import numpy as np

from fastdou.kernels.deal import next_below
from fastdou.kernels.jit import first_class_kernel, kernel, leaf
from fastdou.kernels.generate import is_bomb_kind
from fastdou.kernels.layout import BIG_JOKER, RANK_2, SMALL_JOKER
from fastdou.kernels.moves import kind_of, rank_of
from fastdou.kernels.packing import count, size
from fastdou.kernels.state import (
    G_HANDS, G_LANDLORD, G_LAST_PLAYER, G_PARTNER, G_PARTNER_KNOWN, G_PHASE, G_PLAYER, PH_BID,
    PH_PLAY,
)

RANDOM = 0
GREEDY = 1
USER = 2


@first_class_kernel
def random_policy(state, actions, n, rng):
    """Uniform over the legal actions."""
    return next_below(rng, n)


@kernel
def strength(hand):
    """A rule-of-thumb hand strength, scaled to a 17-card hand: 2s count 1, the small and
    big joker 2 and 3, every rank held four times or more 2."""
    s = count(hand, RANK_2) + 2 * count(hand, SMALL_JOKER) + 3 * count(hand, BIG_JOKER)
    for r in range(RANK_2 + 1):
        if count(hand, r) >= 4:
            s += 2
    return s * 17 // max(size(hand), 1)


@first_class_kernel
def greedy_policy(state, actions, n, rng):
    """A deterministic rule-of-thumb player, clearly stronger than random:

    * bidding: bid up to 0/1/2/3 as :func:`strength` reaches 4/6/8; call, grab, reveal and
      double from strength 6;
    * play: go out when one move empties the hand; never beat a partner; otherwise lead the
      move with the most cards (then the lowest rank) and answer with the lowest-ranked
      move, keeping bombs for when they are the only lead or the player who made the move
      to beat holds 6 cards or fewer.

    It reads only what its seat may know: its own hand, the card counts and the sides as
    the table has seen them (an unrevealed dark landlord is a farmer to the other seats).
    """
    p = state[G_PLAYER]
    hand = np.uint64(state[G_HANDS + p])
    if state[G_PHASE] != PH_PLAY:
        s = strength(hand)
        # Score bidding offers bids above 1 (a lone bid of 1 is the highest bid, which ends
        # the bidding as a call does, and is played as one).
        if state[G_PHASE] == PH_BID and actions[n - 1, 0] > 1:
            want = 0 if s < 4 else (1 if s < 6 else (2 if s < 8 else 3))
            best = 0
            for i in range(n):
                if actions[i, 0] <= want:
                    best = i
            return best, rng
        return (n - 1 if s >= 6 else 0), rng
    return greedy_play(state, actions, n, hand), rng


@leaf
def public_side(state, s, me):
    """1 if seat ``s`` is on the landlord side as seat ``me`` knows it: the landlord, the
    dark landlord once revealed (or ``me`` itself, who holds the marked card)."""
    if s == state[G_LANDLORD]:
        return 1
    if state[G_PARTNER] == s and (state[G_PARTNER_KNOWN] == 1 or s == me):
        return 1
    return 0


@leaf
def greedy_play(state, actions, n, hand):
    """:func:`greedy_policy`'s play: the index it picks among ``actions[:n]`` for the seat
    to act, holding ``hand``; sides as that seat knows them (:func:`public_side`)."""
    leading = actions[0, 1] != 0
    first = 0 if leading else 1
    for i in range(first, n):
        if actions[i, 0] == hand:
            return i
    p = state[G_PLAYER]
    last = state[G_LAST_PLAYER]
    if not leading and public_side(state, last, p) == public_side(state, p, p):
        return 0
    best = -1
    best_key = -(1 << 40)
    for i in range(first, n):
        if is_bomb_kind(kind_of(actions[i, 1])):
            continue
        key = -rank_of(actions[i, 1])
        if leading:
            key += 64 * size(actions[i, 0])
        if key > best_key:
            best_key = key
            best = i
    if best >= 0:
        return best
    if leading:
        return 0
    if n > 1 and size(np.uint64(state[G_HANDS + last])) <= 6:
        return 1
    return 0
