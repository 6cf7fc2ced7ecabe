"""The deals pimc searches (:mod:`.pimc`): the cards a seat has not seen, dealt again at
random among the places that may hold them, consistent with everything the seat has seen.

The seat knows its own hand, the cards each seat has played (``G_PLAYED``), each seat's card
count, and the kitty when the rules show it (``R_KITTY_SHOWN``): then the landlord still
holds each kitty card it cannot have played (per rank, the kitty's copies less the copies
the landlord has played). The rest of the unseen cards (:func:`.expert_endgame.unseen_of`)
are dealt uniformly (:func:`.expert_endgame.deal_unseen`): with three seats between the two
other hands, with two seats between the opponent's hand and the cards out of play.
"""

import numpy as np

from fastdou.kernels.expert_endgame import deal_unseen, unseen_of
from fastdou.kernels.expert_plan import cnt, span
from fastdou.kernels.jit import leaf
from fastdou.kernels.layout import BIG_JOKER, R_KITTY_SHOWN, R_KITTY_TO_LANDLORD, R_PLAYERS
from fastdou.kernels.packing import size
from fastdou.kernels.state import (
    G_HANDS, G_KITTY, G_LANDLORD, G_PHASE, G_PLAYED, G_PLAYER, PH_PLAY, state_rules,
)


@leaf
def kitty_held(state, p):
    """The kitty cards seat ``p`` knows the landlord still holds (packed): none unless the
    kitty was shown and taken by a landlord other than ``p``."""
    rules = state_rules(state)
    landlord = state[G_LANDLORD]
    if (state[G_PHASE] != PH_PLAY or rules[R_KITTY_SHOWN] == 0
            or rules[R_KITTY_TO_LANDLORD] == 0 or landlord < 0 or landlord == p):
        return np.uint64(0)
    kitty = np.uint64(state[G_KITTY])
    played = np.uint64(state[G_PLAYED + landlord])
    held = np.uint64(0)
    for r in range(BIG_JOKER + 1):
        c = cnt(kitty, r) - cnt(played, r)
        if c > 0:
            held += span(r, 1, c)
    return held


@leaf
def deal_world(state, world, rng):
    """Write into ``world`` (a copy of ``state``) a random deal of the cards the seat to act
    has not seen: the other hands (each keeping its count) and, with two seats, the cards
    out of play; the kitty field cleared (the play never reads it). Reads only what the
    seat may know. Returns the new rng."""
    rules = state_rules(state)
    seats = rules[R_PLAYERS]
    p = state[G_PLAYER]
    hand = np.uint64(state[G_HANDS + p])
    u = unseen_of(state, hand)
    held = kitty_held(state, p)
    landlord = state[G_LANDLORD]
    a = (p + 1) % seats
    b = (p + 2) % seats
    ka = size(np.uint64(state[G_HANDS + a]))          # counts are public, cards are not
    if held == np.uint64(0):
        x, rng = deal_unseen(u, ka, rng)
        world[G_HANDS + a] = np.int64(x)
        if seats == 3:
            world[G_HANDS + b] = np.int64(u - x)
    else:                                             # the landlord holds the kitty's rest
        kl = size(np.uint64(state[G_HANDS + landlord]))
        x, rng = deal_unseen(u - held, kl - size(held), rng)
        world[G_HANDS + landlord] = np.int64(held + x)
        if seats == 3:
            world[G_HANDS + (b if landlord == a else a)] = np.int64(u - held - x)
    world[G_KITTY] = 0
    return rng
