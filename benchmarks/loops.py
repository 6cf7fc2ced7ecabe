"""The timed loops: single-threaded ``@njit`` loops over a corpus, calling the public kernels
exactly as a user's own ``@njit`` code would, plus the same-run baselines: a copy of the
records, the ideal two-thread split of a batch, and what the machine's threads give; and
OpenSpiel's own Python client loops, with a pyspiel game that costs nothing."""

import time

import numba
from numba import njit, prange

from fastdou import kernels as K
from fastdou.kernels.batch import _stream
from fastdou.kernels.wild_moves import wild_moves


@njit(cache=True)
def lead_all(hands, rules, out):
    """Generate every leading move of every hand; returns the total number of moves."""
    total = 0
    for i in range(hands.shape[0]):
        n = K.leading_moves(hands[i], rules, out)
        if n > out.shape[0]:
            raise ValueError("benchmark buffer too small")
        total += n
    return total


@njit(cache=True)
def wild_all(hands, wilds, lasts, rules, out):
    """Every wild-card move of every hand answering its ``lasts`` row (a zero row: leads);
    returns the total number of moves."""
    total = 0
    for i in range(hands.shape[0]):
        n = wild_moves(hands[i], wilds[i], rules, lasts[i], out)
        if n > out.shape[0]:
            raise ValueError("benchmark buffer too small")
        total += n
    return total


@njit(cache=True)
def count_lead_all(hands, rules):
    total = 0
    for i in range(hands.shape[0]):
        total += K.count_leading(hands[i], rules)
    return total


@njit(cache=True)
def respond_all(hands, lasts, rules, out):
    """Generate every response of every position; returns the total number of moves."""
    total = 0
    for i in range(hands.shape[0]):
        n = K.responses(hands[i], lasts[i], rules, out)
        if n > out.shape[0]:
            raise ValueError("benchmark buffer too small")
        total += n
    return total


@njit(cache=True)
def copy_all(moves, offsets, out):
    """Baseline: copy each hand's precomputed records into the buffer, as generation writes
    them. Generation time over this time is the cost of finding the moves."""
    total = 0
    for i in range(offsets.shape[0] - 1):
        lo = offsets[i]
        n = offsets[i + 1] - lo
        for j in range(n):
            out[j, 0] = moves[lo + j, 0]
            out[j, 1] = moves[lo + j, 1]
        total += n
    return total


@njit(cache=True, parallel=True)
def stream_halves(hands, lasts, rules, moves, offsets, mid):
    """Baseline for ``generate_batch_into`` on two threads: the same streamed generation
    split at hand ``mid`` whose exact offset ``offsets[mid]`` is already known (from an
    earlier call), so neither thread counts: what two threads give to this work now."""
    start = offsets[mid]
    for p in prange(2):
        if p == 0:
            _stream(hands, lasts, rules, moves, offsets, 0, mid, 0)
        else:
            _stream(hands, lasts, rules, moves, offsets, mid, hands.shape[0], start)
    return offsets


@njit(cache=True, parallel=True)
def spin(n):
    """Arithmetic only, in parallel: what the machine's threads give, without fastdou."""
    total = 0
    for i in prange(n):
        x = 0
        for j in range(20_000):
            x += (i * j) % 7
        total += x
    return total


def on_threads(threads, fn, *args):
    """A call of ``fn(*args)`` on ``threads`` Numba threads, which then restores the count
    (for :func:`best_times`)."""
    def call():
        before = numba.get_num_threads()
        numba.set_num_threads(threads)
        try:
            return fn(*args)
        finally:
            numba.set_num_threads(before)
    return call


