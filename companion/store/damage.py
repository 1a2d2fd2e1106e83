"""Damage found when a session opens: one line saying what is missing, and a way out that is true.

A session whose events are missing or damaged is refused before anything is written: its log and its
snapshots are then the only other record of what happened, and are never overwritten with less. The
damaged files are left exactly as they are (no copy is made: a copy of the damage restores nothing).
The hint names the two ways out: put the file back, or keep the events that are intact with
``companion sessions repair``, which moves everything it does not keep aside instead of deleting it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.errors import StoreError

if TYPE_CHECKING:
    from companion.store.events import Events


def _hint(slug: str, intact: int | None, what: str = "the file") -> str:
    keep = (
        f"or keep the {intact} events before the damage with: companion sessions repair {slug}"
        if intact is not None
        else f"or keep the events that are intact with: companion sessions repair {slug}"
    )
    return f"put {what} back (from a backup) and run the command again; {keep}"


class Damaged(StoreError):
    """Events missing or damaged: refused before anything is written (exit 1)."""

    def __init__(self, slug: str, message: str, intact: int | None, what: str = "the file") -> None:
        super().__init__(f"session {slug!r} cannot be opened: {message}", hint=_hint(slug, intact, what))
        self.slug = slug
        self.intact = intact

    @classmethod
    def journal(cls, events: Events, why: str) -> Damaged:
        j = events.journal
        base = j.base if j is not None else None
        after = f" (it holds the events after {base})" if base else ""
        return cls(events.slug, f"its newest events file {events.journal_path} is {why}{after}", base)

    @classmethod
    def segment(cls, events: Events, index: int, why: str) -> Damaged:
        size = events.segment_size
        first = index * size + 1
        return cls(events.slug, f"events {first}-{first + size - 1} are lost: {why}", first - 1)

    @classmethod
    def missing(cls, slug: str, count: int, witness: int, who: str) -> Damaged:
        """The events end at ``count`` but ``who`` (the log, a snapshot) was written after ``witness``."""
        span = f"event {witness} is" if witness == count + 1 else f"events {count + 1}-{witness} are"
        return cls(
            slug,
            f"{span} missing: {who} was written after event {witness}, but its events end at {count}",
            count,
            "the missing events file",
        )
