"""An amendment folded from the checkpoint before the roll it corrects, not from the first event.

``companion amend`` changes a roll already folded: every event after it must be folded again with the
corrected faces. Instead of the whole session, the events after the newest checkpoint before that roll
are folded twice from that checkpoint: as they are (the state the log file shows now) and with the
amendment (the state after it). The log file is taken back to the checkpoint by the edits the first
fold made, then brought forward by the second's (companion.log.writer): a bounded amount of work at
any length. Only when no checkpoint can serve (the roll is older than every one kept, or a game's
engine is needed on the way) is the whole session folded again.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError
from companion.session import snapshot
from companion.session.fold import Fold, amendments
from companion.store.journal import fingerprint

if TYPE_CHECKING:
    from companion.session.folded import Folded


@dataclass
class Trial:
    """The session at the checkpoint (``base``), then folded to the last event as it is (``now``) and with
    the amendment (``after``)."""

    event: dict[str, Any]
    count: int
    base: Folded
    now: Folded
    after: Folded


class Refused(CompanionError):
    """The game would have gone another way with the corrected roll; ``now`` is the session as it is."""

    def __init__(self, message: str, now: Folded) -> None:
        super().__init__(message)
        self.now = now


def key(event: dict[str, Any]) -> tuple:
    return (event.get("target"), repr(event.get("roll")), event.get("reason"))


def trial(session: Folded, event: dict[str, Any]) -> Trial | None:
    """The amendment ``event`` (without its id) tried from a checkpoint; None when none can serve. Raises
    what the fold raises if the game would have gone another way."""
    kept = getattr(session, "_trial", None)
    if kept is not None and kept.count == session.count and key(kept.event) == key(event):
        return kept
    files, spec = session.files, session.spec
    target = int(event["target"])
    cls = type(session)
    for at in reversed(files.checkpoints.counts()):
        if at >= target or at == 0:
            continue
        later = files.events.read(at)
        new = {**event, "id": session.count + 1}
        if any(e.get("t") == "amend" and int(e["target"]) <= at for e in later):
            continue  # an amendment after it corrects a roll before it: an older checkpoint may serve
        base = cls._at(files, spec, session.meta, at, at)
        if base is None or base.layout is None:
            return None
        if any(snapshot.needs_engine(e, spec, base.started, base.meta) for e in later if e.get("t") != "amend"):
            return None
        now = _folded(base, later, later)
        try:
            after = _folded(base, [*later, new], [*later, new])
        except CompanionError as exc:
            raise Refused(exc.message, now) from None
        found = Trial(event, session.count, base, now, after)
        session._trial = found
        return found
    return None


def _folded(base: Folded, events: list[dict[str, Any]], amending: list[dict[str, Any]]) -> Folded:
    """A copy of ``base`` with ``events`` folded onto it, the amendments among ``amending`` applied."""
    cls = type(base)
    fold = Fold(base.spec, copy.deepcopy(base.state), draws=base.fold.draws, amended=amendments(amending))
    fold.resumed = base.fold.resumed
    out = cls(base.files, base.spec, base.meta, fold, base.count, [])
    out.started, out.layout, out._stream = base.started, base.layout, base._stream
    for e in events:
        out._apply(e)
    out.count = events[-1]["id"] if events else base.count
    out.last_fp = fingerprint(events[-1]) if events else base.last_fp
    return out


def roll_entry(session: Folded, target: int) -> dict[str, Any] | None:
    """The log's roll entry of event ``target`` in ``session`` (its entries after the checkpoint)."""
    for entry in reversed(session.state.log.entries):
        if entry is not None and entry.get("k") == "roll" and entry.get("e") == target:
            return entry["r"]
    return None
