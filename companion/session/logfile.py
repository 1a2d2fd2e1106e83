"""The session's markdown log file: brought up to date by what changed, and known to be up to date.

After an action, :func:`update` writes the edits the action made (companion.log.writer), then records
in ``log.json`` (in the session folder) the event the file now shows and the file's size and time.
Opening a session checks that record against the events and the file (:func:`shows`); anything else
(a crash before the record, a file edited or replaced) has the whole file written again from the
events (:func:`write_whole`). The log is made from the events, so it is never fsynced, and a log that
cannot be written (a full or read-only logs folder) never fails the action: the player is told it is
recorded, and the next command writes the log again.
"""

from __future__ import annotations

import dataclasses
import errno
import os
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.log import writer
from companion.session.folded import title_hero
from companion.store.atomic import WriteError
from companion.store.journal import fingerprint

if TYPE_CHECKING:
    from companion.session.folded import Folded


def path(session: Folded) -> Path:
    return Path(session.meta.log_path)


def shows(session: Folded) -> bool:
    """Whether the log file is the one written after the session's last event (and untouched since)."""
    record = session.files.read_log_state()
    if not record or record.get("events") != session.count or record.get("fp") != session.last_fp:
        return False
    if record.get("path") != session.meta.log_path:
        return False
    try:
        info = os.stat(session.meta.log_path)
    except OSError:
        return False
    if (info.st_size, info.st_mtime_ns) != (record.get("size"), record.get("mtime_ns")):
        return False
    if record.get("head") != _head_crc(session):
        return False  # the same events, another head: a rename (catch_up writes the head alone)
    return session.layout is None or session.layout.size == info.st_size


def _head_crc(session: Folded) -> str:
    import zlib

    from companion.log.markdown import head_text

    return f"{zlib.crc32(head_text(session.state, *title_hero(session)).encode()):08x}"


def catch_up(session: Folded) -> bool:
    """Bring a file that was left a few events behind (a crash between an event and its log, an undo
    cut short) up to the session's state by the edits since, if its record says where it stands and
    the file is as recorded. False when it cannot be (the caller writes it whole)."""
    record = session.files.read_log_state()
    shown = record.get("events") if record else None
    if not isinstance(shown, int) or not 0 < shown <= session.count or record.get("path") != session.meta.log_path:
        return False
    try:
        info = os.stat(session.meta.log_path)
        if record.get("fp") != fingerprint(session.files.events.event(shown)):
            return False
    except OSError:
        return False
    if (info.st_size, info.st_mtime_ns) != (record.get("size"), record.get("mtime_ns")):
        return False
    from companion.session.fold import REBUILD_AFTER

    if shown == session.count:  # only the head is not the state's (a rename): write it
        layout = session.layout
        if layout is None or info.st_size <= layout.body + layout.tail:
            return False
        title, hero = title_hero(session)
        was = dataclasses.replace(layout, head=info.st_size - layout.body - layout.tail)  # the file's old head
        try:
            step = writer.plan(was, session.state, title, hero, changed=set())
            size, mtime = writer.write(str(path(session)), step)
        except (writer.OutOfStep, FileNotFoundError):
            return False
        session.layout, session.shown = step.layout, True
        _remember(session, size, mtime)
        return True
    if any(e.get("t") in REBUILD_AFTER for e in session.files.events.read(shown)):
        return False  # an amendment changed rolls the file shows long before: written whole
    prior = None
    for at in reversed(session.files.checkpoints.counts()):
        if at <= shown:
            prior = type(session)._at(session.files, session.spec, session.meta, at, shown)
            if prior is not None:
                break
    if prior is None or prior.layout is None or prior.layout.size != info.st_size:
        return False
    title, hero = title_hero(session)
    try:
        step = writer.plan(prior.layout, session.state, title, hero, changed=_changed_lines(prior, session))
        size, mtime = writer.write(str(path(session)), step)
    except (writer.OutOfStep, FileNotFoundError):
        return False
    session.layout, session.shown = step.layout, True
    _remember(session, size, mtime)
    return True


def _remember(session: Folded, size: int, mtime_ns: int, *, required: bool = False) -> None:
    """Record where the file stands. If that cannot be written, the old record (an earlier event) stays,
    and the next open writes the file again: nothing to tell the player. ``required`` (undo: the old
    record would be ahead of the events) raises instead."""
    if required:
        _write_state(session, size, mtime_ns)
        return
    with suppress(WriteError):
        _write_state(session, size, mtime_ns)


