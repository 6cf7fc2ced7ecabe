"""Bulk simulation: :func:`simulate` plays many deals in compiled code, on several threads
(each a range of deals in a kernel that releases the GIL), each deal a pure function of
``(seed, deal index)``, and summarises them."""

from __future__ import annotations

import dataclasses
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import nullcontext
from typing import TYPE_CHECKING, Callable, Sequence

import numba
import numpy as np

from fastdou.checks import INT64_MAX, flag, short, whole
from fastdou.errors import ArgumentError, PolicyError
from fastdou.hints import RulesLike
from fastdou.kernels import play as P
from fastdou.kernels import state as S
from fastdou.kernels.policies import GREEDY, RANDOM, USER
from fastdou.rules import as_rules
from fastdou.summary import Summary, Totals, preset_features, wilson  # noqa: F401

if TYPE_CHECKING:
    import matplotlib.figure
    import pandas

CHUNK = 1 << 16
MAX_DEALS = 10 ** 12          # about two months of one machine: a typo, not a study
PER_DEAL_MAX = 10_000_000     # deals kept in memory by per_deal=True (~1.5 GB); stream more
POLICIES = {"random": RANDOM, "greedy": GREEDY}


def njit_policy(fn):
    """``fn`` if it is an ``@njit`` function, else a PolicyError."""
    if not isinstance(fn, numba.core.registry.CPUDispatcher):
        raise PolicyError(f"a policy function must be compiled with @numba.njit, not "
                          f"{short(fn)}")
    return fn


def _first_line(e):
    return short((str(e).splitlines() or [type(e).__name__])[0])


def _check_user_policy(fn, rules):
    """A user policy must be an ``@njit`` function ``(state, actions, n, rng) -> (i, rng)``."""
    njit_policy(fn)
    state = np.zeros(S.STATE_SIZE, np.int64)
    actions = np.zeros((2, 2), np.uint64)
    try:
        out = fn(state, actions, 2, np.uint64(1))
    except (numba.core.errors.NumbaError, TypeError) as e:     # typing, or arity
        raise PolicyError(f"policy {fn.__name__} does not take (state, actions, n, rng): "
                          f"{_first_line(e)}") from None
    except Exception as e:   # the policy's own error, on a plain input
        raise PolicyError(f"policy {fn.__name__} raised {type(e).__name__} on a trial call "
                          f"(a zero state, two actions): {_first_line(e)}") from None
    if not (isinstance(out, tuple) and len(out) == 2
            and all(isinstance(v, (int, np.integer)) for v in out)):
        raise PolicyError(f"policy {fn.__name__} must return (index, rng), not {short(out)}")
    try:                          # the one signature the compiled loops call it with
        fn.compile(P.POLICY_SIGNATURE)
    except Exception as e:
        raise PolicyError(f"policy {fn.__name__} does not compile as (int64[:] state, "
                          f"uint64[:, :] actions, int64 n, uint64 rng) -> (int64, uint64): "
                          f"{_first_line(e)}") from None


def import_policy(path: str):
    """The ``@njit`` policy function at an import path ``package.module:function`` (how the
    command line and Dask workers name a user policy); modules are looked for on
    ``sys.path`` and in the current folder."""
    import importlib
    import os
    import sys
    module, _, name = path.partition(":")
    if os.getcwd() not in sys.path:           # as `python -m` does: the current folder
        sys.path.append(os.getcwd())
    try:
        fn = importlib.import_module(module.strip())
        for part in name.strip().split("."):
            fn = getattr(fn, part)
    except (Exception, SystemExit) as e:    # ImportError, AttributeError, the module's own
        raise PolicyError(f"cannot import policy {short(path)}: {type(e).__name__}: "
                          f"{short(str(e))}") from None
    if not callable(fn):
        raise PolicyError(f"policy {short(path)} is not a function")
    return fn


def _policy_codes(policies, rules):
    """Per-seat policy codes and the user function (or None)."""
    if isinstance(policies, str) or callable(policies):
        seats = [policies] * rules.players
    elif isinstance(policies, (list, tuple)):
        seats = list(policies)
    else:
        raise PolicyError(f"policies are a name, an @njit function or one per seat, not "
                          f"{short(policies)}")
    if len(seats) != rules.players:
        raise PolicyError(f"{len(seats)} policies for {rules.players} seats")
    user = None
    codes = np.empty(rules.players, np.int64)
    for s, p in enumerate(seats):
        if isinstance(p, str) and ":" in p:
            p = import_policy(p)
        if isinstance(p, str):
            if p not in POLICIES:
                raise PolicyError(f"unknown policy {short(p)}; policies: "
                                  f"{', '.join(POLICIES)} or an @njit function")
            codes[s] = POLICIES[p]
        elif callable(p):
            if user is not None and p is not user:
                raise PolicyError("one user policy function at most (it may look at the "
                                  "seat to act and behave differently per seat)")
            _check_user_policy(p, rules)
            user = p
            codes[s] = USER
        else:
            raise PolicyError(f"a policy is a name or an @njit function, not {short(p)}")
    return codes, user


