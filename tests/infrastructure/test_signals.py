"""Ctrl-C and SIGTERM stop ``fastdou`` at any moment (importing, loading the cache,
compiling, simulating) within a second, with status 130 / 143 and one line, also when a
second signal follows; no temporary file is left. Each run is a subprocess on a private
copy of a warm cache."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from tests.infrastructure.test_cache_damage import cache_env, private_copy, warm_cache  # noqa: F401 (fixture)

LINES = {signal.SIGINT: (130, "fastdou: interrupted"),
         signal.SIGTERM: (143, "fastdou: terminated")}
LONG_RUN = ["-m", "fastdou", "simulate", "--deals", "5M", "--seed", "1"]


def start(env, *argv):
    return subprocess.Popen([sys.executable, *argv], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def stopped_within(proc, seconds):
    """Wait for ``proc``; returns (stdout, stderr, whether it ended within ``seconds``)."""
    start_time = time.monotonic()
    out, err = proc.communicate(timeout=120)
    return out, err, time.monotonic() - start_time < seconds


def children(pid):
    """The process ids whose parent is ``pid``."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    fields = f.read().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(name))
    return found


def running(pid):
    """Whether process ``pid`` exists and is no zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
@pytest.mark.parametrize("delay", [0.2, 0.45, 0.6, 0.75, 0.9, 1.5])
def test_one_signal_at_any_moment(warm_cache, tmp_path, sig, delay):  # noqa: F811
    """From the imports through the cache loads into the run: the status and one line."""
    env = cache_env(private_copy(warm_cache, tmp_path))
    out_file = tmp_path / "out" / "deals.npz"
    out_file.parent.mkdir()
    proc = start(env, *LONG_RUN, "--out", str(out_file))
    time.sleep(delay)
    proc.send_signal(sig)
    out, err, quick = stopped_within(proc, 2.0)
    assert (proc.returncode, err.strip()) == LINES[sig]
    assert quick and out == ""
    assert os.listdir(out_file.parent) == []


@pytest.mark.parametrize("first,second", [
    (signal.SIGINT, signal.SIGTERM), (signal.SIGTERM, signal.SIGTERM),
    (signal.SIGINT, signal.SIGINT), (signal.SIGTERM, signal.SIGINT)],
    ids=["INT-TERM", "TERM-TERM", "INT-INT", "TERM-INT"])
@pytest.mark.parametrize("delay", [0.3, 0.8, 1.5])
def test_a_second_signal_changes_nothing(warm_cache, tmp_path, first, second,  # noqa: F811
                                         delay):
    """Two signals 1.5 ms apart: one signal's status and line, nothing else (the first's, but
    on a loaded machine the kernel may run the second's handler first, in another thread)."""
    env = cache_env(private_copy(warm_cache, tmp_path))
    proc = start(env, *LONG_RUN)
    time.sleep(delay)
    proc.send_signal(first)
    time.sleep(0.0015)
    proc.send_signal(second)
    out, err, quick = stopped_within(proc, 2.0)
    assert (proc.returncode, err.strip()) in (LINES[first], LINES[second])
    assert quick and out == ""


@pytest.mark.parametrize("sig,helper", [(signal.SIGTERM, "0"), (signal.SIGINT, "1")],
                         ids=["TERM", "INT-with-helper"])
def test_a_signal_stops_a_first_compile(tmp_path, sig, helper):
    """On an empty cache, a signal in the middle of compiling stops the run within a
    second: no --out file, no temporary file in the cache, no compile helper left."""
    cache = tmp_path / "cache"
    cache.mkdir()
    out_file = tmp_path / "out" / "deals.parquet"
    out_file.parent.mkdir()
    env = cache_env(cache, FASTDOU_COMPILE_HELPER=helper)
    proc = start(env, *LONG_RUN, "--out", str(out_file))
    notice = proc.stderr.readline()
    assert "compiling" in notice
    time.sleep(2.0)                                 # well into the compile
    assert proc.poll() is None
    helpers = children(proc.pid)
    assert len(helpers) == int(helper)
    proc.send_signal(sig)
    out, err, quick = stopped_within(proc, 2.0)
    assert (proc.returncode, err.strip()) == LINES[sig]
    assert quick and out == ""
    assert os.listdir(out_file.parent) == []
    time.sleep(0.2)
    assert not [p for p in helpers if running(p)]
    left = [name for _, _, files in os.walk(cache) for name in files if ".tmp." in name]
    assert left == []


