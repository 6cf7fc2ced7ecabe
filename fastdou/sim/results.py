"""Per-deal results streamed to a file in bounded memory (``fastdou simulate --out``), and
read back (:func:`read_results`, which :func:`fastdou.load_results` wraps in a
:class:`~fastdou.SimulationResult`).

A :class:`ResultWriter` takes :func:`fastdou.simulate`'s chunks (``on_chunk``), turns them
into the table of :mod:`fastdou.sim.table` and writes them to a temporary file beside the
destination (:class:`fastdou.atomic.AtomicFile`), renamed over it only by :meth:`close`:
an interrupted run leaves no file that looks complete. Formats, by extension:

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

import numpy as np

from fastdou.atomic import AtomicFile, write_atomically
from fastdou.checks import short
from fastdou.errors import ArgumentError, FastdouError, RecordError
from fastdou.extras import need
from fastdou.sim import table as T
from fastdou.rules import Rules

FORMATS = (".parquet", ".csv", ".jsonl", ".npz")
_COPY = 1 << 20
_META_KEY = "fastdou"


def metadata(rules, seed: int, policies, first: int, deals: int) -> dict:
    """What a results file says about itself."""
    from fastdou import __version__
    return {"format": "fastdou-results", "schema": T.SCHEMA, "fastdou_version": __version__,
            "rules": rules.to_json(), "seed": int(seed),
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
            self._out = AtomicFile(path, text=self.kind in (".jsonl", ".csv"))
        except OSError as e:
            raise ArgumentError(f"cannot write --out file {path}: {e.strerror}") from None
        self._file = self._out.file
        try:
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
        except BaseException:              # no temporary file outlives a failed start
            self._out.discard()
            raise

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
        self._out.commit()
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
            self._close_spools()
        finally:
            self._out.discard()

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
    of ``part-*.parquet``): columns as numpy arrays (categories as names), checked as
    :func:`read_results` checks them."""
    cols, _, meta = _read_checked(path)
    return cols, meta


def _read_checked(path):
    """``(columns, per-deal arrays, metadata)`` of a results file or dataset, refused with
    a ``RecordError`` naming the file (and row) unless it holds exactly what its metadata
    says, as a simulation writes it."""
    if not isinstance(path, (str, os.PathLike)):
        raise ArgumentError(f"a results path must be a string, not {path}")
    path = os.fspath(path)
    if not os.path.exists(path):
        raise ArgumentError(f"no such results file: {short(path)}")
    if os.path.isdir(path):
        return _read_dataset(path)
    if not path.endswith(FORMATS):
        raise ArgumentError(f"a results file ends in {', '.join(FORMATS)}, not {path}")
    cols, meta = _read_raw(path)
    arrays, _ = _checked(path, cols, meta)
    return cols, arrays, meta


def _read_raw(path):
    """``(columns, metadata)`` as a file holds them, unchecked."""
    try:
        if path.endswith(".parquet"):
            return _read_parquet(path)
        if path.endswith(".npz"):
            with open(path, "rb") as f, np.load(f, allow_pickle=False) as data:
                meta = _meta_json(path, str(data["_metadata"]))
                return {k: data[k] for k in data.files if k != "_metadata"}, meta
        if path.endswith(".jsonl"):
            return _read_jsonl(path)
        return _read_csv(path)
    except FastdouError:
        raise
    except Exception as e:       # whatever numpy, csv, json or pyarrow make of a bad file
        raise RecordError(f"{path} is not a fastdou results file: "
                          f"{type(e).__name__}: {short(str(e))}") from None


def _meta_json(path, text):
    try:
        meta = json.loads(text)
    except (ValueError, RecursionError):
        raise RecordError(f"{path}: its metadata is not JSON") from None
    return meta


def _whole(meta, key, lo=0, hi=2 ** 63 - 1):
    v = meta.get(key)
    if type(v) is not int or not lo <= v <= hi:      # no bools, no 1.5
        raise RecordError(f"metadata {key} must be a whole number {lo}..{hi}, not {short(v)}")
    return v


