"""A simulation on this machine: :func:`simulate_local` plays the deals in compiled code on
several threads (taking blocks of deals in a kernel that releases the GIL), each deal a pure
function of ``(seed, deal index)``, and summarises them."""

from __future__ import annotations

from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from contextlib import nullcontext
from typing import Callable

import numba
import numpy as np

from fastdou.checks import INT64_MAX, flag, short, whole
from fastdou.compiling.entry_points import FunctionArg, typed_entry_point
from fastdou.errors import ArgumentError, PolicyError
from fastdou.hints import RulesLike
from fastdou.kernels import play as P
from fastdou.kernels import state as S
from fastdou.policies import policy_codes, policy_names
from fastdou.rules import as_rules, rules_array
from fastdou.sim import simulation_result
from fastdou.sim.simulation_result import MAX_DEALS, PER_DEAL_MAX, SimulationResult
from fastdou.sim.summary import Totals, preset_features


def simulate_local(deals: int, rules: RulesLike = "classic", policies: object = "random", *,
                   seed: int = 0, threads: int | None = None, per_deal: bool = False,
                   first: int = 0, progress: Callable[[int], None] | None = None,
                   on_chunk: Callable[[dict], None] | None = None) -> SimulationResult:
    """:func:`fastdou.simulate` without a Dask client, ``simulation_result.CHUNK`` deals
    per compiled call."""
    rules = as_rules(rules)
    deals = whole("deals", deals, 1, MAX_DEALS)
    seed = whole("seed", seed)
    first = whole("first", first, 0, INT64_MAX - deals)
    per_deal = flag("per_deal", per_deal)
    if per_deal and deals > PER_DEAL_MAX:
        raise ArgumentError(f"per_deal=True keeps every deal in memory: at most "
                            f"{PER_DEAL_MAX:,} deals; stream more with on_chunk=")
    for name, fn in (("progress", progress), ("on_chunk", on_chunk)):
        if fn is not None and not callable(fn):
            raise ArgumentError(f"{name} must be a function or None, not {short(fn)}")
    if threads is not None:
        threads = whole("threads", threads, 1, numba.config.NUMBA_NUM_THREADS)
    codes, users = policy_codes(policies, rules, functions=2)
    wild = rules.wilds > 0
    kernel = P.compiled_simulate_range(wild)
    simulate_range = typed_entry_point(kernel, kernel.signatures[0])
    threads = numba.get_num_threads() if threads is None else threads
    totals = Totals(rules.players, preset_features(rules), rules.max_redeals)
    kept = []
    done = 0
    chunk = simulation_result.CHUNK     # read per call, so that tests can shrink it
    with ThreadPoolExecutor(threads) if threads > 1 and deals > 1 else nullcontext() as pool:
        while done < deals:
            n = min(chunk, deals - done)
            res = np.empty((n, len(P.RESULT_FIELDS)), np.int64)
            scores = np.empty((n, rules.players), np.int64)
            errors = np.empty(n, np.int64)
            run(simulate_range, users, pool, threads, rules_array(rules, wild=wild), seed,
                first + done, codes, res, scores, errors)
            if errors.any():
                k = int(np.flatnonzero(errors)[0])
                raise PolicyError(f"deal {first + done + k}: a policy returned an index "
                                  f"outside the legal actions")
            totals.add(res, scores)
            if per_deal:
                kept.append((res, scores))
            if on_chunk is not None:
                arrays = _arrays(res, scores)
                arrays["deal"] = np.arange(first + done, first + done + n)
                on_chunk(arrays)
            done += n
            if progress is not None:
                progress(done)
    arrays = None
    if per_deal:
        arrays = _arrays(np.concatenate([k[0] for k in kept]),
                         np.concatenate([k[1] for k in kept]))
        arrays["deal"] = np.arange(first, first + deals)
    return SimulationResult(rules=rules, seed=int(seed),
                            summary=totals.summary(),
                            per_deal=arrays, policies=policy_names(policies, rules.players),
                            first=first, totals=totals)


# A thread takes the next block of deals when it is done with one, so that a core that other
# work slows plays fewer blocks instead of holding up the chunk.
BLOCKS_PER_THREAD = 16
MIN_BLOCK = 128


def run(simulate_range, users, pool, threads, rules, seed, first, codes, res, scores,
        errors):
    """Play the chunk of deals ``first ..`` into ``res`` / ``scores`` / ``errors``: in
    blocks that the threads of ``pool`` take as they come free (the kernel releases the GIL),
    or all here without one. ``simulate_range``: the compiled entry point. ``users``: the
    policy functions of the seats coded USER and USER_B, None for the placeholder. An
    exception a policy function raises becomes a PolicyError, raised once the blocks started
    have stopped (no other block starts)."""
    fns = [P.no_user_policy if u is None else u for u in users]
    if users[1] is None:
        fns[1] = fns[0]                # one function: passed twice (no placeholder kept)
    # the placeholder, never called, by its address (its unboxing is most of a call's cost);
    # a policy as its dispatcher: an exception raised through a bare address is printed and lost
    fns = [FunctionArg(f, P.POLICY_SIGNATURE) if f is P.no_user_policy else f for f in fns]
    n = len(res)
    step = n if pool is None else max(MIN_BLOCK, -(-n // (threads * BLOCKS_PER_THREAD)))
    ranges = [(a, min(a + step, n)) for a in range(0, n, step)]

    def play(a, b):
        simulate_range(rules, seed, first + a, codes, res[a:b], scores[a:b], errors[a:b],
                       *fns)

    try:
        if pool is None:
            for a, b in ranges:
                play(a, b)
        else:
            futures = [pool.submit(play, a, b) for a, b in ranges]
            try:
                wait(futures, return_when=FIRST_EXCEPTION)
            finally:                # an error or an interrupt: the blocks not started never do
                for f in futures:
                    f.cancel()
            wait(futures)
            for f in futures:
                if not f.cancelled():
                    f.result()
    except Exception as e:
        named = [u.__name__ for u in users if u is not None]
        if not named:
            raise
        cause = e.__cause__ or e.__context__ or e
        raise PolicyError(f"policy {' or '.join(named)} raised {type(cause).__name__}: "
                          f"{short(str(cause))}") from None


def _arrays(res, scores) -> dict:
    """Per-deal arrays by result name, scores in points; each array contiguous (one
    transposing copy: a column of ``res`` would be read with a stride of a whole row)."""
    columns = np.ascontiguousarray(res.T)
    arrays = {name: columns[j] for j, name in enumerate(P.RESULT_NAMES)}
    arrays["scores"] = scores / S.SCORE_UNIT
    return arrays
