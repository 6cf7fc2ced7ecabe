"""Every entry point that compiles says so on stderr on an empty cache, once per burst of
compiles, in user terms, and how long it took; loading from the cache prints nothing.

Three cold subprocesses (each compiles for tens of seconds), each run again on its own
cache, then unit tests of the listener with stand-in compile events."""

import os
import re
import subprocess
import sys
import threading
import types

import pytest

from fastdou.compiling import compile_notice as CN

TAIL = " kernels (first use on this machine or after an upgrade; cached afterwards)..."
DONE = re.compile(r"^fastdou: compiled in \d+\.\d s$")


def cold_env(cache):
    env = {k: v for k, v in os.environ.items() if k != "FASTDOU_QUIET"}
    return dict(env, NUMBA_CACHE_DIR=str(cache), FASTDOU_COMPILE_HELPER="0")


def twice(argv, cache):
    """``argv`` run on an empty cache ``cache``, then again on it: both results."""
    runs = [subprocess.run(argv, capture_output=True, text=True, timeout=1500,
                           env=cold_env(cache)) for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr[-3000:]
    return runs


def pairs(stderr):
    """The stderr of a cold run as (what, seconds line) pairs; fails on any other line."""
    lines = stderr.splitlines()
    assert len(lines) % 2 == 0, lines
    out = []
    for start, end in zip(lines[::2], lines[1::2]):
        assert start.startswith("fastdou: compiling ") and start.endswith(TAIL), lines
        assert DONE.match(end), lines
        out.append(start[len("fastdou: compiling "):-len(TAIL)])
    return out


def test_solve_command_says_once_what_it_compiles(tmp_path):
    cold, warm = twice([sys.executable, "-m", "fastdou", "solve", "3455KK", "345522"],
                       tmp_path)
    assert pairs(cold.stderr) == ["the solver"]
    assert warm.stderr == "" and warm.stdout.split("\n")[:3] == cold.stdout.split("\n")[:3]


GAME = """
import fastdou
g = fastdou.Game.new("classic", seed=1)
g.play_id(g.legal_action_ids()[-1])
g.encode(0)
print([m.text() for m in fastdou.legal_moves("33344455BR", last="3334")])
"""


def test_game_encoder_and_moves_each_say_so_once(tmp_path):
    cold, warm = twice([sys.executable, "-c", GAME], tmp_path)
    assert pairs(cold.stderr) == ["the game engine", "the observation encoder",
                                  "move generation"]
    assert warm.stderr == "" and warm.stdout == cold.stdout


VECTOR = """
import fastdou
obs, info = fastdou.VectorEnv("classic", num_envs=4).reset()
print(obs.shape)
"""


def test_vector_env_says_so_once(tmp_path):
    cold, warm = twice([sys.executable, "-c", VECTOR], tmp_path)
    assert pairs(cold.stderr) == ["the vectorized env"]
    assert warm.stderr == "" and warm.stdout == cold.stdout


# The listener on stand-in events: a dispatcher of a fastdou kernel module, cached or not.

def dispatcher(module="fastdou.kernels.solver", cached=True):
    def kernel():
        pass
    kernel.__module__ = module
    from numba.core.caching import NullCache
    cache = object() if cached else NullCache()
    return types.SimpleNamespace(py_func=kernel, _cache=cache, overloads={})


def event(d, start):
    return types.SimpleNamespace(data={"dispatcher": d, "args": ()}, is_start=start,
                                 is_end=not start)


@pytest.fixture
def listener(monkeypatch, capsys):
    """A fresh listener writing to the captured stderr; its lines, after a flush."""
    monkeypatch.delenv("FASTDOU_QUIET", raising=False)
    monkeypatch.setattr(CN, "GAP_SECONDS", 60.0)          # bursts end by flush() here
    ls = CN.Announcer()

    def compile_(d, inner=(), failed=False):
        ls.notify(event(d, True))
        for nested in inner:
            compile_(nested)
        if not failed:
            d.overloads[()] = "compiled"
        ls.notify(event(d, False))

    def lines():
        ls.flush()
        return capsys.readouterr().err.splitlines()
    return types.SimpleNamespace(compile=compile_, lines=lines, announcer=ls)


def test_nested_and_consecutive_compiles_say_it_once(listener):
    solver = dispatcher()
    listener.compile(solver, inner=[dispatcher("fastdou.kernels.search"), dispatcher()])
    listener.compile(solver)
    lines = listener.lines()
    assert lines[0] == "fastdou: compiling the solver" + TAIL and DONE.match(lines[1])
    assert len(lines) == 2


def test_another_part_starts_another_pair(listener):
    listener.compile(dispatcher("fastdou.kernels.engine"))
    listener.compile(dispatcher("fastdou.kernels.vector"))
    assert [line.split(" (")[0] for line in listener.lines()[::2]] == [
        "fastdou: compiling the game engine kernels",
        "fastdou: compiling the vectorized env kernels"]


def test_silent_for_others_uncached_failed_quiet_and_inside_the_simulate_notice(
        listener, monkeypatch):
    listener.compile(dispatcher("user_module"))                 # a user's function
    listener.compile(dispatcher(cached=False))                  # compiled in every process
    with CN.silenced():
        listener.compile(dispatcher())
    assert listener.lines() == []
    listener.compile(dispatcher(), failed=True)                 # started, never compiled
    assert len(listener.lines()) == 1
    monkeypatch.setenv("FASTDOU_QUIET", "1")
    listener.compile(dispatcher())
    assert listener.lines() == []


def test_the_end_line_follows_a_pause(listener, monkeypatch):
    monkeypatch.setattr(CN, "GAP_SECONDS", 0.05)
    done = threading.Event()
    monkeypatch.setattr(listener.announcer, "flush",
                        lambda flush=listener.announcer.flush: (flush(), done.set()))
    listener.compile(dispatcher())
    assert done.wait(10)
    lines = listener.lines()
    assert len(lines) == 2 and DONE.match(lines[1])


INSTALLED = """
import sys, fastdou.kernels
from numba.core import event
installed = "fastdou.compiling.compile_notice" in sys.modules
from fastdou.compiling.compile_notice import Announcer
print(installed, sum(isinstance(x, Announcer) for x in event._registered["numba:compile"]))
"""


def test_the_listener_is_installed_once_with_the_kernels():
    run = subprocess.run([sys.executable, "-c", INSTALLED], capture_output=True, text=True,
                         timeout=300)
    assert run.stdout.split() == ["True", "1"], run.stderr
