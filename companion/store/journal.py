"""The journal: the session's newest events, appended one line at a time.

``events/journal.jsonl`` is a header line, then one event per line, oldest first::

    {"_format": {"format": "companion-journal", "version": 2, "companion": "0.1.0"}, "base": 512, ...}
    {"id":513,"t":"roll","expr":"2d6",...}
    {"id":514,"t":"note","text":"...",...}

Recording an event writes its line with one ``write`` at the end of the file and fsyncs the file:
that is the moment the event exists. A line always ends with a newline, and the newline is its last
byte, so a write cut short (a kill, a full disk) leaves bytes after the last newline: an event nobody
was told about, which the next writer cuts away. Anything else that does not read as the events
``base + 1, base + 2, ...`` in order is damage, reported and never rewritten.

Undo cuts the last line off (``ftruncate``, fsynced). Sealing (companion.store.events) and the rare
undo past the journal's first event replace the whole file atomically.
"""

from __future__ import annotations

import json
import os
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.i18n import _
from companion.store.atomic import (
    CorruptFileError,
    WriteError,
    check_marker,
    fsync_dir,
    marker,
    parse,
    read_bytes,
    write_all,
    write_atomic,
)

NAME = "journal.jsonl"


class Unflushed(WriteError):
    """The change is in the file, but the disk failed to flush it (an fsync error)."""


FORMAT = "companion-journal"


def fingerprint(event: dict[str, Any]) -> str:
    """A short digest of an event (with its id): what a checkpoint, the log's state and a redo entry
    name the event they follow by, to tell it from another event with the same id."""
    import zlib

    body = json.dumps(event, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
    return f"{zlib.crc32(body):08x}"


def encode(event: dict[str, Any]) -> bytes:
    """One event's line: its id first (so a line is checked without reading it), then the rest."""
    body = {"id": event["id"], **{k: v for k, v in event.items() if k != "id"}}
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


@dataclass
class Journal:
    """A journal as read: its header, its complete lines (raw, each with its newline), its size, and the
    bytes of a last line cut short (``torn``), if any."""

    path: Path
    header: dict[str, Any]
    lines: list[bytes] = field(default_factory=list)
    size: int = 0
    torn: int = 0

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
        data = parse(self.path, line)
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
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        except OSError as exc:
            raise WriteError(self.path, exc) from None
        try:
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
                    raise Unflushed(self.path, exc) from None
                with suppress(OSError):
                    os.fsync(fd)
                raise WriteError(self.path, exc) from None
        finally:
            os.close(fd)
        self.lines.append(line)
        self.size += len(line)

    def drop_last(self) -> None:
        """Cut the last event off (undo) and fsync: then it is undone. If the cut fails, or the fsync and
        the line is written back, it is not (WriteError); if it cannot be written back, the undo stands
        on a disk that failed a flush (:class:`Unflushed`)."""
        line = self.lines[-1]
        size = self.size - len(line)
        try:
            fd = os.open(self.path, os.O_WRONLY)
        except OSError as exc:
            raise WriteError(self.path, exc) from None
        try:
            try:
                os.ftruncate(fd, size)
            except OSError as exc:
                raise WriteError(self.path, exc) from None
            try:
                os.fsync(fd)
            except OSError as exc:
                try:  # put it back, so what the player is told (nothing undone) stays true
                    os.ftruncate(fd, self.size)
                    _pwrite_all(fd, line, size)
                except OSError:
                    with suppress(OSError):
                        os.ftruncate(fd, size)
                    self.lines.pop()
                    self.size = size
                    raise Unflushed(self.path, exc) from None
                with suppress(OSError):
                    os.fsync(fd)
                raise WriteError(self.path, exc) from None
        finally:
            os.close(fd)
        self.lines.pop()
        self.size = size

    def rewrite(self, header: dict[str, Any], lines: list[bytes]) -> None:
        """Replace the whole journal at once (sealing, undo past its first event)."""
        data = header_line(header) + b"".join(lines)
        write_atomic(self.path, data)
        self.header, self.lines, self.size, self.torn = header, list(lines), len(data), 0


def header_line(header: dict[str, Any]) -> bytes:
    return json.dumps({"_format": marker(FORMAT), **header}, ensure_ascii=False).encode() + b"\n"


def create(path: Path, header: dict[str, Any], lines: list[bytes] = ()) -> None:  # type: ignore[assignment]
    """A new journal (a new session, a migrated one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
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
    check_marker(path, header.get("_format"), FORMAT)
    base = header.get("base")
    if not isinstance(base, int) or isinstance(base, bool) or base < 0:
        raise CorruptFileError(path, _("damaged (its header does not say where its events start)"))
    header = {k: v for k, v in header.items() if k != "_format"}
    lines = raw[first + 1 : end].splitlines(keepends=True)
    for n, line in enumerate(lines, start=1):
        if not line.startswith(b'{"id":%d,' % (base + n)):
            raise CorruptFileError(
                path,
                (
                    _("damaged: line {line} should be event {n} but is empty")
                    if line == b"\n"
                    else _("damaged: line {line} should be event {n} but is not")
                ).format(line=n + 1, n=base + n),
            )
    return Journal(path, header, lines, end, torn)


def _pwrite_all(fd: int, data: bytes, offset: int) -> None:
    view = memoryview(data)
    while view:
        n = os.pwrite(fd, view, offset)
        view, offset = view[n:], offset + n