def in_turn(calls, repeat=5, runs=None, min_run=None, setup=None):
    """Thunks (``calls``, name: thunk) timed in turn: ``repeat`` rounds, each running every
    thunk ``runs[name]`` times (once if not given), so that a drift of a shared machine's
    speed (its other load) slows each alike. With ``min_run`` (seconds) each thunk is first
    called once, and a thunk faster than that is then called as many times in a row in each
    run as make up ``min_run``, so that the timer's resolution does not matter (a slower
    one's first call counts as a run). With ``setup`` (name: thunk) each run calls
    ``calls[name](setup[name]())``, the setup off the clock (not with ``min_run``). Returns
    name: (fastest seconds per call, last result, calls per run)."""
    if setup is not None and min_run is not None:
        raise ValueError("in_turn: setup runs once a run, so not with min_run")
    best = {name: [float("inf"), None, 1] for name in calls}
    if min_run is not None:
        for name, fn in calls.items():
            start = time.perf_counter()
            best[name][1] = fn()
            once = time.perf_counter() - start
            if once >= min_run:
                best[name][0] = once
            else:
                best[name][2] = int(min_run / max(once, 1e-7)) + 1
    for _ in range(repeat):
        for name, fn in calls.items():
            b = best[name]
            for _ in range(1 if runs is None else runs[name]):
                args = () if setup is None else (setup[name](),)
                start = time.perf_counter()
                for _ in range(b[2]):
                    b[1] = fn(*args)
                b[0] = min(b[0], (time.perf_counter() - start) / b[2])
    return {name: tuple(b) for name, b in best.items()}


def best_times(calls, repeat=5):
    """:func:`in_turn` of one run a round: name: fastest seconds."""
    return {name: t for name, (t, _, _) in in_turn(calls, repeat).items()}


# --------------------------------------------------------------------- OpenSpiel clients
# OpenSpiel's own Python loops, called unchanged on any pyspiel game: evaluate_bots with a
# uniform random bot per seat, and its MCTSBot (random rollouts) in seat 0 against two.
def evaluate_bots_games(game, n, seed):
    """``n`` games of ``evaluate_bots`` with a ``UniformRandomBot`` per seat (seeded);
    returns seat 0's summed returns."""
    import numpy as np
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    from open_spiel.python.bots.uniform_random import UniformRandomBot
    rng = np.random.RandomState(seed)
    bots = [UniformRandomBot(p, np.random.RandomState(seed + 1 + p))
            for p in range(game.num_players())]
    return sum(evaluate_bots(game.new_initial_state(), bots, rng)[0] for _ in range(n))


def mcts_games(game, n, seed, simulations=8):
    """``n`` games of ``evaluate_bots`` with ``MCTSBot`` (``simulations`` a move, one
    random rollout each, UCT c = 2) in seat 0 and a ``UniformRandomBot`` in the others;
    returns seat 0's summed returns."""
    import numpy as np
    from open_spiel.python.algorithms import mcts
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    from open_spiel.python.bots.uniform_random import UniformRandomBot
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed + 1))
    bots = [mcts.MCTSBot(game, 2, simulations, evaluator,
                         random_state=np.random.RandomState(seed + 2))]
    bots += [UniformRandomBot(p, np.random.RandomState(seed + 2 + p))
             for p in range(1, game.num_players())]
    return sum(evaluate_bots(game.new_initial_state(), bots, rng)[0] for _ in range(n))


# The null game's shape: a classic hand of fastdou's adapter (its deal's chance nodes, the
# player actions and legal actions a random game averages).
NULL_CHANCE_NODES = 13
NULL_CHANCE_OUTCOMES = 34
NULL_PLAYER_ACTIONS = 63
NULL_LEGAL = tuple(tuple(range(k)) for k in (2, 2, 10, 2, 4, 12, 2, 3, 9, 8))   # 5.4 a move
_NULL_OUTCOMES = [(a, 1.0 / NULL_CHANCE_OUTCOMES) for a in range(NULL_CHANCE_OUTCOMES)]
_NULL_END = NULL_CHANCE_NODES + NULL_PLAYER_ACTIONS
_CHANCE, _TERMINAL = -1, -4                  # pyspiel.PlayerId.CHANCE, TERMINAL
_NULL_GAME = []                              # the game class, made on first use


