"""The helper process of a cold first simulation (``fastdou.compiling.cold_start``) is started only when
it can help, and leaves nothing behind. (The cold run itself, with and without the helper,
and that the engine then compiles no generator of its own, are gated in
benchmarks/test_bench_startup.py.)"""

import subprocess

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
