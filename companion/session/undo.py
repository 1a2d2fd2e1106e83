"""Undo: take the last events back, in an order where every step that can fail leaves a true story.

``undo --to N`` takes back every event after N the same way, at once:

1. The state after event N is folded from the newest checkpoint before it (a bounded number of
   events; the whole session only when no checkpoint can serve, e.g. in a guided game, whose engine
   a checkpoint cannot hold).
2. Checkpoints made after N are removed: none may be ahead of the events.
3. The events go on the redo list (``redo.json``, fsynced), the first taken back on top, each with the
   fingerprint of the event it came after; and they are kept for good in the undone journal
   (``undone.jsonl``, fsynced: companion.store.undone), with where the dice stream stood.
4. The log is taken back by the edits the events made (or written whole), and its record says so.
5. The events are cut off the journal (one cut, fsynced): this is the moment they are undone.

A failure in 1-3 or 5 changes nothing the player can see ("nothing was undone", and undoing again
does it once); a redo entry written in 3 for an event still in the journal is dropped when the session
is next opened, and an undone record whose events are still in the journal says so by their
fingerprints. A log that cannot follow in 4 is a warning: the undo goes on, and the log's record is
removed first, so it never says the log shows an event that is gone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion import i18n
from companion.errors import CompanionError, InputError
from companion.i18n import _
from companion.session import logfile
from companion.session.clock import now
from companion.session.errors import not_done, unflushed
from companion.session.fold import Fold
from companion.store.atomic import WriteError
from companion.store.journal import Unflushed, fingerprint

if TYPE_CHECKING:
    from companion.session.folded import Folded


def undo(session: Folded) -> dict[str, Any]:
    """Take the last action back; returns its event."""
    return undo_to(session, session.count - 1)[0]


def undo_to(session: Folded, target: int) -> list[dict[str, Any]]:
    """Take back every action after event ``target`` at once (``undo --to``): one fold of the state
    after ``target``, one cut of the journal. Returns the events taken back, oldest first."""
    files = session.files
    if session.count == 0 or target >= session.count:
        raise CompanionError(_("nothing to undo: the session has no actions yet"))
    if session.broken:
        raise CompanionError(_("the session must be opened again after a failed save; run the command again"))
    first = files.events.event(target + 1) if target >= 0 else None
    if first is None or (first.get("t") == "gamedata" and first.get("source") == "catalogue"):
        # The copy of the player's catalogue a new session starts with is part of the session,
        # not an action: undoing it would leave the game without the cards and numbers entered.
        if session.count > 1:
            raise InputError(
                _("#1 is the game data the session started with, not an action: undo --to 1 takes back every action")
            )
        raise CompanionError(_("nothing to undo: the session has no actions yet"))
    taken = files.events.read(target)
    shown = next((e for e in taken if e.get("t") == "reveal"), None)
    if shown is not None:  # a seed once shown stays shown: no going back to roll again knowing it
        raise CompanionError(
            _("the dice's seed was revealed at #{n}: undo cannot go back past it").format(n=shown["id"])
        )
    data = dict(session.state.data)
    prior = before(session, target)
    try:
        for count in files.checkpoints.counts():
            if count > prior.count:
                files.checkpoints.remove(count)
    except OSError as exc:
        raise not_done(WriteError(files.checkpoints.dir, exc), "undo") from None
    stack = list(session.redo_entries)
    after = prior.last_fp
    entries = []
    for event in taken:
        entries.append({"event": event, "after": after})
        after = fingerprint(event)
    stack.extend(reversed(entries))  # the next to redo, the first taken back, on top
    try:
        files.write_redo(stack)
        files.undone.append(
            {"at": now(), "after": target, "fp": prior.last_fp, "draws": prior.fold.draws, "events": taken}
        )
    except WriteError as exc:
        raise not_done(exc, "undo") from None
    current = session
    if len(taken) > 1 and session.state.log.partial and prior.checkpoint:
        # Opened from a checkpoint, the session holds only its last event's log lines: the lines of every
        # event taken back come from a fold of them onto prior's checkpoint (the file is taken back by
        # their edits, not written whole).
        current = type(session)._at(files, session.spec, session.meta, prior.checkpoint, session.count) or session
    try:
        logfile.back(current, prior)
    except (OSError, WriteError) as exc:
        try:  # the log's record must not stay ahead of the events
            files.forget_log_state()
        except OSError as gone:
            raise not_done(WriteError(files.log_state_file, gone), "undo") from None
        prior.layout, prior.shown = None, False
        if isinstance(exc, OSError):
            prior.warn(logfile.not_written(logfile.path(session), exc))
    try:
        files.events.drop_to(target)
    except Unflushed as exc:
        prior.warn(unflushed(exc, _("the undo of #{n} is done").format(n=taken[-1]["id"])))
    except (WriteError, OSError) as exc:
        session.broken = True  # the log may show the undo already: the next open writes it again
        error = exc if isinstance(exc, WriteError) else WriteError(files.events.journal_path, exc)
        raise not_done(error, "undo") from None
    session.fold, session.count, session.last_fp = prior.fold, prior.count, prior.last_fp
    session.started, session.layout, session.checkpoint = prior.started, prior.layout, prior.checkpoint
    session.redo_entries, session._stream, session.shown = stack, prior._stream, prior.shown
    session.warnings.extend(prior.warnings)
    i18n.for_state(session.state)
    if data != session.state.data:  # a card entered and undone leaves the player's catalogue as it was
        from companion.session import catalogue

        try:
            catalogue.take_back(session.files.dir.parent.parent, session.meta.game, data, session.state.data)
        except (OSError, CompanionError) as exc:
            session.warn(_("the undo is done, but your catalogue keeps what it undid ({why})").format(why=exc))
    return taken


def before(session: Folded, target: int) -> Folded:
    """The session as it was after event ``target`` (nothing is written)."""
    from companion.session.state import new_state

    cls = type(session)
    files = session.files
    engine = session.fold.engine is not None  # guided play goes on after the undo: replay the game
    for at in [] if engine else reversed(files.checkpoints.counts()):
        if at <= target:
            prior = cls._at(files, session.spec, session.meta, at, target)
            if prior is not None:
                return prior
    events = files.read_events()[:target]
    prior = cls(files, session.spec, session.meta, Fold(session.spec, new_state(session.spec, session.meta)), 0, [])
    prior.rebuild(events)
    prior.last_fp = fingerprint(events[-1]) if events else ""
    return prior
