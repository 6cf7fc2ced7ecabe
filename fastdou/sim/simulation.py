"""Bulk simulation, the front door: :func:`simulate` plays many deals here
(:mod:`fastdou.sim.local_run`) or on a Dask cluster (:mod:`fastdou.sim.distributed`) and returns a
:class:`~fastdou.SimulationResult`.

The layers below, each importing only from those under it: :mod:`fastdou.policies`,
:mod:`fastdou.atomic` and :mod:`fastdou.sim.results` (files), :mod:`fastdou.sim.plots`,
:mod:`fastdou.sim.simulation_result`, :mod:`fastdou.sim.local_run`, :mod:`fastdou.sim.distributed`."""

from __future__ import annotations

from typing import Callable

from fastdou.sim.distributed import simulate_on_dask
from fastdou.errors import ArgumentError
from fastdou.hints import RulesLike
from fastdou.sim.local_run import simulate_local
from fastdou.sim.simulation_result import SimulationResult
# Also looked up here: by fastdou.sim.compare, fastdou.vector, the command line and tests
from fastdou.policies import policy_codes, policy_names  # noqa: F401
from fastdou.sim.simulation_result import MAX_DEALS  # noqa: F401
from fastdou.sim.summary import wilson  # noqa: F401


def simulate(deals: int, rules: RulesLike = "classic", policies: object = "random", *,
             seed: int = 0, threads: int | None = None, per_deal: bool = False,
             first: int = 0, progress: Callable[[int], None] | None = None,
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
    :mod:`fastdou.sim.distributed`. Policies must then be names or importable functions.
    """
    if client is not None:
        if on_chunk is not None:
            raise ArgumentError("on_chunk runs locally: with client=, write per-deal results "
                                "with out=DATASET_FOLDER")
        return simulate_on_dask(client, deals, rules, policies, seed, first=first, out=out,
                                chunk=chunk, threads=threads, per_deal=per_deal,
                                progress=progress)
    if out is not None or chunk is not None:
        raise ArgumentError("out= and chunk= are for Dask runs (client=); locally, stream "
                            "per-deal results with on_chunk= and fastdou.sim.results.ResultWriter")
    return simulate_local(deals, rules, policies, seed=seed, threads=threads,
                          per_deal=per_deal, first=first, progress=progress,
                          on_chunk=on_chunk)
