"""The first run says on stderr that it is compiling, and how long it took; a warm run, or
one with FASTDOU_QUIET=1, says nothing."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fastdou(*argv, env=None):
    base = {k: v for k, v in os.environ.items() if k != "FASTDOU_QUIET"}
    return subprocess.run([sys.executable, "-m", "fastdou", *argv], capture_output=True,
                          text=True, timeout=600, cwd=ROOT, env={**base, **(env or {})})


def test_a_user_policy_run_says_it_compiles_and_how_long():
    proc = fastdou("simulate", "--deals", "500", "--policy",
                   "tests.shared.policies:last_listed,random,random")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    assert lines[0].startswith("fastdou: compiling policy last_listed")
    assert lines[1].startswith("fastdou: compiled in ") and lines[1].endswith(" s")


def test_quiet_says_nothing():
    proc = fastdou("simulate", "--deals", "500", "--policy",
                   "tests.shared.policies:last_listed,random,random", env={"FASTDOU_QUIET": "1"})
    assert proc.returncode == 0 and proc.stderr == ""


def test_a_warm_run_says_nothing():
    assert fastdou("simulate", "--deals", "10").returncode == 0      # warm the cache
    proc = fastdou("simulate", "--deals", "500")
    assert proc.returncode == 0 and proc.stderr == ""


def test_a_fresh_cache_is_noticed(tmp_path):
    script = ("from fastdou.compiling.first_compile import _cache_missing; "
              "print(_cache_missing('classic'))")
    fresh = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)})
    assert fresh.stdout.strip() == "True", fresh.stderr
    warm = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert warm.stdout.strip() == "False", warm.stderr


def test_the_notice_comes_first_when_compiling(monkeypatch, capsys):
    from fastdou.compiling import first_compile
    monkeypatch.delenv("FASTDOU_QUIET", raising=False)
    monkeypatch.setattr(first_compile, "_cache_missing", lambda rules: True)
    monkeypatch.setattr(first_compile, "_in_process", lambda rules: False)
    first_compile.compiled("classic", "random", stream=sys.stderr)
    err = capsys.readouterr().err.splitlines()
    assert err[0] == first_compile.NOTICE and err[1].startswith("fastdou: compiled in ")


def test_every_kernel_module_names_its_part():
    """A kernel module missing from the map would be announced as "fastdou's"."""
    import importlib
    import pkgutil

    from numba.core.registry import CPUDispatcher

    import fastdou.kernels
    from fastdou.compiling.compile_notice import KERNELS
    for info in pkgutil.iter_modules(fastdou.kernels.__path__):
        module = importlib.import_module(f"fastdou.kernels.{info.name}")
        if any(isinstance(v, CPUDispatcher) and v.__module__ == module.__name__
               for v in vars(module).values()):
            assert info.name in KERNELS, info.name
