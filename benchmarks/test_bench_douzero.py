"""fastdou.adapters.douzero against DouZero's own env, side by side in one run.

* env steps: the same random games (same numpy-seeded deals, the same actions, chosen among
  the actions both offer) replayed through ``douzero.env.env.Env`` and the adapter's ``Env``
  (``reset`` + every ``step``, each returning its observation); the target is 20x, the gate
  ``ENV_GATE`` (measured 12x to 19x on a loaded 2-core machine);
* observations: DouZero's ``get_obs`` on the infosets of those games against the compiled
  encoder (``observe``: legal actions and every array) called from an ``@njit`` loop over the
  same positions' states; target and gate ``ENCODER_GATE`` 50x (measured 65x to 85x). The
  Python ``encode(game)`` (one call per position,
  building the dict and its action lists) is measured and reported too, not gated.

DouZero is installed with ``pip install --no-deps douzero==1.1.0`` when missing, as
``compare.py`` does.
"""

import random
import time

import numpy as np
import pytest
from numba import njit

from compare import ensure_tools
from conftest import best_time
from fastdou.adapters import douzero as DZ
from fastdou.kernels import douzero_encoding as DE

ensure_tools()
from douzero.env import env as dz_env  # noqa: E402

ENV_GATE = 10
ENCODER_GATE = 50


def _games(n, seed=7):
    """``n`` random games: (numpy seed, actions), the actions among those both envs offer;
    and every position met: (DouZero infoset, adapter state)."""
    games, infosets, states = [], [], []
    rng = random.Random(seed)
    for g in range(n):
        dz, fd = dz_env.Env("adp"), DZ.Env("adp")
        np.random.seed(seed + g)
        dz.reset()
        np.random.seed(seed + g)
        fd.reset()
        actions, done = [], False
        while not done:
            infosets.append(dz.infoset)
            states.append(fd.game.state)
            common = {tuple(a) for a in dz.infoset.legal_actions} & \
                {tuple(a) for a in fd.infoset.legal_actions}
            a = list(rng.choice(sorted(common)))
            actions.append(a)
            _, _, done, _ = dz.step(a)
            fd.step(a)
        games.append((seed + g, actions))
    return games, infosets, np.array(states)


def replay(env, games):
    steps = 0
    for seed, actions in games:
        np.random.seed(seed)
        env.reset()
        for a in actions:
            env.step(a)
        steps += len(actions)
    return steps


@njit
def observe_all(states, rules):
    total = 0
    for i in range(states.shape[0]):
        out = DE.observe(states[i], rules)
        total += out[1].shape[0]
    return total


@pytest.fixture(scope="module")
def corpus(quick):
    return _games(40 if quick else 400)


def test_env_steps(benchmark, corpus):
    """Adapter ``Env`` steps/s against DouZero's ``Env`` on the same games."""
    games = corpus[0]
    fd = DZ.Env("adp")
    replay(fd, games[:2])
    steps = benchmark.pedantic(replay, (fd, games), rounds=5, warmup_rounds=1)
    t_fd = benchmark.stats.stats.min
    t_dz, _ = best_time(replay, dz_env.Env("adp"), games, repeat=3)
    ratio = t_dz / t_fd
    benchmark.extra_info.update(adapter_steps_per_s=steps / t_fd,
                                douzero_steps_per_s=steps / t_dz, ratio=ratio)
    print(f"\n{steps:,} steps: adapter {steps / t_fd:,.0f} steps/s, DouZero "
          f"{steps / t_dz:,.0f} steps/s: {ratio:.1f}x")
    assert ratio >= ENV_GATE


def test_observation_encoding(benchmark, corpus):
    """The compiled encoder from ``@njit`` against ``get_obs`` on the same positions; the
    Python ``encode(game)`` is reported."""
    _, infosets, states = corpus
    rules = DZ.RULES.array
    observe_all(states[:2], rules)
    rows = benchmark.pedantic(observe_all, (states, rules), rounds=5, warmup_rounds=1)
    assert rows == sum(len({tuple(a) for a in i.legal_actions}) for i in infosets)
    t_kernel = benchmark.stats.stats.min
    t_dz, _ = best_time(lambda: [dz_env.get_obs(i) for i in infosets], repeat=3)
    games = [_game_at(s) for s in states]
    t_py, _ = best_time(lambda: [DZ.encode(g) for g in games], repeat=3)
    n = len(infosets)
    ratio = t_dz / t_kernel
    benchmark.extra_info.update(kernel_per_s=n / t_kernel, get_obs_per_s=n / t_dz,
                                encode_per_s=n / t_py, ratio=ratio,
                                python_encode_ratio=t_dz / t_py)
    print(f"\n{n:,} positions: compiled observe {n / t_kernel:,.0f}/s, Python encode(game) "
          f"{n / t_py:,.0f}/s, DouZero get_obs {n / t_dz:,.0f}/s: {ratio:.1f}x "
          f"(encode(game): {t_dz / t_py:.1f}x)")
    assert ratio >= ENCODER_GATE


def _game_at(state):
    """A fastdou Game holding ``state`` (what encode reads)."""
    from fastdou.game import Game
    return Game(DZ.RULES, state.copy(), {})
