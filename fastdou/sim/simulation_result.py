"""What a simulation returns, :class:`SimulationResult` (the summary and, with
``per_deal=True``, the per-deal arrays), saved to a results file, plotted, and read back
(:func:`load_results`); and the limits of a simulation's size."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Sequence

import numpy as np

from fastdou.sim import table as T
from fastdou.checks import short
from fastdou.errors import ArgumentError
from fastdou.kernels import play as P
from fastdou.sim.plots import report
from fastdou.sim.results import ResultWriter, read_results
from fastdou.sim.results import metadata as file_metadata
from fastdou.sim.summary import Summary, Totals, preset_features

if TYPE_CHECKING:
    import matplotlib.figure
    import pandas

CHUNK = 1 << 16               # deals per compiled call, and rows per write of a file
MAX_DEALS = 10 ** 12          # about two months of one machine: a typo, not a study
PER_DEAL_MAX = 10_000_000     # deals kept in memory by per_deal=True (~1.5 GB); stream more


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
        return file_metadata(self.rules, self.seed, self.policies, self.first,
                             self.summary.deals)

    def table(self) -> dict:
        """The per-deal results as the table's columns (see the README's schema)."""
        return T.columns(self.kept(), self.rules)

    def save(self, path: str) -> None:
        """Write the per-deal results to ``path`` (``.parquet``, ``.csv``, ``.jsonl`` or
        ``.npz``; see :mod:`fastdou.sim.results`), with the metadata, atomically."""
        arrays = self.kept()
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
        from fastdou.extras import need
        pd = need("pandas", "parquet")
        cols = self.table()
        df = pd.DataFrame({k: pd.Categorical.from_codes(v, T.CATEGORIES[k])
                           if k in T.CATEGORIES else v for k, v in cols.items()})
        df.attrs["fastdou"] = self.metadata()
        return df

    def plot(self, path: str | None = None, *, others: Sequence = (),
             labels: Sequence[str] | None = None) -> "matplotlib.figure.Figure":
        """The report figure (see :func:`fastdou.sim.plots.report`); saved to ``path`` if given.
        ``others``: more results to compare side by side. Needs matplotlib (extra ``plot``)
        and per-deal results."""
        if not isinstance(others, (list, tuple)):
            raise ArgumentError(f"others is a list of results, not {short(others)}")
        return report([self, *others], labels=labels, path=path)

    def kept(self) -> dict:
        """The per-deal arrays, or an ArgumentError if the result kept none."""
        if self.per_deal is None:
            raise ArgumentError("this result kept no per-deal arrays: simulate with "
                                "per_deal=True, or read a results file with load_results")
        return self.per_deal


def result_from_per_deal(arrays: dict, rules, *, seed: int, policies, first: int):
    """A :class:`SimulationResult` whose summary is recomputed from per-deal arrays."""
    res = np.stack([np.asarray(arrays[n], np.int64) for n in P.RESULT_NAMES], axis=1)
    totals = Totals(rules.players, preset_features(rules), rules.max_redeals)
    if len(res):
        totals.add(res, T.score_units(arrays["scores"]))
    return SimulationResult(rules=rules, seed=int(seed), summary=totals.summary(),
                            per_deal=arrays, policies=tuple(policies), first=int(first))


def load_results(path: str) -> SimulationResult:
    """A :class:`~fastdou.SimulationResult` from a results file (or Dask dataset): the
    rules, seed and policies of its metadata, the per-deal arrays, and the summary
    recomputed from them. A file (or dataset) that does not hold exactly what its
    metadata says, as a simulation writes it, is refused with a ``RecordError`` naming
    the file, the row and the rule."""
    arrays, rules, meta = read_results(path)
    return result_from_per_deal(arrays, rules, seed=meta["seed"], policies=meta["policies"],
                                first=meta["first"])
