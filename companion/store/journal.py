"""The journal: the session's newest events, appended one line at a time.

``events/journal.jsonl`` is a header line, then one event per line, oldest first::

    {"_format": {"format": "companion-journal", "version": 3, "companion": "0.1.0"}, "base": 512, ...}
    {"id":513,"t":"roll","expr":"2d6",...,"crc":"5be0c3a1"}
    {"id":514,"t":"note","text":"...",...,"crc":"09f1d2e7"}

Every line carries its own check (format 3): ``crc`` is the CRC-32 of the line's bytes before it, so
a changed byte anywhere in the journal is found when it is read, which is at every open: the journal
holds at most ``2 * 256`` lines, so checking them all costs the same at any length. A journal of
format 2 (lines without a check) is read as it is, and written again with the checks the first time
a command opens it under the session's lock (companion.store.events).

Recording an event writes its line with one ``write`` at the end of the file and fsyncs the file:
that is the moment the event exists. A line always ends with a newline, and the newline is its last
byte, so a write cut short (a kill, a full disk) leaves bytes after the last newline: an event nobody
was told about, which the next writer cuts away (unless what the log or a checkpoint knows proves it
was recorded: a whole line with its check that only lost its newline is then completed).
Anything else that does not read as the events ``base + 1, base + 2, ...`` in order, each with its
check, is damage, reported and never rewritten.

Undo cuts the last lines off (``ftruncate``, fsynced: one cut for ``undo --to`` too). Sealing
(companion.store.events) and the rare undo past the journal's first event replace the whole file
atomically.
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.i18n import _
from companion.store import acts
from companion.store.atomic import (
    CorruptFileError,
    WriteError,
    check_marker,
    fsync_dir,
    marker,
    open_file,
    parse,
    read_bytes,
    write_all,
    write_atomic,
)

NAME = "journal.jsonl"


class Unflushed(WriteError):
    """The change is in the file, but the disk failed to flush it (an fsync error)."""


FORMAT = "companion-journal"
#: The journal's format: 3 gives every line its check; 2 (before) has none, and is still read.
VERSION = 3
#: A line's end: ``,"crc":"xxxxxxxx"}`` and the newline.
_CHECK = b',"crc":"'
_TAIL = len(_CHECK) + 8 + 3


def checked(line: bytes) -> bool:
    """Whether ``line`` (with its newline) ends with its check, and the check is right."""
    if len(line) <= _TAIL or not line.endswith(b'"}\n') or line[-_TAIL : -_TAIL + len(_CHECK)] != _CHECK:
        return False
    return line[-11:-3] == b"%08x" % zlib.crc32(line[:-_TAIL])


def sign(body: bytes) -> bytes:
    """A line from an event's JSON object (``{...}``, no newline): its check added, and the newline."""
    head = body[:-1]
    return head + b'%s%08x"}\n' % (_CHECK, zlib.crc32(head))


