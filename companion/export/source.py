"""What every export is made from: a session's meta, events, folded state and markdown log, as the
public may see them.

The one filter (:func:`companion.contract.secrets.view_for`, through ``Game.view``) is applied here,
once, for every export: ``state`` has the game's kept secrets masked, ``events`` has the answers that
would give them away withheld, ``markdown`` and ``hero`` name none of them, and :meth:`Source.shown`
passes a finished export's text through the same filter. Only :attr:`played` (the events as
recorded) is the replay's to fold again; what the replay reads from each step is filtered too
(companion/export/replay.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.contract.secrets import OPEN, View
from companion.session.state import Meta, State

if TYPE_CHECKING:
    from companion.session.service import Session


@dataclass
class Source:
    meta: Meta
    #: The events as the public may see them (a secret draw's answer withheld).
    events: list[dict[str, Any]]
    #: The folded state as the public may see it (the game's kept secrets masked).
    state: State
    #: The game's title as the log shows it.
    title: str
    hero: str | None
    #: The markdown log, exactly as ``companion export --format md`` writes it.
    markdown: str
    #: The filter every output of this export passes through.
    view: View = field(default=OPEN)
    #: The events as recorded: only the replay folds them (and filters what it reads of each step).
    played: list[dict[str, Any]] = field(default_factory=list)
    #: What undo took back, kept for the record (companion.store.undone): one record per undo, its
    #: events as the public may see them.
    undone: list[dict[str, Any]] = field(default_factory=list)
    #: The session's own copies of its table packs (their fights give the page its big moments).
    packs: list[Any] = field(default_factory=list)
    #: What the rules still hide, kept in this export at its owner's request (``--reveal-secrets``).
    revealed: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, session: Session, *, reveal: bool = False) -> Source:
        """Read an open session (its lock held): its events and the log regenerated from them; with
        ``reveal``, as recorded, its secrets too (the owner's own backup: ``export --reveal-secrets``)."""
        events = session.files.read_events()
        session.rebuild(events)
        state = session.state
        view = session.spec.view(state)
        revealed = [s.what for s in view.withheld] if reveal else []
        if reveal:
            view = OPEN
        return cls(
            meta=session.meta,
            events=view.events(events),
            state=view.state(state),
            title=session.spec.log_title,
            hero=session.spec.hero_line(state),
            markdown=session.log_text(),
            view=view,
            played=events,
            undone=[{**r, "events": view.events(r["events"])} for r in session.files.undone.read()],
            packs=_packs(session),
            revealed=revealed,
        )

    @property
    def date(self) -> str:
        """The day play last went on (YYYY-MM-DD)."""
        return (self.state.updated or self.meta.created or "")[:10]

    def shown(self, text: str) -> str:
        """A finished export's text as the public may see it (the last guard of the one filter)."""
        return self.view.text(text)


def _packs(session: Session) -> list[Any]:
    """The table packs a session keeps a copy of (none for most games)."""
    from companion.packs.find import scan, session_dir

    folder = session_dir(session.files.dir)
    return list(scan(folder).packs) if folder.is_dir() else []