def check_metadata(meta):
    """The :class:`Rules` of a results file's metadata, refused unless every field is what
    :func:`metadata` writes (format, schema, seed, a policy name per seat, deal range)."""
    if not isinstance(meta, dict):
        raise RecordError(f"metadata must be an object, not {short(meta)}")
    keys = {"format", "schema", "fastdou_version", "rules", "seed", "policies", "first",
            "deals", "categories"}
    if set(meta) != keys:
        raise RecordError(f"metadata fields must be {', '.join(sorted(keys))}, not "
                          f"{short(', '.join(map(str, meta)))}")
    if meta["format"] != "fastdou-results":
        raise RecordError(f"metadata format must be 'fastdou-results', not {short(meta['format'])}")
    if type(meta["schema"]) is not int or meta["schema"] != T.SCHEMA:
        raise RecordError(f"schema {short(meta['schema'])} is not this fastdou's ({T.SCHEMA})")
    if not isinstance(meta["fastdou_version"], str):
        raise RecordError(f"metadata fastdou_version must be text, not "
                          f"{short(meta['fastdou_version'])}")
    if meta["categories"] != {k: list(v) for k, v in T.CATEGORIES.items()}:
        raise RecordError(f"metadata categories are not this schema's: "
                          f"{short(meta['categories'])}")
    _whole(meta, "seed")
    first = _whole(meta, "first")
    _whole(meta, "deals", 0, 2 ** 63 - 1 - first)
    try:
        rules = Rules.from_json(meta["rules"])
    except FastdouError as e:
        raise RecordError(f"metadata rules are not valid: {e}") from None
    except Exception as e:       # a field of the wrong type that Rules does not expect
        raise RecordError(f"metadata rules are not valid: {type(e).__name__}: "
                          f"{short(str(e))}") from None
    policies = meta["policies"]
    if not (isinstance(policies, list) and len(policies) == rules.players
            and all(isinstance(p, str) and p for p in policies)):
        raise RecordError(f"metadata policies must be a name per seat ({rules.players}), "
                          f"not {short(policies)}")
    return rules


def _rules_of(path, meta):
    try:
        return check_metadata(meta)
    except RecordError as e:
        raise RecordError(f"{path}: {e}") from None


def _checked(path, cols, meta):
    """``(per-deal arrays, rules)`` of a file's columns, refused (naming the file) unless
    they are valid and hold exactly deals ``first .. first + deals - 1`` of its metadata."""
    try:
        rules = check_metadata(meta)
        arrays = T.per_deal(cols, rules)
        _check_deals(arrays["deal"], meta["first"], meta["deals"])
    except RecordError as e:
        raise RecordError(f"{path}: {e}") from None
    except Exception as e:       # a column pyarrow or numpy could not convert
        raise RecordError(f"{path} holds bad columns: {type(e).__name__}: "
                          f"{short(str(e))}") from None
    return arrays, rules


def _check_deals(deal, first, deals):
    """Deal ids: each of ``first .. first + deals - 1`` exactly once (no cut, no copy)."""
    if len(deal) != deals:
        raise RecordError(f"holds {len(deal):,} deal rows where its metadata says {deals:,} "
                          f"(a cut or padded file)")
    out = (deal < first) | (deal >= first + deals)
    if out.any():
        row = int(np.flatnonzero(out)[0])
        raise RecordError(f"row {row + 1}: deal {deal[row]} outside its metadata's "
                          f"{first}..{first + deals - 1}")
    seen = np.zeros(deals, bool)
    index = deal - first
    _, where = np.unique(index, return_index=True)
    if len(where) != deals:
        seen[where] = True
        row = int(np.flatnonzero(~seen)[0])
        raise RecordError(f"row {row + 1}: deal {deal[row]} appears twice")


