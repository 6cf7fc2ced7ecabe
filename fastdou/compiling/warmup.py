"""Compile (and cache to disk) every kernel the API uses, for every preset's rules array,
group by group (:data:`GROUPS`): a progress bar on a terminal, else the compile notices."""

from __future__ import annotations

import sys

import numpy as np

from fastdou.actions import action_table
from fastdou.compiling.cold_start import generator_from_helper
from fastdou.sim.evaluation import evaluate
from fastdou.game import Game
from fastdou.generation import beats, generate_batch, legal_moves
from fastdou.moves import classify
from fastdou.players import policy
from fastdou.position import Position
from fastdou.rules import rules
from fastdou.sim.simulation import simulate
from fastdou.solver import min_plays, perft, perft_divide, solve

MOST_STEPS = 1000            # an episode longer than this is not played on (none is)


def _simulation() -> None:
    with generator_from_helper():
        simulate(10)


def _evaluation() -> None:
    evaluate("random", "random", 10)


def _move_generation() -> None:
    legal_moves("33344455BR")
    legal_moves("33344455BR", last="3334")
    classify("333444555666")
    beats("BR", "2222")
    generate_batch(np.ones((2, 15), dtype=np.uint8) * np.array([1] * 13 + [0, 0], np.uint8))


def _game_engine() -> None:
    game = Game.new()
    game.play(game.legal_actions()[-1])
    game.push(game.legal_actions()[0])
    game.pop()
    ids = game.legal_action_ids()                      # the RL paths: ids, views
    game.play_id(ids[-1])
    game.push_id(game.legal_action_ids()[0])
    game.pop()
    game.action_mask()
    table = action_table("classic")
    table.records(table.ids(table.records(np.array([0, table.pass_id]))))
    game = Game.new(start="play")
    for name in ("random", "greedy"):                  # the per-decision policies
        policy(name).choose_id(game)


def _encoders() -> None:
    game = Game.new(start="play")
    game.observation(0)
    game.encode(0)


def _solver() -> None:
    pos = Position(["3455KK", "345522"])
    solve(pos)
    Game.from_position(pos).position()                 # the engine <-> search conversions
    solve(pos, threads=2)
    perft(pos, 3)
    perft_divide(pos, 2)
    min_plays("33344455BR")


def _expert() -> None:
    simulate(10, policies="expert")
    policy("expert").choose_id(Game.new(start="play"))


def _vector_env() -> None:
    from fastdou.vector import VectorEnv
    for encoding, start in (("fastdou", "bidding"), ("douzero", "play"), ("rlcard", "play")):
        env = VectorEnv("classic", num_envs=2, encoding=encoding, start=start)
        _, info = env.reset()
        env.step(info["legal_ids"][info["legal_offsets"][:-1]].copy())


def _wild_cards() -> None:
    """The laizi preset's own kernels: its generator, loops, ids, encoder, search, players."""
    from fastdou.vector import VectorEnv
    laizi = rules("laizi")
    simulate(10, laizi)
    simulate(10, laizi, policies="expert")
    legal_moves("5557", last="4447", rules=laizi, wild="7")
    classify("5557", laizi, wild="7")
    game = Game.new(laizi, start="play")
    policy("expert", laizi).choose_id(game)
    while not game.is_terminal():
        game.encode(game.current_player)
        game.play_id(int(game.legal_action_ids()[-1]))
    Game.loads(game.dumps())
    table = action_table(laizi)
    table.action(int(table.ids(np.zeros((1, 2), np.uint64), wild="7")[0]), wild="7")
    pos = Position(["3455KK", "345577"], laizi, wild="7")
    solve(pos)
    perft(pos, 2)
    min_plays("33344455BR", laizi, wild="7")
    env = VectorEnv(laizi, num_envs=2, start="play")
    _, info = env.reset()
    env.step(info["legal_ids"][info["legal_offsets"][:-1]].copy())


def _adapters() -> None:
    """One episode in each adapter whose library is installed (DouZero's needs none)."""
    from fastdou.adapters import douzero
    env = douzero.Env("adp")
    obs, done, steps = env.reset(), False, 0
    while not done and steps < MOST_STEPS:
        obs, _, done, _ = env.step(obs["legal_actions"][-1])
        steps += 1
    for episode in (_rlcard_episode, _pettingzoo_episode, _openspiel_episode):
        try:
            episode()
        except ImportError:                       # its extra is not installed
            pass


def _rlcard_episode() -> None:
    import rlcard

    from fastdou.adapters import rlcard as adapter
    env = rlcard.make(adapter.ENV_ID)
    state, _ = env.reset()
    for _ in range(MOST_STEPS):
        if env.is_over():
            break
        state, _ = env.step(list(state["legal_actions"])[-1])
    env.get_payoffs()


def _pettingzoo_episode() -> None:
    from fastdou.adapters import pettingzoo
    env = pettingzoo.env("classic")
    env.reset(seed=0)
    for _ in zip(range(MOST_STEPS), env.agent_iter()):
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[-1]))


def _openspiel_episode() -> None:
    import pyspiel

    import fastdou.adapters.openspiel  # noqa: F401  (registers its games)
    state = pyspiel.load_game("python_fastdou_classic").new_initial_state()
    for _ in range(MOST_STEPS):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.observation_tensor()
            state.apply_action(state.legal_actions()[-1])
    state.returns()


GROUPS = [("simulation", _simulation), ("evaluation", _evaluation),
          ("move generation", _move_generation),
          ("game engine", _game_engine), ("observation encoders", _encoders),
          ("solver", _solver), ("vector env", _vector_env), ("adapters", _adapters),
          ("expert player", _expert), ("wild cards", _wild_cards)]


def warmup() -> None:
    """Run each entry point once; later processes load the compiled code from the cache.
    On a terminal, a bar over the groups names the one compiling (the bursts' notices
    silenced); elsewhere the notices say what compiles."""
    from contextlib import nullcontext

    from tqdm import tqdm

    from fastdou.compiling.compile_notice import ANNOUNCER, silenced
    with tqdm(GROUPS, unit="group", file=sys.stderr, disable=None, leave=False) as bar, \
            (nullcontext() if bar.disable else silenced()):
        for name, run in bar:
            bar.set_description(f"compiling {name}")
            run()
    ANNOUNCER.flush()                  # the last burst's notice before the caller's summary
