"""A kernel that calls a parallel kernel runs from a cache filled in any order.

Process 1 compiles the parallel batch kernels (``fastdou.generate_batch``, a fresh batch);
process 2 compiles ``kernels.generate_batch``, which calls them, from that cache; process 3
loads it. Without the thread pool started at import (``kernels/jit.py``), process 3 crashed
with a segmentation fault (Numba issues 4807, 8578).
"""

import os
import subprocess
import sys

import pytest

HANDS = """
import numpy as np
import fastdou
deck = np.repeat(np.arange(15), [4] * 13 + [1, 1])
rng = np.random.default_rng(7)
hands = np.array([np.bincount(rng.permutation(deck)[:17], minlength=15) for _ in range(300)])
rules = fastdou.rules("classic")
"""

FRESH = HANDS + """
moves, offsets = fastdou.generate_batch(hands, rules=rules)
print(len(moves))
"""

CALLER = HANDS + """
from fastdou import kernels as K
from fastdou.rules import rules_array
packed = K.pack_rows(hands, np.empty(len(hands), np.uint64))
moves, offsets = K.generate_batch(packed, np.zeros((len(hands), 2), np.uint64),
                                  rules_array(rules))
print(len(moves))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="a crash's exit status is POSIX's")
def test_a_parallel_kernels_caller_runs_from_a_cache_filled_elsewhere(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    totals = []
    for script in (FRESH, CALLER, CALLER):
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                              text=True, timeout=900)
        assert done.returncode == 0, done.stderr[-2000:]
        totals.append(int(done.stdout))
    assert totals[0] == totals[1] == totals[2] > 0
