"""``companion sessions repair``: keep every event that can be proven, move everything else aside.

A session refused as damaged (companion.store.damage) has two ways out: put the damaged or missing
file back from a backup, or keep what is intact. :func:`survey` reads every events file in order and
counts the events up to the first one missing or damaged (later ones cannot be kept: a game is its
events in order): each sealed file checked against its digest, each journal line against its own
check. The same survey gives the count a damage's hint names, so the hint and the repair agree.

Only the events are a record; ``session.json`` is kept in the journal's header too, and the rest
(``log.json``, the checkpoints, ``.owner``) is made again from the events. So every damaged state the
store names leads out: the intact events are kept, the journal is written again with them, and the
damaged files, the events after the damage, what was derived from the lost ones (the checkpoints,
``log.json``) and a copy of the log file (which shows the lost events as text) go to a folder
``damaged-N`` in the session's folder. Nothing is deleted. A missing or damaged ``session.json`` is
written again from the journal's copy.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from companion.errors import CompanionError, StoreError
from companion.i18n import _
from companion.store import journal
from companion.store.atomic import CorruptFileError, NewerFormatError, check_marker, parse, read_bytes
from companion.store.damage import Damaged
from companion.store.events import SEGMENT, stamp, stamped, stamps_of

if TYPE_CHECKING:
    from companion.store.checkpoints import Checkpoints
    from companion.store.events import Events


class SessionFiles(Protocol):
    """What the survey and the repair use of a session's files (:class:`companion.store.sessions.SessionFiles`
    has it): declared here, so the session's files can ask for a survey (the count a damage's hint
    names) without a circle."""

    dir: Path
    slug: str
    session_file: Path
    head_file: Path
    redo_file: Path
    log_state_file: Path
    owner_file: Path
    events: Events
    checkpoints: Checkpoints

    def read_meta_file(self) -> tuple[dict[str, Any], int]: ...

    def read_meta(self) -> dict[str, Any]: ...

    def write_meta(self, meta: dict[str, Any]) -> None: ...

    def known_events(self) -> int: ...

    def _require_lock(self) -> None: ...


@dataclass
class Survey:
    """What is intact: ``sealed`` whole events files, then ``lines`` of the journal (its raw lines)."""

    sealed: int = 0
    stamps: list[tuple[int, str, int]] = field(default_factory=list)
    lines: list[bytes] = field(default_factory=list)
    #: The first thing that is wrong, in the player's words ("" when nothing is).
    problem: str = ""
    #: The meta document, when session.json is missing or damaged and the journal keeps a copy (else None).
    meta: dict[str, Any] | None = None
    meta_damaged: bool = False
    #: The most events anything knew of: the journal's lines (the damaged and those after it too), the
    #: log's record, the newest checkpoint.
    known: int = 0
    #: A file of a newer format: never repaired (a newer companion reads it).
    newer: NewerFormatError | None = None
    #: A last line that only lost its newline, proven by what the log or a checkpoint knows: kept.
    completed: bool = False
    #: The journal's format, and the bytes after its last newline.
    version: int = journal.VERSION
    tail: bytes = b""

    @property
    def intact(self) -> int:
        return self.sealed * SEGMENT + len(self.lines)

    @property
    def lost(self) -> int:
        """How many events the session is known to have had beyond those kept."""
        return max(0, self.known - self.intact)


def survey(files: SessionFiles) -> Survey:
    """Read every events file in order and say how many events are intact, and what is wrong first."""
    found = Survey()
    events = files.events
    try:
        files.read_meta_file()
    except NewerFormatError as exc:
        found.newer, found.problem = exc, exc.message
    except CompanionError as exc:
        found.meta_damaged, found.problem = True, exc.message
    raw = None
    try:
        raw = read_bytes(events.journal_path)
    except StoreError as exc:
        found.problem = found.problem or exc.message
    header = _header(events.journal_path, raw, found)
    if found.meta_damaged and isinstance(header.get("meta"), dict):
        found.meta = {"meta": header["meta"]}
    base = header.get("base")
    if not isinstance(base, int) or isinstance(base, bool) or base < 0 or base % SEGMENT:
        base = None
    digests = [r[1] for r in stamps_of(header)] if isinstance(header.get("sealed"), list) else []
    limit = base // SEGMENT if base is not None else None
    index = 0
    while limit is None or index < limit:
        path = events.segment(index)
        if not (path.exists() or path.is_symlink()):
            break
        try:
            events._read_segment(index, digests=digests)
        except Damaged as exc:
            found.problem = found.problem or exc.problem
            break
        found.stamps.append(stamp(path))
        found.sealed = index = index + 1
    found.known = max(found.intact, base or 0)
    if not raw:
        found.problem = found.problem or _("{path} is missing or empty").format(path=events.journal_path)
    elif base is not None and base != found.sealed * SEGMENT:
        if base > found.sealed * SEGMENT and not found.problem:
            found.problem = _("events {first}-{last} are missing (their events file is gone)").format(
                first=found.sealed * SEGMENT + 1, last=base
            )
        found.problem = found.problem or _("{path} does not follow the sealed events files").format(
            path=events.journal_path
        )
    else:
        _lines(files, raw, found)
    _leftovers(files, found)
    _witnesses(files, found)
    return found


def _header(path: Path, raw: bytes | None, found: Survey) -> dict[str, Any]:
    """The journal's header as far as it can be read ({} when it cannot: its lines may still be)."""
    if not raw:
        return {}
    first = raw.find(b"\n")
    try:
        data = parse(path, raw[: first + 1]) if first >= 0 else None
    except CorruptFileError:
        data = None
    if not isinstance(data, dict):
        found.problem = found.problem or _("{path} is damaged (its header line)").format(path=path)
        return {}
    try:
        found.version = check_marker(path, data.get("_format"), journal.FORMAT, journal.VERSION)
    except NewerFormatError as exc:
        found.newer, found.problem = exc, exc.message
    except CorruptFileError as exc:
        found.problem = found.problem or exc.message
        return {}
    return data


