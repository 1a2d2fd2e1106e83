"""What the player is told when a disk fails under an action: the truth, and a hint that is safe.

Before the journal changes, nothing was done: the line says so, and the hint (free some space, then run
the command again) does it once. Once the journal has changed, the action is done: it is never
reported as failed, so following a hint never records it twice; a derived file (the log, a checkpoint)
that could not follow is a warning, and the next command brings it up to date.
"""

from __future__ import annotations

from typing import Any

from companion.errors import StoreError
from companion.i18n import N_, _
from companion.store.atomic import WriteError

_NOT_DONE = {
    "roll": N_("{why}: the roll is not recorded (could not write {path})"),
    "note": N_("{why}: the note is not recorded (could not write {path})"),
    "tally": N_("{why}: the tally change is not recorded (could not write {path})"),
    "answer": N_("{why}: the answer is not recorded (could not write {path})"),
    "record": N_("{why}: the action is not recorded (could not write {path})"),
    "undo": N_("{why}: nothing was undone (could not write {path})"),
    "redo": N_("{why}: nothing was redone (could not write {path})"),
}
_AGAIN = {
    (True, "record"): N_("free some space, then run the command again"),
    (False, "record"): N_("check the disk, then run the command again"),
    (True, "undo"): N_("free some space, then undo again"),
    (False, "undo"): N_("check the disk, then undo again"),
    (True, "redo"): N_("free some space, then redo again"),
    (False, "redo"): N_("check the disk, then redo again"),
}


def not_done(exc: WriteError, action: str, event: dict[str, Any] | None = None) -> StoreError:
    """The error for an action that did not happen because ``exc`` stopped it before the journal changed."""
    kind = action
    if action == "record" and event is not None and event.get("t") in ("roll", "note", "tally", "answer"):
        kind = event["t"]
    return StoreError(
        _(_NOT_DONE[kind]).format(why=exc.reason, path=exc.path),
        hint=_(_AGAIN[(bool(exc.full), action)]),
    )


def unflushed(exc: WriteError, done: str) -> str:
    """The warning for a change that is in its file, on a disk that then failed to flush it."""
    return _("warning: {done}, but the disk reported an error while saving it ({why}); check the disk").format(
        done=done, why=exc.reason
    )
