"""Head-to-head evaluation in compiled code: :func:`evaluate_range` plays each deal of a range
once per *turn*, with policy A or B in each seat, reusing :mod:`fastdou.kernels.play`'s game
loop, so that compiled policies run at ``simulate``'s speed (``fastdou.evaluate``).

Two modes. DouZero's protocol (``bidding == 0``, two turns): the landlord fixed (seat 0, or
the seats a marked card names), no bidding (``engine.skip_to_play``); turn 0 puts A on the
landlord side and B on the other, turn 1 the reverse. Whole games (``bidding == 1``, one
turn per seat): turn t puts A in seat t and B in every other seat.

Every turn of deal ``i`` starts from the same dealt state and draws from the same policy
stream ``play.policy_stream(seed, i)`` (common random numbers): a deal's result is a pure
function of (seed, i), and A against itself plays the same game on every turn.
"""

import numpy as np
from numba import types

from fastdou.kernels.engine import new_deck_buffer, new_state, skip_to_play
from fastdou.kernels.jit import inline_nrt_kernel, kernel, nogil_kernel
from fastdou.kernels.layout import R_PLAYERS
from fastdou.kernels.play import (
    POLICY_TYPE, _start_in, _store, new_actions, play_into, policy_stream,
)
from fastdou.kernels.state import G_TEAM

PROTOCOL = 0      # DouZero's: two turns, landlord fixed, no bidding
BIDDING = 1       # whole games, one turn per seat


@kernel
def seat_codes(state, rules, pair, mode, turn, codes):
    """Fill ``codes[seat]`` with ``pair[0]`` (A's code) or ``pair[1]`` (B's) for ``turn``
    of a dealt ``state`` (see the module's docstring)."""
    team = state[G_TEAM]
    for s in range(rules[R_PLAYERS]):
        if mode == BIDDING:
            mine = s == turn
        else:
            mine = ((team >> s) & 1 == 1) == (turn == 0)
        codes[s] = pair[0] if mine else pair[1]


@inline_nrt_kernel
def _evaluate(rules, seed, first, pair, mode, results, scores, errors, user, user_b, wild):
    """:func:`evaluate_range`'s body; ``wild``: see ``play.play_into``."""
    dealt = new_state()
    state = new_state()
    buf = new_actions()
    scratch = new_deck_buffer()
    codes = np.empty(rules[R_PLAYERS], np.int64)
    no_rows = np.empty((0, 4), np.int64)
    for k in range(results.shape[0]):
        _start_in(dealt, rules, seed, first + k, scratch)
        if mode == PROTOCOL:
            skip_to_play(dealt, rules, 0)
        for t in range(results.shape[1]):
            state[:] = dealt
            seat_codes(state, rules, pair, mode, t, codes)
            error, buf = play_into(state, rules, codes, policy_stream(seed, first + k),
                                   no_rows, user, user_b, buf, scratch, wild)
            errors[k, t] = error
            _store(state, rules, results[k, t], scores[k, t])


@nogil_kernel
def evaluate_range(rules, seed, first, pair, mode, results, scores, errors, user, user_b):
    """Play deals ``first .. first + len(results) - 1``, each once per turn
    (``results.shape[1]`` turns): ``results[k, t]`` gets ``play.RESULT_FIELDS`` of deal
    first + k on turn t, ``scores[k, t]`` its score changes (SCORE_UNITs), ``errors[k, t]``
    its ``play.ERROR_*`` code. ``pair``: A's and B's policy codes; ``user`` plays USER,
    ``user_b`` USER_B (A and B may each be a policy function).
    Call it through :func:`compiled_evaluate_range`; runs without the GIL."""
    _evaluate(rules, seed, first, pair, mode, results, scores, errors, user, user_b, None)


@nogil_kernel
def wild_evaluate_range(rules, seed, first, pair, mode, results, scores, errors, user,
                        user_b):
    """:func:`evaluate_range` for rules with wild cards (its own kernel, as
    ``play.wild_simulate_range``)."""
    _evaluate(rules, seed, first, pair, mode, results, scores, errors, user, user_b, True)


_I64 = types.int64
_RULES = types.Array(_I64, 1, "C")      # writable: rules.rules_array, as every caller passes
_SIGNATURE = (_RULES, _I64, _I64, _I64[::1], _I64, _I64[:, :, ::1], _I64[:, :, ::1],
              _I64[:, ::1], POLICY_TYPE, POLICY_TYPE)


def compiled_evaluate_range(wild=False):
    """:func:`evaluate_range` (``wild``: :func:`wild_evaluate_range`) compiled (or loaded
    from the cache) for its one signature, ``user`` and ``user_b`` first-class policies (any
    ``@njit`` policies, or ``play.no_user_policy``)."""
    kernel = wild_evaluate_range if wild else evaluate_range
    if not kernel.signatures:
        kernel.compile(_SIGNATURE)
        kernel.disable_compile()
    return kernel
