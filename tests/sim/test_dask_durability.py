"""A Dask run refused for an existing dataset of another run starts no task and leaves the
dataset exactly as it was; a dataset with parts missing is refused when read, and
the run that made it completes it."""

import os
import time

import pytest

import fastdou
from fastdou.sim.distributed import part_name

distributed = pytest.importorskip("distributed")
pytest.importorskip("pyarrow")
from tests.sim.test_dask import client  # noqa: F401 (the module's LocalCluster fixture)


def listing(out):
    return {f: os.stat(os.path.join(out, f)).st_mtime_ns for f in os.listdir(out)}


def test_a_refused_run_leaves_the_dataset_as_it_was(client, tmp_path):
    out = str(tmp_path / "ds")
    fastdou.simulate(120_000, seed=9, client=client, chunk=10_000, out=out)
    for a in (10_000, 50_000, 90_000):                     # three parts deleted
        os.remove(os.path.join(out, part_name(a, 10_000)))
    before = listing(out)
    with pytest.raises(fastdou.ArgumentError, match="another run"):
        fastdou.simulate(120_000, seed=10, client=client, chunk=10_000, out=out)
    time.sleep(3)                                          # no worker goes on writing
    assert listing(out) == before
    with pytest.raises(fastdou.RecordError, match="missing"):
        fastdou.load_results(out)                          # incomplete: refused, not seed 9
    got = fastdou.simulate(120_000, seed=9, client=client, chunk=10_000, out=out)
    back = fastdou.load_results(out)
    assert back.seed == 9 and back.summary.to_dict() == got.summary.to_dict()
    assert back.summary.to_dict() == fastdou.simulate(120_000, seed=9).summary.to_dict()


def test_a_damaged_part_refuses_the_run_before_any_task(client, tmp_path):
    out = str(tmp_path / "ds")
    fastdou.simulate(30_000, seed=1, client=client, chunk=10_000, out=out)
    os.remove(os.path.join(out, part_name(0, 10_000)))
    with open(os.path.join(out, part_name(20_000, 10_000)), "r+b") as f:
        f.truncate(100)
    before = listing(out)
    with pytest.raises(fastdou.ArgumentError, match="not a readable part"):
        fastdou.simulate(30_000, seed=1, client=client, chunk=10_000, out=out)
    time.sleep(1)
    assert listing(out) == before


def test_a_failed_run_stops_its_running_tasks_and_declares_nothing(client, tmp_path):
    """The run fails (here: its progress callback raises) while both workers are inside a
    chunk: neither writes its part afterwards, and the folder is no finished dataset."""
    out = str(tmp_path / "ds")

    def fail(done):
        raise RuntimeError("the caller gives up")

    with pytest.raises(RuntimeError, match="gives up"):
        fastdou.simulate(3_000_000, seed=4, client=client, chunk=500_000, out=out,
                         progress=fail)
    parts = {f: t for f, t in listing(out).items() if f.startswith("part-")}
    # the part whose end called progress, and at most the other worker's, if its chunk
    # ended in the few milliseconds before the failure reached it
    assert 1 <= len(parts) <= 2
    time.sleep(8)                              # longer than a 500k chunk takes
    assert listing(out) == parts               # no part after, no temporary file left
    with pytest.raises(fastdou.RecordError, match="not a finished dataset"):
        fastdou.load_results(out)
    got = fastdou.simulate(3_000_000, seed=4, client=client, chunk=500_000, out=out)
    assert fastdou.load_results(out).summary.to_dict() == got.summary.to_dict()
    assert "_dataset.json" in os.listdir(out)
