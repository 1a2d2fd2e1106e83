"""What every export is made from: a session's meta, events, folded state and markdown log."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.session.state import Meta, State

if TYPE_CHECKING:
    from companion.session.service import Session


@dataclass
class Source:
    meta: Meta
    events: list[dict[str, Any]]
    state: State
    #: The game's title as the log shows it.
    title: str
    hero: str | None
    #: The markdown log, exactly as ``companion export --format md`` writes it.
    markdown: str

    @classmethod
    def of(cls, session: Session) -> Source:
        """Read an open session (its lock held): its events and the log regenerated from them."""
        events = session.files.read_events()
        session.rebuild(events)
        state = session.state
        return cls(
            meta=session.meta,
            events=events,
            state=state,
            title=session.spec.log_title,
            hero=session.spec.hero_line(state),
            markdown=session.log_text(),
        )

    @property
    def date(self) -> str:
        """The day play last went on (YYYY-MM-DD)."""
        return (self.state.updated or self.meta.created or "")[:10]
