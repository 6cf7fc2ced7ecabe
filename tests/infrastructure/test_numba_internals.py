"""The Numba internals fastdou leans on where a missing one would only make it slower or
quieter, not fail: each is checked here, so that a Numba release that moves one fails CI
instead of degrading silently (tests/kernels/test_refcount_flags.py checks ``_nrt``; docs/kernels.md
lists every internal and its fallback)."""

import os

import numba
import numpy as np

import fastdou

from fastdou.compiling.entry_points import entry_point
from fastdou.compiling.cold_start import cache_index
from fastdou.kernels import play


def test_the_cache_index_path_is_found():
    index = cache_index(play.simulate_range)
    assert index is not None, "Numba's cache layout changed: cold_start.cache_index"
    assert index.endswith(".nbi")
    assert os.path.basename(index).startswith("play.simulate_range-")


def test_the_fast_entry_point_is_found():
    fn = numba.njit(lambda a, k: a[k] + 1)
    a = np.arange(4, dtype=np.int64)
    entry = entry_point(fn, (a, np.int64(2)))
    assert entry is not fn, "Dispatcher.compile no longer returns an entry point: _entry.py"
    assert callable(entry) and entry(a, np.int64(2)) == 3



def test_the_checked_cache_file_is_in_use():
    """Every fastdou kernel's cache reads and writes checksummed files (numba_cache.py
    replaces Numba's IndexDataCacheFile; a release that renames it fails here)."""
    from numba.core import caching

    from fastdou.compiling.numba_cache import CheckedCacheFile
    for name in ("_load_index", "_load_data", "_dump", "_data_path", "_index_path",
                 "_version", "_source_stamp"):
        assert hasattr(play.simulate_range._cache._cache_file, name), name
    assert issubclass(CheckedCacheFile, caching.IndexDataCacheFile)
    fastdou.simulate(10)                     # loads (or compiles and saves) simulate_range
    assert type(play.simulate_range._cache._cache_file) is CheckedCacheFile
