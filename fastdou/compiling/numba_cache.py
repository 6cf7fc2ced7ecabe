"""Numba's on-disk cache of fastdou's kernels, made durable (:func:`durable_cache`).

* Each index and data file carries a SHA-256 of its contents, checked before Numba reads
  it. A damaged entry (emptied, cut, overwritten, or one flipped bit that would still load)
  is removed and compiled again, with one warning line on stderr. Files of another fastdou
  or Numba release are stale to Numba, and overwritten.
* A cache folder that cannot be written (``NUMBA_CACHE_DIR`` read-only, or the package's
  own ``__pycache__`` in a read-only installation, say a warm cache shipped in an image) is
  read as it is; Numba itself would skip it and compile everything elsewhere. A kernel
  missing from it is compiled in every process.
* No folder at all: one warning, and the kernels compile without the disk cache.
* A cached kernel embeds the helpers it inlined from other modules, and Numba's stamp
  checks only the kernel's own file: the index's version carries a digest of every kernel
  module's source (:func:`kernels_digest`), so an edited helper makes every entry stale.

Only functions defined in fastdou are concerned: other ``cache=True`` code is left to Numba.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import pickle
import sys

import numba
from numba.core import caching, config

# Numba's names for its cache implementation and the NUMBA_CACHE_DIR locator (private,
# with a leading underscore in older releases)
_CacheImpl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
_UserProvided = (getattr(caching, "UserProvidedCacheLocator", None)
                 or caching._UserProvidedCacheLocator)
_InTree = getattr(caching, "InTreeCacheLocator", None) or caching._InTreeCacheLocator
_warned: set = set()


def warn(key: str, text: str) -> None:
    """Print ``text`` as one warning line, once per process for each ``key``."""
    if key not in _warned:
        _warned.add(key)
        print(f"fastdou: warning: {' '.join(text.split())}", file=sys.stderr, flush=True)


def _ours(py_func) -> bool:
    return (getattr(py_func, "__module__", None) or "").startswith("fastdou.")


def _name(cache) -> str:
    func = cache._py_func                    # Numba's Cache keeps the Python function
    return f"{func.__module__.rpartition('.')[2]}.{func.__qualname__}"


def _remove_entry(cache) -> None:
    """Delete the index and every data file of ``cache``'s function."""
    files = cache._cache_file                # Numba's IndexDataCacheFile
    folder = files._cache_path
    prefix = os.path.basename(files._index_path)[:-len("nbi")]
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if name.startswith(prefix) and name.endswith((".nbi", ".nbc")):
            try:
                os.remove(os.path.join(folder, name))
            except OSError:
                pass


class DamagedEntry(Exception):
    """A cache file whose contents do not match their checksum."""


def _verified(data: bytes, path: str) -> bytes:
    digest, payload = data[:32], data[32:]
    if len(data) < 32 or hashlib.sha256(payload).digest() != digest:
        raise DamagedEntry(f"{os.path.basename(path)} does not match its checksum")
    return payload


class CheckedCacheFile(caching.IndexDataCacheFile):
    """Numba's index and data files, each payload behind its SHA-256 (Numba's own format
    otherwise: its pickles, its names, its atomic writes)."""

    TAG = "+fastdou-sha256"                 # in the index's version: other files are stale

    def _dump(self, obj):
        data = super()._dump(obj)
        return hashlib.sha256(data).digest() + data

    def _load_index(self):
        try:
            with open(self._index_path, "rb") as f:
                version = pickle.load(f)
                data = f.read()
        except FileNotFoundError:
            return {}
        if version != self._version:
            return {}
        stamp, overloads = pickle.loads(_verified(data, self._index_path))
        caching._cache_log("[cache] index loaded from %r", self._index_path)
        return overloads if stamp == self._source_stamp else {}

    def _load_data(self, name):
        path = self._data_path(name)
        with open(path, "rb") as f:
            data = f.read()
        loaded = pickle.loads(_verified(data, path))
        caching._cache_log("[cache] data loaded from %r", path)     # NUMBA_DEBUG_CACHE
        return loaded


