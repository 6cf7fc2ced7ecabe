"""Memory a call is about to allocate, checked against what the machine has available, so
that a request too large fails at once with the figures instead of swapping or being
killed later (numpy's large arrays are mapped lazily: the allocation itself succeeds)."""

from __future__ import annotations

import os

from fastdou.errors import OutOfMemoryError

_MEMINFO = "/proc/meminfo"
_CGROUP = ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current")


def _meminfo_available() -> int | None:
    try:
        with open(_MEMINFO) as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _cgroup_room() -> int | None:
    """What a cgroup v2 memory limit (a container's) leaves, or None without one."""
    try:
        with open(_CGROUP[0]) as f:
            limit = f.read().strip()
        if limit == "max":
            return None
        with open(_CGROUP[1]) as f:
            return max(0, int(limit) - int(f.read()))
    except (OSError, ValueError):
        return None


def _sysconf_available() -> int | None:
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):
        return None


def available() -> int | None:
    """Bytes this process may still allocate without swapping (None: unknown here)."""
    found = [n for n in (_meminfo_available() or _sysconf_available(), _cgroup_room())
             if n is not None]
    return min(found) if found else None


def text(nbytes: float) -> str:
    """``nbytes`` for a message: ``"59.0 GB"``, ``"12.5 MB"``."""
    if nbytes >= 1e9:
        return f"{nbytes / 1e9:.1f} GB"
    return f"{nbytes / 1e6:.1f} MB"


def check(what: str, nbytes: int, advice: str = "") -> None:
    """Raise OutOfMemoryError if ``nbytes`` (about to be allocated for ``what``) is more
    than :func:`available`; ``advice`` ends the message."""
    room = available()
    if room is not None and nbytes > room:
        raise OutOfMemoryError(f"{what} needs {text(nbytes)}, {text(room)} available"
                               + (f": {advice}" if advice else ""))
