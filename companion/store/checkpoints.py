"""Checkpoints: the session's state after an event, so that opening it folds only the events after.

``checkpoints/NNNNNN.json`` holds the state after event ``NNNNNN`` (a TinyDB ``checkpoint`` table of
one document, see companion.session.snapshot for what is in it). A checkpoint is small whatever the
session's length (the log's entries are in the markdown file, not here), is written every few events
rather than by every command, and is a cache: atomic, not fsynced, made again from the events whenever
it is missing or damaged.

The newest few are kept (undo folds from the one before the event it takes back), and the newest of
each :data:`~companion.store.events.SEGMENT` events, so an undo of many steps still folds a bounded
number of events.
"""

from __future__ import annotations

import os
import stat
from contextlib import suppress
from pathlib import Path
from typing import Any

from companion.store.atomic import (
    AtomicJSONStorage,
    CorruptFileError,
    StoreError,
    notice,
    read_json,
    removed,
    replaced,
)

FOLDER = "checkpoints"
#: How many of the newest checkpoints are kept.
KEEP = 8


class Checkpoints:
    def __init__(self, folder: Path) -> None:
        self.dir = folder / FOLDER

    def path(self, count: int) -> Path:
        return self.dir / f"{count:06d}.json"

    def counts(self) -> list[int]:
        try:
            if os.path.islink(self.dir):
                return []  # never read through a link; the next checkpoint written replaces it
            names = os.listdir(self.dir)
        except (FileNotFoundError, NotADirectoryError):
            return []
        return sorted(int(n[:-5]) for n in names if n.endswith(".json") and n[:-5].isdigit())

    def read(self, count: int) -> dict[str, Any] | None:
        """The checkpoint after event ``count``; None if it is gone or unreadable (a cache: the caller
        folds from an earlier one, or from the start)."""
        try:
            data = read_json(self.path(count))
        except CorruptFileError as exc:
            if exc.kind is not None:  # a link or a FIFO: never read, and removed (only the link goes)
                with suppress(OSError):
                    os.unlink(self.path(count))
                notice(removed(self.path(count), exc.kind))
            return None
        except StoreError:
            return None
        doc = (data or {}).get("checkpoint", {}).get("1")
        return doc if isinstance(doc, dict) and doc.get("events") == count else None

    def write(self, count: int, doc: dict[str, Any]) -> None:
        self._folder()
        AtomicJSONStorage(self.path(count), durable=False).write({"checkpoint": {"1": doc}})

    def _folder(self) -> None:
        """The checkpoints' folder, made if need be; a link (or anything else) there is never written
        through: it is removed (only the link goes) and the folder made, and the player told once."""
        try:
            mode = os.lstat(self.dir).st_mode
        except FileNotFoundError:
            self.dir.mkdir(exist_ok=True)
            return
        if stat.S_ISDIR(mode):
            return
        from companion.store.atomic import kind_of

        kind = kind_of(self.dir) or ""
        os.unlink(self.dir)
        notice(replaced(self.dir, kind))
        self.dir.mkdir()

    def remove(self, count: int) -> None:
        self.path(count).unlink(missing_ok=True)

    def prune(self, segment: int) -> None:
        """Keep the newest :data:`KEEP`, and the newest of each ``segment`` events."""
        counts = self.counts()
        keep = set(counts[-KEEP:])
        newest: dict[int, int] = {}
        for c in counts:
            newest[c // segment] = c
        keep |= set(newest.values())
        for c in counts:
            if c not in keep:
                self.remove(c)
