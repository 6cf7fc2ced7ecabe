"""``fastdou simulate``'s first compile, said on stderr.

:func:`compiled` runs a one-deal simulation with the run's own rules and policies, which
compiles (or loads from Numba's on-disk cache) every kernel the run needs. It says so first
when compilation is certain (no cache file for the simulation kernel yet, or a user policy,
which is compiled in every new process), or when that one deal takes longer than ``after``
seconds (a stale cache); then it says how long compiling took. On an empty cache the move
generator is compiled meanwhile by a helper process (:mod:`fastdou.compiling.cold_start`).
``FASTDOU_QUIET=1`` silences it.
"""

from __future__ import annotations

import os
import sys
import threading
import time

from fastdou.compiling.cold_start import cache_index, generator_from_helper
from fastdou.compiling.compile_notice import DONE, START, quiet, silenced
from fastdou.kernels import play as P
from fastdou.policies import import_policy, njit_policy
from fastdou.rules import as_rules
from fastdou.sim.simulation import simulate

NOTICE = START.format(what="the simulation")
USER_NOTICE = ("fastdou: compiling policy {name} (a user policy is compiled in every "
               "new process)...")


def _kernel(rules):
    """The simulation kernel ``rules`` are played by (wild cards have their own)."""
    return P.wild_simulate_range if as_rules(rules).wilds else P.simulate_range


def _cache_missing(rules) -> bool:
    """Whether the cached simulation kernel has no index file on disk (if Numba's cache
    layout cannot be read, fall back on the timer)."""
    index = cache_index(_kernel(rules))
    return index is not None and not os.path.exists(index)


def _user_policy(policies):
    """The name of the first user policy among ``policies`` (a function or an import
    path), or None; nothing is imported or compiled here."""
    seats = policies if isinstance(policies, (list, tuple)) else [policies]
    for p in seats:
        if isinstance(p, str) and ":" in p:
            return p.rpartition(":")[2]
        if callable(p):
            return getattr(p, "__name__", "?")
    return None


def _in_process(rules) -> bool:
    """Whether the built-in simulation kernel is compiled in this process already."""
    return bool(_kernel(rules).signatures)


def compiled(rules, policies, *, stream=None, after: float = 4.0) -> float:
    """Compile what ``simulate(rules=rules, policies=policies)`` needs; returns seconds."""
    stream = sys.stderr if stream is None else stream
    user = _user_policy(policies)
    if user is None and _in_process(rules):
        return 0.0                                  # compiled in this process already
    said = threading.Event()
    lock = threading.Lock()

    text = NOTICE if user is None else USER_NOTICE.format(name=user)

    def notice():
        with lock:
            if not said.is_set() and not quiet():
                said.set()
                print(text, file=stream, flush=True)

    if user is not None:
        for p in policies if isinstance(policies, (list, tuple)) else [policies]:
            if isinstance(p, str) and ":" in p:
                njit_policy(import_policy(p))     # a bad path fails before the notice
    if user is not None or _cache_missing(rules):
        notice()
    timer = threading.Timer(after, notice)
    timer.daemon = True
    start = time.perf_counter()
    timer.start()
    try:
        with generator_from_helper(), silenced():        # this notice, not the bursts'
            simulate(1, rules, policies=policies)
    finally:
        timer.cancel()
    took = time.perf_counter() - start
    with lock:
        said_it = said.is_set()
        said.set()                                  # a late timer stays silent
    if said_it:
        print(DONE.format(seconds=took), file=stream, flush=True)
    return took