def sources_digest(folder: str) -> str:
    """The first 16 hex digits of a SHA-256 over the names and contents of the ``.py``
    files in ``folder``."""
    h = hashlib.sha256()
    for name in sorted(n for n in os.listdir(folder) if n.endswith(".py")):
        h.update(name.encode() + b"\0")
        with open(os.path.join(folder, name), "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()[:16]


@functools.cache
def kernels_digest() -> str:
    """:func:`sources_digest` of the ``fastdou.kernels`` package's folder."""
    spec = importlib.util.find_spec("fastdou.kernels")     # found, not imported
    return sources_digest(list(spec.submodule_search_locations)[0])


def _checked(cache) -> None:
    """Make ``cache`` (Numba's per-function Cache) read and write :class:`CheckedCacheFile`."""
    files = cache._cache_file                # Numba's IndexDataCacheFile
    if type(files) is caching.IndexDataCacheFile:
        files.__class__ = CheckedCacheFile
        files._version = f"{numba.__version__}{CheckedCacheFile.TAG}-{kernels_digest()}"


_numba_load = caching.Cache.load_overload     # Numba's per-function cache read
_numba_save = caching.Cache.save_overload     # Numba's per-function cache write


def _load_overload(self, sig, target_context):
    """Numba's load, but a damaged entry is removed and reported as missing (compiled)."""
    if not _ours(self._py_func):
        return _numba_load(self, sig, target_context)
    _checked(self)
    try:
        return _numba_load(self, sig, target_context)
    except Exception as e:                   # unpickling or LLVM's reading of a damaged file
        _remove_entry(self)
        warn(f"damaged {_name(self)}", f"damaged Numba cache entry for {_name(self)} "
             f"({type(e).__name__}: {e}) removed; compiling it again")
        return None


def _save_overload(self, sig, data):
    """Numba's save, but a cache that cannot be written is a warning, not an error."""
    if not _ours(self._py_func):
        return _numba_save(self, sig, data)
    from fastdou.interrupts import uncut
    _checked(self)
    for _ in range(2):                        # once more after removing a damaged index
        try:
            with uncut():                     # a signal never leaves a half-written file
                _numba_save(self, sig, data)
            return
        except OSError as e:
            warn("unwritable", f"cannot write the Numba cache ({e.strerror or e}: "
                 f"{self.cache_path}): kernels missing from it are compiled in every process")
            return
        except Exception:                     # a damaged index met when adding to it
            _remove_entry(self)


class ReadOnlyCacheDir(_UserProvided):
    """``NUMBA_CACHE_DIR`` when it is a folder that cannot be written, for fastdou's
    functions: read as it is (Numba's own locator wants a writable folder)."""

    @classmethod
    def from_function(cls, py_func, py_file):
        if not (config.CACHE_DIR and _ours(py_func) and os.path.isdir(config.CACHE_DIR)
                and os.path.exists(py_file)):
            return None
        return cls(py_func, py_file)


class ReadOnlyInTree(_InTree):
    """The package's own ``__pycache__`` when it cannot be written but holds cached kernels
    of the function's module (a warm cache installed read-only), for fastdou's functions:
    read as it is (Numba's own locator wants a writable folder)."""

    @classmethod
    def from_function(cls, py_func, py_file):
        if not (_ours(py_func) and os.path.exists(py_file)):
            return None
        folder = os.path.join(os.path.dirname(py_file), "__pycache__")
        module = os.path.splitext(os.path.basename(py_file))[0] + "."
        try:
            held = any(f.startswith(module) and f.endswith(".nbi") for f in os.listdir(folder))
        except OSError:
            return None
        return cls(py_func, py_file) if held else None


def durable_cache(probe) -> bool:
    """Install the above (once) and say whether fastdou's functions defined beside the
    function ``probe`` (never compiled) can be cached on disk at all (else: one warning)."""
    if caching.Cache.load_overload is not _load_overload:
        caching.Cache.load_overload = _load_overload
        caching.Cache.save_overload = _save_overload
        locators = _CacheImpl._locator_classes             # Numba's locator search order
        locators.insert(locators.index(_UserProvided) + 1, ReadOnlyCacheDir)
        locators.insert(locators.index(_InTree) + 1, ReadOnlyInTree)
    try:
        caching.FunctionCache(probe)          # Numba's search for a cache folder
    except RuntimeError as e:                 # "no locator available"
        warn("no cache", f"no folder to cache compiled kernels in ({e}); compiling "
             f"without the disk cache: set NUMBA_CACHE_DIR to a writable folder")
        return False
    return True
