"""What a pack's ``[fights.NAME]`` and ``[foes]`` hold once read and checked: plain frozen dataclasses.

A fight is between two sides: ``you`` (the player's trackers, kept in the session's counters) and the
``foe`` (its own numbers, given at ``companion fight start`` or by a ``[foes]`` entry). A tracker of
either side is a :class:`Ref`; the texts a pack writes (``"2d6 + SKILL"``, ``"foe.STAMINA -2"``,
``"STAMINA <= 0 or foe.STAMINA <= 0"``) become a :class:`Linear`, :class:`FightEffect` and
:class:`Until`. Two kinds:

- ``opposed``: each side rolls its ``attack``; the higher total wins the round (``win``/``lose``),
  equal totals are a tie (``tie``); an optional LUCK test after a round changes the damage;
- ``table``: ``ratio`` picks a column band, the ``dice`` a row, the cell gives both sides' losses.

How a round is played and counted is :mod:`companion.packs.fight_rules`; nothing here rolls.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.dice.expr import Expr

YOU = "you"
FOE = "foe"
KINDS = ("opposed", "table")
#: What a tie does in an opposed fight: nothing, both sides' effects, or effects of its own.
TIES = ("none", "both")


@dataclass(frozen=True)
class Ref:
    """A tracker of one side: ``SKILL`` (yours, kept in the session counter ``key``) or ``foe.SKILL``."""

    side: str  # YOU or FOE
    key: str  # the session counter's key (yours), or the foe's tracker name in lower case
    label: str = field(compare=False, default="")  # as the pack writes it: SKILL

    @property
    def text(self) -> str:
        return f"foe.{self.label}" if self.side == FOE else self.label


@dataclass(frozen=True)
class Linear:
    """Dice (or none), plus and minus trackers, plus a number: ``2d6 + SKILL``, ``SKILL - foe.SKILL``."""

    text: str
    dice: str = ""  # "2d6", or "" for no dice (a ratio)
    expr: Expr | None = None
    refs: tuple[tuple[int, Ref], ...] = ()  # (sign, ref)
    const: int = 0


@dataclass(frozen=True)
class FightEffect:
    """A change to one side's tracker: ``foe.STAMINA -2``, ``STAMINA =0``."""

    ref: Ref
    op: str  # "add" or "set"
    value: int
    text: str


@dataclass(frozen=True)
class Clause:
    ref: Ref
    op: str  # "<=", "<", ">=", ">", "=="
    number: int


@dataclass(frozen=True)
class Until:
    """When the fight ends: any clause holds. A clause on your tracker is your loss, on the foe's its."""

    text: str
    clauses: tuple[Clause, ...]

    def side(self, side: str) -> tuple[Clause, ...]:
        return tuple(c for c in self.clauses if c.ref.side == side)


@dataclass(frozen=True)
class Luck:
    """An optional test after a won or lost round: a ``[checks.NAME]`` of the pack, and what each result
    does on top of the round's own effect."""

    check: str
    win_pass: tuple[FightEffect, ...] = ()
    win_fail: tuple[FightEffect, ...] = ()
    lose_pass: tuple[FightEffect, ...] = ()
    lose_fail: tuple[FightEffect, ...] = ()

    def effects(self, result: str, passed: bool) -> tuple[FightEffect, ...]:
        return getattr(self, f"{result}_{'pass' if passed else 'fail'}")  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Band:
    """A column of a table fight: the ratios it covers (``lo``/``hi`` None for an open end)."""

    text: str
    lo: int | None
    hi: int | None

    def covers(self, ratio: int) -> bool:
        return (self.lo is None or ratio >= self.lo) and (self.hi is None or ratio <= self.hi)


@dataclass(frozen=True)
class Cell:
    """A table fight's result: the foe's loss and yours (None: killed)."""

    text: str
    foe: int | None
    you: int | None


@dataclass(frozen=True)
class Fight:
    name: str
    title: str
    kind: str  # "opposed" or "table"
    until: Until
    #: Applied when you flee (None: this fight cannot be fled).
    flee: tuple[FightEffect, ...] | None = None
    # ---- opposed
    attack: Linear | None = None
    foe_attack: Linear | None = None
    win: tuple[FightEffect, ...] = ()
    lose: tuple[FightEffect, ...] = ()
    tie: str = "none"  # "none", "both" or "effect"
    tie_effects: tuple[FightEffect, ...] = ()
    luck: Luck | None = None
    # ---- table
    ratio: Linear | None = None
    dice: str = ""
    expr: Expr | None = None
    zero: int | None = None  # a d10's 10 read as 0 (0) or as 10 (10); None: the die as it is
    columns: tuple[Band, ...] = ()
    rows: tuple[tuple[int, tuple[Cell, ...]], ...] = ()  # (die reading, one cell per column)

    def column(self, ratio: int) -> int:
        return next(i for i, band in enumerate(self.columns) if band.covers(ratio))

    def row(self, reading: int) -> tuple[Cell, ...]:
        return next(cells for n, cells in self.rows if n == reading)

    def effects_of(self, result: str) -> tuple[FightEffect, ...]:
        """An opposed round's own effects: ``win``, ``lose`` or ``tie``."""
        if result == "win":
            return self.win
        if result == "lose":
            return self.lose
        if self.tie == "both":
            return (*self.win, *self.lose)
        return self.tie_effects

    def reading(self, total: int) -> int:
        """The row a table fight's dice total reads (a d10's 10 as 0 where the pack says so)."""
        return 0 if self.zero == 0 and total == 10 else total

    @property
    def foe_names(self) -> tuple[str, ...]:
        """The foe's trackers this fight reads or changes, in the order they are first written."""
        seen: dict[str, str] = {}
        for ref in refs_of(self):
            if ref.side == FOE:
                seen.setdefault(ref.key, ref.label)
        return tuple(seen.values())


@dataclass(frozen=True)
class Foe:
    """A ``[foes]`` entry: a name and its numbers (by tracker name in lower case)."""

    key: str
    name: str
    values: tuple[tuple[str, str, int], ...]  # (key, label, value)

    def value(self, key: str) -> int | None:
        return next((v for k, _label, v in self.values if k == key), None)


def refs_of(fight: Fight) -> list[Ref]:
    """Every tracker a fight names, in the order it names them (repeats kept)."""
    out: list[Ref] = []
    for lin in (fight.attack, fight.foe_attack, fight.ratio):
        if lin is not None:
            out.extend(ref for _sign, ref in lin.refs)
    out.extend(c.ref for c in fight.until.clauses)
    for group in (fight.win, fight.lose, fight.tie_effects, fight.flee or ()):
        out.extend(e.ref for e in group)
    if fight.luck is not None:
        for result in ("win", "lose"):
            for passed in (True, False):
                out.extend(e.ref for e in fight.luck.effects(result, passed))
    return out


def read_refs(fight: Fight, luck_target: Ref | None = None) -> tuple[Ref, ...]:
    """The trackers a fight reads (its attacks, its ratio, its end, the LUCK test's target): its odds
    depend on these alone, so they are what a position of the fight is."""
    seen: dict[Ref, None] = {}
    for lin in (fight.attack, fight.foe_attack, fight.ratio):
        if lin is not None:
            for _sign, ref in lin.refs:
                seen.setdefault(ref)
    for c in fight.until.clauses:
        seen.setdefault(c.ref)
    if luck_target is not None:
        seen.setdefault(luck_target)
    return tuple(seen)
