"""``companion sessions repair``: keep the events that are intact, move everything else aside.

A session refused as damaged (companion.store.damage) has two ways out: put the damaged or missing
file back from a backup, or keep what is intact. Repairing reads every events file in order and keeps
the events up to the first one missing or damaged (later ones cannot be kept: a game is its events in
order). It never deletes anything: the damaged files, the events after the damage, the checkpoints and
a copy of the log file (which shows the lost events as text) go to a folder ``damaged-N`` in the
session's folder. A damaged ``session.json`` is written again from the copy of it the journal keeps.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import StoreError
from companion.i18n import _
from companion.store import journal
from companion.store.atomic import CorruptFileError, parse, read_bytes
from companion.store.damage import Damaged
from companion.store.events import SEGMENT

if TYPE_CHECKING:
    from companion.store.sessions import SessionFiles


@dataclass
class Survey:
    """What is intact: ``sealed`` whole events files, then ``lines`` of the journal (its raw lines)."""

    sealed: int = 0
    sizes: list[int] = field(default_factory=list)
    lines: list[bytes] = field(default_factory=list)
    #: The first thing that is wrong, in the player's words ("" when nothing is).
    problem: str = ""
    #: The meta document, when session.json is damaged and the journal keeps a copy (else None).
    meta: dict[str, Any] | None = None
    meta_damaged: bool = False

    @property
    def intact(self) -> int:
        return self.sealed * SEGMENT + len(self.lines)


def survey(files: SessionFiles) -> Survey:
    """Read every events file in order and say how many events are intact, and what is wrong first."""
    found = Survey()
    events = files.events
    header: dict[str, Any] = {}
    try:
        files.read_meta_file()
    except StoreError as exc:
        found.meta_damaged, found.problem = True, exc.message
    raw = None
    try:
        raw = read_bytes(events.journal_path)
    except StoreError as exc:
        found.problem = found.problem or exc.message
    if raw:
        first = raw.find(b"\n")
        try:
            data = parse(events.journal_path, raw[: first + 1]) if first >= 0 else None
        except CorruptFileError:
            data = None
        header = data if isinstance(data, dict) else {}
    if found.meta_damaged and isinstance(header.get("meta"), dict):
        found.meta = {"meta": header["meta"]}
    base = header.get("base")
    limit = base // SEGMENT if isinstance(base, int) else None
    index = 0
    while limit is None or index < limit:
        path = events.segment(index)
        if not path.exists():
            break
        try:
            chunk = events._read_segment(index)
        except Damaged as exc:
            found.problem = found.problem or exc.problem
            return found
        del chunk
        found.sealed, index = index + 1, index + 1
        found.sizes.append(path.stat().st_size)
    if raw is None or not raw:
        found.problem = found.problem or _("{path} is missing or empty").format(path=events.journal_path)
        return found
    if base != found.sealed * SEGMENT:
        if isinstance(base, int) and base > found.sealed * SEGMENT:
            first_lost = found.sealed * SEGMENT + 1
            found.problem = found.problem or _("events {first}-{last} are missing (their events file is gone)").format(
                first=first_lost, last=base
            )
            return found
        found.problem = found.problem or _("{path} does not follow the sealed events files").format(
            path=events.journal_path
        )
        return found
    body = raw[raw.find(b"\n") + 1 :]
    for n, line in enumerate(body.split(b"\n")[:-1], start=1):
        event_id = found.sealed * SEGMENT + n
        try:
            event = json.loads(line)
        except ValueError:
            event = None
        if not isinstance(event, dict) or event.get("id") != event_id:
            found.problem = found.problem or _("{path} is damaged at event {n}").format(
                path=events.journal_path, n=event_id
            )
            break
        found.lines.append(line + b"\n")
    return found


def repair(files: SessionFiles, found: Survey) -> Path:
    """Keep ``found``'s intact events; move everything else to a new ``damaged-N`` folder (returned)."""
    files._require_lock()
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
    for path in (events.journal_path, files.redo_file, files.log_state_file, files.head_file):
        if path.exists() or path.is_symlink():
            os.replace(path, aside / path.name)
    if files.checkpoints.dir.exists():
        os.replace(files.checkpoints.dir, aside / files.checkpoints.dir.name)
    meta = found.meta
    if found.meta_damaged:
        os.replace(files.session_file, aside / files.session_file.name)
        assert meta is not None
        meta = {**meta, "meta": {**meta["meta"], "slug": files.slug}}
        files.write_meta(meta)
    else:
        meta = files.read_meta()
    log = Path(meta["meta"].get("log_path", ""))
    if log.name and log.is_file():
        shutil.copy2(log, aside / log.name)
    header = {"base": found.sealed * SEGMENT, "sealed": found.sizes, "meta": meta["meta"]}
    journal.create(events.journal_path, header, found.lines)
    events.journal = None
    return aside
