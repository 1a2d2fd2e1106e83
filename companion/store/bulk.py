"""Write many events at once, as recording them one by one would have left them (benchmarks, tests).

A session of 10,000 events recorded through the commands takes minutes (one process and one fsync
each); :func:`write_events` writes the same files in well under a second: the sealed events files and
the journal exactly as the journal's sealing leaves them (companion.store.events). The caller then opens
the session, which folds the events and writes the log and a checkpoint.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.store import journal
from companion.store.atomic import AtomicJSONStorage
from companion.store.events import SEGMENT, stamp, stamped, stamps_of

if TYPE_CHECKING:
    from companion.store.sessions import SessionFiles


def write_events(files: SessionFiles, events: list[dict[str, Any]]) -> None:
    """Append ``events`` (ids from the session's count + 1 on) to a session (the caller holds the lock)."""
    files._require_lock()
    found = files.load()
    start = found.count
    lines = list(found.lines)
    for n, event in enumerate(events, start=start + 1):
        lines.append(journal.encode({**event, "id": n}))
    base, sealed = found.base, [tuple(r) for r in stamps_of(found.header)]
    while len(lines) >= 2 * SEGMENT:
        chunk, lines = lines[:SEGMENT], lines[SEGMENT:]
        path = files.events.segment(base // SEGMENT)
        table = {}
        for line in chunk:
            event = journal.decode(files.events.journal_path, line)
            table[str(event.pop("id"))] = event
        AtomicJSONStorage(path).write({"events": table})
        sealed.append(stamp(path))
        base += SEGMENT
    found.rewrite(stamped({**found.header, "base": base}, sealed), lines)  # type: ignore[arg-type]
