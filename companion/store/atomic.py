"""Atomic file writes, and a TinyDB storage built on them.

TinyDB's own JSONStorage writes in place (seek, write, truncate), so a kill between the write and the
truncate leaves a torn file. Here every write goes to a fixed-name temporary file, is fsynced, then
``os.replace``d over the save, and the folder is fsynced: a reader sees the old file or the new one,
never a mix. The TinyDB maintainer suggested a separate storage for this (tinydb#467) rather than a
change in core (#468), so the class lives here.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
from pathlib import Path
from typing import Any

from tinydb.storages import Storage

from companion.errors import StoreError
from companion.i18n import N_, _, number

#: Every companion file starts with this marker, so a foreign JSON file is never taken for a save.
FORMAT = "companion-session"


#: How a failed save ends its line (the session layer reads it back to say what is saved).
INTACT = N_("; the previous save is intact")


def fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # some platforms cannot open folders; the replace is still atomic there
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` so that a crash leaves either the old file or the new one.

    A full disk (or any other write error) raises :class:`StoreError`; the previous file is intact.
    """
    tmp = path.with_name(path.name + ".tmp")
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            view = memoryview(payload)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if exc.errno == errno.ENOSPC:
            raise StoreError(
                _("the disk is full: could not save {path}").format(path=path) + _(INTACT),
                hint=_("free some space and run the command again"),
            ) from None
        raise StoreError(
            _("could not save {path}: {why}").format(path=path, why=exc.strerror or exc) + _(INTACT)
        ) from None
    fsync_dir(path.parent)


class CorruptFileError(StoreError):
    """A save that is not valid JSON, or valid JSON that companion did not write."""

    def __init__(self, path: Path, why: str, backup: Path | None) -> None:
        where = _("; a copy is kept at {path}").format(path=backup) if backup else ""
        super().__init__(
            _("{path} is {why}; companion will not overwrite it").format(path=path, why=why) + where,
            hint=_("restore it from the copy or remove the session folder to start over"),
        )
        self.path = path
        self.backup = backup


def _backup(path: Path) -> Path | None:
    """Keep a byte-for-byte copy of a damaged file beside it (once), for the player to inspect."""
    backup = path.with_name(path.name + ".damaged")
    try:
        if not backup.exists():
            backup.write_bytes(path.read_bytes())
        return backup
    except OSError:
        return None


#: No save companion writes comes near this; a bigger file is not read.
MAX_BYTES = 256 * 1024 * 1024


def _read_bytes(path: Path) -> bytes | None:
    """A save's bytes; None if it does not exist. A device (a link to /dev/zero), a FIFO or a folder
    in its place is refused, never read or waited on, as is a file far bigger than any save."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StoreError(_("could not read {path}: {why}").format(path=path, why=exc.strerror or exc)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise CorruptFileError(path, _("not a regular file (a device, a FIFO or a folder)"), None)
        if info.st_size > MAX_BYTES:
            raise CorruptFileError(
                path, _("{n} bytes, far more than any save").format(n=number(info.st_size, group=True)), None
            )
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise StoreError(_("could not read {path}: {why}").format(path=path, why=exc.strerror or exc)) from None
    finally:
        os.close(fd)


def read_json(path: Path) -> Any:
    """Read a companion JSON file; None if it does not exist; CorruptFileError if it is not ours."""
    raw = _read_bytes(path)
    if raw is None:
        return None
    try:
        data = json.loads(raw)
    except RecursionError:
        raise CorruptFileError(path, _("damaged (nested too deeply)"), _backup(path)) from None
    except (ValueError, UnicodeDecodeError):
        raise CorruptFileError(path, _("damaged (not valid JSON)"), _backup(path)) from None
    table = data.get("_format") if isinstance(data, dict) else None
    marker = table.get("1") if isinstance(table, dict) else None
    if not isinstance(marker, dict) or marker.get("format") != FORMAT:
        raise CorruptFileError(path, _("not a companion save (a foreign JSON file)"), _backup(path))
    return data


def format_table() -> dict[str, Any]:
    """The marker table every companion TinyDB file carries."""
    return {"1": {"format": FORMAT, "version": 1}}


class AtomicJSONStorage(Storage):
    """A TinyDB storage that reads and writes through :func:`read_json` and :func:`write_atomic`.

    It caches what it last read or wrote: the store only uses a file while it holds the session's
    lock, so nobody else can change it underneath, and TinyDB re-reads the file on every operation.
    """

    def __init__(self, path: str | Path, create: bool = True) -> None:
        self.path = Path(path)
        self._cache: dict[str, Any] | None = None

    def read(self) -> dict[str, dict[str, Any]] | None:
        if self._cache is None:
            self._cache = read_json(self.path)
        return self._cache

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        data["_format"] = format_table()
        try:
            write_atomic(self.path, json.dumps(data, ensure_ascii=False, separators=(",", ":")))
        except BaseException:
            self._cache = None  # TinyDB changed the cached dict in place; forget it
            raise
        self._cache = data

    def close(self) -> None:
        self._cache = None
