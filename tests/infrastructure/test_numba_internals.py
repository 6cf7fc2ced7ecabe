"""The Numba internals fastdou leans on where a missing one would only make it slower or
quieter, not fail: each is checked here, so that a Numba release that moves one fails CI
instead of degrading silently (tests/kernels/test_refcount_flags.py checks ``_nrt``; docs/kernels.md
lists every internal and its fallback)."""

import os

import numba
import numpy as np

import fastdou

from fastdou.compiling.entry_points import entry_point, typed_entry_point
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


def test_a_literal_true_prunes_what_wild_is_none_guards():
    """How wild-card kernels are called from Python (``typed_entry_point`` with a literal
    True): the ``wild is None`` branch, which would not type here, is pruned."""
    @numba.njit
    def f(x, wild=None):
        if wild is None:
            return x.no_such_attribute
        return x + 1
    entry = typed_entry_point(f, (numba.int64, numba.types.literal(True)))
    assert entry(np.int64(2), True) == 3



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


def test_an_edited_kernel_module_makes_every_cache_entry_stale(tmp_path):
    """A cached kernel embeds the helpers it inlined from other modules, which Numba's
    per-file stamp does not see: the index's version carries a digest of every kernel
    module, so an index written under other kernel sources loads as empty."""
    import copy
    import pickle
    import shutil

    from fastdou.compiling.numba_cache import kernels_digest, sources_digest
    folder = tmp_path / "kernels"
    folder.mkdir()
    (folder / "a.py").write_text("X = 1\n")
    (folder / "b.py").write_text("Y = 2\n")
    before = sources_digest(str(folder))
    (folder / "b.py").write_text("Y = 3\n")
    assert sources_digest(str(folder)) != before

    fastdou.simulate(10)                     # simulate_range's index written or loaded
    files = copy.copy(play.simulate_range._cache._cache_file)
    assert files._version.endswith("-" + kernels_digest())
    index = tmp_path / "index.nbi"
    shutil.copy(files._index_path, index)
    with open(index, "rb") as f:
        assert pickle.load(f) == files._version
    files._index_path = str(index)
    assert files._load_index(), "the index of these sources loads"
    files._version = files._version[:-16] + "0" * 16
    assert files._load_index() == {}
