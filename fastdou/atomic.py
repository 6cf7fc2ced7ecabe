"""Files written whole or not at all: the results files, a dataset's manifest, figures and
evaluation figures.

An :class:`AtomicFile` is a temporary file beside its destination (``.fastdou-`` prefix,
the user's umask), flushed to disk and renamed over the destination by
:meth:`AtomicFile.commit`, removed by :meth:`AtomicFile.discard`, and also removed when a
signal ends the process (:func:`fastdou.interrupts.on_hard_exit`): no reader ever sees a
partial file. :func:`write_atomically` is the one-call form.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from typing import Callable, IO

from fastdou import interrupts

PREFIX = ".fastdou-"


def umask() -> int:
    """The process's umask (read by setting it, so set back at once)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


class AtomicFile:
    """A temporary file (:attr:`file`, text with ``text=True``; named with ``path``'s
    extension) that becomes ``path`` on :meth:`commit`. Raises OSError when the folder is
    not writable."""

    def __init__(self, path: str, *, text: bool = False):
        self.path = os.fspath(path)
        folder = os.path.dirname(os.path.abspath(self.path))
        suffix = os.path.splitext(self.path)[1]
        self._done = False
        self._exit = contextlib.ExitStack()
        with interrupts.uncut():            # a signal waits until the file has its cleanup
            fd, self.temporary = tempfile.mkstemp(prefix=PREFIX, suffix=suffix, dir=folder)
            self._exit.enter_context(interrupts.on_hard_exit(self._unlink))
        try:
            os.fchmod(fd, 0o666 & ~umask())     # the user's umask, not mkstemp's 0600
            self.file: IO = os.fdopen(fd, "w", newline="") if text else os.fdopen(fd, "wb")
        except BaseException:
            with contextlib.suppress(OSError):
                os.close(fd)
            self._done = True
            self._unlink()
            self._exit.close()
            raise

    def commit(self) -> None:
        """Flush the file to disk, close it and rename it over ``path``."""
        self.file.flush()
        os.fsync(self.file.fileno())        # the data is on disk before the name points at it
        self.file.close()
        os.replace(self.temporary, self.path)
        self._done = True
        self._exit.close()

    def discard(self) -> None:
        """Close and remove the temporary file unless :meth:`commit` finished (safe to call
        twice)."""
        if self._done:
            return
        self._done = True
        try:
            with contextlib.suppress(OSError):  # closing may fail again, as on a full disk
                self.file.close()
        finally:
            self._unlink()
            self._exit.close()

    def _unlink(self) -> None:
        """Remove the temporary file (also from the thread that ends the process on a
        signal, so: nothing but the unlink)."""
        with contextlib.suppress(OSError):
            os.remove(self.temporary)


def write_atomically(path: str, write: Callable[[IO], None], *, text: bool = False) -> None:
    """Call ``write(file)`` on a temporary file beside ``path``, then rename it over
    ``path``; if ``write`` raises, no file is left and the exception propagates."""
    out = AtomicFile(path, text=text)
    try:
        write(out.file)
        out.commit()
    finally:
        out.discard()
