"""Whole games: classic random self-play with dealing and bidding, on 1 and 2 threads; the
memory of a long simulation; 1M deals from the command line (full mode only)."""

import json
import os
import subprocess
import sys
import time
import tracemalloc
from functools import partial

import numba
import pytest

import fastdou
from benchmarks.loops import best_time
from benchmarks.loops import best_times, on_threads, spin


def games_per_s(deals, threads, rules="classic"):
    t, _ = best_time(lambda: fastdou.simulate(deals, rules, threads=threads), repeat=3)
    return deals / t


def test_classic_self_play(benchmark, quick):
    """Random self-play, one thread; gates: the exact plays of the corpus, and 2 threads over
    1 (target 1.8x: printed, met or not) at least 0.7 of what the machine's two threads give
    to arithmetic (``loops.spin``) in the same turns: this project's shared 2-vCPU hosts
    have given anywhere from 1.1x to 2.0x within an hour, so a gate on the bare ratio fails
    at random."""
    deals = 100_000 if quick else 200_000   # large enough that threads start-up is noise
    fastdou.simulate(100, threads=1)
    result = benchmark.pedantic(fastdou.simulate, (deals,), {"threads": 1}, rounds=3,
                                warmup_rounds=0)
    assert round(result.summary.plays * deals) == (2_966_847 if quick else 5_936_340)
    one = deals / benchmark.stats.stats.min
    benchmark.extra_info["games_per_s_1_thread"] = one
    print(f"\nclassic random self-play: {one:,.0f} games/s on 1 thread")
    if numba.config.NUMBA_NUM_THREADS >= 2:
        fastdou.simulate(100, threads=2)
        t = best_times({
            "one": partial(fastdou.simulate, deals, threads=1),
            "two": partial(fastdou.simulate, deals, threads=2),
            "spin1": on_threads(1, spin, 4_000), "spin2": on_threads(2, spin, 4_000)}, repeat=9)
        # two threads give at most 2x; the arithmetic can read more when the machine slows
        # the one-thread rounds
        two, machine = t["one"] / t["two"], min(t["spin1"] / t["spin2"], 2.0)
        benchmark.extra_info["games_per_s_2_threads"] = deals / t["two"]
        print(f"2 threads: {deals / t['two']:,.0f} games/s ({two:.2f}x; target 1.8x "
              f"{'met' if two >= 1.8 else 'not met'}; arithmetic {machine:.2f}x)")
        assert two > 0.7 * machine


# Exact plays over deals 0..n-1 of seed 0, random self-play (quick, full): a change here is
# a change of the engine's games, not of its speed.
GOLDEN_PLAYS = {"two_player": (36_955, 923_169), "two_landlords": (44_699, 1_108_309),
                "four_player": (91_788, 2_286_861), "five_player": (103_156, 2_561_822),
                "emperor": (74_333, 1_853_357), "jinling": (62_901, 1_559_741)}


@pytest.mark.parametrize("preset", list(GOLDEN_PLAYS))     # laizi: test_bench_wild.py
def test_preset_self_play(benchmark, quick, preset):
    """Random self-play, one thread; gate: the exact number of plays of the corpus."""
    deals = 2_000 if quick else 50_000
    fastdou.simulate(100, preset, threads=1)
    result = benchmark.pedantic(fastdou.simulate, (deals, preset), {"threads": 1}, rounds=3)
    assert round(result.summary.plays * deals) == GOLDEN_PLAYS[preset][0 if quick else 1]
    rate = deals / benchmark.stats.stats.min
    benchmark.extra_info["games_per_s_1_thread"] = rate
    print(f"\n{preset} random self-play: {rate:,.0f} games/s on 1 thread")


def test_memory_is_constant_in_deals():
    """Gate: the peak traced memory of 4x the deals stays within 1.1x (per_deal=False)."""
    def peak(deals):
        tracemalloc.start()
        fastdou.simulate(deals, threads=1)
        used = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return used

    fastdou.simulate(10)
    small, large = peak(2 << 16), peak(8 << 16)
    print(f"\npeak traced memory: {small / 1e6:.1f} MB for 131,072 deals, "
          f"{large / 1e6:.1f} MB for 524,288")
    assert large < 1.1 * small


