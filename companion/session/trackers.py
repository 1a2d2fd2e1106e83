"""Table-top trackers any game can use: hit tallies, counters, items, rooms and the Talisman search.

These are plain data with the arithmetic players do on paper. Rendering them the way the books
write them (``Adelhardt – PALADIN: 9 8 7 6 5``, ``IIII``) lives here too, because that form is part
of the rule text, not a matter of styling.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.i18n import _, ngettext

#: Room states a player can record; free text is accepted too, these are the suggestions.
ROOM_STATES = ("unexplored", "cleared", "looted", "trap", "event", "fled", "stairs", "boss")


@dataclass
class Tally:
    """Hits against a character or a monster.

    A character withstands ``max_hits``; the book writes the hits left counting down. A monster
    that withstands N hits is slain when the Nth hit is scored; the book tallies its hits as marks.
    """

    name: str
    max_hits: int
    hits: int = 0
    role: str = ""
    monster: bool = False
    #: How a character died by something other than hits ("drowned"): the death mark on the sheet.
    fate: str = ""
    #: Each cure of a character, as (hits left before, hits left after): the book writes the count
    #: going up again ("7 6 5 6"), so the sheet keeps every number it had.
    cures: list[tuple[int, int]] = field(default_factory=list)

    @property
    def left(self) -> int:
        return max(0, self.max_hits - self.hits)

    @property
    def slain(self) -> bool:
        return self.hits >= self.max_hits

    def set_hits(self, hits: int) -> None:
        """Change the hits scored; fewer than before is a cure, which the sheet keeps."""
        hits = max(0, min(self.max_hits, hits))
        if hits < self.hits and not self.monster:
            self.cures.append((self.left, self.max_hits - hits))
        self.hits = hits

    def counts(self) -> list[int]:
        """The numbers written after a character's class: down from what they withstand, up again on a
        cure, down to the hits left now."""
        out: list[int] = []
        start = self.max_hits
        for low, high in self.cures:
            out.extend(range(start, low - 1, -1))
            start = high
        out.extend(range(start, self.left - 1, -1))
        return out

    def book(self) -> str:
        """The book's form: the name, the class, then the hits left counting down."""
        if self.monster:
            marks = "I" * min(self.hits, self.max_hits) or "–"
            state = " " + _("(slain)") if self.slain else ""
            hits = ngettext("{hits} of {max} hits", "{hits} of {max} hits", self.max_hits)
            return f"{self.name}: {marks} ({hits.format(hits=self.hits, max=self.max_hits)}){state}"
        counts = " ".join(str(n) for n in self.counts())
        head = f"{self.name} – {self.role.upper()}" if self.role else self.name
        if self.fate and not self.slain:
            return f"{head}: {counts} († {self.fate})"
        return f"{head}: {counts}" + (" " + _("(slain)") if self.slain else "")


@dataclass
class Counter:
    """A number with an optional maximum (HP), never below zero."""

    value: int = 0
    max: int | None = None
    #: How the log names it when a table pack gave it a name of its own (``SKILL``, ``STAMINA`` for HP).
    label: str | None = None

    def add(self, delta: int) -> int:
        """Add ``delta`` within 0..max; returns what actually changed."""
        before = self.value
        value = before + delta
        if self.max is not None:
            value = min(value, self.max)
        self.value = max(0, value)
        return self.value - before


@dataclass
class Room:
    floor: int
    number: int
    content: str = ""
    state: str = "unexplored"

    @property
    def key(self) -> str:
        return f"room-{self.floor}-{self.number}"

    def line(self) -> str:
        body = self.content or self.state
        return _("Room {n}: {what}").format(n=self.number, what=body)


