"""The helper process of a cold first simulation (``fastdou.compiling.cold_start``) is started only when
it can help, and leaves nothing behind. (The cold run itself, with and without the helper,
and that the engine then compiles no generator of its own, are gated in
benchmarks/test_bench_startup.py.)"""

import os
import subprocess
import sys

import pytest

import fastdou
from fastdou.compiling import cold_start
from fastdou.kernels.generate import emit


def test_no_helper_once_cached_and_the_dispatcher_restored(monkeypatch):
    fastdou.simulate(1)                            # cached by now: nothing to help with
    started = []
    monkeypatch.setattr(subprocess, "Popen", lambda *a, **k: started.append(a))
    assert not cold_start._helps(emit)
    with cold_start.generator_from_helper():
        fastdou.simulate(2, seed=1)
    assert started == [] and "compile" not in vars(emit)


def test_the_helper_can_be_turned_off(monkeypatch, tmp_path):
    monkeypatch.setattr(emit._cache._cache_file, "_index_path", str(tmp_path / "none.nbi"))
    assert cold_start._helps(emit) == (cold_start.cores() >= 2)
    monkeypatch.setenv("FASTDOU_COMPILE_HELPER", "0")
    assert not cold_start._helps(emit)


COLD_FIRST_CALL = """
from numba.core import event
import fastdou
from fastdou.compiling import cold_start
from fastdou.kernels.generate import emit
compiled = []
class Compiles(event.Listener):
    def on_start(self, ev):
        compiled.append(ev.data["dispatcher"])
    def on_end(self, ev):
        pass
with event.install_listener("numba:compile", Compiles()):
    {run}
for dispatcher, args in cold_start.{parts}():
    print(dispatcher.py_func.__name__, tuple(args) in dispatcher.overloads,
          len(dispatcher.signatures))
print("emit", emit in compiled, cold_start.cores() >= 2)
"""


FIRST_CALLS = {
    "solver_parts": 'assert fastdou.solve("3334/5556/789 0 0 - - classic").landlord_wins',
    "game_parts": "g = fastdou.Game.new(); g.play_id(int(g.legal_action_ids()[-1])); "
                  "g.encode(g.current_player)"}


@pytest.mark.parametrize("parts_name", FIRST_CALLS)
def test_a_cold_first_call_compiles_its_parts_while_the_helper_compiles_the_generator(
        tmp_path, parts_name):
    """On an empty cache the parts a solve or a Game compiles in the wait have the types
    it then passes (other types would be compiled twice), and, on two cores, the generator
    comes from the helper's cache, not from this process."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), FASTDOU_COMPILE_HELPER="1",
               FASTDOU_QUIET="1")
    script = COLD_FIRST_CALL.format(run=FIRST_CALLS[parts_name], parts=parts_name)
    out = subprocess.run([sys.executable, "-c", script], env=env, check=True,
                         capture_output=True, text=True).stdout.split("\n")
    parts = [line.split() for line in out if line and not line.startswith("emit")]
    assert len(parts) == len(getattr(cold_start, parts_name)()) and \
        all(same == "True" and n == "1" for _, same, n in parts), parts
    _, in_process, two_cores = next(line for line in out if line.startswith("emit")).split()
    assert in_process == str(two_cores == "False"), out


def test_a_solve_a_perft_and_a_game_restore_the_generator(monkeypatch):
    started = []
    monkeypatch.setattr(subprocess, "Popen", lambda *a, **k: started.append(a))
    assert fastdou.perft("66678/QK22 0 0 - - two_player", 3) > 0
    assert fastdou.solve("3334/5556/789 0 0 - - classic").landlord_wins is not None
    fastdou.Game.new().legal_action_ids()
    assert started == [] and "compile" not in vars(emit)
