"""Per-deal results streamed to a file in bounded memory (``fastdou simulate --out``), and
read back (:func:`load_results`).

A :class:`ResultWriter` takes :func:`fastdou.simulate`'s chunks (``on_chunk``), turns them
into the table of :mod:`fastdou.table` and writes them to a temporary file beside the
destination (created with the user's umask), renamed over it only by :meth:`close`: an
interrupted run leaves no file that looks complete. Formats, by extension:

* ``.parquet``: one row group per chunk through pyarrow's ``ParquetWriter`` (extra
  ``parquet``); categories as dictionary columns, lz4; metadata under the schema key
  ``fastdou``;
* ``.csv``: a first line ``# fastdou: {metadata}``, then a header and one row per deal
  (``pandas.read_csv(path, comment="#")``);
* ``.jsonl``: a first line ``{"fastdou": {metadata}}``, then one JSON object per deal;
* ``.npz``: one compressed array per column, as ``numpy.load`` reads them, and
  ``_metadata`` (a JSON string); each column is spooled to an anonymous temporary file while
  the run goes, so memory does not grow with the deals.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import tempfile
import zipfile
from typing import TYPE_CHECKING

import numpy as np

from fastdou.checks import short
from fastdou.errors import ArgumentError, FastdouError, RecordError
from fastdou import table as T

if TYPE_CHECKING:
    from fastdou.rules import Rules
    from fastdou.simulation import SimulationResult

FORMATS = (".parquet", ".csv", ".jsonl", ".npz")
_COPY = 1 << 20
_META_KEY = "fastdou"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def need(module: str, extra: str):
    """Import an optional dependency, or say which extra installs it."""
    import importlib
    try:
        return importlib.import_module(module)
    except ImportError:
        raise FastdouError(f"{module.split('.')[0]} is not installed: "
                           f"pip install 'fastdou[{extra}]'") from None


def metadata(rules, seed: int, policies, first: int, deals: int) -> dict:
    """What a results file says about itself."""
    from fastdou import __version__
    return {"format": "fastdou-results", "schema": T.SCHEMA, "fastdou_version": __version__,
            "rules": T.rules_to_json(rules), "seed": int(seed),
            "policies": list(policies), "first": int(first), "deals": int(deals),
            "categories": {k: list(v) for k, v in T.CATEGORIES.items()}}


def arrow_table(cols: dict, meta: dict | None = None):
    """A pyarrow Table of table columns (categories as dictionary columns)."""
    pa = need("pyarrow", "parquet")
    arrays = []
    for name, a in cols.items():
        if name in T.CATEGORIES:
            arrays.append(pa.DictionaryArray.from_arrays(
                pa.array(a, pa.int8()), pa.array(T.CATEGORIES[name], pa.string())))
        else:
            arrays.append(pa.array(a))
    schema_meta = {_META_KEY: json.dumps(meta)} if meta is not None else None
    return pa.Table.from_arrays(arrays, names=list(cols), metadata=schema_meta)


def parquet_options(names) -> dict:
    """ParquetWriter options: lz4 (zstd took a fifth of a simulation's time to write, for
    4.9 bytes a deal against 6.0), dictionaries for every column but the deal index, which
    is delta-encoded (it counts up by one) and the one column with statistics (a row
    group's deal range; every column's cost a sixth of the writing)."""
    return dict(compression="lz4", use_dictionary=[n for n in names if n != "deal"],
                write_statistics=["deal"],
                column_encoding={"deal": "DELTA_BINARY_PACKED"})


class ResultWriter:
    """Write simulation chunks to ``path`` (one of :data:`FORMATS`) atomically, with the
    metadata that :func:`metadata` builds."""

    def __init__(self, path: str, rules: Rules, meta: dict):
        if isinstance(path, str) and os.path.isdir(path):
            raise ArgumentError(f"--out names a folder, not a file: {path}")
        if not isinstance(path, str) or not path.endswith(FORMATS):
            raise ArgumentError(f"--out must end in {', '.join(FORMATS)}, not {short(path)}")
        folder, name = os.path.split(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise ArgumentError(f"--out folder does not exist: {folder}")
        if name in FORMATS:
            raise ArgumentError(f"--out needs a name before its extension, not {short(path)}")
        if len(os.fsencode(name)) > os.pathconf(folder, "PC_NAME_MAX"):
            raise ArgumentError(f"--out file name is too long for its folder: {short(path)}")
        self.kind = os.path.splitext(path)[1]
        if self.kind == ".parquet":
            self._pq = need("pyarrow.parquet", "parquet")
        self.path, self.rules, self.meta = path, rules, meta
        try:
            fd, self._tmp = tempfile.mkstemp(prefix=".fastdou-", suffix=self.kind, dir=folder)
        except OSError as e:
            raise ArgumentError(f"cannot write --out file {path}: {e.strerror}") from None
        os.fchmod(fd, 0o666 & ~_umask())    # the user's umask, not mkstemp's 0600
        text = self.kind in (".jsonl", ".csv")
        self._file = os.fdopen(fd, "w", newline="") if text else os.fdopen(fd, "wb")
        self._spools: dict = {}             # npz: column -> (spool file, dtype)
        self._parquet = None
        self._rows = 0
        self._done = False
        if self.kind == ".jsonl":
            self._file.write(json.dumps({_META_KEY: meta}) + "\n")
        elif self.kind == ".csv":
            self._file.write(f"# {_META_KEY}: {json.dumps(meta)}\n")
            self._csv = csv.writer(self._file, lineterminator="\n")
            self._csv.writerow(T.names(rules))

    def write(self, arrays: dict) -> None:
        """Append one chunk: ``simulate``'s per-deal arrays (with ``deal``)."""
        cols = T.columns(arrays, self.rules)
        n = len(cols["deal"])
        self._rows += n
        if self.kind == ".parquet":
            tab = arrow_table(cols, self.meta)
            if self._parquet is None:
                self._parquet = self._pq.ParquetWriter(self._file, tab.schema,
                                                       **parquet_options(cols))
            self._parquet.write_table(tab, row_group_size=max(n, 1))
            return
        if self.kind in (".jsonl", ".csv"):
            text = {k: (np.asarray(T.CATEGORIES[k])[v] if k in T.CATEGORIES else v).tolist()
                    for k, v in cols.items()}
            rows = zip(*text.values())
            if self.kind == ".csv":
                self._csv.writerows(rows)
            else:
                keys = list(text)
                self._file.writelines(json.dumps(dict(zip(keys, row))) + "\n" for row in rows)
            return
        for name, a in cols.items():
            if name in T.CATEGORIES:
                a = np.asarray(T.CATEGORIES[name])[a]
            if name not in self._spools:
                self._spools[name] = (tempfile.TemporaryFile(), a.dtype)
            spool, dtype = self._spools[name]
            spool.write(np.ascontiguousarray(a.astype(dtype)).tobytes())

    def _write_npz(self) -> None:
        with zipfile.ZipFile(self._file, "w", zipfile.ZIP_DEFLATED, allowZip64=True,
                             compresslevel=1) as zf:
            zf.writestr("_metadata.npy", _npy_bytes(np.array(json.dumps(self.meta))))
            for name, (spool, dtype) in self._spools.items():
                header = {"descr": np.lib.format.dtype_to_descr(dtype),
                          "fortran_order": False, "shape": (self._rows,)}
                with zf.open(name + ".npy", "w", force_zip64=True) as out:
                    np.lib.format.write_array_header_2_0(out, header)
                    spool.seek(0)
                    shutil.copyfileobj(spool, out, _COPY)

    def close(self, footer: dict | None = None) -> None:
        """Finish the file and rename it over ``path``; ``footer``: more key-value metadata
        (parquet only: written in the footer, after the rows)."""
        if self.kind == ".npz":
            self._write_npz()
        elif self.kind == ".parquet":
            if self._parquet is None:       # no chunk: still a valid, empty file
                empty = {k: np.zeros(0, np.int8) for k in T.names(self.rules)}
                self._parquet = self._pq.ParquetWriter(self._file, arrow_table(
                    empty, self.meta).schema)
            if footer:
                self._parquet.add_key_value_metadata(footer)
            self._parquet.close()
        self._file.close()
        os.replace(self._tmp, self.path)
        self._done = True
        self._close_spools()

    def discard(self) -> None:
        """Remove the temporary file unless :meth:`close` finished (safe to call twice)."""
        if self._done:
            return
        self._done = True
        try:
            if self._parquet is not None:   # else its __del__ writes to the closed file
                try:
                    self._parquet.close()
                except Exception:
                    pass
                self._parquet = None
            try:
                self._file.close()          # may fail again, as on a full disk
            except OSError:
                pass
            self._close_spools()
        finally:
            if os.path.exists(self._tmp):
                os.remove(self._tmp)

    def _close_spools(self) -> None:
        for spool, _ in self._spools.values():
            spool.close()
        self._spools = {}


