"""Numba's threads wait passively when idle unless the user chose otherwise (fastdou sets
OMP_WAIT_POLICY before Numba starts them), and a pool started before fastdou is named in a
warning. Each case in a fresh interpreter: the setting counts only before the pool starts."""

import os
import subprocess
import sys

import numba
import pytest

WAIT = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME")
SHOW = ("import os, fastdou\n"
        "print(*(os.environ.get(name) for name in ('OMP_WAIT_POLICY', 'KMP_BLOCKTIME')))")


def run(code, **env):
    """``code``'s output in a fresh interpreter whose environment has none of ``WAIT`` but
    what ``env`` gives, and how many times it warned of a pool started before fastdou
    (naming the variable to set)."""
    base = {k: v for k, v in os.environ.items() if k not in WAIT}
    done = subprocess.run([sys.executable, "-W", "always", "-c", code], env={**base, **env},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip(), sum("RuntimeWarning: Numba's threads started" in line and
                                    "OMP_WAIT_POLICY=passive" in line
                                    for line in done.stderr.splitlines())


def test_passive_by_default():
    assert run(SHOW) == ("passive 0", 0)
    assert run("import numba\n" + SHOW) == ("passive 0", 0)       # Numba imported, no pool


@pytest.mark.parametrize("name, value, shown", [("OMP_WAIT_POLICY", "active", "active None"),
                                                ("KMP_BLOCKTIME", "200", "None 200"),
                                                ("GOMP_SPINCOUNT", "1000", "None None")])
def test_a_users_setting_wins(name, value, shown):
    assert run(SHOW, **{name: value}) == (shown, 0)


def test_a_pool_started_before_fastdou_is_named_once():
    started = "import numba; numba.get_num_threads()\n"
    assert run(started + SHOW + "\nimport fastdou.kernels") == ("None None", 1)   # not set
    assert run(started + SHOW, OMP_WAIT_POLICY="passive") == ("passive None", 0)


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 Numba threads")
def test_idle_threads_do_not_spin():
    """Between short parallel calls (``generate_batch``, a ``prange``) the process sleeps;
    its idle thread then takes no CPU time (OpenMP's default spin takes most of it)."""
    code = """
import time, fastdou
hands = fastdou.cards.parse("33445566778899TJQ")[None].repeat(64, 0)
fastdou.generate_batch(hands)
cpu = time.process_time()
for _ in range(100):
    fastdou.generate_batch(hands)
    time.sleep(0.002)
print(time.process_time() - cpu)
"""
    assert float(run(code)[0]) < 0.5 * 100 * 0.002
