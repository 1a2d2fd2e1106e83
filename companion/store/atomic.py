"""Atomic file writes, careful reads, the format marker, and a TinyDB storage built on them.

TinyDB's own JSONStorage writes in place (seek, write, truncate), so a kill between the write and the
truncate leaves a torn file. Here every write goes to a fixed-name temporary file, is fsynced, then
``os.replace``d over the save, and the folder is fsynced: a reader sees the old file or the new one,
never a mix. The TinyDB maintainer suggested a separate storage for this (tinydb#467) rather than a
change in core (#468), so the class lives here.

Every file companion writes carries a marker (``_format``: the format's name, its version, and the
companion that wrote it). A reader refuses a foreign file and a file of a newer format, naming the
companion version that wrote it; it never overwrites either. A read never follows a save into a
device, a FIFO or a file too big to be a save, and a damaged file is named in one line.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
from pathlib import Path
from typing import Any

from tinydb.storages import Storage

from companion import __version__
from companion.errors import StoreError
from companion.i18n import _, number

#: Every companion file starts with this marker, so a foreign JSON file is never taken for a save.
FORMAT = "companion-session"
#: The format this companion writes. 1: head.json snapshots and events rewritten in files of 256
#: (companion 0.1.0); 2: the journal, sealed events files and checkpoints (see companion.store.sessions).
VERSION = 2
#: No save companion writes comes near this; a bigger file is not read (a symlink to /dev/zero...).
MAX_BYTES = 256 * 1024 * 1024


class WriteError(StoreError):
    """A file could not be written (the disk is full, an I/O error); what it was is in ``errno``."""

    def __init__(self, path: Path, exc: OSError) -> None:
        self.path = path
        self.errno = exc.errno
        self.reason = _("the disk is full") if exc.errno == errno.ENOSPC else (exc.strerror or str(exc))
        super().__init__(f"could not write {path}: {self.reason}")

    @property
    def full(self) -> bool:
        return self.errno in (errno.ENOSPC, errno.EDQUOT)


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


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def write_atomic(path: Path, data: str | bytes, *, durable: bool = True) -> None:
    """Write ``data`` to ``path`` so that a crash leaves either the old file or the new one.

    ``durable`` fsyncs the file and its folder (a save); without it (a cache, made again from the
    events if lost) the replace is still atomic. A write error raises :class:`WriteError`; the previous
    file is intact.
    """
    tmp = path.with_name(path.name + ".tmp")
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            write_all(fd, payload)
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise WriteError(path, exc) from None
    if durable:
        fsync_dir(path.parent)


def write_in_place(path: Path, data: bytes) -> None:
    """Overwrite a small cache file in place (no temporary file, no fsync: replacing an existing file by
    a rename costs the filesystem a flush). Only for files of less than a page, which a kill cannot
    leave half-written, and whose loss costs only work (they are made again)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            view = memoryview(data)
            offset = 0
            while offset < len(data):
                offset += os.pwrite(fd, view[offset:], offset)
            os.ftruncate(fd, len(data))
        finally:
            os.close(fd)
    except OSError as exc:
        raise WriteError(path, exc) from None


class CorruptFileError(StoreError):
    """A save that is not valid JSON, valid JSON that companion did not write, or not a file at all."""

    def __init__(self, path: Path, why: str, hint: str | None = None) -> None:
        super().__init__(
            _("{path} is {why}; companion will not overwrite it").format(path=path, why=why),
            hint=hint
            or _("put it back from a backup, or see: {command}").format(command="companion sessions repair --help"),
        )
        self.path = path
        self.why = why


class NewerFormatError(StoreError):
    """A save written by a newer companion, in a format this one does not know."""

    def __init__(self, path: Path, version: Any, writer: Any) -> None:
        known = isinstance(writer, str) and writer
        by = f"companion {writer}" if known else _("a newer companion")
        needed = (
            _("open this session with companion {version} or later").format(version=writer)
            if known
            else _("open this session with a newer companion")
        )
        super().__init__(
            _(
                "{path} was saved by {by} (save format {version}); this companion ({mine}) reads save "
                "formats up to {newest}, so it leaves the file as it is"
            ).format(path=path, by=by, version=version, mine=__version__, newest=VERSION),
            hint=needed,
        )
        self.path = path


def read_bytes(path: Path) -> bytes | None:
    """A save's bytes; None if it does not exist. Never blocks on a FIFO, never reads a device or a
    file bigger than any save (CorruptFileError)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StoreError(_("could not read {path}: {why}").format(path=path, why=exc.strerror or exc)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise CorruptFileError(path, _("not a regular file (a device, a FIFO or a folder)"))
        if info.st_size > MAX_BYTES:
            raise CorruptFileError(
                path, _("{n} bytes, far more than any save").format(n=number(info.st_size, group=True))
            )
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise StoreError(_("could not read {path}: {why}").format(path=path, why=exc.strerror or exc)) from None
    finally:
        os.close(fd)


def check_marker(path: Path, marker: Any, name: str = FORMAT) -> int:
    """The format version a file's marker says, after checking it is ours and not newer than we read."""
    if not isinstance(marker, dict) or marker.get("format") != name:
        raise CorruptFileError(path, _("not a companion save (a foreign JSON file)"))
    version = marker.get("version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise CorruptFileError(path, _("damaged (its format version is not a number)"))
    if version > VERSION:
        raise NewerFormatError(path, version, marker.get("companion"))
    return version


def parse(path: Path, raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except RecursionError:
        raise CorruptFileError(path, _("damaged (nested too deeply)")) from None
    except (ValueError, UnicodeDecodeError):
        raise CorruptFileError(path, _("damaged (not valid JSON)")) from None


def read_json(path: Path) -> Any:
    """Read a companion JSON file; None if it does not exist; CorruptFileError if it is not ours."""
    raw = read_bytes(path)
    if raw is None:
        return None
    data = parse(path, raw)
    if not isinstance(data, dict):
        raise CorruptFileError(path, _("not a companion save (a foreign JSON file)"))
    table = data.get("_format")
    check_marker(path, table.get("1") if isinstance(table, dict) else None)
    return data


def version_of(data: dict[str, Any]) -> int:
    """The format version of a file :func:`read_json` read."""
    return int(data["_format"]["1"].get("version", 1))


def marker(name: str = FORMAT) -> dict[str, Any]:
    return {"format": name, "version": VERSION, "companion": __version__}


def format_table() -> dict[str, Any]:
    """The marker table every companion TinyDB file carries."""
    return {"1": marker()}


class AtomicJSONStorage(Storage):
    """A TinyDB storage that reads and writes through :func:`read_json` and :func:`write_atomic`.

    It caches what it last read or wrote: the store only uses a file while it holds the session's
    lock, so nobody else can change it underneath, and TinyDB re-reads the file on every operation.
    ``durable=False`` is for caches (checkpoints): atomic, not fsynced.
    """

    def __init__(self, path: str | Path, create: bool = True, durable: bool = True) -> None:
        self.path = Path(path)
        self.durable = durable
        self._cache: dict[str, Any] | None = None

    def read(self) -> dict[str, dict[str, Any]] | None:
        if self._cache is None:
            self._cache = read_json(self.path)
        return self._cache

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        data["_format"] = format_table()
        try:
            write_atomic(self.path, json.dumps(data, ensure_ascii=False, separators=(",", ":")), durable=self.durable)
        except BaseException:
            self._cache = None  # TinyDB changed the cached dict in place; forget it
            raise
        self._cache = data

    def close(self) -> None:
        self._cache = None