def _npy_bytes(a: np.ndarray) -> bytes:
    import io
    buf = io.BytesIO()
    np.save(buf, a)
    return buf.getvalue()


# ---------------------------------------------------------------------- reading back
def read_table(path: str):
    """``(columns, metadata)`` of a results file or of a Dask parquet dataset (a folder
    of ``part-*.parquet``): columns as numpy arrays (categories as names)."""
    if not isinstance(path, (str, os.PathLike)):
        raise ArgumentError(f"a results path must be a string, not {short(path)}")
    path = os.fspath(path)
    if not os.path.exists(path):
        raise ArgumentError(f"no such results file: {short(path)}")
    try:
        if os.path.isdir(path) or path.endswith(".parquet"):
            return _read_parquet(path)
        if path.endswith(".npz"):
            with np.load(path) as data:
                meta = json.loads(str(data["_metadata"]))
                return {k: data[k] for k in data.files if k != "_metadata"}, meta
        if path.endswith(".jsonl"):
            with open(path) as f:
                meta = json.loads(f.readline())[_META_KEY]
                rows = [json.loads(line) for line in f]
            keys = T.names(T.rules_from_json(meta["rules"]))
            return {k: np.array([r[k] for r in rows]) for k in keys}, meta
        if path.endswith(".csv"):
            return _read_csv(path)
    except FastdouError:
        raise
    except Exception as e:       # whatever numpy, csv, json or pyarrow make of a bad file
        raise RecordError(f"{short(path)} is not a fastdou results file: "
                          f"{type(e).__name__}: {short(str(e))}") from None
    raise ArgumentError(f"a results file ends in {', '.join(FORMATS)}, not {short(path)}")