def fingerprint(event: dict[str, Any]) -> str:
    """A short digest of an event (with its id): what a checkpoint, the log's state and a redo entry
    name the event they follow by, to tell it from another event with the same id."""
    body = json.dumps(event, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
    return f"{zlib.crc32(body):08x}"


def encode(event: dict[str, Any]) -> bytes:
    """One event's line: its id first (so a line is found without reading it), the rest, its check."""
    body = {"id": event["id"], **{k: v for k, v in event.items() if k not in ("id", "crc")}}
    return sign(json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode())


def decode(path: Path, line: bytes) -> dict[str, Any]:
    """An event from its line (its check, if any, left out: it is the line's, not the event's)."""
    data = parse(path, line)
    if isinstance(data, dict):
        data.pop("crc", None)
    return data


@dataclass
class Journal:
    """A journal as read: its header, its complete lines (raw, each with its newline), its size, and the
    bytes of a last line cut short (``torn``), if any."""

    path: Path
    header: dict[str, Any]
    lines: list[bytes] = field(default_factory=list)
    size: int = 0
    torn: int = 0
    #: The journal's format (2: lines without a check, until it is written again as 3).
    version: int = VERSION
    #: The bytes after the last newline (a line cut short), if any.
    tail: bytes = b""

    @property
    def whole_tail(self) -> bool:
        """Whether the bytes after the last newline are the next event's whole line, check and all:
        only its newline is missing (damage, or a write cut just before its last byte)."""
        return bool(self.tail) and self.tail.startswith(b'{"id":%d,' % (self.count + 1)) and checked(self.tail + b"\n")

    @property
    def base(self) -> int:
        return int(self.header["base"])

    @property
    def count(self) -> int:
        """The id of the last event (the events before the journal's first are sealed)."""
        return self.base + len(self.lines)

    def event(self, event_id: int) -> dict[str, Any]:
        """Event ``event_id`` (in this journal), parsed."""
        line = self.lines[event_id - self.base - 1]
        data = decode(self.path, line)
        if not isinstance(data, dict) or data.get("id") != event_id:
            raise CorruptFileError(
                self.path, _("damaged (line {line} is not event {n})").format(line=event_id - self.base + 1, n=event_id)
            )
        return data

    def events(self, start: int = 0) -> list[dict[str, Any]]:
        """The events with id > ``start``, parsed."""
        first = max(start, self.base) + 1
        return [self.event(i) for i in range(first, self.count + 1)]

    # ---- writing ----------------------------------------------------------------------------------
    def append(self, line: bytes) -> None:
        """Write one event's line and fsync it: then it is recorded. If the write fails, or the fsync and
        the file is cut back to where it was, it is not (:class:`WriteError`). If the fsync fails and the
        line cannot be cut off again, it is recorded all the same, on a disk that failed a flush:
        :class:`Unflushed` says so (the caller must not say it was not recorded)."""
        try:
            fd = open_file(self.path, os.O_WRONLY | os.O_APPEND)
        except WriteError:
            raise
        except OSError as exc:
            raise WriteError(self.path, exc) from None
        try:
            with acts.critical():  # a signal lands before the line is durable, or after it is marked so
                self._append(fd, line)
        finally:
            os.close(fd)

    def _append(self, fd: int, line: bytes) -> None:
        try:
            write_all(fd, line)
        except OSError as exc:
            with suppress(OSError):
                os.ftruncate(fd, self.size)  # a line cut short has no newline: never read anyway
            raise WriteError(self.path, exc) from None
        try:
            os.fsync(fd)
        except OSError as exc:
            try:
                os.ftruncate(fd, self.size)
            except OSError:
                self.lines.append(line)
                self.size += len(line)
                acts.saved(self.count)
                raise Unflushed(self.path, exc) from None
            with suppress(OSError):
                os.fsync(fd)
            raise WriteError(self.path, exc) from None
        self.lines.append(line)
        self.size += len(line)
        acts.saved(self.count)

    def drop_last(self) -> None:
        """Cut the last event off (undo): :meth:`drop_to` the one before it."""
        self.drop_to(self.count - 1)

    def drop_to(self, count: int) -> None:
        """Cut every event after ``count`` off (undo, ``undo --to``: one cut, one fsync): then they are
        undone. If the cut fails, or the fsync and the lines are written back, nothing is (WriteError);
        if they cannot be written back, the undo stands on a disk that failed a flush (:class:`Unflushed`)."""
        keep = count - self.base
        assert 0 <= keep < len(self.lines)
        cut = b"".join(self.lines[keep:])
        size = self.size - len(cut)
        try:
            fd = open_file(self.path, os.O_WRONLY)
        except WriteError:
            raise
        except OSError as exc:
            raise WriteError(self.path, exc) from None
        try:
            with acts.critical():
                self._drop(fd, cut, keep, size)
        finally:
            os.close(fd)

    def _drop(self, fd: int, cut: bytes, keep: int, size: int) -> None:
        undone = self.count
        try:
            os.ftruncate(fd, size)
        except OSError as exc:
            raise WriteError(self.path, exc) from None
        try:
            os.fsync(fd)
        except OSError as exc:
            try:  # put them back, so what the player is told (nothing undone) stays true
                os.ftruncate(fd, self.size)
                _pwrite_all(fd, cut, size)
            except OSError:
                with suppress(OSError):
                    os.ftruncate(fd, size)
                del self.lines[keep:]
                self.size = size
                acts.saved(undone)
                raise Unflushed(self.path, exc) from None
            with suppress(OSError):
                os.fsync(fd)
            raise WriteError(self.path, exc) from None
        del self.lines[keep:]
        self.size = size
        acts.saved(undone)

    def complete_tail(self) -> None:
        """Give a whole last line that lost only its newline (:attr:`whole_tail`) its newline back, and
        fsync: the event it holds is recorded (what the log or a checkpoint knows proved it)."""
        line = self.tail + b"\n"
        fd = open_file(self.path, os.O_WRONLY | os.O_APPEND)
        try:
            write_all(fd, b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)
        self.lines.append(line)
        self.size += len(line)
        self.tail, self.torn = b"", 0

    def cut_tail(self) -> None:
        """Cut away a last line cut short (an event nobody was told about) and fsync."""
        fd = open_file(self.path, os.O_WRONLY)
        try:
            os.ftruncate(fd, self.size)
            os.fsync(fd)
        finally:
            os.close(fd)
        self.tail, self.torn = b"", 0

    def rewrite(self, header: dict[str, Any], lines: list[bytes]) -> None:
        """Replace the whole journal at once (sealing, undo past its first event), as format 3: a line
        of format 2 gets its check."""
        lines = [line if checked(line) else upgrade(self.path, line) for line in lines]
        data = header_line(header) + b"".join(lines)
        write_atomic(self.path, data)
        self.header, self.lines, self.size, self.torn, self.tail = header, list(lines), len(data), 0, b""
        self.version = VERSION


def upgrade(path: Path, line: bytes) -> bytes:
    """A format-2 line (no check) with its check; CorruptFileError if it is not an event's JSON."""
    data = decode(path, line)
    if not isinstance(data, dict) or not isinstance(data.get("id"), int):
        raise CorruptFileError(path, _("damaged (a line is not an event)"))
    return encode(data)


def header_line(header: dict[str, Any]) -> bytes:
    return (
        json.dumps({"_format": {**marker(FORMAT), "version": VERSION}, **header}, ensure_ascii=False).encode() + b"\n"
    )


def create(path: Path, header: dict[str, Any], lines: list[bytes] = ()) -> None:  # type: ignore[assignment]
    """A new journal (a new session, a migrated one)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WriteError(path.parent, exc) from None
    lines = [line if checked(line) else upgrade(path, line) for line in lines]
    write_atomic(path, header_line(header) + b"".join(lines))
    fsync_dir(path.parent)


def read(path: Path) -> Journal | None:
    """The journal at ``path`` (None if there is none). Raises CorruptFileError for damage: no header,
    a line that is not the next event, a foreign or newer file."""
    raw = read_bytes(path)
    if raw is None:
        return None
    if not raw:
        raise CorruptFileError(path, _("empty (its header and every event in it are gone)"))
    end = raw.rfind(b"\n") + 1
    torn = len(raw) - end
    first = raw.find(b"\n")
    if first < 0:
        raise CorruptFileError(path, _("damaged (its header line is cut short)"))
    header = parse(path, raw[: first + 1])
    if not isinstance(header, dict):
        raise CorruptFileError(path, _("not a companion journal"))
    version = check_marker(path, header.get("_format"), FORMAT, VERSION)
    base = header.get("base")
    if not isinstance(base, int) or isinstance(base, bool) or base < 0:
        raise CorruptFileError(path, _("damaged (its header does not say where its events start)"))
    header = {k: v for k, v in header.items() if k != "_format"}
    lines = raw[first + 1 : end].split(b"\n")[:-1] if end > first + 1 else []
    lines = [line + b"\n" for line in lines]
    if version >= 3 and all(_fast_check(lines, base)):
        return Journal(path, header, lines, end, torn, version, raw[end:])
    for n, line in enumerate(lines, start=1):  # one is wrong: find which, and say how
        if not line.startswith(b'{"id":%d,' % (base + n)):
            raise CorruptFileError(
                path,
                (
                    _("damaged: line {line} should be event {n} but is empty")
                    if line == b"\n"
                    else _("damaged: line {line} should be event {n} but is not")
                ).format(line=n + 1, n=base + n),
            )
        if version >= 3 and not checked(line):
            raise CorruptFileError(
                path, _("damaged: line {line} (event {n}) does not match its check").format(line=n + 1, n=base + n)
            )
    return Journal(path, header, lines, end, torn, version, raw[end:])


def _fast_check(lines: list[bytes], base: int) -> Iterator[bool]:
    """Whether each line is the next event's with its check right (what :func:`read` does at every open,
    in a loop kept tight: a journal of 511 lines is checked in well under a millisecond)."""
    crc32, tail, check = zlib.crc32, _TAIL, _CHECK
    for n, line in enumerate(lines, start=base + 1):
        yield (
            line.startswith(b'{"id":%d,' % n)
            and line[-tail : -tail + 8] == check
            and line[-3:] == b'"}\n'
            and line[-11:-3] == b"%08x" % crc32(line[:-tail])
        )


def _pwrite_all(fd: int, data: bytes, offset: int) -> None:
    view = memoryview(data)
    while view:
        n = os.pwrite(fd, view, offset)
        view, offset = view[n:], offset + n
