"""Roll on a pack's table and follow what its rows lead to, roll a check, and give their exact odds.

No dice are rolled here: the caller passes ``dice(table, why, refuse) -> (roll, discarded)``, which
gives a roll on the table whose total ``refuse`` does not refuse (the session's seeded stream rolled
again until one fits, the discarded rolls returned too; faces the player typed, asked again or
refused with refuse's words). So the same code serves virtual and physical dice.

What a roll may not land on:

- ``draw = "unique"``: a row drawn earlier in the session (``drawn``) or in this chain;
- ``duplicates = "reroll"``: a row that came up already in the same repeated roll (``[monster x2]``);
- a row that rolls its own table again, inside that table's own repeat ("roll twice" never recurses).

``duplicates = "make_it_worse"`` keeps a repeat and marks it (``Step.worse``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from companion.dice.roll import Roll
from companion.errors import InputError
from companion.packs.model import MAX_DEPTH, Check, Effect, Pack, PackRow, PackTable

Refuse = Callable[[int], "str | None"]
Dice = Callable[[PackTable, str, Refuse], tuple[Roll, list[Roll]]]

#: Virtual dice roll again at most this many times for one roll before giving up (one line).
MAX_REROLLS = 10_000


@dataclass(frozen=True)
class Step:
    """One roll of a chain: the table, the roll, the row it gave, and how deep it was followed."""

    table: PackTable
    roll: Roll
    row: PackRow
    depth: int  # 0 for the table asked for, 1 for a table it referred to, ...
    via: str = ""  # the table whose row referred here
    total: int = 0  # the total read on the table (a d66 cell: 35)
    discarded: tuple[Roll, ...] = ()  # virtual rolls that landed where this roll could not, rolled again
    chosen: bool = False  # the player chose the row (--row): no dice
    worse: bool = False  # the same row again, and the table says duplicates = "make_it_worse"


def roll_chain(
    pack: Pack,
    table: PackTable,
    dice: Dice,
    *,
    drawn: Mapping[str, set[str] | list[str]] | None = None,
    row: int | None = None,
) -> list[Step]:
    """Roll on ``table`` (or take the row covering total ``row``), then on each table its row leads to
    (in order, depth first). ``drawn``: each unique table's rows drawn before, by table name."""
    steps: list[Step] = []
    taken = {name: set(spans) for name, spans in (drawn or {}).items()}

    def refused(t: PackTable, r: PackRow, seen: list[PackRow] | None, inner: bool) -> str | None:
        from companion.i18n import _

        if inner and any(c.table == t.name for c in r.calls):
            return _("row {span} rolls on {table} again, and this is {table}'s own repeat: roll again").format(
                span=r.span, table=t.name
            )
        if t.draw == "unique" and r.span in taken.get(t.name, ()):
            return _("row {span} of {table} is drawn already (draw = unique): roll again").format(
                span=r.span, table=t.name
            )
        if seen is not None and t.duplicates == "reroll" and r in seen:
            return _("row {span} of {table} came up already in this roll (duplicates = reroll): roll again").format(
                span=r.span, table=t.name
            )
        return None

    def visit(t: PackTable, depth: int, via: str, seen: list[PackRow] | None, inner: bool, pick: int | None) -> PackRow:
        if not any(refused(t, r, seen, inner) is None for r in t.rows):
            raise InputError(_none_left(t))
        if pick is not None:
            roll, discarded = _chosen(t, pick), []
            why = refused(t, t.lookup(pick), seen, inner)
            if why is not None:
                from companion.i18n import _

                raise InputError(
                    _("--row {n}: {why}; choose another, or companion tables reset {table}").format(
                        n=pick, why=why.rsplit(":", 1)[0], table=t.name
                    )
                )
        else:
            roll, discarded = dice(t, f"DR {t.name}", lambda total: refused(t, t.lookup(total), seen, inner))
        total = t.total_of(roll.faces, roll.total)
        r = t.lookup(total)
        worse = seen is not None and t.duplicates == "make_it_worse" and r in seen
        if t.draw == "unique":
            taken.setdefault(t.name, set()).add(r.span)
        steps.append(Step(t, roll, r, depth, via, total, tuple(discarded), pick is not None, worse))
        if depth + 1 >= MAX_DEPTH:  # read_pack refuses deeper chains; this only guards a hand-made pack
            return r
        for call in r.calls:
            again = call.table == t.name
            target = t if again else pack.tables[call.table]
            series: list[PackRow] | None = [] if call.rolls > 1 or again else None
            for _n in range(call.rolls):
                got = visit(target, depth + 1, t.name, series, again, None)
                if series is not None:
                    series.append(got)
        return r

    visit(table, 0, "", None, False, row)
    return steps