def _read_csv(path):
    with open(path, newline="") as f:
        first = f.readline()
        prefix = f"# {_META_KEY}: "
        if not first.startswith(prefix):
            raise RecordError(f"{short(path)} has no fastdou metadata line")
        meta = json.loads(first[len(prefix):])
        reader = csv.reader(f)
        header = next(reader)
        cols = list(zip(*reader)) or [()] * len(header)
    out = {}
    for name, values in zip(header, cols):
        if name in T.CATEGORIES:
            out[name] = np.array(values, dtype=str)
        elif name.startswith("team_"):
            out[name] = np.array(values, dtype=str) == "True"
        elif name.startswith("score_"):
            out[name] = np.array(values, dtype=np.float64)
        else:
            out[name] = np.array(values, dtype=np.int64)
    return out, meta


def _read_parquet(path):
    pq = need("pyarrow.parquet", "parquet")
    if os.path.isdir(path):
        files = sorted(f for f in os.listdir(path) if f.startswith("part-")
                       and f.endswith(".parquet"))
        if not files:
            raise RecordError(f"{short(path)} holds no part-*.parquet files")
        tables = [pq.read_table(os.path.join(path, f)) for f in files]
        pa = need("pyarrow", "parquet")
        tab = pa.concat_tables(tables)
        metas = [json.loads(t.schema.metadata[_META_KEY.encode()]) for t in tables]
        meta = dict(metas[0])
        meta["first"] = min(m["first"] for m in metas)
        meta["deals"] = sum(m["deals"] for m in metas)
    else:
        tab = pq.read_table(path)
        meta = json.loads(tab.schema.metadata[_META_KEY.encode()])
    out = {}
    for name in tab.column_names:
        col = tab.column(name)
        if name in T.CATEGORIES:
            out[name] = np.asarray(col.cast(need("pyarrow", "parquet").string())
                                   .to_numpy(zero_copy_only=False)).astype(str)
        else:
            out[name] = col.to_numpy()
    return out, meta


def load_results(path: str) -> SimulationResult:
    """A :class:`~fastdou.SimulationResult` from a results file (or Dask dataset): the
    rules, seed and policies of its metadata, the per-deal arrays, and the summary
    recomputed from them."""
    from fastdou.simulation import result_from_per_deal
    cols, meta = read_table(path)
    try:
        rules = T.rules_from_json(meta["rules"])
        arrays = T.per_deal(cols, rules)
        lengths = {len(v) for v in arrays.values()}
        seed, policies, first = int(meta["seed"]), list(meta["policies"]), int(meta["first"])
        if not all(isinstance(p, str) for p in policies):
            raise RecordError(f"{short(path)} names its policies wrongly: {short(policies)}")
    except FastdouError:
        raise
    except Exception as e:
        raise RecordError(f"{short(path)} holds bad fastdou metadata or columns: "
                          f"{type(e).__name__}: {short(str(e))}") from None
    if len(lengths) != 1:
        raise RecordError(f"{short(path)} holds columns of different lengths")
    order = np.argsort(arrays["deal"], kind="stable")
    if not np.array_equal(order, np.arange(len(order))):
        arrays = {k: v[order] for k, v in arrays.items()}
    return result_from_per_deal(arrays, rules, seed=seed, policies=policies, first=first)
