"""Simulation on a Dask LocalCluster (processes, 2 workers): deal for deal the local run,
whatever the chunking; a worker killed mid-run changes nothing; an interrupted dataset is
completed by a rerun that skips the chunks already written."""

import json
import os
import signal

import numpy as np
import pytest

import fastdou
from fastdou.cli import main
from fastdou.sim.distributed import part_name

distributed = pytest.importorskip("distributed")
pytest.importorskip("pyarrow")

POLICIES = ["greedy", "random", "random"]


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as c:
        yield c


def same(a, b):
    assert a.keys() == b.keys()
    for k in a:
        assert np.array_equal(a[k], b[k]), k


@pytest.fixture(scope="module")
def local():
    return fastdou.simulate(60_000, "classic", POLICIES, seed=5, per_deal=True)


@pytest.mark.parametrize("chunk", [60_000, 7_777, 20_000])
def test_equals_the_local_run_deal_for_deal(client, local, chunk):
    got = fastdou.simulate(60_000, "classic", POLICIES, seed=5, client=client, chunk=chunk,
                           per_deal=True)
    same(got.per_deal, local.per_deal)
    assert got.summary == local.summary


def test_a_user_policy_by_import_path_and_other_presets(client):
    policies = ["tests.shared.policies:last_listed", "random", "random", "random"]
    local = fastdou.simulate(3000, "four_player", policies, seed=1, per_deal=True)
    got = fastdou.simulate(3000, "four_player", policies, seed=1, client=client, chunk=1000,
                           per_deal=True)
    same(got.per_deal, local.per_deal)
    with pytest.raises(fastdou.PolicyError, match="importable"):
        from numba import njit

        @njit
        def local_only(state, actions, n, rng):
            return 0, rng
        fastdou.simulate(10, "classic", local_only, client=client)


def test_wild_cards_on_the_workers(client, tmp_path):
    """laizi on the workers: the wild ranks drawn deal for deal as locally, and in the
    workers' dataset."""
    local = fastdou.simulate(2000, "laizi", "greedy", seed=3, per_deal=True)
    got = fastdou.simulate(2000, "laizi", "greedy", seed=3, client=client, chunk=700,
                           per_deal=True)
    same(got.per_deal, local.per_deal)
    assert local.per_deal["wilds"].any()
    out = tmp_path / "laizi"
    fastdou.simulate(2000, "laizi", "greedy", seed=3, client=client, chunk=700, out=str(out))
    back = fastdou.load_results(str(out)).per_deal
    assert (back["wilds"] == local.per_deal["wilds"]).all()


def test_dataset_written_by_the_workers(client, local, tmp_path):
    out = tmp_path / "ds"
    got = fastdou.simulate(60_000, "classic", POLICIES, seed=5, client=client, chunk=25_000,
                           out=str(out))
    assert got.summary == local.summary
    assert sorted(os.listdir(out)) == ["_dataset.json", part_name(0, 25_000),
                                       part_name(25_000, 25_000), part_name(50_000, 10_000)]
    back = fastdou.load_results(str(out))
    same(back.per_deal, local.per_deal)
    assert back.summary == local.summary and back.rules == fastdou.rules("classic")
    pandas = pytest.importorskip("pandas")
    assert len(pandas.read_parquet(str(out))) == 60_000           # beside _dataset.json


def test_a_killed_worker_changes_nothing(client, local, tmp_path):
    pids = list(client.run(os.getpid).values())
    killed = []

    def kill_one(done):
        if not killed:
            os.kill(pids[0], signal.SIGKILL)
            killed.append(done)

    got = fastdou.simulate(60_000, "classic", POLICIES, seed=5, client=client, chunk=4_000,
                           out=str(tmp_path / "ds"), progress=kill_one)
    assert killed and killed[0] < 60_000                    # killed mid-run
    assert got.summary == local.summary
    same(fastdou.load_results(str(tmp_path / "ds")).per_deal, local.per_deal)
    assert not [f for f in os.listdir(tmp_path / "ds") if f.startswith(".fastdou-")]
    client.wait_for_workers(2, timeout=60)


def test_an_interrupted_dataset_is_completed_by_a_rerun(client, local, tmp_path):
    out = str(tmp_path / "ds")

    def stop(done):
        if done >= 8_000:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        fastdou.simulate(60_000, "classic", POLICIES, seed=5, client=client, chunk=4_000,
                         out=out, progress=stop)
    client.cancel(list(client.futures.values()), force=True)
    parts = {f: os.stat(os.path.join(out, f)).st_mtime_ns for f in os.listdir(out)
             if f.startswith("part-")}
    assert 2 <= len(parts) < 15 and "_dataset.json" not in os.listdir(out)
    with pytest.raises(fastdou.RecordError, match="not a finished dataset"):
        fastdou.load_results(out)
    got = fastdou.simulate(60_000, "classic", POLICIES, seed=5, client=client, chunk=4_000,
                           out=out)
    assert got.summary == local.summary
    names = sorted(f for f in os.listdir(out) if f.startswith("part-"))
    assert len(names) == 15
    for f, mtime in parts.items():                           # skipped, not rewritten
        assert os.stat(os.path.join(out, f)).st_mtime_ns == mtime
    same(fastdou.load_results(out).per_deal, local.per_deal)
    with pytest.raises(fastdou.ArgumentError, match="another run or chunking"):
        fastdou.simulate(60_000, "classic", POLICIES, seed=5, client=client, chunk=5_000,
                         out=out)
    with pytest.raises(fastdou.ArgumentError, match="another run"):
        fastdou.simulate(60_000, "classic", POLICIES, seed=6, client=client, chunk=4_000,
                         out=out)


def test_command_line_on_local_workers(tmp_path, capsys):
    out = tmp_path / "ds"
    status = main(["simulate", "--deals", "30k", "--workers", "2", "--chunk", "10k",
                   "--seed", "2", "--out", str(out), "--json"])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    summary = json.loads(captured.out)["summary"]
    assert summary == fastdou.simulate(30_000, seed=2).summary.to_dict()
    assert sorted(os.listdir(out))[0] == "_dataset.json" and len(os.listdir(out)) == 4
    status = main(["simulate", "--deals", "10", "--workers", "2"])
    err = capsys.readouterr().err
    assert status == 2 and "need --out" in err and err.count("\n") == 1


def test_sigterm_stops_a_local_cluster_run_and_leaves_only_complete_parts(tmp_path):
    import subprocess
    import sys
    import time
    out = tmp_path / "ds"
    proc = subprocess.Popen([sys.executable, "-m", "fastdou", "simulate", "--deals", "50M",
                             "--workers", "2", "--chunk", "200k", "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while time.time() < deadline and not (out.exists() and [
            f for f in os.listdir(out) if f.startswith("part-")]):
        time.sleep(0.1)
    proc.send_signal(signal.SIGTERM)
    stdout, err = proc.communicate(timeout=120)
    assert proc.returncode == 143 and err == "fastdou: terminated\n" and stdout == ""
    names = os.listdir(out)
    assert names and all(f.startswith("part-") for f in names)     # no temporary file
    with pytest.raises(fastdou.RecordError, match="not a finished dataset"):
        fastdou.load_results(str(out))
    for f in names:                                                  # each part complete
        first = int(f.split("-")[1])
        back = fastdou.load_results(str(out / f))
        assert np.array_equal(back.per_deal["deal"], np.arange(first, first + 200_000))
