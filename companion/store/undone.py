"""The undone journal: every action undo ever took back, kept for the record (``undone.jsonl``).

Undo takes events off the end of the session's journal (companion.store.journal); redo can bring them
back until a new action is recorded (``redo.json``). What they were is kept here for good, so the
session's history can show what was tried and taken back, and ``companion dice verify`` can tell a
roll that was undone and rolled again: one line per undo, appended and fsynced *before* the journal
is cut, never rewritten::

    {"n": 1, "at": "2026-12-02T21:04:00Z", "after": 12, "fp": "5be0c3a1", "draws": 31,
     "events": [{"id": 13, "t": "roll", ...}, {"id": 14, ...}]}

``after`` is the event the session went back to (and ``fp`` its fingerprint, so a record is known to
hang after that very event), ``draws`` the virtual dice drawn by then (where the seeded stream stood
for the first undone event), ``events`` the events taken back, oldest first. A record whose events are
back in the journal (redone, or an undo that failed after the record was written) says so by their
fingerprints; a last line cut short (a crash before the undo) is no record. A damaged line is left
out when the file is read (the journal, which holds the session, is not touched by it).
"""

from __future__ import annotations

import json
import os
from contextlib import suppress
from pathlib import Path
from typing import Any

from companion.store.atomic import WriteError, fsync_dir, write_all

NAME = "undone.jsonl"


class Undone:
    """The undone journal of the session in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / NAME

    def read(self) -> list[dict[str, Any]]:
        """Every whole record, oldest first (a line cut short or damaged is left out)."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return []
        except OSError:
            return []
        out = []
        for line in raw.split(b"\n")[:-1]:  # the bytes after the last newline are a write cut short
            try:
                record = json.loads(line)
            except (ValueError, UnicodeDecodeError):
                continue
            whole = isinstance(record, dict) and isinstance(record.get("events"), list)
            if whole and isinstance(record.get("after"), int):
                out.append(record)
        return out

    def append(self, record: dict[str, Any]) -> None:
        """Add one record, fsynced (``WriteError`` when it could not be: the undo is then not done)."""
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
        new = not self.path.exists()
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as exc:
            raise WriteError(self.path, exc) from None
        try:
            size = os.fstat(fd).st_size
            try:
                if size and _last_byte(fd, size) != b"\n":
                    write_all(fd, b"\n")  # a line a crash cut short ends here: it stays no record
                write_all(fd, line)
                os.fsync(fd)
            except OSError as exc:
                with suppress(OSError):
                    os.ftruncate(fd, size)
                raise WriteError(self.path, exc) from None
        finally:
            os.close(fd)
        if new:
            with suppress(OSError):
                fsync_dir(self.path.parent)


def _last_byte(fd: int, size: int) -> bytes:
    return os.pread(fd, 1, size - 1)