@dataclasses.dataclass
class SimulationResult:
    """``summary``; with ``per_deal=True`` also ``per_deal``: one numpy array per result
    field (``fastdou.kernels.play.RESULT_NAMES``) plus ``scores`` (deals x seats, points)
    and ``deal`` (the deal indices). ``policies``: each seat's policy by name (a user
    function by its import path ``module:name``)."""

    rules: object
    seed: int
    summary: Summary
    per_deal: dict | None = None
    policies: tuple = ()
    first: int = 0
    totals: object = dataclasses.field(default=None, repr=False, compare=False)

    def __str__(self) -> str:
        return self.summary.text()

    def metadata(self) -> dict:
        """The metadata results files carry (rules, seed, policies, deal range, version)."""
        from fastdou.results import metadata
        return metadata(self.rules, self.seed, self.policies, self.first, self.summary.deals)

    def table(self) -> dict:
        """The per-deal results as the table's columns (see the README's schema)."""
        from fastdou import table as T
        return T.columns(self._kept(), self.rules)

    def save(self, path: str) -> None:
        """Write the per-deal results to ``path`` (``.parquet``, ``.csv``, ``.jsonl`` or
        ``.npz``; see :mod:`fastdou.results`), with the metadata, atomically."""
        from fastdou.results import ResultWriter
        arrays = self._kept()
        writer = ResultWriter(path, self.rules, self.metadata())
        try:
            n = len(arrays["deal"])
            for a in range(0, max(n, 1), CHUNK):
                writer.write({k: v[a:a + CHUNK] for k, v in arrays.items()})
            writer.close()
        finally:
            writer.discard()

    def to_pandas(self) -> "pandas.DataFrame":
        """The per-deal results as a pandas DataFrame (the table's columns, categories as
        pandas categoricals, the metadata in ``DataFrame.attrs["fastdou"]``); needs pandas
        (extra ``parquet``) and ``per_deal=True``."""
        from fastdou import table as T
        from fastdou.extras import need
        pd = need("pandas", "parquet")
        cols = self.table()
        df = pd.DataFrame({k: pd.Categorical.from_codes(v, T.CATEGORIES[k])
                           if k in T.CATEGORIES else v for k, v in cols.items()})
        df.attrs["fastdou"] = self.metadata()
        return df

    def plot(self, path: str | None = None, *, others: Sequence = (),
             labels: Sequence[str] | None = None) -> "matplotlib.figure.Figure":
        """The report figure (see :func:`fastdou.plots.report`); saved to ``path`` if given.
        ``others``: more results to compare side by side. Needs matplotlib (extra ``plot``)
        and per-deal results."""
        from fastdou.plots import report
        if not isinstance(others, (list, tuple)):
            raise ArgumentError(f"others is a list of results, not {short(others)}")
        return report([self, *others], labels=labels, path=path)

    def _kept(self) -> dict:
        if self.per_deal is None:
            raise ArgumentError("this result kept no per-deal arrays: simulate with "
                                "per_deal=True, or read a results file with load_results")
        return self.per_deal


def policy_names(policies, players: int) -> tuple:
    """Each seat's policy as text, for metadata: a name, or a function's import path."""
    seats = [policies] * players if isinstance(policies, str) or callable(policies) \
        else list(policies)
    out = []
    for p in seats:
        if isinstance(p, str):
            out.append(p)
        else:
            fn = getattr(p, "py_func", p)
            out.append(f"{getattr(fn, '__module__', '?')}:{getattr(fn, '__qualname__', '?')}")
    return tuple(out)


def result_from_per_deal(arrays: dict, rules, *, seed: int, policies, first: int):
    """A :class:`SimulationResult` whose summary is recomputed from per-deal arrays."""
    from fastdou import table as T
    res = np.stack([np.asarray(arrays[n], np.int64) for n in P.RESULT_NAMES], axis=1)
    totals = Totals(rules.players, preset_features(rules), rules.max_redeals)
    if len(res):
        totals.add(res, T.score_units(arrays["scores"]))
    return SimulationResult(rules=rules, seed=int(seed), summary=totals.summary(),
                            per_deal=arrays, policies=tuple(policies), first=int(first))


