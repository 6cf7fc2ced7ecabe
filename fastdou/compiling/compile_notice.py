"""Say on stderr when the kernels are being compiled, instead of sitting silent.

Every entry point: :data:`ANNOUNCER` listens to Numba's ``numba:compile`` event, which fires
when a function is compiled and never when it is loaded from the on-disk cache; it is
installed when the kernels are imported. When a cached fastdou kernel starts compiling
outside any other such compile, it names the part of fastdou being compiled (from the
outermost fastdou call on the Python stack: ``Game``, ``VectorEnv``, ``solve``, ...) and,
once no compile has followed for :data:`GAP_SECONDS` (or at exit), how long the burst took:
one pair of lines per burst, a new pair when another part starts. ``FASTDOU_QUIET=1``
silences both kinds of notice (and those of ``fastdou simulate``,
:mod:`fastdou.compiling.first_compile`).

The kernels import this module: it imports nothing of fastdou.
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
import time
from contextlib import contextmanager

from numba.core import event
from numba.core.caching import NullCache

START = ("fastdou: compiling {what} kernels (first use on this machine or after an upgrade; "
         "cached afterwards)...")
DONE = "fastdou: compiled in {seconds:.1f} s"
GAP_SECONDS = 5.0    # a pause this long between compiles ends a burst; a busy machine pauses too

# The part being compiled, by the outermost of these modules on the Python stack
MODULES = {
    "fastdou.sim.simulation": "the simulation", "fastdou.sim.compare": "the simulation",
    "fastdou.sim.distributed": "the simulation", "fastdou.sim.local_run": "the simulation",
    "fastdou.sim.simulation_result": "the simulation", "fastdou.game": "the game engine",
    "fastdou.actions": "the game engine", "fastdou.wild_actions": "the game engine", "fastdou.generation": "move generation",
    "fastdou.moves": "move generation", "fastdou.solver": "the solver",
    "fastdou.position": "the solver", "fastdou.vector": "the vectorized env",
    "fastdou.observation": "the observation encoder",
    "fastdou.adapters.douzero": "the DouZero adapter",
    "fastdou.adapters.rlcard": "the RLCard adapter",
    "fastdou.adapters.pettingzoo": "the PettingZoo adapter",
    "fastdou.adapters.openspiel": "the OpenSpiel adapter",
    "fastdou.players": "the policies", "fastdou.sim.evaluation": "the evaluation",
}
METHODS = {("fastdou.game", "encode"): "the observation encoder",
           ("fastdou.game", "observation"): "the observation encoder"}
# With no such call on the stack (a user's own code calling the kernels): by kernel module
KERNELS = {
    "engine": "the game engine", "state": "the game engine", "deal": "the game engine",
    "policies": "the game engine", "totals": "the game engine",
    "action_ids": "the game engine", "position_state": "the game engine", "records_out": "the simulation",
    "play": "the simulation", "generate": "move generation", "moves": "move generation",
    "counting": "move generation", "packing": "move generation", "bits": "move generation",
    "answer_counts": "move generation", "chain_counts": "move generation",
    "bomb_counts": "move generation", "count_intrinsics": "move generation",
    "batch": "move generation", "wild": "move generation", "wild_moves": "move generation",
    "wild_batch": "move generation", "huge_pages": "move generation",
    "wild_ids": "the game engine",
    "wild_steps": "the game engine",
    "search": "the solver", "solver": "the solver",
    "solver_table": "the solver", "solver_buffers": "the solver", "solver_order": "the solver",
    "solver_control": "the solver", "fewest_plays": "the solver", "perft_count": "the solver",
    "vector": "the vectorized env", "encoding": "the observation encoder",
    "douzero_encoding": "the observation encoder",
    "rlcard_encoding": "the observation encoder", "evaluation": "the evaluation",
    "expert": "the expert player", "expert_plan": "the expert player",
    "expert_endgame": "the expert player", "pimc": "the pimc player",
    "pimc_worlds": "the pimc player", "pimc_rollout": "the pimc player",
}
# Kernel modules named by their own part whatever call compiles them: a policy passed by
# name compiles when a simulation or evaluation first plays it.
OWN_PARTS = ("expert", "pimc")

_silenced = 0


def quiet() -> bool:
    """Whether ``FASTDOU_QUIET`` asks for no compile notices."""
    return os.environ.get("FASTDOU_QUIET", "") not in ("", "0")


@contextmanager
def silenced():
    """No burst notices within the block (a caller that says what it compiles itself)."""
    global _silenced
    ANNOUNCER.flush()
    _silenced += 1
    try:
        yield
    finally:
        _silenced -= 1


def _announced(dispatcher) -> bool:
    """Whether a compile of ``dispatcher`` is announced: a fastdou function cached to disk
    (one compiled in every process, or a user's, is not)."""
    module = getattr(getattr(dispatcher, "py_func", None), "__module__", None) or ""
    cache = getattr(dispatcher, "_cache", None)
    return module.startswith("fastdou.") and cache is not None \
        and not isinstance(cache, NullCache)


def part(dispatcher) -> str:
    """What is compiled, in the user's terms: a kernel of :data:`OWN_PARTS` by its module;
    else by the outermost fastdou call on the stack (a method of it may name a part of its
    own), else by the kernel's module."""
    kernels = dispatcher.py_func.__module__.rpartition(".")[2]
    if kernels in OWN_PARTS:
        return KERNELS[kernels]
    frame = sys._getframe(1)
    calls = []
    while frame is not None:
        module = frame.f_globals.get("__name__")
        if module in MODULES:
            calls.append((module, frame.f_code.co_name))
        frame = frame.f_back
    if calls:
        outer = calls[-1][0]
        named = [METHODS[c] for c in calls if c[0] == outer and c in METHODS]
        return named[-1] if named else MODULES[outer]
    return KERNELS.get(kernels, "fastdou's")


def _compiled(ev) -> bool:
    """Whether the compile that ``ev`` ends succeeded: its signature was added (Numba's
    ``Event.is_failed`` is true when an event carries no exception)."""
    try:
        return tuple(ev.data["args"]) in ev.data["dispatcher"].overloads
    except Exception:
        return True


def _write(text, stream) -> None:
    if stream is None:                                 # no stderr (pythonw)
        return
    try:
        print(text, file=stream, flush=True)
    except (OSError, ValueError):                      # a closed pipe or capture
        pass


class Announcer(event.Listener):
    """The notices of every entry point (see the module's docstring). Numba compiles one
    function at a time, under its compiler lock, so the nesting depth is one counter; the
    lock here guards the burst against the timer's thread."""

    def __init__(self):
        self._lock = threading.Lock()
        self._depth = 0            # compiles in progress, nested
        self._ours = None          # the depth of the announced compile in progress
        self._part = None          # the burst: its part, stream, start, last compile's end
        self._stream = None
        self._began = self._ended = None
        self._timer = None

    def on_start(self, ev):
        self._depth += 1
        if self._ours is not None or _silenced or quiet():
            return
        try:
            dispatcher = ev.data["dispatcher"]
            if not _announced(dispatcher):
                return
            what = part(dispatcher)
        except Exception:                                   # never fail a compile
            return
        with self._lock:
            self._ours = self._depth
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if self._part is not None and self._part != what:
                self._end_burst()
            if self._part is None:
                self._part, self._stream = what, sys.stderr
                self._began, self._ended = time.perf_counter(), None
                _write(START.format(what=what), self._stream)

    def on_end(self, ev):
        self._depth -= 1
        if self._ours != self._depth + 1:
            return
        with self._lock:
            self._ours = None
            if _compiled(ev):
                self._ended = time.perf_counter()
            try:
                self._timer = threading.Timer(GAP_SECONDS, self.flush)
                self._timer.daemon = True
                self._timer.start()
            except RuntimeError:                            # at exit: no new thread
                self._timer = None

    def flush(self) -> None:
        """End the burst now unless a compile of it is in progress: its end line, if a
        compile of it completed."""
        with self._lock:
            if self._ours is None:
                self._end_burst()

    def _end_burst(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._part is not None and self._ended is not None:
            _write(DONE.format(seconds=self._ended - self._began), self._stream)
        self._part = self._stream = self._began = self._ended = None


ANNOUNCER = Announcer()
event.register("numba:compile", ANNOUNCER)
atexit.register(ANNOUNCER.flush)