def _read_jsonl(path):
    with open(path) as f:
        meta = _meta_json(path, f.readline())
        if not isinstance(meta, dict) or set(meta) != {_META_KEY}:
            raise RecordError(f"{path} has no fastdou metadata line")
        meta = meta[_META_KEY]
        keys = T.names(_rules_of(path, meta))
        rows = []
        for line, text in enumerate(f, 2):
            try:
                row = json.loads(text)
            except (ValueError, RecursionError):
                raise RecordError(f"{path}: line {line} is not JSON") from None
            if not isinstance(row, dict) or list(row) != keys:
                raise RecordError(f"{path}: line {line} is not a row of the columns "
                                  f"{', '.join(keys)}")
            rows.append(row)
    out = {}
    for k in keys:
        values = [r[k] for r in rows]
        want = _json_kind(k)
        for line, v in enumerate(values, 2):
            if not want(v):
                raise RecordError(f"{path}: line {line}: column {k} holds {short(v)}")
        out[k] = np.array(values, dtype=_text_dtype(k)) if values else \
            np.zeros(0, _text_dtype(k))
    return out, meta


def _json_kind(name):
    """What a JSON value of column ``name`` must be."""
    if name in T.CATEGORIES:
        return lambda v: isinstance(v, str)
    if name.startswith("team_"):
        return lambda v: isinstance(v, bool)
    if name.startswith("score_"):
        return lambda v: type(v) in (int, float)
    return lambda v: type(v) is int and -2 ** 63 <= v < 2 ** 63


def _text_dtype(name):
    if name in T.CATEGORIES:
        return str
    if name.startswith("team_"):
        return bool
    return np.float64 if name.startswith("score_") else np.int64


def _read_csv(path):
    with open(path, newline="") as f:
        first = f.readline()
        prefix = f"# {_META_KEY}: "
        if not first.startswith(prefix):
            raise RecordError(f"{path} has no fastdou metadata line")
        meta = _meta_json(path, first[len(prefix):])
        keys = T.names(_rules_of(path, meta))
        reader = csv.reader(f)
        if next(reader, None) != keys:
            raise RecordError(f"{path}: line 2 is not the header {','.join(keys)}")
        rows = []
        for row in reader:
            if len(row) != len(keys):      # a blank, cut or padded line
                raise RecordError(f"{path}: line {reader.line_num + 1} holds "
                                  f"{len(row)} fields, not {len(keys)}")
            rows.append(row)
    cols = list(zip(*rows)) or [()] * len(keys)
    out = {}
    for name, values in zip(keys, cols):
        if name in T.CATEGORIES:
            out[name] = np.array(values, dtype=str)
            continue
        if name.startswith("team_"):
            bad = [v not in ("True", "False") for v in values]
            parse = lambda v: v == "True"            # noqa: E731
        else:
            parse = float if name.startswith("score_") else int
            bad = [not _parses(parse, v) for v in values]
        if any(bad):
            row = bad.index(True)
            raise RecordError(f"{path}: line {row + 3}: column {name} holds "
                              f"{short(values[row])}")
        if name.startswith("team_"):
            out[name] = np.array([parse(v) for v in values], dtype=bool)
        elif parse is int and not all(-2 ** 63 <= int(v) < 2 ** 63 for v in values):
            raise RecordError(f"{path}: column {name} holds a number beyond int64")
        else:
            out[name] = np.array(values, dtype=_text_dtype(name))
    return out, meta


def _parses(parse, text):
    try:
        parse(text)
    except ValueError:
        return False
    return text.strip() == text and text != ""


def _read_parquet(path):
    pq = need("pyarrow.parquet", "parquet")
    pa = need("pyarrow", "parquet")
    tab = pq.read_table(path)
    raw = (tab.schema.metadata or {}).get(_META_KEY.encode())
    if raw is None:
        raise RecordError(f"{path} has no fastdou metadata")
    meta = _meta_json(path, raw)
    out = {}
    for name in tab.column_names:
        col = tab.column(name)
        if pa.types.is_dictionary(col.type) or pa.types.is_string(col.type):
            out[name] = np.asarray(col.cast(pa.string()).to_numpy(zero_copy_only=False)
                                   ).astype(str)
        else:
            out[name] = col.to_numpy()
    return out, meta


PARTS = "part-{first:015d}-{last:015d}.parquet"
MANIFEST = "_dataset.json"


