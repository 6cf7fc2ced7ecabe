"""Simulation spread over a Dask cluster (extra ``dask``): ``fastdou.simulate(...,
client=client)`` and ``fastdou simulate --scheduler ADDRESS`` / ``--workers N``.

The deal range is cut into chunks (``chunk`` deals each, the last one shorter); each chunk is
one Dask task, :func:`run_chunk`, which plays its deals on a worker (kernels compiled, or
loaded from the cache, once per worker process; user policies named by import path) and
returns its exact integer :class:`~fastdou.sim.summary.Totals`. With ``out``, the worker itself
writes its chunk's per-deal results to ``out/part-FIRST-LAST.parquet`` (atomically), with the
totals in the file's footer, and the client writes ``out/_dataset.json`` (the run's metadata
and its parts) once every part is there: a folder without it is refused when read. Because
each deal is a pure function of (seed, deal index), the result is the same deal for deal as
a local run, whatever the chunking or the workers.

Dask does the distribution: a task lost with a dying worker is recomputed elsewhere, and a
rerun with the same ``out`` finds the chunks already complete and skips them. A run that
fails sets its Dask ``Event``: its tasks still running stop at their next chunk and write
no part.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading

import numpy as np

from fastdou.checks import INT64_MAX, short, whole
from fastdou.errors import ArgumentError, PolicyError, RecordError
from fastdou.sim.local_run import simulate_local
from fastdou.policies import import_policy, policy_codes, policy_names
from fastdou.sim.results import (MANIFEST, ResultWriter, metadata, part_name, read_manifest,
                             write_manifest)
from fastdou.rules import as_rules
from fastdou.sim.simulation_result import MAX_DEALS, PER_DEAL_MAX, SimulationResult
from fastdou.sim.summary import Totals, preset_features

DEFAULT_CHUNK = 1_000_000
_TOTALS_KEY = "fastdou_totals"
_LOCK = threading.Lock()          # one compiled simulation at a time in a worker process


def _dask():
    from fastdou.extras import need
    need("dask", "dask")
    return need("distributed", "dask")


def portable_policies(policies, players: int) -> tuple:
    """Each seat's policy as a name or an import path that workers can resolve."""
    if not (isinstance(policies, str) or callable(policies)
            or isinstance(policies, (list, tuple))):
        raise PolicyError(f"policies are a name, an @njit function or one per seat, not "
                          f"{short(policies)}")
    seats = [policies] * players if isinstance(policies, str) or callable(policies) \
        else list(policies)
    names = policy_names(seats, len(seats))
    for p, name in zip(seats, names):
        try:
            same = not callable(p) or import_policy(name) is p
        except PolicyError:
            same = False
        if not same:
            raise PolicyError(f"a policy for Dask workers must be importable: {name} is "
                              f"not (define it in a module and pass 'module:function')")
    return names


def chunks(first: int, deals: int, size: int) -> list:
    """``(first, n)`` of each chunk."""
    return [(a, min(size, first + deals - a)) for a in range(first, first + deals, size)]


class Aborted(Exception):
    """A task of a run that failed elsewhere: stopped without writing its part."""


def run_chunk(rules, policies, seed, first, n, out=None, threads=1, per_deal=False,
              abort=None):
    """One Dask task: deals ``first .. first + n - 1``; returns ``(totals JSON, per-deal
    arrays or None)``. With ``out``, writes (or, if complete, reuses) the chunk's part file.
    ``abort``: the name of the run's Dask ``Event``, looked at after each chunk of deals and,
    holding the run's Dask ``Lock`` (:func:`_finishing`), before the part is renamed into
    place."""

    def check(done=None):
        if abort is not None and _dask().Event(abort).is_set():
            raise Aborted(f"deals {first}..{first + n - 1}: the run failed elsewhere")
    path = os.path.join(out, part_name(first, n)) if out else None
    meta = metadata(rules, seed, policies, first, n)
    if path is not None and os.path.exists(path) and not per_deal:
        footer = _same_run(path, meta)
        if _TOTALS_KEY.encode() in footer:
            return json.loads(footer[_TOTALS_KEY.encode()]), None
    writer = ResultWriter(path, rules, meta) if path else None
    try:
        with _LOCK:
            result = simulate_local(n, rules, list(policies), seed=seed, threads=threads,
                                    per_deal=per_deal, first=first, progress=check,
                                    on_chunk=writer.write if writer else None)
        totals = result.totals.to_json()
        if writer:
            with _finishing(abort):
                check()
                writer.close(footer={_TOTALS_KEY: json.dumps(totals)})
    finally:
        if writer:
            writer.discard()
    return totals, result.per_deal


