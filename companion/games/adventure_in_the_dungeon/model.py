"""The Adventure in the Dungeon's own state on the session: :class:`Dungeon` (the fight's values are
:class:`.rules.Fight`, the compiled monster and party :class:`.rules.Model`)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Dungeon:
    """The game's own state: where the party is, and the fight's flags (see :class:`.rules.Fight`).

    Masks hold one bit per hero in the book's order: 1 Adelhardt, 2 Krylla, 4 Ibli, 8 Regalan.
    """

    #: The party's tallies are written (the numbers are known).
    started: bool = False
    #: The area the party is fighting in, or None between areas.
    area: int | None = None
    round: int = 0
    #: Areas entered so far (each entry opens a section of the log).
    visits: int = 0
    #: Areas whose monster is slain.
    cleared: list[int] = field(default_factory=list)
    #: Areas the party has entered at least once.
    visited: list[int] = field(default_factory=list)
    #: The area entered last (kept after the fight: where the party fell, or fled from).
    last: int | None = None
    dead: int = 0
    para: int = 0
    trap: int = 0
    twine: int = 0
    lock: int = 0
    nlock: int = 0
    cure: bool = False
    att: int = 0
    struck: int = 0
    sfirst: bool = False
    #: How each fallen hero died, by hero key ("slain by the Xorn", "drowned"), for the screen.
    fates: dict[str, str] = field(default_factory=dict)
    #: The party left the dungeon (with the Talisman) or gave up.
    over: bool = False
    #: The area whose monster the party fights at the table, from the book (its hits marked by hand
    #: with ``companion tally hit``, not slain yet), while no guided fight is on: the bar's fight line.
    hand: int | None = None