def _chosen(table: PackTable, total: int) -> Roll:
    from companion.dice.roll import evaluate_total
    from companion.i18n import _
    from companion.packs.reader import spans_text

    if total not in table.outcomes[0]:
        raise InputError(
            _("--row {n}: DR {table} ({dice}) has no total {n}; its rows cover {totals}").format(
                n=total, table=table.name, dice=table.dice, totals=spans_text(table.totals)
            )
        )
    return evaluate_total(table.expr, total - table.expr.const, source="chosen")


def _none_left(table: PackTable) -> str:
    from companion.i18n import _

    if table.draw == "unique":
        return _(
            "every row of DR {table} is drawn (draw = unique); companion tables reset {table} puts them back"
        ).format(table=table.name)
    return _("DR {table} has no row left that this roll may land on").format(table=table.name)


def gave_up(table: PackTable) -> str:
    """What virtual dice say after :data:`MAX_REROLLS` rolls that all landed where they could not."""
    from companion.i18n import _

    return _(
        "DR {table}: {n} virtual rolls in a row landed on rows that cannot come up now; choose one with --row N"
    ).format(table=table.name, n=MAX_REROLLS)


def chain_effects(steps: list[Step]) -> list[Effect]:
    return [e for step in steps for e in step.row.effects]


def check_expr(check: Check, value: int | None) -> Any:
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
    Virtual rolls that were rolled again are kept too (``discarded``), before the roll that counted:
    the seeded stream and the dice audit see every die that was rolled.
    """
    rolls = []
    for s in steps:
        expr = str(s.table.expr)
        for d in s.discarded:
            rolls.append({"table": s.table.name, "expr": expr, **_payload(d), "discarded": True, "depth": s.depth})
        entry = {"table": s.table.name, "title": s.table.title, "expr": expr, **_payload(s.roll)}
        if s.chosen:
            entry["total"] = s.total
        entry.update({"row": s.row.span, "result": s.row.text, "depth": s.depth})
        if s.table.read == "d66":
            entry["read"] = "d66"
        if s.via:
            entry["via"] = s.via
        if s.table.draw == "unique":
            entry["unique"] = True
        if s.discarded:
            entry["rerolled"] = len(s.discarded)
        if s.worse:
            entry["worse"] = True
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
    if roll.modifier:
        entry["mod"] = roll.modifier  # shown and recorded: the log, the text and the JSON read it
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


def table_odds(table: PackTable, drawn: set[str] | list[str] = ()) -> list[tuple[PackRow, Fraction]]:
    """Each row's exact chance (they add up to 1); with rows ``drawn`` (spans), the chance of each row
    that is left, as rolling again until one comes up gives it (a drawn row's chance is 0)."""
    counts, n = table.outcomes
    gone = set(drawn)
    # One pass over the totals (rows x totals would be a million steps for a d1000 table).
    low, high = min(counts), max(counts)
    where = {
        t: i for i, row in enumerate(table.rows) for a, b in row.runs for t in range(max(a, low), min(b, high) + 1)
    }
    by_row = [0] * len(table.rows)
    for t, c in counts.items():
        if t in where:
            by_row[where[t]] += c
    ways = list(zip(table.rows, by_row, strict=True))
    left = sum(w for row, w in ways if row.span not in gone)
    if not left:
        return [(row, Fraction(0)) for row, _w in ways]
    return [(row, Fraction(0 if row.span in gone else w, left if gone else n)) for row, w in ways]
