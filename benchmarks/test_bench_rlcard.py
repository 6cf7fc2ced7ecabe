"""fastdou's RLCard env against RLCard's own doudizhu env, side by side in one run: the same
seeds (so the same deals) and the same random choices, so both play exactly the same games;
steps/s of each, and the ratio (gated)."""

import numpy as np
import pytest

rlcard = pytest.importorskip("rlcard")

import fastdou.adapters.rlcard as A  # noqa: E402
from conftest import best_time  # noqa: E402

GATE = 20.0          # fastdou steps/s over RLCard's, on the same games


def play(env, games, seed):
    """``games`` hands; each action chosen by one shared stream of uniforms over the sorted
    legal ids. Returns (steps, checksum of the actions)."""
    u = np.random.default_rng(seed).random(games * 200).tolist()
    k = steps = check = 0
    for _ in range(games):
        state, _ = env.reset()
        while not env.is_over():
            ids = sorted(state["legal_actions"])
            aid = ids[int(u[k] * len(ids))]
            k += 1
            check = (check * 31 + aid) % 1_000_003
            state, _ = env.step(aid)
            steps += 1
    return steps, check


def make(env_id, seed, **extra):
    return rlcard.make(env_id, {"seed": seed, **extra})


@pytest.mark.parametrize("fix", [False, True], ids=["rlcard_quirks", "fixed"])
def test_steps_per_s_over_rlcard(benchmark, quick, fix):
    games = 20 if quick else 200
    ref_games = 10 if quick else 60
    play(make(A.ENV_ID, 0), 2, 0)                      # compile / warm caches
    ours = benchmark.pedantic(lambda: play(make(A.ENV_ID, 0, fastdou_fix_quirks=fix),
                                           games, 1), rounds=3, warmup_rounds=0)
    t_ours = benchmark.stats.stats.min
    t_ref, ref = best_time(lambda: play(make("doudizhu", 0), ref_games, 1), repeat=2)
    same = play(make(A.ENV_ID, 0, fastdou_fix_quirks=fix), ref_games, 1)
    assert same == ref, "the two envs did not play the same games"
    ours_rate, ref_rate = ours[0] / t_ours, ref[0] / t_ref
    ratio = ours_rate / ref_rate
    benchmark.extra_info.update(steps_per_s=ours_rate, rlcard_steps_per_s=ref_rate,
                                ratio=ratio)
    print(f"\nRLCard env on fastdou: {ours_rate:,.0f} steps/s; RLCard's own: "
          f"{ref_rate:,.0f} steps/s; {ratio:.1f}x")
    assert ratio > GATE
