"""What a table pack holds once it is read and checked: tables and their rows, checks, trackers.

Plain frozen dataclasses, no I/O. A table reads its dice one of three ways (``read``):

- ``"sum"``: the total of its dice (``1d6``, ``2d6``, ``d%``, ``1d6+1``);
- ``"d66"``: two d6 read as tens and units (``3`` then ``5`` is 35), the 36 cells 11-66;
- ``"weights"``: its rows give ``weight = N`` instead of a roll: one die of W sides (W the summed
  weights), row i covering the next ``weight`` totals, so each row's chance is weight/W.

A row names the tables it leads to in its text (``[monster]``, ``[monster x2]``) or in ``then``;
each becomes a :class:`Ref` (a table and how many times it is rolled).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from companion.dice.expr import Expr

#: How many tables deep ``[references]`` are followed (the table rolled on first is depth 1).
MAX_DEPTH = 6
#: Trackers every session has, so an effect may name them without declaring them.
BUILTIN_TRACKERS = {"hp": "HP", "gold": "Gold", "xp": "XP"}
#: The values of a table's ``draw`` and ``duplicates`` keys (the first is the default).
DRAWS = ("repeat", "unique")
DUPLICATES = ("keep", "reroll", "make_it_worse")

#: ``[name]`` or ``[name x2]`` in a result; ``\\[`` writes a bracket that is no reference.
REF = re.compile(r"(?<!\\)\[([A-Za-z0-9][A-Za-z0-9_-]*)(?:\s+[x×](\d{1,4}))?\]")


def shown_text(result: str) -> str:
    """A result as the player reads it: ``\\[`` and ``\\]`` (brackets that are no reference) unescaped."""
    return result.replace("\\[", "[").replace("\\]", "]") if "\\" in result else result


def d66_cells() -> list[int]:
    return [10 * tens + units for tens in range(1, 7) for units in range(1, 7)]


@dataclass(frozen=True)
class Effect:
    """A tracker change a row or a check applies: ``gold +1``, ``STAMINA -2``, ``item rope +1``."""

    kind: str  # "counter", "xp" or "item"
    name: str  # the counter's key, or the item's name
    op: str  # "add" or "set"
    value: int
    label: str  # how the log names the tracker
    text: str  # as the pack writes it

    def event(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "op": self.op, "value": self.value, "label": self.label}


@dataclass(frozen=True)
class Ref:
    """A roll a row leads to: on ``table``, ``rolls`` times (``[monster x2]``)."""

    table: str
    rolls: int = 1


@dataclass(frozen=True)
class PackRow:
    lo: int
    hi: int
    result: str
    effects: tuple[Effect, ...] = ()
    #: Every run of totals the row covers, when it is more than ``lo``-``hi`` (``roll = "1, 3-4"``).
    spans: tuple[tuple[int, int], ...] = ()
    #: The rolls the row leads to, in order: the references in its text, then its ``then`` list.
    calls: tuple[Ref, ...] = ()
    #: ``weight = N`` (a weighted table); the row then covers ``lo``-``hi`` of the table's 1dW.
    weight: int | None = None

    @property
    def runs(self) -> tuple[tuple[int, int], ...]:
        return self.spans or ((self.lo, self.hi),)

    def covers(self, total: int) -> bool:
        if not self.spans:
            return self.lo <= total <= self.hi
        return any(a <= total <= b for a, b in self.spans)

    @property
    def span(self) -> str:
        return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in self.runs)

    @property
    def refs(self) -> tuple[str, ...]:
        """The tables the row leads to, once per reference."""
        return tuple(c.table for c in self.calls)

    @property
    def text(self) -> str:
        return shown_text(self.result)


@dataclass(frozen=True)
class PackTable:
    name: str
    title: str
    dice: str  # as the pack writes it ("2d6", "d66"; for a weighted table "1dW")
    expr: Expr  # the dice rolled: 2d6 for d66, 1dW for weights
    rows: tuple[PackRow, ...]
    description: str = ""
    read: str = "sum"  # "sum", "d66" or "weights"
    draw: str = "repeat"  # "repeat" or "unique"
    duplicates: str = "keep"  # "keep", "reroll" or "make_it_worse"

    @cached_property
    def outcomes(self) -> tuple[dict[int, int], int]:
        """Every total the table can give, with the number of equally likely outcomes giving it."""
        if self.read == "d66":
            return {cell: 1 for cell in d66_cells()}, 36
        from companion.dice.odds import sum_counts

        counts, n = sum_counts(self.expr)
        return {t + self.expr.const: c for t, c in counts.items() if c}, n

    @property
    def totals(self) -> list[int]:
        return sorted(self.outcomes[0])

    def total_of(self, faces: tuple[int, ...] | None, total: int) -> int:
        """The total a roll gives on this table: tens and units on d66, else the dice's total."""
        if self.read == "d66" and faces is not None and len(faces) == 2:
            return 10 * faces[0] + faces[1]
        return total

    def lookup(self, total: int) -> PackRow:
        for row in self.rows:
            if row.covers(total):
                return row
        raise KeyError(total)

    def row_at(self, span: str) -> PackRow | None:
        return next((r for r in self.rows if r.span == span), None)


@dataclass(frozen=True)
class TrackerSpec:
    name: str  # as the pack writes it: SKILL
    key: str  # the session counter it is kept in: "skill" (or "hp" for the hp tracker)
    start: int
    max: int | None
    hp: bool = False
    #: ``roll = "1d6+6"``: the start is rolled when a session starts with the pack (``start`` unused).
    roll: str = ""
    roll_expr: Expr | None = None
    #: ``max = "start"``: the max is the value it starts at (rolled or not).
    max_start: bool = False


@dataclass(frozen=True)
class Check:
    """A roll against a target: ``2d6`` ``<=`` SKILL (a tracker's current value) or a number."""

    name: str
    title: str
    dice: str
    expr: Expr
    op: str
    number: int | None  # the target when it is a number
    tracker: TrackerSpec | None  # the target when it is a tracker (plus ``offset``)
    offset: int = 0
    pass_text: str = ""
    fail_text: str = ""
    effects: tuple[Effect, ...] = ()
    pass_effects: tuple[Effect, ...] = ()
    fail_effects: tuple[Effect, ...] = ()

    @property
    def target_text(self) -> str:
        if self.tracker is None:
            return f"{self.op} {self.number}"
        off = f" {'+' if self.offset > 0 else '-'} {abs(self.offset)}" if self.offset else ""
        return f"{self.op} {self.tracker.name}{off}"


@dataclass(frozen=True)
class Pack:
    name: str
    title: str
    path: str  # as shown in messages
    source: str  # the TOML text (a session keeps a copy of it)
    tables: dict[str, PackTable]
    checks: dict[str, Check]
    trackers: dict[str, TrackerSpec]
    description: str = ""
    builtin: bool = False
    book: str = ""
    license: str = ""
    #: Top-level blocks a later reader adds (kept by name, so a new block needs no new field here).
    extra: dict[str, Any] = field(default_factory=dict)

    def table(self, name: str) -> PackTable | None:
        return self.tables.get(name.lower())

    def check(self, name: str) -> Check | None:
        return self.checks.get(name.lower())

    @property
    def fights(self) -> dict[str, Any]:
        """``[fights.NAME]``: name → :class:`companion.packs.fight_model.Fight`."""
        return self.extra.get("fights", {})  # type: ignore[no-any-return]

    @property
    def foes(self) -> dict[str, Any]:
        """``[foes]``: name → :class:`companion.packs.fight_model.Foe`."""
        return self.extra.get("foes", {})  # type: ignore[no-any-return]