@contextlib.contextmanager
def _finishing(abort):
    """Hold the run's Dask ``Lock`` (for at most a minute: a lost scheduler fails the run
    rather than hang it): a task renames its part holding it, after looking at ``abort``."""
    if abort is None:
        yield
        return
    lock = _dask().Lock(f"{abort}-finishing")      # the worker's client, or the default one
    if not lock.acquire(timeout=60):
        raise TimeoutError("the run's Dask lock was not granted within a minute")
    try:
        yield
    finally:
        lock.release()


def simulate_on_dask(client, deals, rules, policies="random", seed=0, *, first=0, out=None,
                     chunk=None, threads=1, per_deal=False, progress=None):
    """Play deals ``first .. first + deals - 1`` of ``seed`` on the Dask ``client``'s
    workers; see the module's docstring. Returns a :class:`~fastdou.SimulationResult`."""
    distributed = _dask()
    if not isinstance(client, distributed.Client):
        raise ArgumentError(f"client must be a dask.distributed.Client, not {short(client)}")
    rules = as_rules(rules)
    deals = whole("deals", deals, 1, MAX_DEALS)
    seed = whole("seed", seed)
    first = whole("first", first, 0, INT64_MAX - deals)
    size = DEFAULT_CHUNK if chunk is None else whole("chunk", chunk, 1, MAX_DEALS)
    threads = whole("threads", 1 if threads is None else threads, 1, 1024)
    if per_deal and deals > PER_DEAL_MAX:
        raise ArgumentError(f"per_deal=True keeps every deal in memory: at most "
                            f"{PER_DEAL_MAX:,} deals")
    if progress is not None and not callable(progress):
        raise ArgumentError(f"progress must be a function or None, not {short(progress)}")
    names = portable_policies(policies, rules.players)
    policy_codes(list(names), rules, functions=2)      # bad names fail here, not on a worker
    plan = chunks(first, deals, size)
    if out is not None:
        out = _dataset_folder(out, {part_name(a, n) for a, n in plan})
        _check_parts(out, rules, names, seed, plan)      # refused before any task starts
    run = os.urandom(6).hex()
    abort = f"fastdou-abort-{run}"
    futures = {client.submit(run_chunk, rules, names, seed, a, n, out, threads, per_deal,
                             abort, key=f"fastdou-{seed}-{a}-{n}-{run}",
                             pure=False, retries=2): (a, n) for a, n in plan}
    totals = Totals.from_json(_empty(rules))
    kept = {}
    done = 0
    try:
        for future in distributed.as_completed(futures):
            part, arrays = future.result()
            totals.merge(Totals.from_json(part))
            a, n = futures[future]
            if per_deal:
                kept[a] = arrays
            done += n
            if progress is not None:
                progress(done)
    except BaseException:
        with contextlib.suppress(Exception):    # the scheduler may be what failed
            distributed.Event(abort, client).set()
            # a task past its last check renames its part holding the lock: taken once here,
            # no part appears after this call has failed
            with client.as_current(), _finishing(abort):
                pass
        raise
    finally:
        for f in futures:
            f.cancel()
    if out is not None:
        remove_leftovers(out)
        write_manifest(out, metadata(rules, seed, names, first, deals),
                       [part_name(a, n) for a, n in plan])
    arrays = None
    if per_deal:
        parts = [kept[a] for a, _ in plan]
        arrays = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    return SimulationResult(rules=rules, seed=seed, summary=totals.summary(),
                            per_deal=arrays, policies=names, first=first, totals=totals)


def _empty(rules) -> dict:
    return Totals(rules.players, preset_features(rules), rules.max_redeals).to_json()


