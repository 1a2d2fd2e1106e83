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

No read or write in the store follows a symbolic link or waits on a FIFO: every file is opened with
``O_NOFOLLOW`` and ``O_NONBLOCK``, and what is opened is checked to be a regular file. A link, a FIFO
or a device where companion's file should be is :class:`NotAFile`, one line naming it. A cache made
again from the events (``log.json``, a checkpoint, ``.owner``) is then replaced by a file of
companion's own (the link's target is never touched), and the player is told once (:func:`notice`).
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
#: How every file in the store is opened: never through a link, never waiting on a FIFO.
SAFE = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
#: What ``open`` says when a link (ELOOP), a FIFO no one reads (ENXIO) or a folder stands at the name.
_NOT_A_FILE_ERRNOS = {errno.ELOOP, errno.ENXIO, errno.EISDIR, errno.ENODEV, errno.EOPNOTSUPP, errno.ETXTBSY}

#: Lines for the player about derived files companion replaced (a link where log.json should be...):
#: said once by the command (companion.cli.kit), then cleared.
NOTICES: list[str] = []


def notice(line: str) -> None:
    if line not in NOTICES:
        NOTICES.append(line)


def taken_notices() -> list[str]:
    out = list(NOTICES)
    NOTICES.clear()
    return out


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


def kind_of(path: Path | str) -> str | None:
    """What stands at ``path`` when it is not a regular file (a translated noun phrase), else None
    (a regular file, or nothing)."""
    try:
        info = os.lstat(path)
    except OSError:
        return None
    mode = info.st_mode
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISLNK(mode):
        return _("a symbolic link")
    if stat.S_ISFIFO(mode):
        return _("a FIFO")
    if stat.S_ISDIR(mode):
        return _("a folder")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return _("a device")
    return _("a socket")


class NotAFile(WriteError):
    """A link, a FIFO, a device or a folder stands where companion's file should be: never written through."""

    def __init__(self, path: Path | str, kind: str) -> None:
        self.path = Path(path)
        self.kind = kind
        self.errno = errno.EEXIST
        self.reason = _("{path} is {kind}, not a file companion wrote").format(path=path, kind=kind)
        StoreError.__init__(
            self,
            _("{path} is {kind} where companion keeps a file of its own; companion does not write through it").format(
                path=path, kind=kind
            ),
            hint=_("move it away (companion never follows it), then run the command again"),
        )

    @property
    def full(self) -> bool:
        return False


def open_file(path: Path | str, flags: int, mode: int = 0o644) -> int:
    """``os.open`` for a file in the store: never through a link, never waiting on a FIFO, and only a
    regular file (:class:`NotAFile` otherwise; an OSError for anything else)."""
    try:
        fd = os.open(path, flags | SAFE, mode)
    except OSError as exc:
        if exc.errno in _NOT_A_FILE_ERRNOS:
            kind = kind_of(path)
            if kind is not None:
                raise NotAFile(path, kind) from None
        raise
    try:
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
    except OSError:
        os.close(fd)
        raise
    if not regular:
        os.close(fd)
        raise NotAFile(path, kind_of(path) or _("a device"))
    return fd


def replaced(path: Path, kind: str) -> str:
    """The line said once when a cache of companion's own was found to be a link or a device."""
    return _(
        "warning: {path} was {kind}, not companion's file; companion put its own file there "
        "(whatever it pointed to is untouched)"
    ).format(path=path, kind=kind)


def removed(path: Path, kind: str) -> str:
    """The line said once when a cache of companion's own was found to be a link and removed."""
    return _(
        "warning: {path} was {kind}, not companion's file; companion removed it and makes its own "
        "(whatever it pointed to is untouched)"
    ).format(path=path, kind=kind)


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


def write_atomic(path: Path, data: str | bytes, *, durable: bool = True, unique: bool = False) -> None:
    """Write ``data`` to ``path`` so that a crash leaves either the old file or the new one.

    ``durable`` fsyncs the file and its folder (a save); without it (a cache, made again from the
    events if lost) the replace is still atomic. A write error raises :class:`WriteError`; the previous
    file is intact. ``unique`` (a folder of the player's, not the store's): the temporary file gets a
    name no other file has (``.NAME.PID-N.tmp``), so nothing of theirs is ever truncated.
    """
    tmp = path.with_name(path.name + ".tmp")
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        fd, tmp = _open_unique(path) if unique else (_open_tmp(tmp), tmp)
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


