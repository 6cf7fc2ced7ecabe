"""Every entry point hands the kernels the same rules array type (``rules.rules_array``, a
writable copy), so that a kernel they share (the move generator above all) compiles once,
whichever runs first: a ``Game`` after ``simulate`` compiled the generator and the engine
again when ``simulate`` passed the read-only ``Rules.array``."""

import subprocess
import sys

# Each entry point once, then every kernel argument named ``rules`` whose compiled (or
# cache-loaded) type is a read-only int64 vector: the read-only rules array's type (other
# read-only tables, such as the action ids' loaded from disk, are another matter).
ENTRY_POINTS = """
import inspect
import sys
import numba
import fastdou
fastdou.simulate(2)
fastdou.evaluate("random", "greedy", 2)
g = fastdou.Game.new(seed=0)
g.play_id(g.legal_action_ids()[-1])
g.encode(g.current_player)
fastdou.legal_moves("33344455BR", last="3334")
fastdou.legal_moves("33344455BR")
fastdou.solve(fastdou.Position(["3455KK", "345522"]))
fastdou.VectorEnv(num_envs=2).reset()
readonly = numba.types.Array(numba.types.int64, 1, "C", readonly=True)
seen = 0
for module in [m for n, m in list(sys.modules.items()) if n.startswith("fastdou.kernels.")]:
    for name, fn in vars(module).items():
        if isinstance(fn, numba.core.registry.CPUDispatcher):
            names = list(inspect.signature(fn.py_func).parameters)
            for sig in fn.signatures:
                seen += 1
                if any(n == "rules" and t == readonly for n, t in zip(names, sig)):
                    print("read-only:", module.__name__, name, sig)
print("signatures", seen)
"""


def test_the_kernels_take_one_rules_array_type():
    out = subprocess.run([sys.executable, "-c", ENTRY_POINTS], check=True,
                         capture_output=True, text=True).stdout
    assert int(out.split("signatures")[-1]) > 20, "no compiled kernel seen: the check is broken"
    assert "read-only:" not in out, out
