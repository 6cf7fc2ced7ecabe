"""The timed loops: single-threaded ``@njit`` loops over a corpus, calling the public kernels
exactly as a user's own ``@njit`` code would, plus the same-run baselines: a copy of the
records, the ideal two-thread split of a batch, and what the machine's threads give."""

import time

import numba
from numba import njit, prange

from fastdou import kernels as K
from fastdou.kernels.batch import _stream


@njit(cache=True)
def lead_all(hands, rules, out):
    """Generate every leading move of every hand; returns the total number of moves."""
    total = 0
    for i in range(hands.shape[0]):
        n = K.leading_moves(hands[i], rules, out)
        if n > out.shape[0]:
            raise ValueError("benchmark buffer too small")
        total += n
    return total


@njit(cache=True)
def count_lead_all(hands, rules):
    total = 0
    for i in range(hands.shape[0]):
        total += K.count_leading(hands[i], rules)
    return total


@njit(cache=True)
def respond_all(hands, lasts, rules, out):
    """Generate every response of every position; returns the total number of moves."""
    total = 0
    for i in range(hands.shape[0]):
        n = K.responses(hands[i], lasts[i], rules, out)
        if n > out.shape[0]:
            raise ValueError("benchmark buffer too small")
        total += n
    return total


@njit(cache=True)
def copy_all(moves, offsets, out):
    """Baseline: copy each hand's precomputed records into the buffer, as generation writes
    them. Generation time over this time is the cost of finding the moves."""
    total = 0
    for i in range(offsets.shape[0] - 1):
        lo = offsets[i]
        n = offsets[i + 1] - lo
        for j in range(n):
            out[j, 0] = moves[lo + j, 0]
            out[j, 1] = moves[lo + j, 1]
        total += n
    return total


@njit(cache=True, parallel=True)
def stream_halves(hands, lasts, rules, moves, offsets, mid):
    """Baseline for ``generate_batch_into`` on two threads: the same streamed generation
    split at hand ``mid`` whose exact offset ``offsets[mid]`` is already known (from an
    earlier call), so neither thread counts: what two threads give to this work now."""
    start = offsets[mid]
    for p in prange(2):
        if p == 0:
            _stream(hands, lasts, rules, moves, offsets, 0, mid, 0)
        else:
            _stream(hands, lasts, rules, moves, offsets, mid, hands.shape[0], start)
    return offsets


@njit(cache=True, parallel=True)
def spin(n):
    """Arithmetic only, in parallel: what the machine's threads give, without fastdou."""
    total = 0
    for i in prange(n):
        x = 0
        for j in range(20_000):
            x += (i * j) % 7
        total += x
    return total


def on_threads(threads, fn, *args):
    """A call of ``fn(*args)`` on ``threads`` Numba threads, which then restores the count
    (for :func:`best_times`)."""
    def call():
        before = numba.get_num_threads()
        numba.set_num_threads(threads)
        try:
            return fn(*args)
        finally:
            numba.set_num_threads(before)
    return call


def in_turn(calls, repeat=5, runs=None, min_run=None):
    """Thunks (``calls``, name: thunk) timed in turn: ``repeat`` rounds, each running every
    thunk ``runs[name]`` times (once if not given), so that a drift of a shared machine's
    speed (its other load) slows each alike. With ``min_run`` (seconds) each thunk is first
    called once, and a thunk faster than that is then called as many times in a row in each
    run as make up ``min_run``, so that the timer's resolution does not matter (a slower
    one's first call counts as a run). Returns name: (fastest seconds per call, last result,
    calls per run)."""
    best = {name: [float("inf"), None, 1] for name in calls}
    if min_run is not None:
        for name, fn in calls.items():
            start = time.perf_counter()
            best[name][1] = fn()
            once = time.perf_counter() - start
            if once >= min_run:
                best[name][0] = once
            else:
                best[name][2] = int(min_run / max(once, 1e-7)) + 1
    for _ in range(repeat):
        for name, fn in calls.items():
            b = best[name]
            for _ in range(1 if runs is None else runs[name]):
                start = time.perf_counter()
                for _ in range(b[2]):
                    b[1] = fn()
                b[0] = min(b[0], (time.perf_counter() - start) / b[2])
    return {name: tuple(b) for name, b in best.items()}


def best_times(calls, repeat=5):
    """:func:`in_turn` of one run a round: name: fastest seconds."""
    return {name: t for name, (t, _, _) in in_turn(calls, repeat).items()}
