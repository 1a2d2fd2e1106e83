"""A pack's fight played: what a round, a LUCK test or fleeing does from the position the session is
at, as the parts of a ``"t": "fight"`` event (no dice are rolled here, no I/O).

The rounds are :mod:`companion.packs.fight_rules`', on a board of every tracker the fight names (the
odds use only the ones it reads: the same rules, on fewer trackers).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.packs import fight_rules as rules
from companion.packs.fight_model import FOE, YOU, Fight, FightEffect, Ref, refs_of

if TYPE_CHECKING:
    from companion.packs.model import Check, Effect


@dataclass(frozen=True)
class Step:
    """What one step of a fight does: its effects (as the event keeps them) and how it ends, if it does."""

    effects: list[dict[str, Any]]
    pos: rules.Position
    end: str | None


def play_refs(fight: Fight, check: Check | None) -> list[Ref]:
    """Every tracker a played fight names: its own, the LUCK test's target and what the test changes."""
    out = refs_of(fight)
    target = rules.check_ref(check)
    if target is not None:
        out.append(target)
    if check is not None:
        for passed in (True, False):
            out.extend(e.ref for e in rules.check_changes(check, passed)[0])
    return list(dict.fromkeys(out))


def board(fight: Fight, check: Check | None, maxes: Mapping[Ref, int | None]) -> rules.Board:
    return rules.Board(fight, play_refs(fight, check), maxes)


def effect_entries(effects: tuple[FightEffect, ...], extras: tuple[Effect, ...] = ()) -> list[dict[str, Any]]:
    """Effects as a fight event keeps them: yours as counter changes, the foe's as ``kind: "foe"``."""
    out: list[dict[str, Any]] = []
    for e in effects:
        kind = "foe" if e.ref.side == FOE else ("xp" if e.ref.key == "xp" and e.op == "add" else "counter")
        out.append({"kind": kind, "name": e.ref.key, "op": e.op, "value": e.value, "label": e.ref.label})
    out.extend(e.event() for e in extras)
    return out


def opposed_round(fight: Fight, b: rules.Board, pos: rules.Position, you: int, foe: int) -> tuple[str, Step]:
    """An opposed round with these attack totals: its result ("win", "lose", "tie") and what it does."""
    result = rules.result_of(you, foe)
    effects = fight.effects_of(result)
    after = b.apply(pos, effects)
    return result, Step(effect_entries(effects), after, b.ended(after))


def table_round(fight: Fight, b: rules.Board, pos: rules.Position, total: int) -> tuple[dict[str, Any], Step]:
    """A table round with this dice total: the ratio, column, row and cell read, and what it does."""
    ratio = b.value(fight.ratio, pos)  # type: ignore[arg-type]
    col = fight.column(ratio)
    reading = fight.reading(total)
    cell = fight.row(reading)[col]
    effects = rules.cell_effects(fight, cell)
    after = b.apply(pos, effects)
    where = {"ratio": ratio, "column": fight.columns[col].text, "reading": reading, "cell": cell.text}
    return where, Step(effect_entries(effects), after, b.ended(after))


def luck(fight: Fight, check: Check, b: rules.Board, pos: rules.Position, result: str, passed: bool) -> Step:
    """A LUCK test after a ``result`` round: the fight's effect for it, then the check's own."""
    effects = rules.luck_effects(fight, check, result, passed)
    after = b.apply(pos, effects)
    return Step(effect_entries(effects, rules.check_changes(check, passed)[1]), after, b.ended(after))


def flee(fight: Fight, b: rules.Board, pos: rules.Position) -> Step:
    effects = fight.flee or ()
    after = b.apply(pos, effects)
    return Step(effect_entries(effects), after, b.fled(after))


def sides(b: rules.Board, pos: rules.Position) -> tuple[dict[str, int], dict[str, int]]:
    """Yours and the foe's numbers at ``pos``, by label."""
    you: dict[str, int] = {}
    foe: dict[str, int] = {}
    for ref, v in zip(b.refs, pos, strict=True):
        (you if ref.side == YOU else foe)[ref.label] = v
    return you, foe
