"""Reading one ``[tables.NAME]``: its dice (a sum, ``d66``, or weighted rows), its rows and what they
lead to, how it draws (``draw``) and how a repeated roll treats a row that came up already
(``duplicates``). Every total the dice can give must have exactly one row."""

from __future__ import annotations

import re
from typing import Any

from companion.i18n import _
from companion.packs import read_checks
from companion.packs.model import DRAWS, DUPLICATES, REF, PackRow, PackTable, Ref, TrackerSpec
from companion.packs.reader import Path, Reader, spans_text

TABLE_KEYS = ("title", "dice", "rows", "description", "draw", "duplicates")
ROW_KEYS = ("roll", "result", "effect", "weight", "then")
REF_KEYS = ("table", "rolls")

#: ``[monster x20]`` at most: a reference rolls its table this many times.
MAX_REPEAT = 20
#: A weighted table's weights add up to at most this (it is rolled as one die of that many sides).
MAX_WEIGHTS = 10_000
#: The highest total a row's ``roll`` may name; ``"N+"`` is kept as this until the dice are known.
_OPEN = 100_000

_PIECE = re.compile(r"^\s*(\d{1,5})\s*(?:([-–—])\s*(\d{1,5})|(\+))?\s*$")


def read_table(r: Reader, name: str, data: Any, trackers: dict[str, TrackerSpec]) -> PackTable:
    path = ("tables", name)
    if not read_checks.NAME.match(name):
        raise r.fail(path, _("table name {name!r}: use letters, digits, - and _ (e.g. room)").format(name=name))
    data = r.keys(data, path, TABLE_KEYS, "table")
    rows_data = data.get("rows")
    if not isinstance(rows_data, list) or not rows_data:
        raise r.fail(path, _('table {name} needs rows = [ {{ roll = "1-3", result = "..." }}, ... ]').format(name=name))
    raw = [r.keys(rdata, (*path, "rows", i), ROW_KEYS, "row") for i, rdata in enumerate(rows_data)]
    weighted = [i for i, rdata in enumerate(raw) if "weight" in rdata]
    if weighted:
        dice, expr, rows = _weighted(r, name, data, raw, weighted, trackers)
        read = "weights"
        r.spend((*path, "dice"), dice, expr, totals=False)  # its 1dW has MAX_WEIGHTS sides at most
    else:
        if isinstance(data.get("dice"), str) and data["dice"].strip().lower() == "d66":
            from companion.dice.expr import parse

            dice, expr, read = "d66", parse("2d6"), "d66"
        else:
            dice, expr = r.dice(data.get("dice"), (*path, "dice"), "1d6")
            read = "sum"
        rows = [
            _row(
                r,
                name,
                rdata,
                (*path, "rows", i),
                trackers,
                _spans(r, rdata.get("roll"), (*path, "rows", i, "roll"), name),
            )
            for i, rdata in enumerate(raw)
        ]
    table = PackTable(
        name=name.lower(),
        title=r.text(data.get("title"), (*path, "title")) or name,
        dice=dice,
        expr=expr,
        rows=tuple(rows),
        description=r.text(data.get("description"), (*path, "description")),
        read=read,
        draw=r.choice(data.get("draw"), (*path, "draw"), DRAWS),
        duplicates=r.choice(data.get("duplicates"), (*path, "duplicates"), DUPLICATES),
    )
    if read != "weights":
        table = _cover(r, table, path)
    return table


def _row(
    r: Reader, table: str, rdata: dict, rpath: Path, trackers: dict[str, TrackerSpec], spans: list[tuple[int, int]]
) -> PackRow:
    result = r.text(rdata.get("result"), (*rpath, "result"), required=True)
    calls = [_ref(r, m.group(1), m.group(2), (*rpath, "result"), table) for m in REF.finditer(result)]
    calls += _then(r, rdata.get("then"), (*rpath, "then"), table)
    weight = rdata.get("weight")
    lo, hi = min(a for a, _ in spans), max(b for _, b in spans)
    return PackRow(
        lo,
        hi,
        result,
        read_checks.effects(r, rdata.get("effect"), (*rpath, "effect"), trackers),
        spans=tuple(spans) if len(spans) > 1 else (),
        calls=tuple(calls),
        weight=weight,
    )


