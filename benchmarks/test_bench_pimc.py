"""The ``pimc`` player (kernels/pimc.py, docs/players.md "pimc"), passed as its ``@njit``
function: its time per decision, and its strength by DouZero's protocol against ``expert``
and against RLCard's ``DouDizhuRuleAgentV1`` (RLCard's own env loop, as
benchmarks/test_bench_expert.py measures expert).

Against expert the games run in a Python loop over ``fastdou.Game`` and ``fastdou.policy``
objects (``fastdou.evaluate`` takes one policy function, and pimc calls expert's): deal
``d`` of seed 0 from ``Game.new("classic", seed=0, deal=d, start="play")``, the landlord at
seat 0 without bidding, as ``fastdou.evaluate``'s protocol deals it, played once with pimc
as the landlord against expert as both farmers and once the other way round, each policy's
stream reset to the deal's. Every pimc decision is timed (``Policy.choose``, Python's call
included).

Gates (issue 28's targets): WP against expert >= 0.58 and against V1 >= 0.70, mean time per
decision <= 50 ms (the p99 and the slowest printed). ``--quick`` (CI): 60 deals against
expert and 25 against V1, the gates less ``QUICK_MARGIN``. Run
``python -m pytest benchmarks/test_bench_pimc.py -s -p no:cacheprovider``.
"""

import time

import numpy as np
import pytest

import fastdou
from benchmarks.test_bench_expert import rlcard_wins
from fastdou.kernels.pimc import pimc_policy

TARGET_EXPERT = 0.58   # WP against expert, DouZero's protocol
TARGET_RLCARD = 0.70   # WP against DouDizhuRuleAgentV1
TARGET_MS = 50.0       # mean time per decision, one core
QUICK_MARGIN = 0.08    # 60 / 25 deals: a WP's 95% interval is about +-0.07 / +-0.09


def protocol_games(deals, seed=0):
    """pimc against expert on deals 0 .. deals-1 of ``seed``, DouZero's protocol: (wins as
    landlord per deal, wins as farmers per deal, seconds of each pimc decision)."""
    rules = fastdou.rules("classic")
    a = fastdou.policy(pimc_policy, rules, seed=seed)
    b = fastdou.policy("expert", rules, seed=seed)
    wins = np.zeros((deals, 2), np.int64)
    times = []
    for d in range(deals):
        for turn in range(2):                       # 0: pimc the landlord; 1: the farmers
            game = fastdou.Game.new(rules, seed=seed, deal=d, start="play")
            a.reset(d)
            b.reset(d)
            while not game.is_terminal():
                mine = (game.current_player == game.landlord) == (turn == 0)
                if mine:
                    t = time.perf_counter()
                    move = a.choose(game)
                    times.append(time.perf_counter() - t)
                else:
                    move = b.choose(game)
                game.play(move)
            landlord_won = game.scores[game.landlord] > 0
            wins[d, turn] = landlord_won == (turn == 0)
    return wins[:, 0], wins[:, 1], np.array(times)


def _interval(per_deal):
    """WP and its 95% interval from per-deal win shares (paired by deal)."""
    m = per_deal.mean()
    half = 1.96 * per_deal.std(ddof=1) / np.sqrt(len(per_deal))
    return m, m - half, m + half


def test_pimc_against_expert(benchmark, quick):
    deals = 60 if quick else 1_000
    margin = QUICK_MARGIN if quick else 0.0
    fastdou.policy(pimc_policy).choose(fastdou.Game.new(seed=1, start="play"))  # compile/load
    landlord, farmers, times = benchmark.pedantic(protocol_games, (deals,), rounds=1,
                                                  warmup_rounds=0)
    wp, lo, hi = _interval((landlord + farmers) / 2)
    ms = times * 1000
    benchmark.extra_info.update({"wp_expert": wp, "wp_ci95": [lo, hi],
                                 "ms_mean": ms.mean(), "ms_p99": np.percentile(ms, 99),
                                 "ms_max": ms.max(), "decisions": len(ms)})
    print(f"\npimc vs expert, {deals:,} deals x 2 (DouZero's protocol): WP {wp:.4f} "
          f"({lo:.4f} .. {hi:.4f}; landlord {landlord.mean():.3f}, farmers "
          f"{farmers.mean():.3f}); {len(ms):,} decisions: mean {ms.mean():.2f} ms, median "
          f"{np.median(ms):.2f}, p99 {np.percentile(ms, 99):.1f}, max {ms.max():.1f}")
    assert wp >= TARGET_EXPERT - margin
    assert ms.mean() <= TARGET_MS


def test_pimc_against_rlcard_rule_agent(benchmark, quick):
    pytest.importorskip("rlcard")
    import fastdou.adapters.rlcard as A
    deals = 25 if quick else 500
    margin = QUICK_MARGIN if quick else 0.0
    landlord, farmers = benchmark.pedantic(rlcard_wins, (A.Agent(pimc_policy), deals),
                                           rounds=1, warmup_rounds=0)
    wp = (landlord + farmers) / (2 * deals)
    benchmark.extra_info["wp_rlcard"] = wp
    print(f"\npimc vs DouDizhuRuleAgentV1, {deals:,} deals x 2: WP {wp:.4f} "
          f"(landlord {landlord / deals:.3f}, farmers {farmers / deals:.3f})")
    assert wp >= TARGET_RLCARD - margin
