"""The session's actions in words, as a numbered timeline: what ``history``, ``undo --to``, redo and the
page read.

:func:`said` gives events ``first..last`` each with its label (companion.session.labels), said with
the table as it stood before it. It folds from the newest checkpoint before ``first`` (a bounded
number of events), so the cost is the events asked for; a guided game whose engine had begun is
replayed from its first event, as opening it with its engine is (a checkpoint cannot hold an engine).
A session that keeps its words (``Session.said``: the shell, the page) is asked nothing twice.

:func:`taken_back` gives what undo took back and is kept in the undone journal (companion.store.undone):
the records whose events are not back in the journal, each marked when redo can still bring it back.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError
from companion.i18n import language
from companion.session.fold import Fold, amendments
from companion.session.labels import Label, label
from companion.session.snapshot import needs_engine
from companion.session.state import new_state
from companion.store.journal import fingerprint

if TYPE_CHECKING:
    from companion.session.folded import Folded


@dataclass(frozen=True)
class Said:
    """One action of the timeline: its event's id (the number a player gives ``undo --to``), when it
    was recorded, and its words."""

    id: int
    at: str
    label: Label

    def as_json(self) -> dict[str, Any]:
        return {"n": self.id, "at": self.at, **self.label.as_json()}

    def seen(self, view: Any) -> Said:
        """As ``view`` lets it be read (companion.session.labels.Label.seen)."""
        return Said(self.id, self.at, self.label.seen(view))


@dataclass
class TakenBack:
    """One undo kept in the undone journal: the action it went back to, when, and what it took back."""

    after: int
    at: str
    actions: list[Said] = field(default_factory=list)
    #: Whether ``redo`` can still bring these back (they are on the redo list).
    redo: bool = False

    def as_json(self) -> dict[str, Any]:
        return {"after": self.after, "at": self.at, "redo": self.redo, "actions": [a.as_json() for a in self.actions]}


def said(session: Folded, first: int, last: int) -> list[Said]:
    """Events ``first..last`` (ids, 1 and up) with their words (see the module's docstring)."""
    first, last = max(1, first), min(last, session.count)
    if first > last:
        return []
    events = session.files.events.read(first - 1)[: last - first + 1]
    lang = language()
    kept = session.said
    if kept is not None:
        found = [kept.get(e["id"]) for e in events]
        if all(f is not None and f[0] == fingerprint(e) and f[1] == lang for f, e in zip(found, events, strict=True)):
            seen = session.spec.view(session.state)
            return [Said(e["id"], str(e.get("at", "")), f[2]).seen(seen) for f, e in zip(found, events, strict=True)]  # type: ignore[index]
    cache: dict[int, tuple[str, str, Any]] = kept if kept is not None else {}
    out: list[Said] = []
    try:
        fold = _fold_to(session, first - 1, events)
        fold.said, fold.said_lang = cache, lang
        for event in events:
            fold.apply(event)
            out.append(Said(event["id"], str(event.get("at", "")), cache[event["id"]][2]))
    except (CompanionError, KeyError, TypeError, ValueError):
        pass  # a save the rules no longer replay: the rest said from what each event holds
    for event in events[len(out) :]:
        out.append(Said(event["id"], str(event.get("at", "")), label(session.spec, event)))
    seen = session.spec.view(session.state)  # the one filter: no word names a secret the game keeps
    return [s.seen(seen) for s in out]


def _fold_to(session: Folded, upto: int, then: list[dict[str, Any]]) -> Fold:
    """A fold of the session's first ``upto`` events, ready to fold ``then`` after them: from the newest
    checkpoint before them that serves, else from the first event."""
    spec, files = session.spec, session.files
    engine = spec.play is not None and any(needs_engine(e, spec, True) for e in then)
    at = max((c for c in files.checkpoints.counts() if 0 < c <= upto), default=0)
    if at:
        prior = type(session)._at(files, spec, session.meta, at, upto, engine)
        if prior is not None:
            return prior.fold
    events = files.read_events()[:upto]
    fold = Fold(spec, new_state(spec, session.meta), amended=amendments([*events, *then]))
    for event in events:
        fold.apply(event)
    return fold


def taken_back(session: Folded) -> list[TakenBack]:
    """What undo took back that is not in the timeline now, oldest first (see the module's docstring)."""
    records = session.files.undone.read()
    if not records:
        return []
    on_redo = {fingerprint(e) for e in session.redo_stack} if hasattr(session, "redo_stack") else set()
    out = []
    seen: set[str] = set()  # an action undone, redone and undone again is shown with its last undo
    for record in reversed(records):
        events = [e for e in record["events"] if isinstance(e, dict) and isinstance(e.get("id"), int)]
        gone = [e for e in events if fingerprint(e) not in seen and not _in_journal(session, e)]
        seen.update(fingerprint(e) for e in events)
        if not gone:
            continue  # brought back by redo (or an undo that did not happen)
        actions = _said_apart(session, records, record, events, gone)
        redo = bool(on_redo) and all(fingerprint(e) in on_redo for e in gone)
        out.append(TakenBack(int(record["after"]), str(record.get("at", "")), actions, redo))
    seen = session.spec.view(session.state)
    for taken in out:
        taken.actions = [a.seen(seen) for a in taken.actions]
    return out[::-1]


def _in_journal(session: Folded, event: dict[str, Any]) -> bool:
    eid = event["id"]
    if eid > session.count:
        return False
    try:
        return fingerprint(session.files.events.event(eid)) == fingerprint(event)
    except CompanionError:  # a damaged file is said where the session is opened; here it is only not shown
        return False


def _said_apart(
    session: Folded,
    records: list[dict[str, Any]],
    record: dict[str, Any],
    undone: list[dict[str, Any]],
    gone: list[dict[str, Any]],
) -> list[Said]:
    """The ``gone`` events of an undo that took back ``undone``, in words, with the table they were
    played on: the session's events up to the one the undo went back to, as they were then (from the
    journal, and from earlier undos when that event was itself taken back later), and the undone events
    before them (redo may have brought those back); each event alone where that cannot be found."""
    words: dict[int, Label] = {}
    base = _way_to(session, records, int(record["after"]), str(record.get("fp", "")), depth=len(records))
    if base is not None and undone and undone[0]["id"] == int(record["after"]) + 1:
        upto, extra = base
        fold = _fold_to(session, upto, [*extra, *undone])
        with suppress(CompanionError, KeyError, TypeError, ValueError):  # else said from the event alone
            for event in extra:
                fold.apply(event)
            fold.said = {}
            for event in undone:
                fold.apply(event)
        words = {k: v[2] for k, v in (fold.said or {}).items()}
    return [Said(e["id"], str(e.get("at", "")), words.get(e["id"]) or label(session.spec, e)) for e in gone]


def _way_to(
    session: Folded, records: list[dict[str, Any]], after: int, fp: str, depth: int
) -> tuple[int, list[dict[str, Any]]] | None:
    """The events 1..``after`` as they were when event ``after`` had fingerprint ``fp``: the journal's
    first ``upto`` and then ``extra`` events taken back since; None when no record tells."""
    if after == 0 or (after <= session.count and _fp(session, after) == fp):
        return after, []
    if depth <= 0:
        return None
    for older in records:
        kept = older["events"]
        at = next((i for i, e in enumerate(kept) if e.get("id") == after and fingerprint(e) == fp), None)
        if at is None:
            continue
        below = _way_to(session, records, int(older["after"]), str(older.get("fp", "")), depth - 1)
        if below is not None and kept[0].get("id") == int(older["after"]) + 1:
            return below[0], [*below[1], *kept[: at + 1]]
    return None


def _fp(session: Folded, n: int) -> str:
    try:
        return fingerprint(session.files.events.event(n))
    except CompanionError:
        return ""
