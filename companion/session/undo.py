"""Undo: take the last event back, in an order where every step that can fail leaves a true story.

1. The state before the last event is folded from the newest checkpoint before it (a bounded number
   of events; the whole session only when no checkpoint can serve, e.g. in a guided game long undone).
2. Checkpoints made after that event are removed: none may be ahead of the events.
3. The event goes on top of the redo list (``redo.json``, fsynced), with the fingerprint of the event
   it came after.
4. The log is taken back by the edits the event made (or written whole), and its record says so.
5. The event is cut off the journal (fsynced): this is the moment it is undone.

A failure in 1-3 or 5 changes nothing the player can see ("nothing was undone", and undoing again
does it once); a redo entry written in 3 for an event still in the journal is dropped when the session
is next opened. A log that cannot follow in 4 is a warning: the undo goes on, and the log's record is
removed first, so it never says the log shows an event that is gone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion import i18n
from companion.errors import CompanionError
from companion.i18n import _
from companion.session import logfile
from companion.session.errors import not_done, unflushed
from companion.session.fold import Fold
from companion.store.atomic import WriteError
from companion.store.journal import Unflushed, fingerprint

if TYPE_CHECKING:
    from companion.session.folded import Folded


def undo(session: Folded) -> dict[str, Any]:
    files = session.files
    if session.count == 0:
        raise CompanionError(_("nothing to undo: the session has no actions yet"))
    if session.broken:
        raise CompanionError(_("the session must be opened again after a failed save; run the command again"))
    last = files.events.event(session.count)
    if last.get("t") == "gamedata" and last.get("source") == "catalogue":
        # The copy of the player's catalogue a new session starts with is part of the session,
        # not an action: undoing it would leave the game without the cards and numbers entered.
        raise CompanionError(_("nothing to undo: the session has no actions yet"))
    data = dict(session.state.data)
    prior = before(session, session.count - 1)
    try:
        for count in files.checkpoints.counts():
            if count > prior.count:
                files.checkpoints.remove(count)
    except OSError as exc:
        raise not_done(WriteError(files.checkpoints.dir, exc), "undo") from None
    stack = [*session.redo_entries, {"event": last, "after": prior.last_fp}]
    try:
        files.write_redo(stack)
    except WriteError as exc:
        raise not_done(exc, "undo") from None
    try:
        logfile.back(session, prior)
    except (OSError, WriteError) as exc:
        try:  # the log's record must not stay ahead of the events
            files.forget_log_state()
        except OSError as gone:
            raise not_done(WriteError(files.log_state_file, gone), "undo") from None
        prior.layout, prior.shown = None, False
        if isinstance(exc, OSError):
            prior.warn(logfile.not_written(logfile.path(session), exc))
    try:
        files.events.drop_last()
    except Unflushed as exc:
        prior.warn(unflushed(exc, _("the undo of #{n} is done").format(n=last["id"])))
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
    return last


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
