"""Numba's on-disk cache of the kernels: a damaged entry is removed and recompiled with one
warning, a cache that cannot be written is read as it is, and no cache location at all
means a run without the disk cache. Every run is a subprocess on a private copy of a warm
cache (never the shared one)."""

import json
import os
import shutil
import subprocess
import sys

import pytest

SIMULATE = ["simulate", "--deals", "2000", "--seed", "3", "--json"]


def cli(env, *argv, timeout=600):
    """``fastdou ARGV`` in a subprocess with ``env``."""
    return subprocess.run([sys.executable, "-m", "fastdou", *argv], env=env,
                          capture_output=True, text=True, timeout=timeout)


def cache_env(cache_dir, **more):
    """This environment with Numba's cache in ``cache_dir``, compile notices on."""
    env = {k: v for k, v in os.environ.items() if k != "FASTDOU_QUIET"}
    return dict(env, **{"NUMBA_CACHE_DIR": str(cache_dir), "FASTDOU_COMPILE_HELPER": "0",
                        **more})


def kernels_folder(cache_dir):
    """Where Numba keeps the kernels' files under ``cache_dir`` (one folder per source
    folder: every kernel lives in fastdou.kernels)."""
    from numba.core.caching import _CacheLocator      # Numba's cache path layout
    from fastdou.kernels import play
    return os.path.join(cache_dir, _CacheLocator.get_suitable_cache_subpath(play.__file__))


@pytest.fixture(scope="session")
def warm_cache(tmp_path_factory):
    """A cache folder warm for ``fastdou simulate`` (copied from this process's cache, then
    completed by one run) and that run's output."""
    from fastdou.compiling.cold_start import cache_index
    from fastdou.kernels import play
    root = tmp_path_factory.mktemp("warm")
    folder = kernels_folder(root)
    os.makedirs(folder)
    index = cache_index(play.simulate_range)
    if index is not None and os.path.isdir(os.path.dirname(index)):
        source = os.path.dirname(index)
        for name in os.listdir(source):
            if name.endswith((".nbi", ".nbc")):
                shutil.copy2(os.path.join(source, name), folder)
    run = cli(cache_env(root), *SIMULATE)
    assert run.returncode == 0, run.stderr
    return root, run.stdout


def private_copy(warm_cache, tmp_path):
    root = tmp_path / "cache"
    shutil.copytree(warm_cache[0], root)
    return root


def entry(root, name, suffix):
    """The one file of kernel ``name`` (``play.simulate_range``) ending in ``suffix``."""
    folder = kernels_folder(root)
    found = [f for f in os.listdir(folder) if f.startswith(name + "-") and f.endswith(suffix)]
    assert len(found) == 1, found
    return os.path.join(folder, found[0])


def _empty(path):
    open(path, "wb").close()