def null_spiel_game():
    """A pyspiel Python game whose state costs nothing: ``NULL_CHANCE_NODES`` uniform chance
    nodes, then ``NULL_PLAYER_ACTIONS`` actions of seats 0, 1, 2 in turn from fixed legal
    lists; the returns name a winner by the actions' sum. Its state answers a client's
    calls in Python, as fastdou's adapter does, so a client's loop over it times the
    client and pyspiel's own calls alone: the ceiling of any Python game under that loop."""
    if not _NULL_GAME:
        _NULL_GAME.append(_null_game_class())
    return _NULL_GAME[0]()


def _null_game_class():
    import pyspiel
    game_type = pyspiel.GameType(
        short_name="python_fastdou_null_bench", long_name="a game that costs nothing",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=3, min_num_players=3,
        provides_information_state_string=False, provides_information_state_tensor=False,
        provides_observation_string=False, provides_observation_tensor=False,
        parameter_specification={})
    info = pyspiel.GameInfo(
        num_distinct_actions=max(map(len, NULL_LEGAL)),
        max_chance_outcomes=NULL_CHANCE_OUTCOMES, num_players=3, min_utility=-2.0,
        max_utility=2.0, utility_sum=0.0, max_game_length=NULL_PLAYER_ACTIONS)

    class NullSpielGame(pyspiel.Game):
        def __init__(self, params=None):
            super().__init__(game_type, info, params or {})

        def new_initial_state(self):
            return NullSpielState(self)

    class NullSpielState(pyspiel.State):
        def __init__(self, game):
            super().__init__(game)
            self._n = self._sum = 0             # actions so far, their sum

        def current_player(self):
            n = self._n
            return _CHANCE if n < NULL_CHANCE_NODES else (
                _TERMINAL if n >= _NULL_END else (n - NULL_CHANCE_NODES) % 3)

        def is_terminal(self):
            return self._n >= _NULL_END

        def is_chance_node(self):
            return self._n < NULL_CHANCE_NODES

        def is_simultaneous_node(self):
            return False

        def legal_actions(self, player=None):
            n = self._n
            if n < NULL_CHANCE_NODES:
                return list(range(NULL_CHANCE_OUTCOMES))
            return [] if n >= _NULL_END else list(NULL_LEGAL[n % len(NULL_LEGAL)])

        def _legal_actions(self, player):
            return self.legal_actions(player)

        def chance_outcomes(self):
            return _NULL_OUTCOMES[:] if self._n < NULL_CHANCE_NODES else []

        def apply_action(self, action):         # in Python, as fastdou's adapter
            self._n += 1
            self._sum += int(action)

        _apply_action = apply_action

        def clone(self):                         # likewise
            state = NullSpielState.__new__(NullSpielState)
            pyspiel.State.__init__(state, self.get_game())
            state._n, state._sum = self._n, self._sum
            return state

        def returns(self):
            if self._n < _NULL_END:
                return [0.0, 0.0, 0.0]
            out = [-1.0, -1.0, -1.0]
            out[self._sum % 3] = 2.0
            return out

        def rewards(self):
            return self.returns()

        def _action_to_string(self, player, action):
            return str(action)

        def __str__(self):
            return f"{self._n} actions, sum {self._sum}"

    return NullSpielGame


def best_time(fn, *args, repeat=5):
    """The fastest of ``repeat`` runs of ``fn(*args)`` in seconds, and its result."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn(*args)
        best = min(best, time.perf_counter() - start)
    return best, result


def report(benchmark, n_items, n_moves, item="hands"):
    """Record throughput from the benchmark's fastest round in ``extra_info`` and print it."""
    t = benchmark.stats.stats.min
    info = {f"{item}_per_s": n_items / t, "moves_per_s": n_moves / t,
            "moves_per_item": n_moves / n_items}
    benchmark.extra_info.update(info)
    print(f"\n{benchmark.name}: {n_items / t / 1e6:.2f} M {item}/s, "
          f"{n_moves / t / 1e6:.1f} M moves/s, {n_moves / n_items:.1f} moves per {item[:-1]}")
    return info
