"""Whole games in compiled code: ``play_out`` runs one hand with a policy per seat,
``simulate_range`` runs a range of deals, each a pure function of ``(seed, deal index)``,
without the GIL: ``fastdou.simulate`` runs one range per thread.

The loops allocate nothing per action or per deal: ``simulate_range`` reuses one state, one
action buffer (grown only when a hand has more actions than it holds) and the dealer's deck
buffer (:func:`play_into`) for all its deals; benchmarks/test_bench_games.py checks it with
Numba's allocation counters.

A user's policy reaches the loops as a first-class function (Numba's ``FunctionType`` of
:data:`POLICY_SIGNATURE`): the loops are compiled once and cached on disk, and a new policy
costs only its own compile. They take two such functions, ``user`` and ``user_b``, for the
seats coded :data:`USER` and :data:`USER_B` (two user policies, or the expert and a user's,
in one run); both have the one type, so nothing compiles twice. :func:`compiled_simulate_range`
gives the loop typed that way.
"""

import numpy as np
from numba import types

from fastdou.kernels.deal import mix64, stream
from fastdou.kernels.engine import apply, legal_actions, new_deck_buffer, new_state, start
from fastdou.kernels.jit import (
    first_class_kernel, inline_leaf, inline_nrt_kernel, kernel, leaf, nogil_kernel, nrt_kernel,
    uncached_kernel,
)
from fastdou.kernels.layout import R_PLAYERS, REC_WIDTH
from fastdou.kernels.policies import GREEDY, RANDOM, USER, greedy_policy, random_policy
from fastdou.kernels.state import (
    G_ACTIONS, G_BID, G_BOMB_SIZES, G_BOMBS, G_DOUBLES, G_GRABS, G_LANDLORD, G_MARKED, G_MULT,
    G_OUT, G_PARTNER, G_PHASE, G_PLAYER, G_PLAYS, G_REDEALS, G_REVEALS, G_ROCKETS, G_SCORES,
    G_SPRING, G_TEAM, G_TRUMP, G_WILDS, G_WINNER, PH_DONE,
)

# A policy (state, actions, n, rng) -> (index, rng), as the loops call it.
POLICY_SIGNATURE = types.Tuple((types.int64, types.uint64))(
    types.int64[::1], types.uint64[:, :], types.int64, types.uint64)
POLICY_TYPE = types.FunctionType(POLICY_SIGNATURE)
USER_B = USER + 1         # the seats the loops' second policy function, ``user_b``, plays
ACTIONS_CAPACITY = 1024   # the loops' first action buffer; it doubles when a hand needs more

_POLICY_KEY = np.uint64(0x5851F42D4C957F2D)

# The per-deal result columns: (name, state entry copied when a hand ends), in order.
RESULT = (("winner", G_WINNER), ("landlord", G_LANDLORD), ("partner", G_PARTNER),
          ("team", G_TEAM), ("bid", G_BID), ("multiplier", G_MULT), ("bombs", G_BOMBS),
          ("rockets", G_ROCKETS), ("spring", G_SPRING), ("plays", G_PLAYS),
          ("actions", G_ACTIONS), ("redeals", G_REDEALS), ("grabs", G_GRABS),
          ("doubles", G_DOUBLES), ("reveals", G_REVEALS), ("out", G_OUT),
          ("marked", G_MARKED), ("trump", G_TRUMP), ("bomb_sizes", G_BOMB_SIZES),
          ("wilds", G_WILDS))
RESULT_NAMES = tuple(name for name, _ in RESULT)
RESULT_FIELDS = tuple(field for _, field in RESULT)
ERROR_NONE = 0
ERROR_POLICY = 1   # a policy returned an index outside 0..n-1


@kernel
def policy_stream(seed, index):
    """The policies' random stream for deal ``index`` (apart from the dealing stream)."""
    return stream(np.uint64(seed) ^ _POLICY_KEY, mix64(np.uint64(index)))


@nrt_kernel
def new_actions():
    """An action buffer of ``ACTIONS_CAPACITY`` records (:func:`play_into` grows it)."""
    return np.empty((ACTIONS_CAPACITY, REC_WIDTH), np.uint64)


@kernel
def play_with(state, rules, codes, rng, history, user):
    """Play the hand in ``state`` to its end; ``codes[seat]``: RANDOM, GREEDY or USER (the
    first-class function ``user``). Writes (phase, player, action cards, action info) rows
    into ``history`` while they fit. Returns an ERROR_* code. Allocates its buffers; loops
    over many hands call :func:`play_into`."""
    error, _ = play_into(state, rules, codes, rng, history, user, user, new_actions(),
                         new_deck_buffer())
    return error


@inline_nrt_kernel
def play_into(state, rules, codes, rng, history, user, user_b, buf, scratch, wild=None):
    """:func:`play_with` on the caller's buffers, with two policy functions: ``user`` plays
    the seats coded USER, ``user_b`` those coded USER_B (pass ``user`` twice for one).
    ``buf``: the action buffer (:func:`new_actions`), ``scratch`` the deck buffer a redeal
    shuffles in (``engine.new_deck_buffer``). Returns (ERROR_* code, the action buffer:
    ``buf``, or the larger one that replaced it when a hand had more actions than it
    holds). ``wild=True``: rules with wild cards (``engine.legal_actions``)."""
    while True:
        error, rng, n = _play_on(state, rules, codes, rng, history, user, user_b, buf,
                                 scratch, wild)
        if error != _NEED_ROOM:
            return error, buf
        buf = np.empty((2 * n, REC_WIDTH), np.uint64)