def _ref(r: Reader, target: str, times: str | None, path: Path, table: str) -> Ref:
    rolls = int(times) if times is not None else 1
    if not 1 <= rolls <= MAX_REPEAT:
        raise r.fail(
            path,
            _("table {table}: [{target} x{rolls}] rolls too often; a reference rolls 1 to {max_repeat} times").format(
                table=table, target=target, rolls=rolls, max_repeat=MAX_REPEAT
            ),
        )
    return Ref(target.lower(), rolls)


def _then(r: Reader, value: Any, path: Path, table: str) -> list[Ref]:
    """``then = ["monster", { table = "trap", rolls = 2 }]``: rolls a row leads to besides its text's."""
    if value is None:
        return []
    out = []
    for i, item in enumerate(value if isinstance(value, list) else [value]):
        target, rolls = item, 1
        if isinstance(item, dict):
            item = r.keys(item, (*path, i), REF_KEYS, "then")
            target, rolls = item.get("table"), item.get("rolls", 1)
        if not isinstance(target, str) or not read_checks.NAME.match(target.strip()):
            raise r.fail(
                path,
                _(
                    'table {table}: then = {value!r}: write then = ["monster"] or then = [{{ table = '
                    '"monster", rolls = 2 }}]'
                ).format(table=table, value=value),
            )
        if not isinstance(rolls, int) or isinstance(rolls, bool):
            raise r.fail(
                path,
                _("table {table}: rolls = {rolls!r}: write a whole number, e.g. rolls = 2").format(
                    table=table, rolls=rolls
                ),
            )
        out.append(_ref(r, target.strip(), str(rolls), path, table))
    return out