def simulate(deals: int, rules: RulesLike = "classic", policies: object = "random", *,
             seed: int = 0, threads: int | None = None, per_deal: bool = False,
             first: int = 0, progress: bool | None = None,
             on_chunk: Callable[[dict], None] | None = None, client: object = None,
             out: str | None = None, chunk: int | None = None) -> SimulationResult:
    """Play ``deals`` deals (indices ``first`` .. ``first + deals - 1``) of ``seed``.

    ``policies``: ``"random"``, ``"greedy"``, an ``@njit`` function
    ``(state, actions, n, rng) -> (index, rng)``, or one of those per seat. Results depend
    only on (rules, policies, seed, deal indices): not on ``threads`` or chunking. With
    ``per_deal=False`` memory stays constant in ``deals``. ``progress(done)`` is called with
    the number of deals done after each chunk, ``on_chunk(arrays)`` with that chunk's
    per-deal arrays (as ``per_deal`` gives them, plus ``deal``: the deal indices).
    ``threads``: how many threads play at once, each a range of every chunk (default
    ``numba.get_num_threads()``).

    With ``client`` (a ``dask.distributed.Client``, extra ``dask``) the deals run on its
    workers in tasks of ``chunk`` deals (default 1M), ``threads`` threads each
    (default 1), and ``out`` names a parquet dataset folder the workers write; see
    :mod:`fastdou.distributed`. Policies must then be names or importable functions.
    """
    if client is not None:
        if on_chunk is not None:
            raise ArgumentError("on_chunk runs locally: with client=, write per-deal results "
                                "with out=DATASET_FOLDER")
        from fastdou.distributed import simulate_on_dask
        return simulate_on_dask(client, deals, rules, policies, seed, first=first, out=out,
                                chunk=chunk, threads=threads, per_deal=per_deal,
                                progress=progress)
    if out is not None or chunk is not None:
        raise ArgumentError("out= and chunk= are for Dask runs (client=); locally, stream "
                            "per-deal results with on_chunk= and fastdou.results.ResultWriter")
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
    codes, user = _policy_codes(policies, rules)
    simulate_range = P.compiled_simulate_range()
    threads = numba.get_num_threads() if threads is None else threads
    totals = Totals(rules.players, preset_features(rules), rules.max_redeals)
    kept = []
    done = 0
    with ThreadPoolExecutor(threads) if threads > 1 and deals > 1 else nullcontext() as pool:
        while done < deals:
            n = min(CHUNK, deals - done)
            res = np.empty((n, len(P.RESULT_FIELDS)), np.int64)
            scores = np.empty((n, rules.players), np.int64)
            errors = np.empty(n, np.int64)
            _run(simulate_range, user, pool, threads, rules.array, seed, first + done, codes,
                 res, scores, errors)
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


def _run(simulate_range, user, pool, threads, rules, seed, first, codes, res, scores,
         errors):
    """Play the chunk of deals ``first ..`` into ``res`` / ``scores`` / ``errors``: one
    range of deals per thread on ``pool`` (the kernel releases the GIL), or all here without
    one. ``user``: the user policy, or None for the placeholder. An exception a user policy
    raises becomes a PolicyError (raised once every range has stopped)."""
    fn = P.no_user_policy if user is None else user
    n = len(res)
    cuts = [n * i // threads for i in range(threads + 1)]
    ranges = [(a, b) for a, b in zip(cuts, cuts[1:]) if b > a]

    def play(a, b):
        simulate_range(rules, seed, first + a, codes, res[a:b], scores[a:b], errors[a:b], fn)

    try:
        if pool is None:
            for a, b in ranges:
                play(a, b)
        else:
            futures = [pool.submit(play, a, b) for a, b in ranges]
            wait(futures)
            for f in futures:
                f.result()
    except Exception as e:
        if user is None:
            raise
        cause = e.__cause__ or e.__context__ or e
        raise PolicyError(f"policy {user.__name__} raised {type(cause).__name__}: "
                          f"{short(str(cause))}") from None


def _arrays(res, scores) -> dict:
    """Per-deal arrays by result name, scores in points; each array contiguous (one
    transposing copy: a column of ``res`` would be read with a stride of a whole row)."""
    columns = np.ascontiguousarray(res.T)
    arrays = {name: columns[j] for j, name in enumerate(P.RESULT_NAMES)}
    arrays["scores"] = scores / S.SCORE_UNIT
    return arrays
