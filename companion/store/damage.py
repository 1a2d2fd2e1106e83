"""Damage found when a session opens: one line saying what is missing, and a way out that is true.

A session whose events are missing or damaged is refused before anything is written: its log and its
snapshots are then the only other record of what happened, and are never overwritten with less. The
damaged files are left exactly as they are (no copy is made: a copy of the damage restores nothing).
The hint names the two ways out: put the file back, or keep the events that are intact with
``companion sessions repair``, which moves everything it does not keep aside instead of deleting it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from companion.errors import StoreError
from companion.i18n import _, ngettext, quote

if TYPE_CHECKING:
    from companion.store.journal import Journal


class EventFiles(Protocol):
    """What a refusal names of a session's events files (:class:`companion.store.events.Events` has it):
    declared here, below the events, so the events can raise :class:`Damaged` without a circle."""

    slug: str
    journal: Journal | None
    segment_size: int
    #: What a survey of the whole session finds intact (the repair's count), when it is known how.
    counter: Callable[[], int] | None

    @property
    def journal_path(self) -> Path: ...


def _hint(slug: str, intact: int | None, missing_file: bool) -> str:
    """The two ways out, as one sentence: put the file back, or repair (keeping ``intact`` events)."""
    command = f"companion sessions repair {slug}"
    if intact is None:
        if missing_file:
            text = _(
                "put the missing events file back (from a backup) and run the command again; "
                "or keep the events that are intact with: {command}"
            )
        else:
            text = _(
                "put the file back (from a backup) and run the command again; "
                "or keep the events that are intact with: {command}"
            )
        return text.format(command=command)
    if missing_file:
        text = ngettext(
            "put the missing events file back (from a backup) and run the command again; "
            "or keep the {n} event before the damage with: {command}",
            "put the missing events file back (from a backup) and run the command again; "
            "or keep the {n} events before the damage with: {command}",
            intact,
        )
    else:
        text = ngettext(
            "put the file back (from a backup) and run the command again; "
            "or keep the {n} event before the damage with: {command}",
            "put the file back (from a backup) and run the command again; "
            "or keep the {n} events before the damage with: {command}",
            intact,
        )
    return text.format(n=intact, command=command)


def _span_missing(first: int, last: int, who: str, count: int) -> str:
    """Events ``first``-``last`` are missing, though ``who`` was written after event ``last``."""
    if first == last:
        text = _("event {last} is missing: {who} was written after event {last}, but its events end at {count}")
    else:
        text = _(
            "events {first}-{last} are missing: {who} was written after event {last}, but its events end at {count}"
        )
    return text.format(first=first, last=last, who=who, count=count)


class Damaged(StoreError):
    """Events missing or damaged: refused before anything is written (exit 1).

    ``problem`` is one whole clause (translated) saying what is wrong; the message is
    "session NAME cannot be opened: PROBLEM", and the hint the two ways out."""

    def __init__(
        self,
        slug: str,
        problem: str,
        intact: int | None,
        missing_file: bool = False,
        counter: Callable[[], int] | None = None,
    ) -> None:
        self.slug = slug
        self.problem = problem
        self.intact = intact
        self.missing_file = missing_file
        #: What ``companion sessions repair`` would keep (a survey of the whole session), asked when the
        #: hint is read: so the hint's count is the repair's.
        self.counter = counter
        self._hint: str | None = None
        super().__init__(_("session {name} cannot be opened: {problem}").format(name=quote(slug), problem=problem))

    @property  # type: ignore[override]
    def hint(self) -> str:
        if self._hint is None:
            kept = self.intact
            if self.counter is not None:
                try:
                    kept = self.counter()
                except Exception:  # the survey itself failed: the count found here stands
                    kept = self.intact
                self.intact = kept
            self._hint = _hint(self.slug, kept, self.missing_file)
        return self._hint

    @hint.setter
    def hint(self, value: str | None) -> None:
        self._hint = value

    def counted(self, counter: Callable[[], int] | None) -> Damaged:
        """This damage, its hint's count from ``counter`` (a survey of the whole session)."""
        if counter is not None and self.counter is None:
            self.counter = counter
            self._hint = None
        return self

    @classmethod
    def journal(cls, events: EventFiles, why: str | None = None) -> Damaged:
        """The journal is missing (``why`` None) or is ``why`` (a translated state: "damaged (...)")."""
        j = events.journal
        base = j.base if j is not None else None
        path = events.journal_path
        if why is None:
            if base:
                text = _("its newest events file {path} is missing (it holds the events after {base})")
            else:
                text = _("its newest events file {path} is missing")
        elif base:
            text = _("its newest events file {path} is {why} (it holds the events after {base})")
        else:
            text = _("its newest events file {path} is {why}")
        return cls(events.slug, text.format(path=path, why=why, base=base), base, counter=events.counter)

    @classmethod
    def segment(cls, events: EventFiles, index: int, why: str) -> Damaged:
        """Sealed events file ``index`` is damaged; ``why`` is a whole translated clause about it."""
        size = events.segment_size
        first = index * size + 1
        problem = _("events {first}-{last} are lost: {why}").format(first=first, last=first + size - 1, why=why)
        return cls(events.slug, problem, first - 1, counter=events.counter)

    @classmethod
    def missing(cls, slug: str, count: int, witness: int, who: str) -> Damaged:
        """The events end at ``count`` but ``who`` (the log, a snapshot: a translated noun phrase) was
        written after ``witness``."""
        return cls(slug, _span_missing(count + 1, witness, who, count), count, missing_file=True)

    @classmethod
    def witnessed(cls, exc: Damaged, known: int) -> Damaged:
        """``exc`` found in a session whose log or snapshots were written after event ``known``."""
        kept = exc.intact or 0
        if known == kept + 1:
            text = _("event {last} is missing: {problem}; its log was written after event {last}")
        else:
            text = _("events {first}-{last} are missing: {problem}; its log was written after event {last}")
        return cls(exc.slug, text.format(first=kept + 1, last=known, problem=exc.problem), kept, counter=exc.counter)