def _spans(r: Reader, value: Any, path: Path, table: str) -> list[tuple[int, int]]:
    """``"4"``, ``"1-3"``, ``"11+"``, or several of them: ``"1, 3-4"`` (``01-50`` reads as 1-50)."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    pieces = value.split(",") if isinstance(value, str) else [None]
    out = []
    for piece in pieces:
        m = _PIECE.match(piece) if isinstance(piece, str) else None
        if m is None:
            raise r.fail(
                path,
                _('table {table}: roll = {value!r} is not a roll; write "4", "1-3" or "11+"').format(
                    table=table, value=value
                ),
            )
        lo = int(m.group(1))
        if m.group(4):
            out.append((lo, _OPEN))
            continue
        hi = int(m.group(3)) if m.group(3) else lo
        if hi < lo:
            raise r.fail(
                path,
                _('table {table}: roll "{piece}" runs backwards; write "{hi}-{lo}"').format(
                    table=table, piece=piece.strip(), hi=hi, lo=lo
                ),
            )
        out.append((lo, hi))
    return out


def _weighted(
    r: Reader, name: str, data: dict, raw: list[dict], weighted: list[int], trackers: dict[str, TrackerSpec]
) -> tuple[str, Any, list[PackRow]]:
    from companion.dice.expr import Expr, Term
    from companion.dice.faces import plain

    path = ("tables", name)
    for i, rdata in enumerate(raw):
        if "weight" not in rdata or "roll" in rdata:
            raise r.fail(
                (*path, "rows", i),
                _("table {name}: give every row a weight = N, or every row a roll; not both in one table").format(
                    name=name
                ),
            )
        w = rdata["weight"]
        if not isinstance(w, int) or isinstance(w, bool) or not 1 <= w <= MAX_WEIGHTS:
            raise r.fail(
                (*path, "rows", i, "weight"),
                _("table {name}: weight = {w!r}: write a whole number from 1 to {max_weights}").format(
                    name=name, w=w, max_weights=MAX_WEIGHTS
                ),
            )
    total = sum(rdata["weight"] for rdata in raw)
    if total > MAX_WEIGHTS:
        raise r.fail(
            (*path, "rows"),
            _("table {name}: the weights add up to {total}; companion rolls at most 1d{max_weights}").format(
                name=name, total=total, max_weights=MAX_WEIGHTS
            ),
        )
    given = data.get("dice")
    if given is not None and (not isinstance(given, str) or given.strip().lower() not in (f"1d{total}", f"d{total}")):
        raise r.fail(
            (*path, "dice"),
            _(
                "table {name}: its weights add up to {total}, so it rolls 1d{total}; write that, or leave dice out"
            ).format(name=name, total=total),
        )
    rows = []
    at = 1
    for i, rdata in enumerate(raw):
        w = rdata["weight"]
        rows.append(_row(r, name, rdata, (*path, "rows", i), trackers, [(at, at + w - 1)]))
        at += w
    return f"1d{total}", Expr("sum", (Term(1, plain(total)),)), rows


def _cover(r: Reader, table: PackTable, path: Path) -> PackTable:
    """Refuse rows that overlap, rows the dice never give, and totals with no row; close ``N+`` rows."""
    import dataclasses
    import itertools

    rows = list(table.rows)
    if table.read == "d66":
        totals = table.totals
    else:  # a sum of dice gives every total from its lowest to its highest: no odds worked out here
        from companion.packs.bounds import span

        low, high = span(table.expr)
        totals = list(range(low, high + 1))
    if table.read == "d66":  # only the 36 cells count: 16 and 21 are neighbours
        runs = sorted((t, t, i) for i, row in enumerate(rows) for t in totals if row.covers(t))
    else:
        runs = sorted((a, b, i) for i, row in enumerate(rows) for a, b in row.runs)
    for (_a1, b1, i), (a2, b2, j) in itertools.pairwise(runs):
        if a2 <= b1:
            shared = a2 if a2 == min(b1, b2) else f"{a2}-{min(b1, b2)}"
            ra, rb = rows[i], rows[j]
            what = f"rows {ra.span} and {rb.span} both cover" if i != j else f"row {ra.span} covers twice"
            raise r.fail(
                (*path, "rows", max(i, j), "roll"),
                _("table {name}: {what} {shared}; give each total one row").format(
                    name=table.name, what=what, shared=shared
                ),
            )
    low, high = totals[0], totals[-1]
    outcomes = set(totals)
    for i, row in enumerate(rows):
        if any(b == _OPEN for _, b in row.runs):  # "N+": up to the highest total
            spans = tuple((a, max(high, a) if b == _OPEN else b) for a, b in row.runs)
            row = rows[i] = dataclasses.replace(row, hi=max(b for _, b in spans), spans=spans if len(spans) > 1 else ())
        if not _reached(table, row, low, high, outcomes):
            rolls = f"{low}-{high}" if table.read == "sum" else spans_text(totals)
            raise r.fail(
                (*path, "rows", i, "roll"),
                _("table {name}: row {span} can never be rolled on {dice} ({rolls}); fix its roll").format(
                    name=table.name, span=row.span, dice=table.dice, rolls=rolls
                ),
            )
    missing = _missing(table, rows, low, high)
    if missing:
        rolls = f"{low}-{high}" if table.read == "sum" else spans_text(totals)
        raise r.fail(
            (*path, "rows"),
            _("table {name}: no row for {spans_text} ({dice} rolls {rolls}); add a row or widen one").format(
                name=table.name, spans_text=spans_text(missing), dice=table.dice, rolls=rolls
            ),
        )
    return dataclasses.replace(table, rows=tuple(rows))


# A sum of dice gives every total from its lowest to its highest, so rows are checked against that
# span in one pass over their runs (rows x totals would be a million steps for a d1000 table). d66 has
# 36 cells with gaps between them (16 and 21): those are checked cell by cell.


def _reached(table: PackTable, row: PackRow, low: int, high: int, outcomes: set[int]) -> bool:
    if table.read == "d66":
        return any(row.covers(t) for t in outcomes)
    return any(a <= high and b >= low for a, b in row.runs)


def _missing(table: PackTable, rows: list[PackRow], low: int, high: int) -> list[int]:
    if table.read == "d66":
        return [t for t in table.totals if not any(row.covers(t) for row in rows)]
    missing, reached = [], low  # the runs do not overlap (checked before): the gaps between them
    for a, b in sorted(run for row in rows for run in row.runs):
        missing.extend(range(reached, min(a, high + 1)))
        reached = max(reached, b + 1)
    missing.extend(range(reached, high + 1))
    return missing
