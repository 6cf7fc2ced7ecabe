"""Start-up costs, each in a fresh process: ``import fastdou``, the cold compile of the move
generator with an empty Numba cache, and the first call with the cache warm. Reported, not
gated (they are absolute times)."""

import subprocess
import sys
import time

import pytest

FIRST_CALL = "import fastdou; fastdou.legal_moves('33344455BR', last='3334')"


def run(code, env=None):
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
    return time.perf_counter() - start


@pytest.fixture
def cache_env(tmp_path, monkeypatch):
    import os
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    return env


def test_startup(cache_env):
    base = run("pass")
    imported = run("import fastdou") - base
    cold = run(FIRST_CALL, cache_env) - base
    warm = run(FIRST_CALL, cache_env) - base
    print(f"\nimport fastdou {imported:.2f} s; cold compile and first call {cold:.1f} s; "
          f"cached first call (with import) {warm:.2f} s")
    assert warm < cold