def _halved(path):
    os.truncate(path, os.path.getsize(path) // 2)


def _garbage_head(path):
    with open(path, "r+b") as f:
        f.write(bytes(range(7, 7 + 200)))


def _flipped_middle(path):
    with open(path, "r+b") as f:
        f.seek(os.path.getsize(path) // 2)
        byte = f.read(64)
        f.seek(-len(byte), 1)
        f.write(bytes(b ^ 0x5A for b in byte))


def _one_bit_in_code(path):
    """One bit of the machine code flipped: the file still unpickles and links."""
    with open(path, "r+b") as f:
        data = f.read()
        at = data.index(b"\x7fELF") + 64 + 1024       # past the ELF header, in its sections
        f.seek(at)
        f.write(bytes([data[at] ^ 0x01]))


def _one_bit_in_index(path):
    with open(path, "r+b") as f:
        f.seek(os.path.getsize(path) - 3)
        byte = f.read(1)
        f.seek(-1, 1)
        f.write(bytes([byte[0] ^ 0x01]))


@pytest.mark.parametrize("suffix,damage", [
    (".nbc", _empty), (".nbc", _halved), (".nbc", _garbage_head), (".nbc", _flipped_middle),
    (".nbc", _one_bit_in_code), (".nbi", _empty), (".nbi", _garbage_head),
    (".nbi", _one_bit_in_index),
], ids=["data-empty", "data-halved", "data-garbage", "data-flipped", "data-one-bit",
        "index-empty", "index-garbage", "index-one-bit"])
def test_damaged_entry_is_recompiled_with_one_warning(warm_cache, tmp_path, suffix, damage):
    root = private_copy(warm_cache, tmp_path)
    damage(entry(root, "play.simulate_range", suffix))
    first = cli(cache_env(root), *SIMULATE)
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout) == json.loads(warm_cache[1])
    warnings = [line for line in first.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "damaged" in warnings[0] and "simulate_range" in warnings[0]
    assert "Traceback" not in first.stderr
    again = cli(cache_env(root), *SIMULATE)                # recompiled and saved again
    assert again.returncode == 0 and again.stderr == ""
    assert json.loads(again.stdout) == json.loads(warm_cache[1])


NO_LOCATION = """
import numba.core.caching as caching

def unwritable(self):                        # every folder Numba may cache in is read-only
    raise PermissionError(13, "Permission denied", self.get_cache_path())

caching._CacheLocator.ensure_cache_path = unwritable
import numpy as np
import fastdou
from fastdou import kernels as K
print(K.size(np.uint64(0x121)), fastdou.__version__ != "")
"""


def test_no_writable_cache_location_warns_and_runs(tmp_path):
    """No folder to cache in: one warning, then the kernels compile and run without the
    disk cache (the import does not fail)."""
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    env = cache_env(blocked / "cache")                 # under a file: never a folder
    run = subprocess.run([sys.executable, "-c", NO_LOCATION], env=env, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["4", "True"]
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and "warning" in lines[0] and "cache" in lines[0], lines


def _read_only_runner():
    """A command prefix that runs a command with a folder read-only, or None: as root
    permissions do not apply, so a read-only bind mount (``unshare``) stands in."""
    if os.geteuid() != 0:
        return lambda folder: []
    if shutil.which("unshare") is None:
        return None
    probe = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c",
                            "mount --bind -o ro / /mnt"], capture_output=True)
    if probe.returncode != 0:
        return None
    return lambda folder: ["unshare", "-m", "--propagation", "private", "sh", "-c",
                           'mount --bind -o ro "$0" "$0" && exec "$@"', str(folder)]


def test_read_only_cache_is_used_as_it_is(warm_cache, tmp_path):
    """A warm cache folder that cannot be written: every kernel is loaded from it, nothing
    is compiled or written elsewhere."""
    runner = _read_only_runner()
    if runner is None:
        pytest.skip("cannot make a folder read-only here")
    root = private_copy(warm_cache, tmp_path)
    if os.geteuid() != 0:
        for folder, _, files in os.walk(root):
            os.chmod(folder, 0o555)
    env = cache_env(root, NUMBA_DEBUG_CACHE="1")
    try:
        run = subprocess.run(runner(root) + [sys.executable, "-m", "fastdou", *SIMULATE],
                             env=env, capture_output=True, text=True, timeout=600)
    finally:
        for folder, _, _ in os.walk(root):
            os.chmod(folder, 0o755)
    assert run.returncode == 0, run.stderr[-2000:]
    answer = [line for line in run.stdout.splitlines() if line.startswith("{")]
    assert [json.loads(a) for a in answer] == [json.loads(warm_cache[1])]
    loaded = [line for line in run.stdout.splitlines() + run.stderr.splitlines()
              if line.startswith("[cache]")]
    assert loaded and all(str(root) in line for line in loaded), loaded[:3]
    assert not any("saved" in line for line in loaded)


def test_read_only_package_cache_is_used_as_it_is(tmp_path):
    """The package's own warm ``__pycache__`` in a read-only installation (no
    ``NUMBA_CACHE_DIR``): every kernel is loaded from it, nothing compiled or written."""
    runner = _read_only_runner()
    if runner is None or os.geteuid() != 0:
        pytest.skip("cannot make the package folder read-only here")
    from fastdou import kernels
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(FASTDOU_COMPILE_HELPER="0", HOME=str(tmp_path))   # Numba's user-wide cache
    warm = subprocess.run([sys.executable, "-m", "fastdou", *SIMULATE], env=env,
                          capture_output=True, text=True, timeout=600)
    assert warm.returncode == 0, warm.stderr
    folder = os.path.join(os.path.dirname(kernels.__file__), "__pycache__")
    run = subprocess.run(runner(folder) + [sys.executable, "-m", "fastdou", *SIMULATE],
                         env=dict(env, NUMBA_DEBUG_CACHE="1"), capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    answer = [line for line in run.stdout.splitlines() if line.startswith("{")]
    assert [json.loads(a) for a in answer] == [json.loads(warm.stdout)]
    loaded = [line for line in run.stdout.splitlines() + run.stderr.splitlines()
              if line.startswith("[cache]")]
    assert loaded and all(folder in line for line in loaded), loaded[:3]
    assert not any("saved" in line for line in loaded)
    assert not [f for _, _, files in os.walk(tmp_path) for f in files if ".nb" in f]
