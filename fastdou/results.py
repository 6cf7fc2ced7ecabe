"""Per-deal results streamed to a file in bounded memory (``fastdou simulate --out``).

A :class:`ResultWriter` takes :func:`fastdou.simulate`'s chunks (``on_chunk``) and writes
them to a temporary file beside the destination, renamed over it only by :meth:`close`:
an interrupted run leaves no file that looks complete. Formats, by extension:

* ``.jsonl``: one JSON object per deal;
* ``.npz``: one array per field, as ``numpy.savez`` writes them; each field is spooled to
  an anonymous temporary file while the run goes, so memory does not grow with the deals.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import zipfile

import numpy as np

from fastdou.errors import ArgumentError

FORMATS = (".npz", ".jsonl")
_COPY = 1 << 20


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


class ResultWriter:
    """Write simulation chunks to ``path`` (``.npz`` or ``.jsonl``) atomically."""

    def __init__(self, path: str):
        if isinstance(path, str) and os.path.isdir(path):
            raise ArgumentError(f"--out names a folder, not a file: {path}")
        if not isinstance(path, str) or not path.endswith(FORMATS):
            raise ArgumentError(f"--out must end in {' or '.join(FORMATS)}, not {path!r}")
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise ArgumentError(f"--out folder does not exist: {folder}")
        self.path = path
        try:
            fd, self._tmp = tempfile.mkstemp(prefix=".fastdou-",
                                             suffix=os.path.splitext(path)[1], dir=folder)
        except OSError as e:
            raise ArgumentError(f"cannot write --out file {path}: {e.strerror}") from None
        os.fchmod(fd, 0o666 & ~_umask())    # the user's umask, not mkstemp's 0600
        self._file = os.fdopen(fd, "w" if path.endswith(".jsonl") else "wb")
        self._spools: dict = {}             # npz: field -> (spool file, dtype, row shape)
        self._rows = 0
        self._done = False

    def write(self, arrays: dict) -> None:
        """Append one chunk: a dict of per-deal arrays of equal length."""
        if self.path.endswith(".jsonl"):
            names = list(arrays)
            for row in zip(*(arrays[k].tolist() for k in names)):
                self._file.write(json.dumps(dict(zip(names, row))) + "\n")
            return
        for name, a in arrays.items():
            if name not in self._spools:
                self._spools[name] = (tempfile.TemporaryFile(), a.dtype, a.shape[1:])
            spool, dtype, shape = self._spools[name]
            if a.dtype != dtype or a.shape[1:] != shape:
                raise ArgumentError(f"field {name!r} changed shape or type between chunks")
            spool.write(np.ascontiguousarray(a).tobytes())
        self._rows += len(next(iter(arrays.values()))) if arrays else 0

    def _write_npz(self) -> None:
        with zipfile.ZipFile(self._file, "w", zipfile.ZIP_STORED, allowZip64=True) as zf:
            for name, (spool, dtype, shape) in self._spools.items():
                header = {"descr": np.lib.format.dtype_to_descr(dtype),
                          "fortran_order": False, "shape": (self._rows, *shape)}
                with zf.open(name + ".npy", "w", force_zip64=True) as out:
                    np.lib.format.write_array_header_2_0(out, header)
                    spool.seek(0)
                    shutil.copyfileobj(spool, out, _COPY)

    def close(self) -> None:
        """Finish the file and rename it over ``path``."""
        if self.path.endswith(".npz"):
            self._write_npz()
        self._file.close()
        os.replace(self._tmp, self.path)
        self._done = True
        self._close_spools()

    def discard(self) -> None:
        """Remove the temporary file unless :meth:`close` finished (safe to call twice)."""
        if self._done:
            return
        self._done = True
        self._file.close()
        self._close_spools()
        if os.path.exists(self._tmp):
            os.remove(self._tmp)

    def _close_spools(self) -> None:
        for spool, _, _ in self._spools.values():
            spool.close()
        self._spools = {}
