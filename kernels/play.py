"""Whole games in compiled code: ``play_out`` runs one hand with a policy per seat,
``simulate_range`` runs many deals in parallel (``prange``), each a pure function of
``(seed, deal index)``. :func:`make_play_out` and :func:`make_simulate_range` build them
around a user's policy."""

import numpy as np
from numba import njit, prange

from fastdou.kernels.deal import mix64, stream
from fastdou.kernels.engine import apply, legal_actions, new_state, start
from fastdou.kernels.jit import kernel
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


def make_play_out(user=None):
    """Build ``play_out`` around an optional user policy (an ``@njit`` function, see
    :mod:`fastdou.kernels.policies`): compiled into the loop, since a function passed as an
    argument would defeat Numba's cache. Without one it is cached: :data:`play_out`."""

    @njit(cache=user is None)
    def play_out(state, rules, codes, rng, history):
        """Play the hand in ``state`` to its end; ``codes[seat]``: RANDOM, GREEDY or USER.
        Writes (phase, player, action cards, action info) rows into ``history`` while they
        fit. Returns an ERROR_* code."""
        buf = np.empty((1024, 2), np.uint64)
        while state[G_PHASE] != PH_DONE:
            n = legal_actions(state, rules, buf)
            if n > buf.shape[0]:
                buf = np.empty((2 * n, 2), np.uint64)
                n = legal_actions(state, rules, buf)
            code = codes[state[G_PLAYER]]
            if code == RANDOM:
                i, rng = random_policy(state, buf, n, rng)
            elif code == GREEDY or user is None:
                i, rng = greedy_policy(state, buf, n, rng)
            else:
                i, rng = user(state, buf[:n], n, rng)
            if i < 0 or i >= n:
                return ERROR_POLICY
            _record(state, buf[i], history)
            apply(state, rules, buf[i])
        return ERROR_NONE

    return play_out


def make_simulate_range(user):
    """``simulate_range`` around a user policy (not cached; see :func:`make_play_out`)."""
    play = make_play_out(user)

    @njit(parallel=True)
    def simulate_range_user(rules, seed, first, codes, results, scores, errors):
        no_rows = np.empty((0, 4), np.int64)
        for k in prange(results.shape[0]):
            state = _dealt(rules, seed, first + k)
            errors[k] = play(state, rules, codes, policy_stream(seed, first + k), no_rows)
            _store(state, rules, results[k], scores[k])

    return simulate_range_user


@kernel
def _record(state, action, history):
    """Row ``G_ACTIONS`` of ``history``: (phase, player, action cards, action info)."""
    k = state[G_ACTIONS]
    if k < history.shape[0]:
        history[k, 0] = state[G_PHASE]
        history[k, 1] = state[G_PLAYER]
        history[k, 2] = np.int64(action[0])
        history[k, 3] = np.int64(action[1])


@kernel
def _store(state, rules, result, scores):
    for j in range(len(RESULT_FIELDS)):
        result[j] = state[RESULT_FIELDS[j]]
    for s in range(rules[R_PLAYERS]):
        scores[s] = state[G_SCORES + s]


@kernel
def _dealt(rules, seed, index):
    """A new state holding deal ``index`` of ``seed``."""
    state = new_state()
    start(state, rules, seed, index)
    return state


play_out = make_play_out()


@njit(cache=True, parallel=True)
def simulate_range(rules, seed, first, codes, results, scores, errors):
    """Play deals ``first .. first + len(results) - 1`` with the built-in policies:
    ``results[k]`` gets the RESULT_FIELDS of deal first + k, ``scores[k]`` its score changes
    (in SCORE_UNITs), ``errors[k]`` its ERROR_* code."""
    no_rows = np.empty((0, 4), np.int64)
    for k in prange(results.shape[0]):
        state = _dealt(rules, seed, first + k)
        errors[k] = play_out(state, rules, codes, policy_stream(seed, first + k), no_rows)
        _store(state, rules, results[k], scores[k])
