"""Benchmark options: ``--quick`` runs small corpora (CI); the default sizes give the README's
figures. Run with ``python -m pytest benchmarks [--quick]``."""

import time

import pytest


def pytest_addoption(parser):
    parser.addoption("--quick", action="store_true", help="small corpora, for CI")


@pytest.fixture(scope="session")
def quick(request):
    return request.config.getoption("--quick")


def best_time(fn, *args, repeat=5):
    """The fastest of ``repeat`` runs of ``fn(*args)`` in seconds, and its result."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn(*args)
        best = min(best, time.perf_counter() - start)
    return best, result


def report(benchmark, n_items, n_moves, item="hands"):
    """Record throughput from the benchmark's fastest round in ``extra_info`` and print it."""
    t = benchmark.stats.stats.min
    info = {f"{item}_per_s": n_items / t, "moves_per_s": n_moves / t,
            "moves_per_item": n_moves / n_items}
    benchmark.extra_info.update(info)
    print(f"\n{benchmark.name}: {n_items / t / 1e6:.2f} M {item}/s, "
          f"{n_moves / t / 1e6:.1f} M moves/s, {n_moves / n_items:.1f} moves per {item[:-1]}")
    return info
