"""Runs the fuzz suite (tests/fuzz) in a subprocess, where a crash of the interpreter fails
this test instead of killing the test run."""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run_fuzz(env=None, timeout=1500):
    """Run tests/fuzz/fuzz_entry_points.py with pytest in a fresh interpreter."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", os.path.join(HERE, "fuzz_entry_points.py"),
         "-q", "-p", "no:cacheprovider", "-o", "python_files=fuzz_*.py"],
        capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})})


def test_every_entry_point_gives_an_answer_or_a_fastdou_error():
    proc = run_fuzz()
    assert proc.returncode == 0, \
        f"fuzz run ended with status {proc.returncode}\n{proc.stdout[-6000:]}\n{proc.stderr[-3000:]}"
