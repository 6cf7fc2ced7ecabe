"""Ctrl-C and SIGTERM end the command line at any moment at once: status 130 / 143 and
one line on stderr, whatever arrives after.

Python runs a signal handler in the main thread between bytecodes only: not while LLVM
compiles a kernel; and an exception it raises may be swallowed (in a finalizer inside
Numba), printed as ignored, or break the code it lands in (a lock released twice). So
within :func:`stopping` no exception is raised: a watcher thread, woken by the signal
itself (``signal.set_wakeup_fd``), runs the functions registered with :func:`on_hard_exit`
(temporary files, helper processes), says the line and calls ``os._exit``. A file being
written within :func:`uncut` (a Numba cache file) is finished first.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from contextlib import contextmanager

LINES = {signal.SIGINT: (130, "fastdou: interrupted"),
         signal.SIGTERM: (143, "fastdou: terminated")}

_writing = threading.Lock()           # held while a file must be written whole
_cleanups: list = []
_active = threading.Event()


def _handler(signum, frame):
    """Nothing: the watcher acts on the byte Python writes for the signal."""


@contextmanager
def uncut():
    """Within the block (a file written), a signal waits for the block's end."""
    with _writing:
        yield


@contextmanager
def on_hard_exit(cleanup):
    """Within the block, call ``cleanup()`` (from another thread, so: unlink a file,
    signal a process) if a signal ends the process."""
    _cleanups.append(cleanup)
    try:
        yield
    finally:
        _cleanups.remove(cleanup)


def _hard_exit(signum: int) -> None:
    _writing.acquire(timeout=5.0)     # a cache file being written is finished first
    for cleanup in reversed(_cleanups):
        try:
            cleanup()
        except BaseException:
            pass
    status, line = LINES[signum]
    clear = "\r\x1b[K" if sys.stderr is not None and sys.stderr.isatty() else ""
    os.write(2, f"{clear}{line}\n".encode())      # below a progress bar's last state
    os._exit(status)


def _watch(fd: int) -> None:
    """End the process at the first SIGINT or SIGTERM (the bytes come in arrival order);
    return when :func:`stopping` ends (a zero byte)."""
    while True:
        data = os.read(fd, 64)
        for signum in data:
            if signum == 0:
                return
            if signum in LINES:
                _hard_exit(signum)


@contextmanager
def stopping():
    """Within the block (in the main thread), SIGINT and SIGTERM end the process as the
    module says."""
    if threading.current_thread() is not threading.main_thread() or _active.is_set():
        yield
        return
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    old_fd = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    old = {s: signal.signal(s, _handler) for s in LINES}
    watcher = threading.Thread(target=_watch, args=(read_end,), daemon=True,
                               name="fastdou-signals")
    _active.set()
    watcher.start()
    try:
        yield
    finally:
        signal.set_wakeup_fd(old_fd)
        for s, handler in old.items():
            if handler is not None:            # None: set outside Python
                signal.signal(s, handler)
        os.write(write_end, b"\0")
        watcher.join()
        os.close(read_end)
        os.close(write_end)
        _active.clear()
