"""Whole games in compiled code: :func:`play_out` runs one hand with a policy per seat,
:func:`simulate_range` runs many deals in parallel (``prange``), each a pure function of
``(seed, deal index)``."""

import numpy as np
from numba import prange

from fastdou.kernels.deal import mix64, stream
from fastdou.kernels.engine import apply, legal_actions, new_state, start
from fastdou.kernels.jit import kernel, parallel_kernel
from fastdou.kernels.layout import R_PLAYERS
from fastdou.kernels.policies import GREEDY, RANDOM, greedy_policy, random_policy
from fastdou.kernels.state import (
    G_ACTIONS, G_BID, G_BOMBS, G_DOUBLES, G_GRABS, G_LANDLORD, G_MARKED, G_MULT, G_OUT,
    G_PARTNER, G_PHASE, G_PLAYER, G_PLAYS, G_REDEALS, G_REVEALS, G_ROCKETS, G_SCORES,
    G_SPRING, G_TEAM, G_TRUMP, G_WINNER, PH_DONE,
)

_POLICY_KEY = np.uint64(0x5851F42D4C957F2D)

# The per-deal result columns: state entries copied when a hand ends.
RESULT_FIELDS = (G_WINNER, G_LANDLORD, G_PARTNER, G_TEAM, G_BID, G_MULT, G_BOMBS, G_ROCKETS,
                 G_SPRING, G_PLAYS, G_ACTIONS, G_REDEALS, G_GRABS, G_DOUBLES, G_REVEALS,
                 G_OUT, G_MARKED, G_TRUMP)
RESULT_NAMES = ("winner", "landlord", "partner", "team", "bid", "multiplier", "bombs",
                "rockets", "spring", "plays", "actions", "redeals", "grabs", "doubles",
                "reveals", "out", "marked", "trump")
ERROR_NONE = 0
ERROR_POLICY = 1   # a policy returned an index outside 0..n-1


@kernel
def policy_stream(seed, index):
    """The policies' random stream for deal ``index`` (apart from the dealing stream)."""
    return stream(np.uint64(seed) ^ _POLICY_KEY, mix64(np.uint64(index)))


@kernel
def no_policy(state, actions, n, rng):
    """Stands in for the user policy when no seat uses one."""
    return 0, rng


@kernel
def play_out(state, rules, codes, user, rng, history):
    """Play the hand in ``state`` to its end. ``codes[seat]``: RANDOM, GREEDY or USER (the
    function ``user``). Writes (phase, player, action cards, action info) rows into
    ``history`` while they fit. Returns an ERROR_* code."""
    buf = np.empty((1024, 2), np.uint64)
    while state[G_PHASE] != PH_DONE:
        n = legal_actions(state, rules, buf)
        if n > buf.shape[0]:
            buf = np.empty((2 * n, 2), np.uint64)
            n = legal_actions(state, rules, buf)
        code = codes[state[G_PLAYER]]
        if code == RANDOM:
            i, rng = random_policy(state, buf, n, rng)
        elif code == GREEDY:
            i, rng = greedy_policy(state, buf, n, rng)
        else:
            i, rng = user(state, buf[:n], n, rng)
        if i < 0 or i >= n:
            return ERROR_POLICY
        k = state[G_ACTIONS]
        if k < history.shape[0]:
            history[k, 0] = state[G_PHASE]
            history[k, 1] = state[G_PLAYER]
            history[k, 2] = np.int64(buf[i, 0])
            history[k, 3] = np.int64(buf[i, 1])
        apply(state, rules, buf[i])
    return ERROR_NONE


@parallel_kernel
def simulate_range(rules, seed, first, codes, user, results, scores, errors):
    """Play deals ``first .. first + len(results) - 1``: ``results[k]`` gets the
    RESULT_FIELDS of deal first + k, ``scores[k]`` its score changes (in SCORE_UNITs),
    ``errors[k]`` its ERROR_* code."""
    players = rules[R_PLAYERS]
    no_history = np.empty((0, 4), np.int64)
    for k in prange(results.shape[0]):
        state = new_state()
        start(state, rules, seed, first + k)
        errors[k] = play_out(state, rules, codes, user, policy_stream(seed, first + k),
                             no_history)
        for j in range(len(RESULT_FIELDS)):
            results[k, j] = state[RESULT_FIELDS[j]]
        for s in range(players):
            scores[k, s] = state[G_SCORES + s]
