"""No compiled function that returns an array takes its reference counting from its caller
(``kernels/jit.py``).

Numba compiles a function that does not set it with its first caller's flag and keys the
compiled (and disk-cached) versions by argument types alone. A kernel returning an array it
was given, compiled first for a ``leaf`` caller (which takes no count), then used by a
counting caller (which releases what it is given), freed an array still in use: a
``VectorEnv`` run, then ``simulate`` in a new process, corrupted the heap (glibc aborted).
"""

import os
import pathlib
import re
import subprocess
import sys

import fastdou.kernels

KERNELS = pathlib.Path(fastdou.kernels.__file__).parent

# Every dispatcher of fastdou.kernels compiled in this process whose result holds an array
# must set _nrt=True; prints the offenders.
_CHECK = """
import importlib, pkgutil, numba
from numba.core import types
import fastdou.kernels as K
def holds_array(t):
    if isinstance(t, types.Array):
        return True
    return isinstance(t, types.BaseTuple) and any(holds_array(x) for x in t.types)
bad = set()
for info in pkgutil.iter_modules(K.__path__):
    module = importlib.import_module("fastdou.kernels." + info.name)
    for name, d in vars(module).items():
        if isinstance(d, numba.core.dispatcher.Dispatcher) and d.targetoptions.get("_nrt") \\
                is not True and any(holds_array(c.signature.return_type)
                                    for c in d.overloads.values()):
            bad.add(info.name + "." + name)
print("bad:", sorted(bad))
"""
_VECTOR_FIRST = """
import numpy as np, fastdou
env = fastdou.VectorEnv("classic", num_envs=8, seed=0)
obs, info = env.reset()
for _ in range(200):
    off = info["legal_offsets"]
    obs, rewards, term, trunc, info = env.step(info["legal_ids"][off[:-1]].copy())
""" + _CHECK
_SIMULATE_NEXT = """
import numpy as np, fastdou
for seed in range(20):
    fastdou.simulate(50, seed=seed)
    fastdou.generate_batch(np.ones((50, 15), np.int64))
    fastdou.legal_moves("3334445556667778", "3")
keep = [np.zeros(1000 + i) for i in range(3000)]
""" + _CHECK


def test_every_overload_sets_its_reference_counting():
    for path in KERNELS.glob("*.py"):
        for line in re.findall(r"@overload\(.*", path.read_text()):
            assert re.search(r"jit_options=(LEAF|VOID)_OVERLOAD\)", line), (path.name, line)


def test_vector_env_then_simulate_on_one_cache(tmp_path):
    """The user sequence that corrupted the heap, on an empty cache, with glibc's heap
    checks on where the system has them; and no compiled function that returns an array
    inherits its reference counting."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "MALLOC_CHECK_": "3"}
    debug = pathlib.Path("/lib/x86_64-linux-gnu/libc_malloc_debug.so.0")
    for script in (_VECTOR_FIRST, _SIMULATE_NEXT):
        run_env = {**env, "LD_PRELOAD": str(debug)} if debug.exists() and \
            script is _SIMULATE_NEXT else env
        proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              timeout=1500, env=run_env)
        assert proc.returncode == 0 and proc.stdout.strip() == "bad: []", \
            proc.stdout[-2000:] + proc.stderr[-3000:]