# Counts Numba's allocations (NRT stats, which must be on before numba is imported: hence a
# subprocess) over simulate_range calls of n and 8n deals, for every preset and policy kind.
ALLOCATIONS = """
import json, numba, numpy as np, fastdou
from numba.core.runtime import rtsys
from fastdou.kernels import play as P
from fastdou.kernels.policies import GREEDY, RANDOM, USER
from fastdou.rules import rules_array

@numba.njit
def last_action(state, actions, n, rng):
    return n - 1, rng

@numba.njit
def first_action(state, actions, n, rng):
    return 0, rng

out = {}
def allocations(loop, rules, n, code):
    res = np.empty((n, len(P.RESULT_FIELDS)), np.int64)
    scores, errors = np.empty((n, rules.players), np.int64), np.empty(n, np.int64)
    codes = np.full(rules.players, code, np.int64)
    if code == P.USER_B:              # two functions: seat 0 plays the first
        codes[0] = USER
    user = last_action if code >= USER else P.no_user_policy
    user_b = first_action if code == P.USER_B else user
    before = rtsys.get_allocation_stats().alloc
    loop(rules_array(rules, wild=True), 0, 0, codes, res, scores, errors, user, user_b)
    assert not errors.any()
    return rtsys.get_allocation_stats().alloc - before
cases = [(p, fastdou.rules(p), P.compiled_simulate_range()) for p in fastdou.PRESETS
         if not fastdou.rules(p).wilds]
cases.append(("wilds", fastdou.rules(wilds=1), P.compiled_simulate_range(True)))
for name, rules, loop in cases:
    for code in (RANDOM, GREEDY, USER, P.USER_B):
        allocations(loop, rules, 10, code)
        out[f"{name} {code}"] = [allocations(loop, rules, n, code) for n in (%d, %d)]
print(json.dumps(out))
"""


def test_game_loop_allocates_nothing_per_deal(quick):
    """Gate: simulate_range's allocations do not grow with its deals (its buffers are
    allocated once a call, kernels/play.py): equal for n and 8n deals, except that the
    action buffer may double a few times when a hand has more than its 1,024 actions
    (emperor, four_player, wild cards): at most 8 times a call. One allocation per deal
    would add 7n. The wild-card loop is checked with one wild rank."""
    n = 2_000 if quick else 20_000
    env = dict(os.environ, NUMBA_NRT_STATS="1")
    run = subprocess.run([sys.executable, "-c", ALLOCATIONS % (n, 8 * n)], env=env,
                         check=True, capture_output=True, text=True)
    counts = json.loads(run.stdout.strip().splitlines()[-1])
    print(f"\nallocations of simulate_range over {n:,} / {8 * n:,} deals: {counts}")
    grows = 8
    for key, (few, many) in counts.items():
        preset = key.split()[0]
        assert many - few <= (grows if preset in ("emperor", "four_player", "wilds") else 0), key
        assert few <= 9 + grows, key        # the 5 arrays passed in, the 4 buffers


def test_million_deals_from_the_command_line(quick):
    """Full mode only: ``fastdou simulate --deals 1M`` wall time, cache warm."""
    if quick:
        pytest.skip("full mode only")
    subprocess.run([sys.executable, "-m", "fastdou.cli", "warmup"], check=True)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "fastdou.cli", "simulate", "--deals", "1M"],
                   check=True, capture_output=True, env=dict(os.environ))
    wall = time.perf_counter() - start
    print(f"\nfastdou simulate --deals 1M: {wall:.1f} s wall")


def test_compiled_over_python_reference():
    """Gate: the compiled game loop is over 20x the plain-Python reference loop
    (tests/reference/reference_game.py) on the same classic deals, measured in this run."""
    from tests.reference import reference_game

    rules = fastdou.rules("classic")
    deals = 40
    start = time.perf_counter()
    for i in range(deals):
        reference_game.play_hand(rules, 0, i)
    reference = deals / (time.perf_counter() - start)
    fastdou.simulate(100, threads=1)
    compiled = games_per_s(5_000, 1)
    ratio = compiled / reference
    print(f"\ncompiled {compiled:,.0f} games/s, Python reference {reference:,.0f}: {ratio:,.0f}x")
    assert ratio > 20
