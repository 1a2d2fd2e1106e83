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

The journal's header lists the sealed files' sizes, digests and modification times, so opening a
session checks, with one ``stat`` each, that none is missing, emptied, cut, or replaced by something
else, before anything is written; a file whose time changed (an edit that kept its size) is read and
its digest checked then too. Their contents are checked against the digest whenever they are read (an
undo past them, a fold of the whole session, an export), so a change of one letter is found.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.i18n import _, ngettext, number
from companion.store import journal
from companion.store.atomic import AtomicJSONStorage, CorruptFileError, StoreError, loads, read_bytes
from companion.store.damage import Damaged

SEGMENT = 256
FOLDER = "events"


def segment_name(index: int) -> str:
    return f"{index:06d}.json"


def digest(data: bytes) -> str:
    """A sealed events file's digest, kept in the journal's header."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def stamp(path: Path) -> tuple[int, str, int]:
    """A sealed file's size, digest and modification time, as the journal's header keeps them."""
    data = read_bytes(path) or b""
    return len(data), digest(data), os.stat(path).st_mtime_ns


def stamped(header: dict[str, Any], stamps: list[tuple[int, str, int]]) -> dict[str, Any]:
    """``header`` listing ``stamps`` as its sealed files."""
    return {
        **header,
        "sealed": [s[0] for s in stamps],
        "hashes": [s[1] for s in stamps],
        "mtimes": [s[2] for s in stamps],
    }


def stamps_of(header: dict[str, Any]) -> list[tuple[Any, Any, Any]]:
    """The sealed files' (size, digest, time) as a header lists them (None where it does not: format 2)."""
    sizes = header.get("sealed", [])
    hashes, mtimes = header.get("hashes"), header.get("mtimes")
    if not isinstance(hashes, list) or len(hashes) != len(sizes):
        hashes = [None] * len(sizes)
    if not isinstance(mtimes, list) or len(mtimes) != len(sizes):
        mtimes = [None] * len(sizes)
    return list(zip(sizes, hashes, mtimes, strict=True))


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

    #: How many events a survey of the whole session finds intact (set by companion.store.sessions):
    #: the count a damage's hint gives, the same as ``companion sessions repair`` keeps.
    counter: Callable[[], int] | None = None

    # ---- opening ----------------------------------------------------------------------------------
    def load(self, *, repair: bool, known: Callable[[], int] | None = None) -> journal.Journal:
        """Read the journal and check every events file is there as sealed. ``repair`` (the lock is held
        for writing) cuts away a last line cut short (or completes it, when ``known()``, what the log
        and the checkpoints know, proves it was recorded), finishes a seal a crash interrupted, and
        writes a format-2 journal again with its lines' checks."""
        try:
            found = journal.read(self.journal_path)
        except CorruptFileError as exc:
            raise Damaged.journal(self, exc.why) from None
        if found is None:
            raise Damaged.journal(self)
        self.journal = found
        base = found.base
        sealed = found.header.get("sealed", [])
        if base % SEGMENT or not isinstance(sealed, list) or len(sealed) != base // SEGMENT:
            raise Damaged.journal(self, _("damaged (its header does not match its events files)"))
        for index, record in enumerate(stamps_of(found.header)):
            self._check_sealed(index, *record)
        if found.torn and repair:
            if found.whole_tail and known is not None and known() > found.count:
                found.complete_tail()
            else:
                found.cut_tail()
        for index in self.segments():
            if index >= len(sealed):
                self._leftover(index, repair)
        if repair and found.version < journal.VERSION:
            self._upgrade(found)
        return found

    def _upgrade(self, found: journal.Journal) -> None:
        """A format-2 journal written again as format 3: each line with its check, each sealed file's
        digest and time in the header (read and checked once, here)."""
        stamps = []
        for index in range(found.base // SEGMENT):
            self._read_segment(index)
            stamps.append(stamp(self.segment(index)))
        try:
            found.rewrite(stamped(found.header, stamps), found.lines)
        except CorruptFileError as exc:
            raise Damaged.journal(self, exc.why) from None

    def _check_sealed(self, index: int, size: Any, sealed_digest: Any = None, mtime: Any = None) -> None:
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
        if sealed_digest is not None and info.st_mtime_ns != mtime:
            self._read_raw(index)  # touched since it was sealed: its digest says whether it changed

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
        if events != [j.event(j.base + n) for n in range(1, min(len(events), len(j.lines)) + 1)]:
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

    def _read_segment(
        self, index: int, partial: bool = False, digests: list[Any] | None = None
    ) -> list[dict[str, Any]]:
        """Events file ``index``'s events, checked to be exactly its :data:`SEGMENT` (``partial``: its
        first ones, for a file a crash left behind)."""
        path = self.segment(index)
        first = index * SEGMENT + 1
        raw = self._read_raw(index, digests)
        try:
            data = loads(path, raw)
        except CorruptFileError as exc:
            raise Damaged.segment(self, index, _("{path} is {why}").format(path=path, why=exc.why)) from None
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
            out.append({"id": int(key), **{k: v for k, v in event.items() if k != "crc"}})
        return out

    def _read_raw(self, index: int, digests: list[Any] | None = None) -> bytes:
        """Sealed file ``index``'s bytes, checked against the digest the journal's header keeps for it
        (or ``digests[index]``)."""
        path = self.segment(index)
        try:
            raw = read_bytes(path)
        except CorruptFileError as exc:
            raise Damaged.segment(self, index, _("{path} is {why}").format(path=path, why=exc.why)) from None
        except StoreError as exc:
            raise Damaged.segment(self, index, exc.message) from None
        if raw is None:
            raise Damaged.segment(self, index, _("{path} is missing").format(path=path))
        if digests is None:
            digests = [r[1] for r in stamps_of(self.journal.header)] if self.journal is not None else []
        if index < len(digests) and digests[index] is not None and digest(raw) != digests[index]:
            raise Damaged.segment(
                self,
                index,
                _("{path} changed after it was sealed (its bytes are not the ones sealed)").format(path=path),
            )
        return raw

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
        self.drop_to(self.count - 1)

    def drop_to(self, count: int) -> None:
        """Remove every event after ``count`` (undo, ``undo --to``), bringing back first the sealed
        files' events it reaches into, one at a time (rare: the journal keeps at least a file's worth).
        A crash between two files leaves the session at the first of them, whole: the redo list is read
        from there on (``companion.session.service._valid_redo``)."""
        assert self.journal is not None and 0 <= count < self.count
        while self.journal.base > count:  # a sealed file at a time, as undo past it always did
            if self.journal.lines:
                self.journal.drop_to(self.journal.base)
            self._unseal()
        if count < self.journal.count:
            self.journal.drop_to(count)

    def _unseal(self) -> None:
        j = self.journal
        assert j is not None and j.base >= SEGMENT
        index = j.base // SEGMENT - 1
        events = self._read_segment(index)
        kept = [tuple(r) for r in stamps_of(j.header)[:-1]]
        if any(r[1] is None for r in kept):
            kept = [stamp(self.segment(i)) for i in range(index)]
        header = stamped({**j.header, "base": j.base - SEGMENT}, kept)  # type: ignore[arg-type]
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
        records = [tuple(r) for r in stamps_of(j.header)]
        if any(r[1] is None for r in records):
            records = [stamp(self.segment(i)) for i in range(index)]
        header = stamped({**j.header, "base": j.base + SEGMENT}, [*records, stamp(path)])  # type: ignore[list-item]
        j.rewrite(header, j.lines[SEGMENT:])


def _num(key: str) -> int:
    return int(key) if key.isdigit() else -1
