"""The ``pimc`` player: perfect-information Monte Carlo search over the expert player
(docs/players.md, "pimc").

At a play-phase decision with more than one legal action, under the rules expert plans for
(:func:`.expert.planned`), while the hands hold more than
:data:`.expert_endgame.ENDGAME_CARDS` cards (below that expert already searches every split
exactly): it samples ``WORLDS`` deals of the cards its seat has not seen, fewer when they
would take more than ``PLAYOUTS`` playouts (:mod:`.pimc_worlds`: consistent with its own
hand, the cards each seat has played, each seat's card count and the kitty when it was
shown); plays each candidate action (:func:`candidates`: expert's choice, the pass and the
best others by the plan they leave) out in every sampled deal with ``expert_policy`` in
every seat, solving the open position exactly once the hands hold few cards
(:mod:`.pimc_rollout`); and plays the candidate that wins the most sampled deals for its
side, expert's choice among the best. Bidding, the other positions, and presets expert
does not plan for: expert's choice.

It reads only what its seat may know (what expert reads, the shown kitty, and the team as
the table knows it); its random stream is its only source of chance (the sampled deals), so
a seed gives the same choice every time.
"""

import numpy as np

from fastdou.kernels.expert import expert_choice, planned
from fastdou.kernels.expert_endgame import ENDGAME_CARDS, hands_cards
from fastdou.kernels.expert_plan import NO_WORTH, worth
from fastdou.kernels.jit import first_class_kernel, nrt_kernel
from fastdou.kernels.layout import R_HANDICAP, R_PLAYERS, REC_WIDTH
from fastdou.kernels.pimc_rollout import new_solver, rollout_wins
from fastdou.kernels.pimc_worlds import deal_world
from fastdou.kernels.state import (
    G_GRABS, G_HANDS, G_PHASE, G_PLAYER, G_TEAM, PH_PLAY, state_rules,
)

WORLDS = 160         # sampled deals per decision (each plays out every candidate)
MAX_CANDIDATES = 10  # expert's choice, the pass, and the best others by the plan they leave
PLAYOUTS = 1000      # at most this many playouts (fewer deals when there are many candidates)


@nrt_kernel
def candidates(actions, n, hand, default, out, most):
    """Fill ``out`` with the actions searched, ``default`` (expert's choice) first; returns
    how many (at most ``most``): all of them when ``n <= most``, else ``default``, the pass
    (when it is legal) and the others whose play leaves the plan of the best worth
    (:func:`.expert_plan.worth`), first listed first among equals."""
    out[0] = default
    k = 1
    if n <= most:
        for i in range(n):
            if i != default:
                out[k] = i
                k += 1
        return k
    if actions[0, 1] == 0 and default != 0 and most > 1:     # the pass (first when legal)
        out[k] = 0
        k += 1
    keys = np.empty(n, np.int64)
    for i in range(n):
        keys[i] = worth(np.uint64(hand) - actions[i, 0])
    while k < most:
        best = -1
        best_key = NO_WORTH - 1
        for i in range(n):
            taken = False
            for j in range(k):
                if out[j] == i:
                    taken = True
            if not taken and keys[i] > best_key:
                best, best_key = i, keys[i]
        if best < 0:
            break
        out[k] = best
        k += 1
    return k


@nrt_kernel
def pimc_values(state, actions, n, default, worlds, playouts, rng, cand, wins, wild=None):
    """Search: ``cand[:k]`` gets the candidates (:func:`candidates`), ``wins[:k]`` the
    sampled deals each wins for the seat's side: ``worlds`` deals, fewer when ``k`` of
    them would take more than ``playouts`` playouts; ``wild``: as the solver's. Returns
    (k, rng)."""
    rules = state_rules(state)
    p = state[G_PLAYER]
    hand = np.uint64(state[G_HANDS + p])
    k = candidates(actions, n, hand, default, cand, cand.shape[0])
    wins[:k] = 0
    worlds = max(1, min(worlds, playouts // k))
    mine = (state[G_TEAM] >> p) & 1
    world = state.copy()
    sim = state.copy()
    buf = np.empty((1 << 12, REC_WIDTH), np.uint64)
    solver = new_solver(rules[R_PLAYERS])
    # a grab handicap ends a hand before one is empty, which the solver cannot say
    solve = rules[R_HANDICAP] == 0 or state[G_GRABS] == 0
    for w in range(worlds):
        rng = deal_world(state, world, rng)
        for j in range(k):
            sim[:] = world
            a = cand[j]
            won, buf, solver = rollout_wins(sim, rules, (actions[a, 0], actions[a, 1]),
                                            mine, buf, solver, solve, wild)
            wins[j] += won
    return k, rng


@nrt_kernel
def pimc_choose(state, actions, n, rng, worlds, most, playouts, wild=None):
    """:func:`pimc_policy` with its budget as arguments: ``worlds`` sampled deals, at most
    ``most`` candidates and ``playouts`` playouts; ``wild``: as the solver's."""
    i, rng = expert_choice(state, actions, n, rng, wild)
    if state[G_PHASE] != PH_PLAY or n <= 1 or not planned(state_rules(state)):
        return i, rng
    p = state[G_PLAYER]
    hand = np.uint64(state[G_HANDS + p])
    if actions[i, 0] == hand or hands_cards(state) <= ENDGAME_CARDS:
        return i, rng
    cand = np.empty(max(most, 1), np.int64)
    wins = np.empty(max(most, 1), np.int64)
    k, rng = pimc_values(state, actions, n, i, worlds, playouts, rng, cand, wins, wild)
    best = 0
    for j in range(1, k):
        if wins[j] > wins[best]:
            best = j
    return cand[best], rng


@first_class_kernel
def pimc_policy(state, actions, n, rng):
    """The pimc player (module docstring; docs/players.md): expert's choice unless a
    search of ``WORLDS`` sampled deals (at most ``PLAYOUTS`` playouts) finds a candidate
    that wins more of them."""
    return pimc_choose(state, actions, n, rng, WORLDS, MAX_CANDIDATES, PLAYOUTS)


@first_class_kernel
def pimc_wild_policy(state, actions, n, rng):
    """:func:`pimc_policy` under wild cards: its playouts, the expert's choices and the
    solves with the wild cards' moves."""
    return pimc_choose(state, actions, n, rng, WORLDS, MAX_CANDIDATES, PLAYOUTS, True)