def _write_state(session: Folded, size: int, mtime_ns: int) -> None:
    session.files.write_log_state(
        {
            "events": session.count,
            "fp": session.last_fp,
            "head": _head_crc(session),
            "path": session.meta.log_path,
            "size": size,
            "mtime_ns": mtime_ns,
        }
    )


def write_whole(session: Folded, *, required: bool = False) -> None:
    """Write the whole file from the events (folding them all first if the state came from a checkpoint):
    the session's own ``count`` events, which for undo's ``prior`` are not all the events in the files."""
    if session.state.log.partial:
        session.rebuild(session.files.read_events()[: session.count])
    title, hero = title_hero(session)
    data, layout = writer.full(session.state, title, hero)
    target = path(session)
    target.parent.mkdir(parents=True, exist_ok=True)
    size, mtime = writer.replace(str(target), data)
    session.layout, session.shown = layout, True
    _remember(session, size, mtime, required=required)


def update(session: Folded) -> None:
    """Bring the file up to date with the state after an action; a failure is a warning, never an error."""
    try:
        _update(session)
    except OSError as exc:
        session.layout, session.shown = None, False
        session.warn(not_written(path(session), exc))


def _update(session: Folded) -> None:
    if session.layout is None:
        write_whole(session)
        return
    title, hero = title_hero(session)
    try:
        step = writer.plan(session.layout, session.state, title, hero)
        size, mtime = writer.write(str(path(session)), step)
    except (writer.OutOfStep, FileNotFoundError):
        write_whole(session)
        return
    except OSError:
        session.layout = None
        raise
    session.layout, session.shown = step.layout, True
    _remember(session, size, mtime)


def back(session: Folded, prior: Folded) -> None:
    """Take the file from the session's state back to ``prior``'s (undo), or write it whole."""
    title, hero = title_hero(session)
    if session.layout is not None and prior.layout is not None:
        try:
            changed = _changed_lines(prior, session)
            step = writer.plan(prior.layout, session.state, title, hero, changed=changed)
            undo = writer.reverse(step, prior.state, *title_hero(prior))
            size, mtime = writer.write(str(path(session)), undo)
        except (writer.OutOfStep, FileNotFoundError):
            pass
        else:
            prior.layout, prior.shown = undo.layout, True
            _remember(prior, size, mtime, required=True)
            return
    write_whole(prior, required=True)


def amended(session: Folded, trial: Any) -> None:
    """Write an amendment folded from a checkpoint: the file back to the checkpoint by the edits the
    events since made, then forward by the edits they make with the amendment; else whole."""
    try:
        if session.layout is None:
            raise writer.OutOfStep("the file's layout is not known")
        base, now, after = trial.base, trial.now, trial.after
        title, hero = title_hero(session)
        back = writer.plan(base.layout, now.state, *title_hero(now), changed=_changed_lines(base, now))
        if back.layout.size != session.layout.size:
            raise writer.OutOfStep("the checkpoint does not lead to the file as it is")
        writer.write(str(path(session)), writer.reverse(back, base.state, *title_hero(base)))
        step = writer.plan(base.layout, session.state, title, hero, changed=_changed_lines(base, after))
        size, mtime = writer.write(str(path(session)), step)
    except (writer.OutOfStep, FileNotFoundError):
        update_whole(session)
        return
    except OSError as exc:
        session.layout, session.shown = None, False
        session.warn(not_written(path(session), exc))
        return
    session.layout, session.shown = step.layout, True
    _remember(session, size, mtime)


def update_whole(session: Folded) -> None:
    session.layout = None
    update(session)


def _changed_lines(prior: Folded, session: Folded) -> set[int]:
    """The open lines (of ``prior``'s layout) whose text differs between the two states."""
    assert prior.layout is not None
    before, after = prior.state.log.entries, session.state.log.entries
    changed = set()
    for block in prior.layout.blocks:
        if before[block.index] is None or after[block.index] is None:
            raise writer.OutOfStep("a line is not in memory")
        if before[block.index].get("t") != after[block.index].get("t"):
            changed.add(block.index)
    return changed


def not_written(target: Path, exc: OSError) -> str:
    full = exc.errno in (errno.ENOSPC, errno.EDQUOT)
    why = "the disk is full" if full else (exc.strerror or str(exc))
    return f"warning: the log {target} could not be brought up to date ({why}); the action is recorded, and " + (
        "the next command writes the log again once there is space" if full else "the next command writes it again"
    )
