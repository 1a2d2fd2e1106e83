"""The locks: a session's ``.lock`` (and ``.owner``, who holds it), and the store's ``sessions/.lock``.

A lock is a :class:`filelock.FileLock` (flock): it dies with its holder, so a killed process never
leaves a session locked. filelock opens the file without following a link and without waiting on a
FIFO; a link, a FIFO or a device found at the lock's name is companion's own name misused, so it is
removed (never followed: only the link goes) and the lock made again, and the player is told once.

Taking a lock can fail like any write (a full disk making a new session's lock, an I/O error): one
line saying so and that nothing was done, never a traceback. ``.owner`` (the pid and the command of
the holder, for the line a second process gets) is a cache: written without following a link, and
its loss costs nothing.
"""

from __future__ import annotations

import os
from contextlib import suppress
from pathlib import Path
from typing import Any

from companion.errors import StoreError
from companion.store.atomic import NotAFile, WriteError, kind_of, notice, read_bytes, replaced, write_small

#: How long a one-shot command waits for another companion to finish with a save, in seconds
#: (``COMPANION_LOCK_WAIT`` sets another, e.g. for a store on a slow network drive).
LOCK_WAIT = 3.0


def lock_wait() -> float:
    """The wait for a session's lock: ``COMPANION_LOCK_WAIT`` seconds when it is a number >= 0."""
    raw = os.environ.get("COMPANION_LOCK_WAIT", "")
    try:
        wait = float(raw)
    except ValueError:
        return LOCK_WAIT
    return wait if 0 <= wait < float("inf") else LOCK_WAIT


class LockError(WriteError):
    """The lock file could not be made or opened (a full disk, an I/O error): nothing was done."""


class Busy(StoreError):
    """Another process holds the lock (its line says who): a reader reads a copy instead."""


def acquire(path: Path, timeout: float, busy: str, hint: str) -> Any:
    """Take the lock at ``path`` within ``timeout`` seconds; ``busy`` and ``hint`` when another holds it.

    Raises :class:`StoreError` (busy) or :class:`LockError` (the file could not be made or opened)."""
    from filelock import FileLock, Timeout

    for attempt in (1, 2):
        lock = FileLock(str(path), timeout=timeout)
        try:
            lock.acquire()
        except Timeout:
            raise Busy(busy, hint=hint) from None
        except OSError as exc:
            kind = kind_of(path)
            if kind is not None and attempt == 1:  # a link or a FIFO at the lock's name: never followed
                try:
                    os.unlink(path)
                except OSError:
                    raise LockError(path, exc) from None
                notice(replaced(path, kind))
                continue
            raise LockError(path, exc) from None
        return lock
    raise AssertionError("unreachable")  # pragma: no cover


def write_owner(path: Path, command: str) -> None:
    """Say who holds the lock (a cache for the line a second process gets; its loss costs nothing)."""
    with suppress(OSError, NotAFile):
        write_small(path, f"{os.getpid()} {command}\n".encode())


def owner(path: Path) -> str:
    """`` (pid N: companion CMD)``, or "" when it is not known."""
    try:
        raw = read_bytes(path)
    except StoreError:
        return ""
    if not raw or len(raw) > 4096:
        return ""
    pid, _sep, command = raw.decode("utf-8", "replace").strip().partition(" ")
    if not pid.isdigit():
        return ""
    return f" (pid {pid}: companion {command})" if command else f" (pid {pid})"