def _dataset_folder(out, planned: set) -> str:
    """Create the dataset folder if needed; refuse one holding parts of another chunking."""
    if not isinstance(out, (str, os.PathLike)):
        raise ArgumentError(f"out must be a folder path, not {short(out)}")
    out = os.fspath(out)
    if os.path.exists(out) and not os.path.isdir(out):
        raise ArgumentError(f"a Dask run writes a dataset folder, and {out} is a file")
    parent = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(parent):
        raise ArgumentError(f"--out folder's parent does not exist: {parent}")
    os.makedirs(out, exist_ok=True)
    existing = {f for f in os.listdir(out) if f.startswith("part-") and f.endswith(".parquet")}
    foreign = existing - planned
    if foreign:
        raise ArgumentError(f"{out} holds parts of another run or chunking (e.g. "
                            f"{sorted(foreign)[0]}): use the same --chunk or a new folder")
    return os.path.abspath(out)


_SAME = ("format", "schema", "rules", "seed", "policies", "first", "deals")


def _same_run(path: str, meta: dict) -> dict:
    """The footer of the part at ``path``, refused unless it is of the run ``meta`` says."""
    from fastdou.extras import need
    pq = need("pyarrow.parquet", "parquet")
    try:
        footer = pq.read_metadata(path).metadata or {}
        stored = json.loads(footer.get(b"fastdou", b"{}"))
    except Exception as e:      # a damaged or foreign file under a part's name
        raise ArgumentError(f"{path} is not a readable part ({type(e).__name__}): remove it "
                            f"or use a new --out folder") from None
    if not isinstance(stored, dict) or any(stored.get(k) != meta[k] for k in _SAME):
        raise ArgumentError(f"{path} holds results of another run (rules, seed, policies "
                            f"or deals differ): use a new --out folder")
    return footer


def _check_parts(out, rules, names, seed, plan) -> None:
    """Refuse, before any task runs, a dataset whose manifest or existing parts are of
    another run: a refused run leaves the dataset as it was."""
    if os.path.lexists(os.path.join(out, MANIFEST)):
        try:
            run, _ = read_manifest(out)
        except RecordError as e:
            raise ArgumentError(f"{out}'s {MANIFEST} is not readable ({e}): remove it or "
                                f"use a new --out folder") from None
        meta = metadata(rules, seed, names, 0, 0)
        if any(run[k] != meta[k] for k in ("format", "schema", "rules", "seed", "policies")):
            raise ArgumentError(f"{out} holds results of another run (rules, seed or "
                                f"policies differ): use a new --out folder")
    for a, n in plan:
        path = os.path.join(out, part_name(a, n))
        if os.path.lexists(path):
            _same_run(path, metadata(rules, seed, names, a, n))


def remove_leftovers(out: str) -> None:
    """Temporary files of workers that died while writing (their chunks were redone)."""
    for f in os.listdir(out):
        if f.startswith(".fastdou-") and f.endswith(".parquet"):
            with contextlib.suppress(OSError):
                os.remove(os.path.join(out, f))


def _quiet_resource_tracker() -> None:
    """Start multiprocessing's resource tracker with its stderr on /dev/null: when a signal
    ends this process at once, the tracker frees the local cluster's semaphores, and its
    warnings would follow fastdou's one line."""
    import sys
    from multiprocessing import resource_tracker

    from fastdou.interrupts import uncut
    with uncut():                        # the signal's line is never written to /dev/null
        sys.stderr.flush()
        saved = os.dup(2)
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, 2)
            resource_tracker.ensure_running()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            os.close(null)


@contextlib.contextmanager
def cluster_client(scheduler=None, workers=None):
    """A client of the scheduler at ``scheduler``, or of a local cluster of ``workers``
    single-threaded worker processes (closed afterwards)."""
    distributed = _dask()
    if (scheduler is None) == (workers is None):
        raise ArgumentError("give either --scheduler ADDRESS or --workers N")
    if scheduler is not None:
        if not isinstance(scheduler, str) or not scheduler.strip():
            raise ArgumentError(f"--scheduler takes an address, not {short(scheduler)}")
        try:
            client = distributed.Client(scheduler, timeout="20s")
        except (OSError, TimeoutError, ValueError) as e:
            raise ArgumentError(f"cannot reach the Dask scheduler at {short(scheduler)}: "
                                f"{short(str(e))}") from None
        with client:
            yield client
        return
    import logging
    import warnings
    workers = whole("--workers", workers, 1, 256)
    _quiet_resource_tracker()
    with warnings.catch_warnings():     # "port in use, another one instead": not the user's
        warnings.simplefilter("ignore", UserWarning)
        cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                           processes=True, dashboard_address=":0",
                                           silence_logs=logging.CRITICAL)
    with cluster, distributed.Client(cluster) as client:
        yield client
