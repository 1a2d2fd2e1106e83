"""A session's events: sealed TinyDB files of :data:`SEGMENT` events, and the journal of the newest.

``events/000000.json``, ``000001.json``, ... each hold exactly :data:`SEGMENT` events (a TinyDB
``events`` table whose document ids are the event ids), written once when sealed and never again.
``events/journal.jsonl`` (companion.store.journal) holds the events after them. Recording an event
appends one line to the journal: the cost is the same at any length.

When the journal holds ``2 * SEGMENT`` events, its first :data:`SEGMENT` are sealed: written as the
next events file (fsynced), then the journal is replaced by one without them (fsynced). The journal
keeps at least :data:`SEGMENT` events after sealing, so undo seldom reaches a sealed file; when it does
(the journal is empty), that file's events go back into the journal first (written, then the file
removed). A crash between the two steps of either leaves an events file whose events are also the
journal's first: it is checked event by event and removed when they are the same (never otherwise).

The journal's header lists the sealed files' sizes, so opening a session checks, with one ``stat``
each, that none is missing, emptied, cut, or replaced by something else, before anything is written.
Their contents are checked whenever they are read (an undo past them, a fold of the whole session).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from companion.i18n import _, ngettext, number
from companion.store import journal
from companion.store.atomic import AtomicJSONStorage, CorruptFileError, read_json
from companion.store.damage import Damaged

SEGMENT = 256
FOLDER = "events"


def segment_name(index: int) -> str:
    return f"{index:06d}.json"


class Events:
    """The events of the session in ``folder``; :meth:`load` first (the caller holds the lock to write)."""

    segment_size = SEGMENT

    def __init__(self, folder: Path, slug: str) -> None:
        self.dir = folder / FOLDER
        self.slug = slug
        self.journal: journal.Journal | None = None

    @property
    def journal_path(self) -> Path:
        return self.dir / journal.NAME

    def segment(self, index: int) -> Path:
        return self.dir / segment_name(index)

    def segments(self) -> list[int]:
        try:
            names = os.listdir(self.dir)
        except FileNotFoundError:
            return []
        return sorted(int(n[:-5]) for n in names if n.endswith(".json") and n[:-5].isdigit())

    # ---- opening ----------------------------------------------------------------------------------
    def load(self, *, repair: bool) -> journal.Journal:
        """Read the journal and check every events file is there as sealed. ``repair`` (the lock is held
        for writing) cuts away a last line cut short and finishes a seal a crash interrupted."""
        try:
            found = journal.read(self.journal_path)
        except CorruptFileError as exc:
            raise Damaged.journal(self, exc.why) from None
        if found is None:
            raise Damaged.journal(self)
        self.journal = found
        if found.torn and repair:
            self._cut_torn(found)
        base = found.base
        sealed = found.header.get("sealed", [])
        if base % SEGMENT or not isinstance(sealed, list) or len(sealed) != base // SEGMENT:
            raise Damaged.journal(self, _("damaged (its header does not match its events files)"))
        for index, size in enumerate(sealed):
            self._check_sealed(index, size)
        for index in self.segments():
            if index >= len(sealed):
                self._leftover(index, repair)
        return found

    def _cut_torn(self, found: journal.Journal) -> None:
        fd = os.open(self.journal_path, os.O_WRONLY)
        try:
            os.ftruncate(fd, found.size)
            os.fsync(fd)
        finally:
            os.close(fd)
        found.torn = 0

    def _check_sealed(self, index: int, size: Any) -> None:
        path = self.segment(index)
        try:
            info = os.stat(path)
        except FileNotFoundError:
            raise Damaged.segment(self, index, _("{path} is missing").format(path=path)) from None
        except OSError as exc:
            raise Damaged.segment(
                self, index, _("{path} cannot be read ({why})").format(path=path, why=exc.strerror)
            ) from None
        if not stat.S_ISREG(info.st_mode):
            raise Damaged.segment(self, index, _("{path} is not a regular file any more").format(path=path))
        if info.st_size != size:
            changed = ngettext(
                "{path} changed after it was sealed ({size} byte, not {sealed})",
                "{path} changed after it was sealed ({size} bytes, not {sealed})",
                info.st_size,
            )
            sizes = {"size": number(info.st_size, group=True), "sealed": number(size, group=True)}
            raise Damaged.segment(self, index, changed.format(path=path, **sizes))

    def _leftover(self, index: int, repair: bool) -> None:
        """An events file beyond the sealed ones: left by a crash while sealing, undoing past a sealed file
        or migrating a format-1 session, when its events are the journal's first; else damage."""
        assert self.journal is not None
        j = self.journal
        path = self.segment(index)
        if index * SEGMENT != j.base:
            raise Damaged.segment(
                self, index, _("{path} is an events file the journal does not know").format(path=path)
            )
        events = self._read_segment(index, partial=True)
        if [journal.encode(e) for e in events] != j.lines[: len(events)]:
            raise Damaged.segment(
                self, index, _("{path} differs from the same events in the journal").format(path=path)
            )
        if repair:
            path.unlink()

    # ---- reading ----------------------------------------------------------------------------------
    @property
    def count(self) -> int:
        assert self.journal is not None
        return self.journal.count

    def _read_segment(self, index: int, partial: bool = False) -> list[dict[str, Any]]:
        """Events file ``index``'s events, checked to be exactly its :data:`SEGMENT` (``partial``: its
        first ones, for a file a crash left behind)."""
        path = self.segment(index)
        first = index * SEGMENT + 1
        try:
            data = read_json(path)
        except CorruptFileError as exc:
            raise Damaged.segment(self, index, _("{path} is {why}").format(path=path, why=exc.why)) from None
        if data is None:
            raise Damaged.segment(self, index, _("{path} is missing").format(path=path))
        table = data.get("events")
        size = min(len(table), SEGMENT) if partial and isinstance(table, dict) else SEGMENT
        ids = [str(i) for i in range(first, first + size)]
        if not isinstance(table, dict) or not ids or sorted(table, key=_num) != ids:
            raise Damaged.segment(
                self,
                index,
                _("{path} does not hold events {first}-{last}").format(
                    path=path, first=first, last=first + SEGMENT - 1
                ),
            )
        out = []
        for key in ids:
            event = table[key]
            if not isinstance(event, dict):
                raise Damaged.segment(
                    self, index, _("{path} is damaged (event {n} is not an object)").format(path=path, n=key)
                )
            out.append({"id": int(key), **event})
        return out

    def read(self, start: int = 0) -> list[dict[str, Any]]:
        """Events with id > ``start`` (ids count from 1), in order, each with its ``id``."""
        assert self.journal is not None
        out: list[dict[str, Any]] = []
        for index in range(start // SEGMENT, self.journal.base // SEGMENT):
            out.extend(e for e in self._read_segment(index) if e["id"] > start)
        try:
            out.extend(self.journal.events(start))
        except CorruptFileError as exc:
            raise Damaged.journal(self, exc.why) from None
        return out

    def event(self, event_id: int) -> dict[str, Any]:
        assert self.journal is not None
        if event_id > self.journal.base:
            try:
                return self.journal.event(event_id)
            except CorruptFileError as exc:
                raise Damaged.journal(self, exc.why) from None
        index = (event_id - 1) // SEGMENT
        return self._read_segment(index)[(event_id - 1) % SEGMENT]

    # ---- writing ----------------------------------------------------------------------------------
    def append(self, event: dict[str, Any]) -> None:
        """Write event ``event["id"]`` (= count + 1) durably: the moment it is recorded."""
        assert self.journal is not None and event["id"] == self.journal.count + 1
        self.journal.append(journal.encode(event))

    def drop_last(self) -> None:
        """Remove the last event (undo), bringing a sealed file's events back first if need be."""
        assert self.journal is not None
        if not self.journal.lines:
            self._unseal()
        self.journal.drop_last()

    def _unseal(self) -> None:
        j = self.journal
        assert j is not None and j.base >= SEGMENT
        index = j.base // SEGMENT - 1
        events = self._read_segment(index)
        header = {**j.header, "base": j.base - SEGMENT, "sealed": j.header["sealed"][:-1]}
        j.rewrite(header, [journal.encode(e) for e in events])
        self.segment(index).unlink()

    def seal_due(self) -> bool:
        assert self.journal is not None
        return len(self.journal.lines) >= 2 * SEGMENT

    def seal(self) -> None:
        """Seal the journal's first :data:`SEGMENT` events into the next events file."""
        j = self.journal
        assert j is not None
        index = j.base // SEGMENT
        events = [j.event(j.base + n) for n in range(1, SEGMENT + 1)]
        path = self.segment(index)
        table = {str(e["id"]): {k: v for k, v in e.items() if k != "id"} for e in events}
        AtomicJSONStorage(path).write({"events": table})
        size = path.stat().st_size
        header = {**j.header, "base": j.base + SEGMENT, "sealed": [*j.header.get("sealed", []), size]}
        j.rewrite(header, j.lines[SEGMENT:])


def _num(key: str) -> int:
    return int(key) if key.isdigit() else -1