def _open_tmp(tmp: Path) -> int:
    """The temporary file of an atomic write. Its name is companion's own: a link or a FIFO left there
    is removed (never followed), and the file made anew."""
    try:
        return open_file(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    except NotAFile:
        os.unlink(tmp)  # a link is removed, not what it points to; a folder there fails: one line
        return open_file(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL)


def _open_unique(path: Path) -> tuple[int, Path]:
    for n in range(1, 1000):
        tmp = path.with_name(f".{path.name}.{os.getpid()}-{n}.tmp")
        try:
            return open_file(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL), tmp
        except (FileExistsError, NotAFile):
            continue
    raise OSError(errno.EEXIST, "no free name for a temporary file", str(path))


def write_in_place(path: Path, data: bytes) -> None:
    """Overwrite a small cache file in place (no temporary file, no fsync: replacing an existing file by
    a rename costs the filesystem a flush). Only for files of less than a page, which a kill cannot
    leave half-written, and whose loss costs only work (they are made again). A link, a FIFO or a
    device at ``path`` is never written through: it is replaced by a file (atomically) and the
    player told once."""
    try:
        fd = open_file(path, os.O_WRONLY | os.O_CREAT)
    except NotAFile as exc:
        write_atomic(path, data, durable=False)
        notice(replaced(path, exc.kind))
        return
    except OSError as exc:
        raise WriteError(path, exc) from None
    try:
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


def write_small(path: Path, data: bytes) -> None:
    """Write a small cache file of companion's own (``.owner``) whole, never through a link or a FIFO:
    one that stands there is removed (only the link goes) and the player told once."""
    try:
        fd = open_file(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    except NotAFile as exc:
        os.unlink(path)
        notice(replaced(path, exc.kind))
        fd = open_file(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
    try:
        write_all(fd, data)
    finally:
        os.close(fd)


class CorruptFileError(StoreError):
    """A save that is not valid JSON, valid JSON that companion did not write, or not a file at all
    (``kind``: a link, a FIFO, a device, a folder; None for a file)."""

    kind: str | None = None

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

    def __init__(self, path: Path, version: Any, writer: Any, newest: int = VERSION) -> None:
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
            ).format(path=path, by=by, version=version, mine=__version__, newest=newest),
            hint=needed,
        )
        self.path = path


def read_bytes(path: Path) -> bytes | None:
    """A save's bytes; None if it does not exist. Never blocks on a FIFO, never reads a device or a
    file bigger than any save (CorruptFileError)."""
    try:
        fd = os.open(path, os.O_RDONLY | SAFE)
    except FileNotFoundError:
        return None
    except OSError as exc:
        kind = kind_of(path) if exc.errno in _NOT_A_FILE_ERRNOS else None
        if kind is not None:
            raise not_a_file(path, kind) from None
        raise StoreError(_("could not read {path}: {why}").format(path=path, why=exc.strerror or exc)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise not_a_file(path, kind_of(path) or _("a device"))
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


def not_a_file(path: Path, kind: str) -> CorruptFileError:
    error = CorruptFileError(path, _("{kind}, not a file companion wrote").format(kind=kind))
    error.kind = kind
    return error


def check_marker(path: Path, marker: Any, name: str = FORMAT, newest: int = VERSION) -> int:
    """The format version a file's marker says, after checking it is ours and not newer than we read."""
    if not isinstance(marker, dict) or marker.get("format") != name:
        raise CorruptFileError(path, _("not a companion save (a foreign JSON file)"))
    version = marker.get("version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise CorruptFileError(path, _("damaged (its format version is not a number)"))
    if version > newest:
        raise NewerFormatError(path, version, marker.get("companion"), newest)
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
    return loads(path, raw)


def loads(path: Path, raw: bytes) -> Any:
    """A companion JSON file's data from its bytes (what :func:`read_json` read)."""
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