@pytest.mark.parametrize("sig,helper", [(signal.SIGTERM, "0"), (signal.SIGINT, "1")],
                         ids=["TERM", "INT-with-helper"])
@pytest.mark.parametrize("delay", [0.6, 1.0, 2.0, 3.5, 5.0, 6.5, 8.0, 9.5])
def test_a_signal_at_any_moment_of_a_first_compile(tmp_path, sig, helper, delay):
    """On an empty cache, from the imports through the compile: the status and one line,
    quickly (before the guard, some of these moments were swallowed until the compile ended,
    killed the process by the signal itself or ended in a RuntimeError from Numba)."""
    cache = tmp_path / "cache"
    cache.mkdir()
    out_file = tmp_path / "out" / "deals.npz"
    out_file.parent.mkdir()
    proc = start(cache_env(cache, FASTDOU_COMPILE_HELPER=helper), *LONG_RUN,
                 "--out", str(out_file))
    time.sleep(delay)
    proc.send_signal(sig)
    out, err, quick = stopped_within(proc, 2.0)
    assert (proc.returncode, err.strip().splitlines()[-1:]) == (LINES[sig][0],
                                                                [LINES[sig][1]])
    assert "Traceback" not in err and "Error" not in err
    assert quick and out == ""
    assert os.listdir(out_file.parent) == []


# Hooks that send the signal at one moment of writing ``fastdou evaluate --out``'s file
EVALUATE_MOMENTS = {
    "created": """
        real_mkstemp, real_fchmod = tempfile.mkstemp, os.fchmod
        def mkstemp(*a, **k):
            made = real_mkstemp(*a, **k)
            if k.get("prefix") == ".fastdou-":
                os.kill(os.getpid(), SIG)
                time.sleep(1)          # before its cleanup is registered: the signal waits
            return made
        def fchmod(*a):
            time.sleep(2)              # the next step: the signal ends the process meanwhile
            real_fchmod(*a)
        tempfile.mkstemp, os.fchmod = mkstemp, fchmod
    """,
    "half-written": """
        def dump(obj, f, **k):
            if isinstance(obj, dict) and "overall" in obj:
                f.write(json.dumps(obj, **k)[:40])
                f.flush()
                stop()
            real_dump(obj, f, **k)
        real_dump, json.dump = json.dump, dump
    """,
    "written": """
        real_replace = os.replace
        def replace(src, dst, *a, **k):
            if os.path.basename(src).startswith(".fastdou-"):
                stop()
            return real_replace(src, dst, *a, **k)
        os.replace = replace
    """,
}


@pytest.mark.parametrize("moment,sig", [("created", signal.SIGTERM),
                                        ("half-written", signal.SIGINT),
                                        ("written", signal.SIGTERM)],
                         ids=["created-TERM", "half-written-INT", "written-TERM"])
def test_a_signal_while_evaluate_writes_out_leaves_no_file(warm_cache, tmp_path,  # noqa: F811
                                                           moment, sig):
    """``fastdou evaluate --out``: a signal right after the temporary file is made, half-way
    through the JSON, or before the rename: the status and one line, and no file at all."""
    env = cache_env(private_copy(warm_cache, tmp_path))
    out_file = tmp_path / "out" / "figures.json"
    out_file.parent.mkdir()
    argv = ["evaluate", "greedy", "random", "--deals", "200", "--out", str(out_file)]
    code = textwrap.dedent(f"""
        import json, os, sys, tempfile, time
        SIG = {int(sig)}
        def stop():
            os.kill(os.getpid(), SIG)
            time.sleep(2)              # the signal ends the process meanwhile
    """) + textwrap.dedent(EVALUATE_MOMENTS[moment]) + textwrap.dedent(f"""
        from fastdou.cli import main
        sys.exit(main({argv!r}))
    """)
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=300)
    assert (proc.returncode, proc.stderr.strip().splitlines()[-1:]) == (LINES[sig][0],
                                                                       [LINES[sig][1]])
    assert proc.stdout == ""
    assert os.listdir(out_file.parent) == []