def part_name(first: int, n: int) -> str:
    """The file name of a dataset's part holding deals ``first .. first + n - 1``."""
    return PARTS.format(first=first, last=first + n - 1)


def write_manifest(out: str, meta: dict, parts: list) -> None:
    """Declare the dataset in folder ``out`` complete: ``meta`` (of the whole run, as
    :func:`metadata` builds it) and its part names, written last and atomically."""
    write_atomically(os.path.join(out, MANIFEST),
                     lambda f: json.dump(dict(meta, parts=list(parts)), f), text=True)


def read_manifest(path):
    """``(metadata, part names)`` of the dataset folder ``path``."""
    file = os.path.join(path, MANIFEST)
    try:
        with open(file, "rb") as f:
            meta = _meta_json(file, f.read())
    except FileNotFoundError:
        raise RecordError(f"{path} is not a finished dataset: it has no {MANIFEST}, which "
                          f"a Dask run writes last (rerun the same command to complete "
                          f"it)") from None
    except OSError as e:
        raise RecordError(f"{file} cannot be read: {e.strerror}") from None
    parts = meta.pop("parts", None) if isinstance(meta, dict) else None
    _rules_of(file, meta)
    if not (isinstance(parts, list) and parts and all(isinstance(p, str) for p in parts)):
        raise RecordError(f"{file}: parts must be a list of part file names, not "
                          f"{short(parts)}")
    return meta, parts


def _read_dataset(path):
    """A Dask dataset: the parts its manifest lists, each checked on its own, then
    together: each named for its deal range, of the manifest's run (rules, seed,
    policies), the ranges following each other from its ``first`` over its ``deals``.
    Part files it does not list (of an unfinished longer run) are not read."""
    run, names = read_manifest(path)
    parts = []
    for f in names:
        file = os.path.join(path, f)
        if not os.path.isfile(file):
            raise RecordError(f"{path} is incomplete: its part {f} is missing (rerun the "
                              f"same command to complete it)")
        cols, meta = _read_raw(file)
        arrays, _ = _checked(file, cols, meta)
        if f != part_name(meta["first"], meta["deals"]) or meta["deals"] == 0:
            raise RecordError(f"{file}: a part of deals {meta['first']} + "
                              f"{meta['deals']} must be named "
                              f"{part_name(meta['first'], max(meta['deals'], 1))}")
        differ = [k for k in ("format", "schema", "rules", "seed", "policies")
                  if meta[k] != run[k]]
        if differ:
            raise RecordError(f"{file} is of another run than its dataset's "
                              f"{MANIFEST} ({', '.join(differ)} differ): one run per dataset")
        parts.append((meta["first"], file, cols, arrays, meta))
    parts.sort(key=lambda p: p[0])
    at = run["first"]
    for a, file, _, _, m in parts:
        if a != at:
            raise RecordError(f"{path} is incomplete or overlapping: its parts do not "
                              f"follow each other at deal {at} ({file})")
        at += m["deals"]
    if at != run["first"] + run["deals"]:
        raise RecordError(f"{path}: its parts hold deals {run['first']}..{at - 1}, its "
                          f"{MANIFEST} says {run['first']} + {run['deals']}")
    cols = {k: np.concatenate([p[2][k] for p in parts]) for k in parts[0][2]}
    arrays = {k: np.concatenate([p[3][k] for p in parts]) for k in parts[0][3]}
    return cols, arrays, run


def read_results(path: str) -> tuple:
    """``(per-deal arrays, rules, metadata)`` of a results file (or Dask dataset), the
    arrays in deal order. A file (or dataset) that does not hold exactly what its metadata
    says, as a simulation writes it, is refused with a ``RecordError`` naming the file,
    the row and the rule."""
    _, arrays, meta = _read_checked(path)
    rules = Rules.from_json(meta["rules"])
    order = np.argsort(arrays["deal"], kind="stable")
    if not np.array_equal(order, np.arange(len(order))):
        arrays = {k: v[order] for k, v in arrays.items()}
    return arrays, rules, meta
