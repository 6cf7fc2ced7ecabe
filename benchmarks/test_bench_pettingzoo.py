"""The PettingZoo environment's cost over stepping fastdou.Game directly: the same hands,
the same ids (random legal ones from a fixed generator), the same observation and mask per
step. Gate: the environment takes at most 2.5x the direct loop's time, the two timed in
turn (best of ``REPEAT`` rounds each), so that a slow spell of the shared machine falls on
both."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import fastdou  # noqa: E402
from benchmarks.loops import in_turn  # noqa: E402
from fastdou.adapters import pettingzoo as fpz  # noqa: E402

OVERHEAD_GATE = 2.5
REPEAT = 5


def env_hands(env, hands, seed=0):
    """Play ``hands`` hands through the AEC loop; returns the actions taken."""
    rng = np.random.default_rng(seed)
    steps = 0
    env.reset(seed=seed)
    for h in range(hands):
        if h:
            env.reset()
        for agent in env.agent_iter():
            obs, _, term, _, _ = env.last()
            if term:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps


def game_hands(rules, hands, seed=0):
    """The same hands and ids straight through ``Game`` (encode and mask per step)."""
    rng = np.random.default_rng(seed)
    steps = 0
    for h in range(hands):
        g = fastdou.Game.new(rules, seed=seed, deal=h)
        while not g.is_terminal():
            g.encode(g.current_player)
            mask = g.action_mask().astype(np.int8)
            g.play_id(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
        g.scores
    return steps


@pytest.mark.parametrize("preset", ["classic", "five_player"])
def test_env_overhead(benchmark, quick, preset):
    hands = 20 if quick else 200
    env = fpz.env(preset)
    env_hands(env, 2)
    game_hands(preset, 2)                                       # compiled, tables built
    steps = benchmark.pedantic(env_hands, (env, hands), rounds=3, warmup_rounds=0)
    t = in_turn({"env": lambda: env_hands(env, hands),
                 "game": lambda: game_hands(preset, hands)}, repeat=REPEAT)
    (t_env, env_steps, _), (t_game, direct_steps, _) = t["env"], t["game"]
    assert direct_steps == env_steps == steps                   # the very same hands
    ratio = t_env / t_game
    benchmark.extra_info.update(env_steps_per_s=steps / t_env,
                                game_steps_per_s=steps / t_game, overhead=ratio)
    print(f"\n{preset}: env {steps / t_env:,.0f} steps/s, Game {steps / t_game:,.0f} "
          f"steps/s ({ratio:.2f}x)")
    assert ratio < OVERHEAD_GATE
