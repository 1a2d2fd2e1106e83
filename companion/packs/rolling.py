"""Roll on a pack's table and follow its ``[references]``, roll a check, and give their exact odds.

No dice are rolled here: the caller passes ``dice(expr, why) -> Roll`` (the session's seeded stream,
faces the player typed, or a prompt), so the same code serves virtual and physical dice.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from companion.dice.expr import Expr
from companion.dice.roll import Roll
from companion.packs.pack import MAX_DEPTH, Check, Effect, Pack, PackRow, PackTable

Dice = Callable[[Expr, str], Roll]


@dataclass(frozen=True)
class Step:
    """One roll of a chain: the table, the roll, the row it gave, and how deep it was followed."""

    table: PackTable
    roll: Roll
    row: PackRow
    depth: int  # 0 for the table asked for, 1 for a table it referred to, ...
    via: str = ""  # the table whose row referred here


def roll_chain(pack: Pack, table: PackTable, dice: Dice) -> list[Step]:
    """Roll on ``table``, then on each table its row refers to (in order, depth first)."""
    steps: list[Step] = []

    def visit(t: PackTable, depth: int, via: str) -> None:
        if depth >= MAX_DEPTH:  # read_pack refuses deeper chains; this only guards a hand-made pack
            return
        roll = dice(t.expr, f"DR {t.name}")  # what a prompt for the faces says (kept short for 80 columns)
        row = t.lookup(roll.total)
        steps.append(Step(t, roll, row, depth, via))
        for ref in row.refs:
            visit(pack.tables[ref], depth + 1, t.name)

    visit(table, 0, "")
    return steps


def chain_effects(steps: list[Step]) -> list[Effect]:
    return [e for step in steps for e in step.row.effects]


def check_expr(check: Check, value: int | None) -> Expr:
    """The check as a dice expression with its target filled in: ``2d6<=9``."""
    target = check.number if check.tracker is None else (value or 0) + check.offset
    return dataclasses.replace(check.expr, op=check.op, target=target)


def check_effects(check: Check, passed: bool) -> list[Effect]:
    return [*(check.pass_effects if passed else check.fail_effects), *check.effects]


def _payload(roll: Roll) -> dict[str, Any]:
    if roll.faces is not None:
        return {"faces": list(roll.faces), "src": roll.source}
    return {"total": roll.total - roll.modifier, "src": roll.source}


def table_event(pack: Pack, steps: list[Step], why: str | None = None) -> dict[str, Any]:
    """The session event of a table roll: every roll with its row, and the effects to apply.

    The event keeps the rows' text, so the log replays the same even if the pack is edited later.
    """
    rolls = []
    for s in steps:
        entry = {"table": s.table.name, "title": s.table.title, "expr": str(s.table.expr), **_payload(s.roll)}
        entry.update({"row": s.row.span, "result": s.row.result, "depth": s.depth})
        if s.via:
            entry["via"] = s.via
        rolls.append(entry)
    event: dict[str, Any] = {"t": "table", "pack": pack.name, "table": steps[0].table.name, "rolls": rolls}
    effects = [{**e.event(), "from": s.table.name} for s in steps for e in s.row.effects]
    if effects:
        event["effects"] = effects
    if why:
        event["why"] = why
    return event


def check_event(pack: Pack, check: Check, roll: Roll, value: int | None, why: str | None = None) -> dict[str, Any]:
    passed = bool(roll.success)
    text = check.pass_text if passed else check.fail_text
    entry: dict[str, Any] = {"check": check.name, "title": check.title, "expr": str(roll.expr), **_payload(roll)}
    entry["result"] = ("pass" if passed else "fail") + (f": {text}" if text else "")
    if check.tracker is not None:
        entry["tracker"] = {"name": check.tracker.name, "value": value}
    event: dict[str, Any] = {"t": "table", "pack": pack.name, "check": check.name, "rolls": [entry]}
    effects = check_effects(check, passed)
    if effects:
        event["effects"] = [{**e.event(), "from": check.name} for e in effects]
    if why:
        event["why"] = why
    return event


def table_odds(table: PackTable) -> list[tuple[PackRow, Fraction]]:
    """Each row's exact chance (they add up to 1)."""
    from companion.dice.odds import sum_counts

    counts, n = sum_counts(table.expr)
    const = table.expr.const
    return [
        (row, Fraction(sum(c for t, c in counts.items() if row.lo <= t + const <= row.hi), n)) for row in table.rows
    ]
