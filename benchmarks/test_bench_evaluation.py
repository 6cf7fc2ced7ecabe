"""``fastdou.evaluate`` at ``simulate``'s speed: ``evaluate("greedy", "random")`` (DouZero's
protocol, two games a deal) against ``simulate`` of the same policies (greedy in seat 0,
random in the others, with bidding), one thread each, timed in turn in the same run.

Gate: evaluate's games/s (two a deal) at least ``TARGET`` of simulate's; the ratio is
printed and kept in ``extra_info``. Run ``python -m pytest benchmarks/test_bench_evaluation.py
-s`` (``--quick``: fewer deals).
"""

from functools import partial

import fastdou
from benchmarks.loops import best_times

TARGET = 0.5


def test_evaluate_against_simulate(benchmark, quick):
    deals = 10_000 if quick else 100_000
    fastdou.evaluate("greedy", "random", 100, threads=1)           # compile or load
    fastdou.simulate(100, policies=["greedy", "random", "random"], threads=1)
    t = best_times({
        "evaluate": partial(fastdou.evaluate, "greedy", "random", deals, threads=1),
        "simulate": partial(fastdou.simulate, 2 * deals,
                            policies=["greedy", "random", "random"], threads=1)},
        repeat=3)
    result = benchmark.pedantic(fastdou.evaluate, ("greedy", "random", deals),
                                {"threads": 1}, rounds=1, warmup_rounds=0)
    evaluate_games, simulate_games = 2 * deals / t["evaluate"], 2 * deals / t["simulate"]
    ratio = evaluate_games / simulate_games
    benchmark.extra_info.update({"evaluate_deals_per_s": deals / t["evaluate"],
                                 "evaluate_games_per_s": evaluate_games,
                                 "simulate_games_per_s": simulate_games, "ratio": ratio})
    print(f"\nevaluate greedy random: {deals / t['evaluate']:,.0f} deals/s "
          f"({evaluate_games:,.0f} games/s) on 1 thread; simulate greedy,random,random: "
          f"{simulate_games:,.0f} games/s; ratio {ratio:.2f} (gate {TARGET})")
    print(result.text())
    assert ratio >= TARGET