def _lines(files: SessionFiles, raw: bytes, found: Survey) -> None:
    """The journal's lines in order, each with its check (a format-2 line: read as JSON), up to the first
    that is not the next event whole."""
    path = files.events.journal_path
    body = raw[raw.find(b"\n") + 1 :]
    parts = body.split(b"\n")
    tail = parts.pop()
    version = found.version
    first_id = found.sealed * SEGMENT + 1
    for n, part in enumerate(parts):
        line, event_id = part + b"\n", first_id + n
        if not _whole(line, event_id, version):
            found.problem = found.problem or _("{path} is damaged at event {n}").format(path=path, n=event_id)
            found.known = max(found.known, first_id - 1 + len(parts))
            return
        found.lines.append(line)
    found.known = max(found.known, found.intact)
    found.tail = tail


def _whole(line: bytes, event_id: int, version: int) -> bool:
    if not line.startswith(b'{"id":%d,' % event_id):
        return False
    if version >= 3 or journal.checked(line):
        return journal.checked(line)
    try:
        event = json.loads(line)
    except ValueError:
        return False
    return isinstance(event, dict) and event.get("id") == event_id


def _leftovers(files: SessionFiles, found: Survey) -> None:
    """An events file beyond those the journal's header lists: harmless when it holds the journal's first
    events (a seal a kill cut short; opening removes it), else damage that repairing moves aside."""
    events = files.events
    for index in events.segments():
        if index < found.sealed:
            continue
        path = events.segment(index)
        ok = False
        if index == found.sealed and not found.problem:
            try:
                held = events._read_segment(index, partial=True, digests=[])
                path = events.journal_path
                ok = held == [journal.decode(path, line) for line in found.lines[: len(held)]]
            except Damaged:
                ok = False
        if not ok and not found.problem:
            found.problem = _("{path} is an events file the journal does not know").format(path=path)


def _witnesses(files: SessionFiles, found: Survey) -> None:
    """What the log's record and the newest checkpoint know: events beyond the intact ones are lost
    (the journal was cut, or put back from an older copy), unless a whole last line only lost its
    newline (then it is kept)."""
    known = files.known_events()
    tail = found.tail
    if (
        not found.problem
        and tail
        and known > found.intact
        and tail.startswith(b'{"id":%d,' % (found.intact + 1))
        and journal.checked(tail + b"\n")
    ):
        found.lines.append(tail + b"\n")
        found.completed = True
    found.known = max(found.known, known)
    if known > found.intact and not found.problem:
        first, last = found.intact + 1, known
        found.problem = (
            _("event {last} is missing (its log or a checkpoint was written after it)")
            if first == last
            else _("events {first}-{last} are missing (its log or a checkpoint was written after event {last})")
        ).format(first=first, last=last)


def repair(files: SessionFiles, found: Survey) -> Path:
    """Keep ``found``'s intact events; move everything else to a new ``damaged-N`` folder (returned)."""
    files._require_lock()
    if found.newer is not None:
        raise found.newer
    if found.meta_damaged and found.meta is None:
        raise StoreError(
            _("{path} is damaged and this session keeps no copy of it (it was made by companion 0.1.0)").format(
                path=files.session_file
            ),
            hint=_("put session.json back from a backup"),
        )
    n = 1
    while (files.dir / f"damaged-{n}").exists():
        n += 1
    aside = files.dir / f"damaged-{n}"
    aside.mkdir()
    events = files.events
    for index in events.segments():
        if index >= found.sealed:
            os.replace(events.segment(index), aside / events.segment(index).name)
    for path in (events.journal_path, files.redo_file, files.log_state_file, files.head_file, files.owner_file):
        if path.exists() or path.is_symlink():
            os.replace(path, aside / path.name)
    if files.checkpoints.dir.exists() or files.checkpoints.dir.is_symlink():
        os.replace(files.checkpoints.dir, aside / files.checkpoints.dir.name)
    meta = found.meta
    if found.meta_damaged:
        if files.session_file.exists() or files.session_file.is_symlink():
            os.replace(files.session_file, aside / files.session_file.name)
        assert meta is not None
        meta = {**meta, "meta": {**meta["meta"], "slug": files.slug}}
        files.write_meta(meta)
    else:
        meta = files.read_meta()
    log = Path(meta["meta"].get("log_path", ""))
    if log.name and log.is_file() and not log.is_symlink():
        shutil.copy2(log, aside / log.name)
    header = stamped({"base": found.sealed * SEGMENT, "meta": meta["meta"]}, found.stamps)
    journal.create(events.journal_path, header, found.lines)
    events.journal = None
    return aside
