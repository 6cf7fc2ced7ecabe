"""pimc's playouts (:mod:`.pimc`): a sampled deal played to its end from one candidate
action, with the expert player in every seat, the open position solved exactly
(:func:`.solver.search`, every hand known: the deal is sampled) once the hands hold
``SOLVE_CARDS`` cards or fewer; a search stopped by its node limit hands the playout back
to expert.
"""

import numpy as np

from fastdou.kernels.engine import apply, legal_actions
from fastdou.kernels.expert import expert_choice
from fastdou.kernels.expert_endgame import hands_cards, put_last, small_work
from fastdou.kernels.expert_plan import span
from fastdou.kernels.jit import nrt_kernel
from fastdou.kernels.layout import REC_WIDTH
from fastdou.kernels.search import (
    S_HANDS, S_HASH, S_SEATS, S_TEAM, S_TO_MOVE, S_WILDS, S_WINNER, SEARCH_SIZE, key_width,
    position_hash,
)
from fastdou.kernels.solver import C_MAX_NODES, CTL_SIZE, search
from fastdou.kernels.state import (
    G_HANDS, G_PHASE, G_PLAYER, G_TEAM, G_WILDS, G_WINNER, PH_DONE, SIDE_LANDLORD,
)

SOLVE_CARDS = 10      # solve the open position when the hands hold this many cards or fewer
NODE_LIMIT = 4000     # per solve; a stopped one leaves the rest of the playout to expert
TABLE_POW = 14        # transposition table entries (log 2), shared by a decision's solves


@nrt_kernel
def new_solver(seats):
    """(position, table keys, table values, counters, workspace) for the open solves of one
    decision, sized for positions of ``SOLVE_CARDS`` cards."""
    pos = np.zeros(SEARCH_SIZE, np.int64)
    pos[S_SEATS] = seats
    pos[S_TEAM] = 1
    pos[S_HANDS] = np.int64(span(0, SOLVE_CARDS, 1))     # sizes the workspace's stacks
    work = small_work(pos)
    keys = np.empty((1 << TABLE_POW, key_width(pos)), np.uint64)
    vals = np.zeros(1 << TABLE_POW, np.uint8)
    return pos, keys, vals, np.zeros(CTL_SIZE, np.int64), work


@nrt_kernel
def solve_open(sim, rules, solver, mine, wild=None):
    """Whether side ``mine`` (1: the landlord's) wins the open position of ``sim`` with best
    play: 1 or 0; -1 if the node limit stopped the search. Returns (value, solver).
    ``wild``: as the solver's."""
    pos, keys, vals, ctl, work = solver
    seats = pos[S_SEATS]
    pos[:] = 0
    pos[S_SEATS] = seats
    pos[S_TEAM] = sim[G_TEAM]
    pos[S_TO_MOVE] = sim[G_PLAYER]
    pos[S_WINNER] = -1
    for s in range(seats):
        pos[S_HANDS + s] = sim[G_HANDS + s]
    if wild is not None:
        pos[S_WILDS] = sim[G_WILDS]
    put_last(pos, sim)
    pos[S_HASH] = position_hash(pos)
    ctl[:] = 0
    ctl[C_MAX_NODES] = NODE_LIMIT
    r, work = search(pos, rules, (keys, vals), work, ctl, wild)
    solver = (pos, keys, vals, ctl, work)
    if r < 0:
        return -1, solver
    to_move = (sim[G_TEAM] >> sim[G_PLAYER]) & 1
    return (1 if (r == 1) == (to_move == mine) else 0), solver


@nrt_kernel
def rollout_wins(sim, rules, action, mine, buf, solver, solve, wild=None):
    """Play ``action`` in ``sim`` (a sampled deal, every hand set), then the game to its
    end: 1 if side ``mine`` (1: the landlord's) wins, else 0. ``solve``: solve the open
    position once it is small enough. ``wild``: as the solver's. Returns (result, action
    buffer, solver)."""
    apply(sim, rules, action)
    rng = np.uint64(0)      # expert draws only in its own endgame (after a stopped solve)
    while sim[G_PHASE] != PH_DONE:
        if solve and hands_cards(sim) <= SOLVE_CARDS:
            r, solver = solve_open(sim, rules, solver, mine, wild)
            if r >= 0:
                return r, buf, solver
            solve = False
        n = legal_actions(sim, rules, buf, wild)
        if n > buf.shape[0]:
            buf = np.empty((2 * n, REC_WIDTH), np.uint64)
            continue
        i, rng = expert_choice(sim, buf[:n], n, rng, wild)
        apply(sim, rules, (buf[i, 0], buf[i, 1]))
    landlord_won = sim[G_WINNER] == SIDE_LANDLORD
    return (1 if landlord_won == (mine == 1) else 0), buf, solver