@dataclass
class TalismanSearch:
    """The 1979 game's search: after each kill roll 2d6, a 12 finds it; the last monster holds it."""

    kills: int = 0
    rolls: list[int] = field(default_factory=list)
    found: bool = False
    found_on_kill: int | None = None
    #: True once only one monster is left alive and the Talisman was not found: it holds it.
    held_by_last: bool = False

    def needs_roll(self, left: int | None) -> bool:
        """Whether the kill about to be counted needs a 2d6 roll (``left``: monsters alive after it)."""
        return not (self.found or self.held_by_last or left == 0)

    def after_kill(self, left: int | None, total: int | None = None) -> str:
        """Count a kill and its roll (``total``, None when none is needed); return what it means:
        ``last`` (the last monster held it), ``found`` (a 12), ``held`` (one monster is left: it holds
        it) or ``missed``. ``left`` is the number of monsters still alive after this kill, if known."""
        from companion.dice.expr import TALISMAN_TARGET

        self.kills += 1
        if self.held_by_last or left == 0:
            self.found, self.found_on_kill = True, self.kills
            return "last"
        if total is not None:
            self.rolls.append(total)
        if total == TALISMAN_TARGET:
            self.found, self.found_on_kill = True, self.kills
            return "found"
        if left == 1:
            self.held_by_last = True
            return "held"
        return "missed"


@dataclass
class Branch:
    """A way tried and left: the sections read along it (``[52, 7]``), the section it started from
    (None before the first), and how it was left: ``back`` (``section back``) or ``undo`` (taken back
    by undo, and something else done instead)."""

    start: int | None
    path: list[int]
    how: str = "back"


@dataclass
class Sections:
    """A gamebook's numbered sections: where the reader has been, and the way back.

    ``path`` is every section read, in order, returns included (``[1, 213, 1]``); ``trail`` is the way
    forward as a finger keeps it (``section back`` returns along it, so going back twice goes two
    sections back, not forth again); ``branches`` the ways tried and left, in the order they were left."""

    path: list[int] = field(default_factory=list)
    trail: list[int] = field(default_factory=list)
    branches: list[Branch] = field(default_factory=list)

    @property
    def current(self) -> int | None:
        return self.trail[-1] if self.trail else None

    def visits(self) -> dict[int, int]:
        out: dict[int, int] = {}
        for n in self.path:
            out[n] = out.get(n, 0) + 1
        return out


@dataclass
class PackFight:
    """A table pack's fight in progress (``companion fight start``): the foe's numbers and where the
    fight stands. Your own numbers are the session's counters."""

    pack: str
    fight: str
    title: str
    foe: str  # the foe's name as shown
    #: The foe's trackers by key (lower case): the value now, the label as written, the value it started at.
    values: dict[str, int] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)
    maxes: dict[str, int] = field(default_factory=dict)
    #: Your trackers the fight reads, counter key → label, its bounds first (the bar shows them), and the
    #: foe's trackers in ``until`` (its health on the bar).
    yours: dict[str, str] = field(default_factory=dict)
    bounds: list[str] = field(default_factory=list)
    rounds: int = 0
    #: The last round's result ("win", "lose" or "tie"), and whether its LUCK test is taken.
    last: str | None = None
    tested: bool = False


@dataclass
class Trackers:
    tallies: dict[str, Tally] = field(default_factory=dict)
    counters: dict[str, Counter] = field(default_factory=dict)
    items: dict[str, int] = field(default_factory=dict)
    rooms: list[Room] = field(default_factory=list)
    floor: int = 1
    level: int = 1
    talisman: TalismanSearch = field(default_factory=TalismanSearch)
    #: A table pack's ``draw = "unique"`` tables: "pack/table" → the rows drawn since its last reset.
    drawn: dict[str, list[str]] = field(default_factory=dict)
    #: A table pack's fight in progress, if any.
    fight: PackFight | None = None
    #: A gamebook's sections read (``companion section N``).
    sections: Sections = field(default_factory=Sections)

    def counter(self, name: str) -> Counter:
        c = self.counters.get(name)
        if c is None:
            c = self.counters[name] = Counter()
        return c

    def room(self, floor: int, number: int) -> Room | None:
        for room in self.rooms:
            if room.floor == floor and room.number == number:
                return room
        return None
