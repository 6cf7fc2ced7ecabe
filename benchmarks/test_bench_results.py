"""Per-deal results and Dask runs: writing parquet against the simulation that produces it,
the file's size per deal, a 2-worker LocalCluster against the local two-thread rate, and
the cost of one Dask chunk. Gates are same-run ratios and an exact size counter."""

import os

import numba
import pytest

import fastdou
from benchmarks.loops import best_time
from fastdou.sim.results import FORMATS, ResultWriter, metadata
from benchmarks.loops import best_times


def collect(deals):
    chunks = []
    fastdou.simulate(deals, seed=0, on_chunk=chunks.append)
    return chunks


def write_all(path, chunks, rules, deals):
    w = ResultWriter(path, rules, metadata(rules, 0, ("random",) * 3, 0, deals))
    for c in chunks:
        w.write(c)
    w.close()
    return os.path.getsize(path)


def test_writing_parquet_costs_under_a_fifth_of_the_simulation(tmp_path, quick):
    """Gates: writing 1M classic deals (200k quick) to parquet takes at most 20% of
    simulating them on the machine's threads; the file holds at most 24 bytes a deal."""
    deals = 200_000 if quick else 1_000_000
    rules = fastdou.rules("classic")
    fastdou.simulate(1000)
    chunks = collect(deals)
    times, sizes = {}, {}
    for suffix in () if quick else [s for s in FORMATS if s != ".parquet"]:
        path = str(tmp_path / f"run{suffix}")
        times[suffix], sizes[suffix] = best_time(write_all, path, chunks, rules, deals,
                                                 repeat=1)
    # the simulation and the parquet writer timed in turn: this project's shared host drifts
    parquet = str(tmp_path / "run.parquet")
    t = best_times({"sim": lambda: fastdou.simulate(deals, seed=0),
                    ".parquet": lambda: write_all(parquet, chunks, rules, deals)}, repeat=3)
    sim, times[".parquet"], sizes[".parquet"] = t["sim"], t[".parquet"], os.path.getsize(parquet)
    threads = numba.get_num_threads()
    print(f"\nsimulating {deals:,} classic deals on {threads} threads: {sim:.2f} s")
    for suffix in times:
        print(f"writing {suffix}: {times[suffix]:.2f} s ({times[suffix] / sim:.0%} of the "
              f"simulation), {sizes[suffix] / deals:.1f} bytes a deal")
    assert times[".parquet"] / sim <= 0.20
    assert sizes[".parquet"] / deals <= 24


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as c:
        yield c


def test_dask_two_workers_against_two_local_threads(client, quick):
    """Gate: a 2-worker LocalCluster (1 Numba thread each) reaches 80% of the local
    two-thread rate on 4M classic deals (quick: 60% on 1M), chunks of 250k deals."""
    deals = 1_000_000 if quick else 4_000_000
    chunk = 250_000
    fastdou.simulate(1000, threads=2)
    fastdou.simulate(10_000, client=client, chunk=5_000)            # workers warm
    local = dask = float("inf")
    for _ in range(2 if quick else 3):          # interleaved: load changes hit both alike
        t, expected = best_time(lambda: fastdou.simulate(deals, threads=2), repeat=1)
        local = min(local, t)
        t, result = best_time(lambda: fastdou.simulate(deals, client=client, chunk=chunk),
                              repeat=1)
        dask = min(dask, t)
    assert result.summary == expected.summary
    ratio = local / dask
    print(f"\n{deals:,} deals: local 2 threads {deals / local:,.0f} deals/s, 2-worker "
          f"LocalCluster {deals / dask:,.0f} deals/s ({ratio:.0%})")
    # Quick mode runs only four chunks, two a worker, so one slow task start weighs a
    # quarter of the run (measured 78% once on a loaded machine, 101-103% otherwise): its
    # gate only says Dask is not broken; the 80% target is gated in full mode (4M deals).
    assert ratio >= (0.60 if quick else 0.80)


def test_dask_cost_per_chunk(client, quick):
    """The cost of one chunk: the same 100k deals in 200 chunks against 4 (no gate)."""
    deals = 100_000
    few, _ = best_time(lambda: fastdou.simulate(deals, client=client, chunk=deals // 4),
                       repeat=3)
    many, _ = best_time(lambda: fastdou.simulate(deals, client=client, chunk=deals // 200),
                        repeat=3)
    per_chunk = (many - few) / (200 - 4)
    print(f"\nDask overhead: {per_chunk * 1e3:.1f} ms a chunk (100k deals: {few:.2f} s in 4 "
          f"chunks, {many:.2f} s in 200)")
