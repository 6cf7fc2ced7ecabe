"""The ``expert`` player (kernels/expert.py, docs/players.md), by its built-in name: its
speed in ``simulate`` against random self-play's, one thread each, timed in turn in the
same run; the exact plays of its self-play corpus; its strength by DouZero's protocol
(``fastdou.evaluate``) against ``random`` and ``greedy``; and against RLCard's
``DouDizhuRuleAgentV1`` in RLCard's own env loop (fastdou's RLCard env, landlord fixed at
seat 0: each deal played with expert as the landlord, then as both farmers).

Gates: expert self-play's games/s at least ``GATE_SPEED`` of random self-play's (the
issue's target ``TARGET_SPEED`` printed, met or not); the corpus's plays exactly; WP and ADP
at the issue's targets over 2,000 deals (``--quick``: 300 deals, targets less a margin for
the smaller sample). Run ``python -m pytest benchmarks/test_bench_expert.py -s``.
"""

from functools import partial

import pytest

import fastdou
from benchmarks.loops import best_times

TARGET_SPEED = 0.25   # the issue's: a quarter of random self-play's games/s
GATE_SPEED = 0.22     # what is gated: the target less a margin for a noisy shared machine
# Exact plays of expert self-play over deals 0..n-1 of seed 0 (quick, full): a change here
# is a change of the player's games, not of its speed.
GOLDEN_PLAYS = (306_570, 1_531_449)
# (opponent, WP target, ADP target or None) by DouZero's protocol
TARGETS = (("random", 0.95, 2.5), ("greedy", 0.58, None))
TARGET_RLCARD = 0.62  # WP against RLCard's DouDizhuRuleAgentV1 (greedy: about 0.56)
QUICK_MARGIN = 0.03   # 300 deals: a WP's 95% interval is about +-0.03


def test_expert_speed_against_random_self_play(benchmark, quick):
    deals = 20_000 if quick else 100_000
    experts = "expert"
    fastdou.simulate(100, policies=experts, threads=1)                # compile or load
    fastdou.simulate(100, threads=1)
    t = best_times({"expert": partial(fastdou.simulate, deals, policies=experts, threads=1),
                    "random": partial(fastdou.simulate, deals, threads=1)}, repeat=3)
    result = benchmark.pedantic(fastdou.simulate, (deals,), {"policies": experts,
                                                             "threads": 1},
                                rounds=1, warmup_rounds=0)
    plays = round(result.summary.plays * deals)
    ratio = t["random"] / t["expert"]
    benchmark.extra_info.update({"expert_games_per_s": deals / t["expert"],
                                 "random_games_per_s": deals / t["random"], "ratio": ratio,
                                 "plays": plays})
    print(f"\nexpert self-play: {deals / t['expert']:,.0f} games/s on 1 thread; random "
          f"self-play {deals / t['random']:,.0f}; ratio {ratio:.3f} (target {TARGET_SPEED}: "
          f"{'met' if ratio >= TARGET_SPEED else 'not met'}; gate {GATE_SPEED}); "
          f"{plays:,} plays")
    assert plays == GOLDEN_PLAYS[0 if quick else 1]
    assert ratio >= GATE_SPEED


def test_expert_strength(benchmark, quick):
    deals = 300 if quick else 2_000
    margin = QUICK_MARGIN if quick else 0.0
    fastdou.evaluate("expert", "random", 10, threads=1)               # compile or load
    results = benchmark.pedantic(
        lambda: [fastdou.evaluate("expert", opp, deals, seed=0) for opp, _, _ in TARGETS],
        rounds=1, warmup_rounds=0)
    for (opp, wp_target, adp_target), e in zip(TARGETS, results):
        o = e.overall
        benchmark.extra_info[f"wp_{opp}"] = o.wp
        benchmark.extra_info[f"adp_{opp}"] = o.adp
        print(f"\nexpert vs {opp}, {deals:,} deals x 2 (DouZero's protocol): WP {o.wp:.4f} "
              f"(landlord {e.landlord.wp:.3f}, farmers {e.farmers.wp:.3f}), ADP {o.adp:.3f}")
        assert o.wp >= wp_target - margin
        if adp_target is not None:
            assert o.adp >= adp_target - 10 * margin


def rlcard_wins(agent, deals):
    """Games won by ``agent``'s side against DouDizhuRuleAgentV1 over ``deals`` deals of
    fastdou's RLCard env (seed 0), each played with ``agent`` as the landlord and then as
    both farmers: (landlord wins, farmer wins)."""
    import numpy as np
    import rlcard
    import fastdou.adapters.rlcard as A
    from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1
    wins = []
    for role in ("landlord", "farmers"):
        env = rlcard.make(A.ENV_ID, {"seed": 0})
        v1 = DouDizhuRuleAgentV1()
        env.set_agents([agent, v1, v1] if role == "landlord" else [v1, agent, agent])
        np.random.seed(0)
        won = 0
        for _ in range(deals):
            _, payoffs = env.run(is_training=False)
            won += (payoffs[0] > 0) == (role == "landlord")
        wins.append(won)
    return tuple(wins)


def test_expert_against_rlcard_rule_agent(benchmark, quick):
    pytest.importorskip("rlcard")
    import fastdou.adapters.rlcard as A
    deals = 300 if quick else 2_000
    margin = QUICK_MARGIN if quick else 0.0
    results = benchmark.pedantic(
        lambda: [rlcard_wins(A.Agent(p), deals) for p in ("expert", "greedy")],
        rounds=1, warmup_rounds=0)
    for name, (landlord, farmers) in zip(("expert", "greedy"), results):
        wp = (landlord + farmers) / (2 * deals)
        benchmark.extra_info[f"wp_{name}"] = wp
        print(f"\n{name} vs DouDizhuRuleAgentV1, {deals:,} deals x 2: WP {wp:.4f} "
              f"(landlord {landlord / deals:.3f}, farmers {farmers / deals:.3f})")
    expert_wp = sum(results[0]) / (2 * deals)
    assert expert_wp >= TARGET_RLCARD - margin
