"""Classic move generation: leading 20-card and 17-card hands, 17-card responses, batches
on 1 and 2 threads. Gates: exact work counters and ratios measured in this run, never
stored times."""

import numba
import numpy as np
import pytest

import fastdou
from benchmarks.loops import (
    best_time, copy_all, count_lead_all, lead_all, on_threads, report, respond_all,
)
from fastdou import kernels as K
from fastdou.rules import rules_array
from tests.shared.corpus import lead_hands, response_positions

RULES = rules_array(fastdou.rules("classic"))
OUT = K.new_moves(1 << 16)

# Exact number of moves over each seeded corpus (seed 0): a change here is a change of the
# generator's output, not of its speed.
GOLDEN = {("lead20", 20_000): 1_604_151, ("lead20", 200_000): 15_999_750,
          ("lead17", 20_000): 885_973, ("lead17", 200_000): 8_880_069,
          ("respond17", 50_000): 124_339, ("respond17", 500_000): 1_243_675}


@pytest.fixture(scope="module")
def sizes(quick):
    return {"lead": 20_000 if quick else 200_000, "respond": 50_000 if quick else 500_000}


@pytest.fixture(scope="module")
def leads(sizes):
    return lead_hands(sizes["lead"], 20)


@pytest.fixture(scope="module")
def farmer_leads(sizes):
    return lead_hands(sizes["lead"], 17)


@pytest.fixture(scope="module")
def positions(sizes):
    return response_positions(sizes["respond"])


def check_golden(key, total):
    assert total == GOLDEN[key], f"{key}: {total} moves, golden {GOLDEN[key]}"


def test_lead_20(benchmark, leads):
    lead_all(leads[:10], RULES, OUT)
    total = benchmark.pedantic(lead_all, (leads, RULES, OUT), rounds=5, warmup_rounds=1)
    check_golden(("lead20", len(leads)), total)
    report(benchmark, len(leads), total)


def test_lead_17(benchmark, farmer_leads):
    total = benchmark.pedantic(lead_all, (farmer_leads, RULES, OUT), rounds=5,
                               warmup_rounds=1)
    check_golden(("lead17", len(farmer_leads)), total)
    report(benchmark, len(farmer_leads), total)


def test_count_lead_20(benchmark, leads):
    count_lead_all(leads[:10], RULES)
    total = benchmark.pedantic(count_lead_all, (leads, RULES), rounds=5, warmup_rounds=1)
    assert total == lead_all(leads, RULES, OUT)
    report(benchmark, len(leads), total)


def test_respond_17(benchmark, positions):
    hands, lasts = positions
    respond_all(hands[:10], lasts[:10], RULES, OUT)
    total = benchmark.pedantic(respond_all, (hands, lasts, RULES, OUT), rounds=5,
                               warmup_rounds=1)
    check_golden(("respond17", len(hands)), total)
    report(benchmark, len(hands), total, item="positions")


def test_generation_over_copy_ratio(leads):
    """Gate: finding the moves costs at most 25x writing them (a same-run ratio)."""
    moves, offsets = K.generate_batch(leads, np.zeros((len(leads), 2), np.uint64), RULES)
    copy_all(moves[:10], offsets[:2], OUT)
    t_gen, total = best_time(lead_all, leads, RULES, OUT)
    t_copy, copied = best_time(copy_all, moves, offsets, OUT)
    assert total == copied
    ratio = t_gen / t_copy
    print(f"\ngeneration / copy time: {ratio:.1f}")
    assert ratio < 25


def test_batch_two_threads(benchmark, quick):
    """``kernels.generate_batch`` (a fresh output) on 2 threads: the headline rate, and the same
    records as on one thread. Its ratio to one thread is gated, against what the machine's two
    threads give, in ``test_bench_generation.test_batch_two_threads_against_one``. The corpus
    stays large in quick mode, so that thread start-up does not dominate."""
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("one thread only")
    leads = lead_hands(200_000, 20)
    lasts = np.zeros((len(leads), 2), np.uint64)
    moves, offsets = on_threads(1, K.generate_batch, leads, lasts, RULES)()
    two = on_threads(2, K.generate_batch, leads, lasts, RULES)
    benchmark.pedantic(two, rounds=5, warmup_rounds=1)
    report(benchmark, len(leads), len(moves))
    got, got_offsets = two()
    assert (got == moves).all() and (got_offsets == offsets).all()
