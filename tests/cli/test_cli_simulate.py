"""``fastdou simulate``: summary, JSON, per-deal files written atomically, bad arguments,
and Ctrl-C."""

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import fastdou
from fastdou.cli import main


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_summary_matches_the_api(capsys):
    status, out, err = run(capsys, "simulate", "--deals", "2k", "--seed", "3", "--json")
    assert status == 0
    summary = json.loads(out)["summary"]
    expected = fastdou.simulate(2000, seed=3).summary
    assert summary["deals"] == 2000
    assert summary["landlord_wins"] == expected.landlord_wins
    assert summary["plays"] == pytest.approx(expected.plays)


def test_readable_summary(capsys):
    status, out, _ = run(capsys, "simulate", "--deals", "500", "--rules", "jinling",
                         "--policy", "greedy,random,random")
    assert status == 0
    assert out.splitlines()[0] == "jinling (standard), policies greedy,random,random, seed 0"
    assert "landlord wins" in out and "95% CI" in out


@pytest.mark.parametrize("suffix", [".npz", ".jsonl", ".csv", ".parquet"])
def test_out_files_hold_every_deal(capsys, tmp_path, suffix):
    path = tmp_path / f"run{suffix}"
    status, _, _ = run(capsys, "simulate", "--deals", "1500", "--rules", "four_player",
                       "--seed", "5", "--out", str(path))
    assert status == 0
    expected = fastdou.simulate(1500, "four_player", seed=5, per_deal=True).per_deal
    data = fastdou.load_results(str(path)).per_deal
    assert np.array_equal(data["deal"], np.arange(1500))
    assert data.keys() == expected.keys()
    for name, values in expected.items():
        assert np.array_equal(data[name], values), name
    assert sorted(os.listdir(tmp_path)) == [path.name]       # no temporary file left


@pytest.mark.parametrize("argv,message", [
    (["--deals", "0"], "whole number 1.."),
    (["--deals", "inf"], "not a number"),
    (["--deals", "1e400"], "whole number 1.."),
    (["--deals", "9223372036854775808"], "whole number 1.."),
    (["--threads", "1.5"], "invalid int"),
    (["--policy", "random,,greedy"], "empty policy"),
    (["--out", "."], "folder"),
    (["--deals", "ten"], "not a number"),
    (["--deals", "1.5"], "whole"),
    (["--rules", "nine_player"], "unknown preset"),
    (["--policy", "clever"], "unknown policy"),
    (["--policy", "random,random"], "2 policies for 3 seats"),
    (["--threads", "0"], "threads"),
    (["--seed", "-1"], "seed"),
    (["--out", "results.txt"], ".parquet, .csv, .jsonl, .npz"),
    (["--out", "/no/such/folder/x.npz"], "does not exist"),
])
def test_bad_arguments_are_one_line(capsys, argv, message):
    status, out, err = run(capsys, "simulate", "--deals", "10", *argv)
    assert status == 2 and out == ""
    assert err.startswith("fastdou: error:") and err.count("\n") == 1
    assert message in err


@pytest.mark.parametrize("sig,status,message", [
    (signal.SIGINT, 130, "fastdou: interrupted"),
    (signal.SIGTERM, 143, "fastdou: terminated"),
])
@pytest.mark.parametrize("suffix", [".npz", ".jsonl", ".parquet"])
def test_signals_stop_with_a_message_and_no_file(tmp_path, sig, status, message, suffix):
    """SIGINT or SIGTERM during a long run: its exit status, one line, and no --out file,
    finished or not."""
    path = tmp_path / f"big{suffix}"
    proc = subprocess.Popen([sys.executable, "-m", "fastdou", "simulate", "--deals",
                             "100M", "--out", str(path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while not os.listdir(tmp_path) and time.time() < deadline:   # the run has started
        time.sleep(0.05)
    time.sleep(1.0)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == status
    assert err.strip() == message
    assert os.listdir(tmp_path) == []


def test_out_streams_in_bounded_memory(tmp_path):
    """The .npz writer spools each field to disk: the peak memory of a run of 600k deals
    is within that of a run of 150k deals plus a margin far below the data's own size."""
    script = ("import resource, sys; from fastdou.cli import main; "
              "main(['simulate', '--deals', sys.argv[1], '--out', sys.argv[2]]); "
              "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    peaks = []
    for deals in ("150k", "600k"):
        proc = subprocess.run([sys.executable, "-c", script, deals,
                               str(tmp_path / f"run{deals}.npz")],
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr
        peaks.append(int(proc.stdout.split()[-1]) * 1024)
    data_growth = 450_000 * (18 + 1 + 3) * 8                 # bytes the extra deals hold
    assert peaks[1] - peaks[0] < data_growth / 4, peaks
    with np.load(tmp_path / "run600k.npz") as data:
        assert data["deal"].shape == (600_000,) and data["score_2"].shape == (600_000,)