_NEED_ROOM = -1   # _play_on stopped before a seat with more actions than its buffer holds


@inline_leaf
def choose(code, state, actions, n, rng, user):
    """The index that policy ``code`` (RANDOM, GREEDY, else the user's ``user``) picks among
    ``actions[:n]``, and the random state after it."""
    if code == RANDOM:
        return random_policy(state, actions, n, rng)
    if code == GREEDY:
        return greedy_policy(state, actions, n, rng)
    return user(state, actions[:n], n, rng)


@inline_leaf
def choose_of(code, state, actions, n, rng, user, user_b):
    """:func:`choose` with a second policy function: ``user_b`` picks for USER_B."""
    if code == USER_B:
        return user_b(state, actions[:n], n, rng)
    return choose(code, state, actions, n, rng, user)


@leaf
def _play_on(state, rules, codes, rng, history, user, user_b, buf, scratch, wild):
    """The loop of :func:`play_into` on a buffer it never replaces: plays until the hand
    ends, a policy errs, or the seat to act has more actions than ``buf`` holds
    (``_NEED_ROOM``, nothing played). Returns (code, rng, actions of the seat to act).

    Compiled without reference counting (``leaf``): the arrays it passes on are its
    caller's, and it allocates nothing (Numba refuses to compile an allocation here). The
    counting cost about 40% of a random game (measured: 93k against 161k games/s)."""
    while state[G_PHASE] != PH_DONE:
        n = legal_actions(state, rules, buf, wild)
        if n > buf.shape[0]:
            return _NEED_ROOM, rng, n
        i, rng = choose_of(codes[state[G_PLAYER]], state, buf, n, rng, user, user_b)
        if i < 0 or i >= n:
            return ERROR_POLICY, rng, n
        action = (buf[i, 0], buf[i, 1])     # a record as a tuple: no array view to count
        if history.shape[0] > 0:
            _record(state, action, history)
        apply(state, rules, action, scratch)
    return ERROR_NONE, rng, 0


@first_class_kernel
def no_user_policy(state, actions, n, rng):
    """The ``user`` of games whose seats all play built-in policies (never called)."""
    return 0, rng


@uncached_kernel
def play_out(state, rules, codes, rng, history):
    """:func:`play_with` for built-in policies only (compiled in each process: it holds
    :func:`no_user_policy` as a constant)."""
    return play_with(state, rules, codes, rng, history, no_user_policy)


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


@leaf
def _start_in(state, rules, seed, index, scratch):
    """``engine.start`` on the caller's deck buffer, compiled without reference counting:
    the deal's calls passed their arrays with atomic count updates (several a deal)."""
    start(state, rules, seed, index, scratch)


@nrt_kernel
def _dealt(rules, seed, index):
    """A new state holding deal ``index`` of ``seed``."""
    state = new_state()
    start(state, rules, seed, index)
    return state


@inline_nrt_kernel
def _simulate(rules, seed, first, codes, results, scores, errors, user, user_b, wild):
    """:func:`simulate_range`'s body; ``wild``: see :func:`play_into`."""
    state = new_state()
    buf = new_actions()
    scratch = new_deck_buffer()
    no_rows = np.empty((0, 4), np.int64)
    for k in range(results.shape[0]):
        _start_in(state, rules, seed, first + k, scratch)
        error, buf = play_into(state, rules, codes, policy_stream(seed, first + k), no_rows,
                               user, user_b, buf, scratch, wild)
        errors[k] = error
        _store(state, rules, results[k], scores[k])


@nogil_kernel
def simulate_range(rules, seed, first, codes, results, scores, errors, user, user_b):
    """Play deals ``first .. first + len(results) - 1``: ``results[k]`` gets the
    RESULT_FIELDS of deal first + k, ``scores[k]`` its score changes (in SCORE_UNITs),
    ``errors[k]`` its ERROR_* code. ``user`` plays the seats whose code is USER, ``user_b``
    those whose code is USER_B (the same function twice when there is one). Call it
    through :func:`compiled_simulate_range`. Runs without the GIL, on buffers allocated once
    a call: ``fastdou.simulate`` gives each thread a range of its own (Python threads: a
    ``prange`` here cost 4.5 s more of a cold start, measured: its gufunc links and
    optimizes the whole game engine once more)."""
    _simulate(rules, seed, first, codes, results, scores, errors, user, user_b, None)


@nogil_kernel
def wild_simulate_range(rules, seed, first, codes, results, scores, errors, user, user_b):
    """:func:`simulate_range` for rules with wild cards: its own kernel, so that the
    classic one holds no wild-card code (:func:`compiled_simulate_range`)."""
    _simulate(rules, seed, first, codes, results, scores, errors, user, user_b, True)


_I64 = types.int64
_RULES = types.Array(_I64, 1, "C")      # writable: rules.rules_array, as every caller passes
_SIMULATE_SIGNATURE = (_RULES, _I64, _I64, _I64[::1], _I64[:, ::1], _I64[:, ::1], _I64[::1],
                       POLICY_TYPE, POLICY_TYPE)


def compiled_simulate_range(wild=False):
    """:func:`simulate_range` (``wild``: :func:`wild_simulate_range`) compiled (or loaded
    from the cache) for its one signature, ``user`` and ``user_b`` first-class policies: pass
    any ``@njit`` policies, or :func:`no_user_policy`."""
    kernel = wild_simulate_range if wild else simulate_range
    if not kernel.signatures:
        kernel.compile(_SIMULATE_SIGNATURE)
        kernel.disable_compile()
    return kernel
