"""Threads on a shared machine: ``VectorEnv`` env steps/s (4,096 classic games, random legal
ids from numpy) and classic random self-play games/s (``fastdou.simulate``), each on 1 and 2
threads, with the machine as it is ("idle") and with one other CPU-bound process spinning
("busy"). Short slices of all eight in turn, round after round, so that the shared machine's
changing load falls alike on each; a rate is its slices' work over their time.

    python -m pytest benchmarks/test_bench_threads.py [--quick] -s -p no:cacheprovider
"""

import contextlib
import os
import subprocess
import sys
import time
from collections import Counter

import numba
import numpy as np
import pytest

import fastdou
from benchmarks.test_bench_vector import vector_steps

TARGETS = {"idle": 1.8, "busy": 1.0}     # 2 threads over 1 thread
# Gated: what a noisy shared 2-core machine keeps (busy, under other jobs' load: VectorEnv
# 0.79-1.07 and simulate 0.86-1.02 with idle threads passive; VectorEnv 0.15-0.44 spinning).
GATES = {"busy": 0.7}
# The other job: spins after an "s" on its stdin until the next byte, rests after any other,
# and answers each byte with a line once it has switched, so that an "idle" slice never starts
# while it still spins; its stdin's end (the benchmark gone, however it ended) ends it. It
# runs in a session of its own, as another job does: Linux's autogroup shares the cores
# between sessions first.
SPIN = """import os, select
print(flush=True)
while (command := os.read(0, 1)):
    print(flush=True)
    while command == b"s" and not select.select([0], [], [], 0)[0]:
        for _ in range(10_000):
            pass
"""


@contextlib.contextmanager
def other_job():
    """One other CPU-bound process, always killed after the block; yields ``load(name)``,
    which sets it spinning ("busy") or resting ("idle")."""
    job = subprocess.Popen([sys.executable, "-c", SPIN], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, start_new_session=True)

    def load(name):
        job.stdin.write(b"s" if name == "busy" else b"r")
        job.stdin.flush()
        job.stdout.readline()           # switched
    try:
        job.stdout.readline()           # started
        yield load
    finally:
        job.kill()
        job.wait()
        job.stdin.close()
        job.stdout.close()


def in_turn(quick):
    """Rates per second by (load, what, threads), each over all its slices."""
    num_envs, steps, deals, rounds = 4096, 10, 10_000, 20 if quick else 80
    envs = {}
    for t in (1, 2):
        env = fastdou.VectorEnv("classic", num_envs, seed=0, start="play", threads=t)
        env.reset()
        envs[t] = env, np.random.default_rng(0)
        vector_steps(env, 3, envs[t][1])
        fastdou.simulate(100, threads=t)
    work = {"VectorEnv": lambda t: vector_steps(envs[t][0], steps, envs[t][1]),
            "simulate": lambda t: fastdou.simulate(deals, threads=t).summary.deals}
    done, seconds = Counter(), Counter()
    with other_job() as load_to:
        for r in range(rounds):
            for load in ("idle", "busy"):
                load_to(load)
                for what, fn in work.items():
                    for t in (1, 2) if r % 2 == 0 else (2, 1):
                        start = time.perf_counter()
                        done[load, what, t] += fn(t)
                        seconds[load, what, t] += time.perf_counter() - start
    return {key: done[key] / seconds[key] for key in done}


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 Numba threads")
def test_two_threads_against_one(benchmark, quick):
    """Targets, printed met or not: 2 threads / 1 thread at least 1.0 with one other
    CPU-bound job running, at least 1.8 on the machine as it is. Gate: the busy ratios at
    least ``GATES["busy"]``, far above what spinning idle threads give; the idle ratio moves
    with the shared machine's other load, so it is not gated. The timed call is the whole
    measurement; its figures are in extra_info."""
    rates = benchmark.pedantic(in_turn, (quick,), rounds=1, iterations=1)
    policy = os.environ.get("OMP_WAIT_POLICY", "unset")
    print(f"\n2 threads over 1, slices in turn; busy: one other process spinning "
          f"(threading layer {numba.threading_layer()}, OMP_WAIT_POLICY {policy}):")
    ratios = {}
    for what, unit in (("VectorEnv", "env steps/s, 4,096 games"),
                       ("simulate", "games/s, random self-play")):
        for load in ("idle", "busy"):
            one, two = rates[load, what, 1], rates[load, what, 2]
            ratio = ratios[what, load] = two / one
            met = "met" if ratio >= TARGETS[load] else "not met"
            print(f"  {what} {load}: {one:,.0f} on 1 thread, {two:,.0f} on 2 ({unit}): "
                  f"{ratio:.2f}x (target {TARGETS[load]}x {met})")
            key = f"{what.lower()}_{load}"
            benchmark.extra_info.update({f"{key}_1_thread": one, f"{key}_2_threads": two,
                                         f"{key}_ratio": ratio})
    benchmark.extra_info["omp_wait_policy"] = policy
    for (what, load), ratio in ratios.items():
        if load in GATES:
            assert ratio >= GATES[load], f"{what} {load}: 2 threads {ratio:.2f}x one thread"
