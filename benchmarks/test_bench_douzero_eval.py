"""DouZero's own evaluation loop on DouZero's ``GameEnv`` and on the adapter's, in turn.

The timed call is DouZero's ``douzero.evaluation.simulation.mp_simulate`` itself, unchanged:
its agents (``load_card_play_models``), its loop (``card_play_init``; ``step`` until
``game_over``; ``reset``) and its tally, over the same deals, with the module's ``GameEnv``
name pointed at one engine or the other (as a user swaps the engine in). Each run gets fresh
copies of the deals (DouZero's engine consumes their lists) and the same ``random`` seed
(DouZero's agents draw from it), made before its clock starts. Two configurations:

* ``random``: DouZero's ``'random'`` agent in every seat; target ``RANDOM_TARGET`` x;
* ``rlcard``: its ``'rlcard'`` agent as landlord, ``'random'`` farmers; target
  ``RLCARD_TARGET`` x.

What any engine could give is bounded by the agents' own code: the same loop is timed over
``Replay``, an engine that costs nothing (it hands the agents copies of the infosets DouZero's
engine made for the same games, copied before the clock starts, and ignores their actions);
its games/s over DouZero's is the most a faster engine could reach, printed beside each ratio.

Run ``python -m pytest benchmarks/test_bench_douzero_eval.py -s`` (``--quick``: fewer deals).
"""

import copy
import random
import time

import numpy as np
import pytest

from benchmarks.engines import ensure_tools
from fastdou.adapters import douzero as DZ

ensure_tools()
from douzero.env.game import GameEnv as DouZeroGameEnv  # noqa: E402
from douzero.evaluation import simulation  # noqa: E402

RANDOM_TARGET, RLCARD_TARGET = 3.0, 1.5
AGENTS = {"random": ("random", "random", "random"), "rlcard": ("rlcard", "random", "random")}
ROUNDS = {False: 5, True: 3}                # by --quick


class _Queue:
    """What ``mp_simulate`` puts its tally in."""

    def put(self, item):
        self.item = item


def _paths(agents) -> dict:
    return dict(zip(("landlord", "landlord_up", "landlord_down"), agents))


def simulate(engine, deals, agents, seed):
    """DouZero's ``mp_simulate`` over ``deals`` on ``engine`` (a ``GameEnv`` class):
    its tally (landlord wins, farmer wins, landlord score, farmer score)."""
    random.seed(seed)
    q = _Queue()
    saved, simulation.GameEnv = simulation.GameEnv, engine
    try:
        simulation.mp_simulate(deals, _paths(agents), q)
    finally:
        simulation.GameEnv = saved
    return q.item


def record(deals, agents, seed):
    """The infosets DouZero's engine gives the agents in these games, game by game."""
    games = []

    class Recorder(DouZeroGameEnv):
        def card_play_init(self, card_play_data):
            games.append([])
            super().card_play_init(card_play_data)

        def step(self):
            games[-1].append(copy.deepcopy(self.game_infoset))
            super().step()

    simulate(Recorder, copy.deepcopy(deals), agents, seed)
    return games


def replay_engine(games):
    """A ``GameEnv`` for ``mp_simulate`` that costs nothing: each ``step`` hands the acting
    agent the next recorded infoset (``games``: used up) and ignores its action."""
    feed = iter(games)

    class Replay:
        def __init__(self, players):
            self.players = players
            self.num_wins = {"landlord": 0, "farmer": 0}
            self.num_scores = {"landlord": 0, "farmer": 0}

        def card_play_init(self, card_play_data):
            self._infosets = iter(next(feed))
            self._next = next(self._infosets)
            self.game_over = False

        def step(self):
            info = self._next
            self.players[info.player_position].act(info)
            self._next = next(self._infosets, None)
            self.game_over = self._next is None

        def reset(self):
            pass

    return Replay


def in_turn(runs, rounds):
    """``runs`` (name: (setup, timed)) timed in turn for ``rounds`` rounds, ``timed(setup())``
    with only ``timed`` on the clock: name: (fastest seconds, last result)."""
    best = {name: (float("inf"), None) for name in runs}
    for _ in range(rounds):
        for name, (setup, timed) in runs.items():
            arg = setup()
            start = time.perf_counter()
            result = timed(arg)
            best[name] = (min(best[name][0], time.perf_counter() - start), result)
    return best


@pytest.fixture(scope="module")
def deals(quick):
    saved = np.random.get_state()
    np.random.seed(26)
    out = [DZ.random_deal() for _ in range(100 if quick else 1000)]
    np.random.set_state(saved)
    return out


def eval_ratios(deals, config, rounds=ROUNDS[False], seed=26):
    """Games/s of DouZero's loop with agents ``config`` on each engine and on ``Replay``,
    timed in turn: ``{"fastdou", "douzero", "zero_cost"}`` games/s and the tallies."""
    agents = AGENTS[config]
    games = record(deals, agents, seed)
    fresh = lambda: copy.deepcopy(deals)                            # noqa: E731
    runs = {"fastdou": (fresh, lambda d: simulate(DZ.GameEnv, d, agents, seed)),
            "douzero": (fresh, lambda d: simulate(DouZeroGameEnv, d, agents, seed)),
            "zero_cost": (lambda: (copy.deepcopy(deals), copy.deepcopy(games)),
                          lambda a: simulate(replay_engine(a[1]), a[0], agents, seed))}
    best = in_turn(runs, rounds)
    return {name: len(deals) / t for name, (t, _) in best.items()}, \
        {name: r for name, (_, r) in best.items()}


@pytest.mark.parametrize("config,target", [("random", RANDOM_TARGET),
                                           ("rlcard", RLCARD_TARGET)])
def test_douzero_evaluation_loop(benchmark, deals, quick, config, target):
    """DouZero's ``mp_simulate`` on the adapter's ``GameEnv`` against DouZero's own."""
    agents = AGENTS[config]
    simulate(DZ.GameEnv, copy.deepcopy(deals[:3]), agents, 0)       # compiled, loaded
    benchmark.pedantic(simulate, (DZ.GameEnv, deals, agents, 1), rounds=3, warmup_rounds=1)
    rates, tallies = eval_ratios(deals, config, ROUNDS[quick])
    ratio, bound = rates["fastdou"] / rates["douzero"], rates["zero_cost"] / rates["douzero"]
    benchmark.extra_info.update(games_per_s=rates, ratio=ratio, zero_cost_bound=bound)
    print(f"\nDouZero's evaluation loop, {config} agents, {len(deals):,} deals: fastdou "
          f"{rates['fastdou']:,.0f} games/s, DouZero {rates['douzero']:,.0f}: {ratio:.1f}x "
          f"(target {target}x); an engine costing nothing: {rates['zero_cost']:,.0f} "
          f"games/s, {bound:.1f}x")
    assert sum(tallies["fastdou"][:2]) == sum(tallies["douzero"][:2]) == len(deals)
    assert ratio >= target
