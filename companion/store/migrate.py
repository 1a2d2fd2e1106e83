"""Format-1 sessions (companion 0.1.0) become format 2 when they are first opened.

Format 1 kept the events in TinyDB files of 256, the last one rewritten whole by every action, and a
snapshot of the whole state in ``head.json``. Migrating, under the session's lock:

1. every events file is read and checked (ids 1, 2, ... in files of 256; ``head.json``, when it can
   be read, must not know more events than the files hold, or the session is refused as damaged);
2. the events of the last file, when it is not full, are written to a new journal, whose header lists
   the full files, which stay as they are (they are format 2's sealed files already);
3. the undone events ``head.json`` kept for redo go to ``redo.json``;
4. ``session.json`` is written as format 2: from here on the session is format 2;
5. the last events file (its events are in the journal now) and ``head.json`` are removed.

A kill before step 4 leaves a format-1 session, migrated again next time; after it, a format-2 one
whose leftover events file is found to be the journal's first events and removed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.i18n import _
from companion.store import journal
from companion.store.atomic import StoreError, read_json
from companion.store.damage import Damaged
from companion.store.events import SEGMENT, stamp, stamped

if TYPE_CHECKING:
    from companion.store.sessions import SessionFiles


def migrate(files: SessionFiles, meta: dict[str, Any]) -> None:
    """Make the format-1 session in ``files`` format 2 (the caller holds the lock)."""
    events = files.events
    indices = events.segments()
    if indices != list(range(len(indices))):
        missing = next(i for i in range(len(indices) + 1) if i not in indices)
        raise Damaged.segment(events, missing, _("{path} is missing").format(path=events.segment(missing)))
    chunks: list[list[dict[str, Any]]] = []
    for index in indices:
        last = index == indices[-1]
        chunk = events._read_segment(index, partial=last)
        chunks.append(chunk)
    count = sum(len(c) for c in chunks)
    head = _head(files)
    known = head.get("events") if head else None
    if isinstance(known, int) and known > count:
        raise Damaged.missing(files.slug, count, known, _("its snapshot {path}").format(path=files.head_file))
    full = [c for c in chunks if len(c) == SEGMENT]
    rest = chunks[len(full)] if len(full) < len(chunks) else []
    header = stamped(
        {"base": len(full) * SEGMENT, "meta": meta["meta"]}, [stamp(events.segment(i)) for i in range(len(full))]
    )
    journal.create(events.journal_path, header, [journal.encode(e) for e in rest])
    redo = [e for e in (head or {}).get("redo", []) if isinstance(e, dict)]
    if redo:
        files.write_redo(redo_stack(redo, chunks[-1][-1] if count else None))
    files.write_meta(meta)
    if rest:
        events.segment(len(full)).unlink()
    files.head_file.unlink(missing_ok=True)


def _head(files: SessionFiles) -> dict[str, Any] | None:
    try:
        data = read_json(files.head_file)
    except StoreError:
        return None  # a damaged snapshot was only a cache
    head = (data or {}).get("head", {}).get("1")
    return head if isinstance(head, dict) else None


def redo_stack(redo: list[dict[str, Any]], last: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Format 1's redo list (the next to bring back at the end) in format 2's form: each undone event
    with the fingerprint of the event it came after (``last`` for the next one)."""
    out = []
    parent = journal.fingerprint(last) if last is not None else ""
    for event in reversed(redo):
        out.append({"event": event, "after": parent})
        parent = journal.fingerprint(event)
    out.reverse()
    return out
