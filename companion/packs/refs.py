"""Checking what a pack's rows lead to: every reference names a table, no chain of tables leads back
to where it started, chains stop within :data:`MAX_DEPTH` tables, and one roll leads to at most
:data:`MAX_ROLLS` rolls, repeats counted (``[monster x2]`` is two).

A row may lead back to its own table (``"Roll twice [goal x2]"``): that rolls the table again, and in
those rolls a row that would roll the table again is rolled again instead, so it never recurses.

Each table is visited once (memoized), and no walk goes deeper than the depth allowed, so checking a
pack costs about its size whatever its shape.
"""

from __future__ import annotations

from typing import Any

from companion.i18n import _
from companion.packs.model import MAX_DEPTH, PackRow, PackTable
from companion.packs.reader import Reader

#: At most this many rolls follow from one roll (the roll itself counted, every repeat counted).
MAX_ROLLS = 100


def check_refs(r: Reader, tables: dict[str, PackTable], raw: dict[str, Any]) -> None:
    names = {k.lower(): k for k in raw}
    known = ", ".join(sorted(tables))
    for table in tables.values():
        for i, row in enumerate(table.rows):
            for call in row.calls:
                if call.table not in tables:
                    raise r.fail(
                        _row_path(names, table, i, row, call.table),
                        _("table {name}: [{table}] names no table; tables: {known}").format(
                            name=table.name, table=call.table, known=known
                        ),
                    )
    _Walk(r, tables, names).run()


def _row_path(names: dict[str, str], table: PackTable, i: int, row: PackRow, target: str) -> tuple:
    from companion.packs.model import REF

    in_text = any(m.group(1).lower() == target for m in REF.finditer(row.result))
    return ("tables", names.get(table.name, table.name), "rows", i, "result" if in_text else "then")


def self_calls(table: PackTable, row: PackRow) -> bool:
    return any(c.table == table.name for c in row.calls)


class _Walk:
    def __init__(self, r: Reader, tables: dict[str, PackTable], names: dict[str, str]) -> None:
        self.r = r
        self.tables = tables
        self.names = names
        self.chain: dict[tuple[str, bool], tuple[str, ...]] = {}
        self.rolls: dict[tuple[str, bool], int] = {}
        self.open: set[tuple[str, bool]] = set()

    def run(self) -> None:
        for name in sorted(self.tables):
            self.visit(name, False, ())
            if self.rolls[(name, False)] > MAX_ROLLS:
                raise self.r.fail(
                    ("tables", self.names.get(name, name)),
                    _(
                        "a roll on {name} can lead to {rolls} rolls; companion makes at most {max_rolls} "
                        "for one roll (use fewer [NAME xN] repeats, or a shorter chain)"
                    ).format(name=name, rolls=self.rolls[name, False], max_rolls=MAX_ROLLS),
                )
        for table in self.tables.values():
            self._enough_rows(table)

    def visit(self, name: str, inner: bool, trail: tuple[str, ...]) -> None:
        """Work out the longest chain from ``name`` and the most rolls a roll there leads to.

        ``inner``: a roll inside a table's own repeat, where rows that roll the table again are rolled
        again instead (so ``(name, True)`` never leads to itself).
        """
        key = (name, inner)
        trail = (*trail, name)
        if key in self.open:
            self._loop(trail)
        if key in self.chain:
            self._deep(trail[:-1] + self.chain[key])
            return
        self._deep(trail)
        self.open.add(key)
        table = self.tables[name]
        best: tuple[str, ...] = (name,)
        most = 1
        for row in table.rows:
            if inner and self_calls(table, row):
                continue
            rolls = 1
            for call in row.calls:
                sub = (name, True) if call.table == name else (call.table, False)
                self.visit(sub[0], sub[1], trail)
                if len(self.chain[sub]) + 1 > len(best):
                    best = (name, *self.chain[sub])
                rolls += call.rolls * self.rolls[sub]
            most = max(most, min(rolls, MAX_ROLLS + 1))
        self.open.discard(key)
        self.chain[key] = best
        self.rolls[key] = most

    def _deep(self, chain: tuple[str, ...]) -> None:
        if len(chain) > MAX_DEPTH:
            raise self.r.fail(
                ("tables", self.names.get(chain[0], chain[0])),
                _("the chain {chain} is {n} tables deep; companion follows at most {max_depth}").format(
                    chain=" → ".join(chain), n=len(chain), max_depth=MAX_DEPTH
                ),
            )

    def _loop(self, trail: tuple[str, ...]) -> None:
        back = trail[-1]
        seq = trail[trail.index(back) :]
        loop = " → ".join(t for i, t in enumerate(seq) if i == 0 or t != seq[i - 1])
        last = self.tables[trail[-2]]
        i = next(i for i, row in enumerate(last.rows) if back in row.refs)
        raise self.r.fail(
            _row_path(self.names, last, i, last.rows[i], back),
            _("tables loop: {loop}; a table cannot lead back to itself, end the chain with a plain result").format(
                loop=loop
            ),
        )

    def _enough_rows(self, table: PackTable) -> None:
        """A repeated roll that rerolls repeats needs that many different rows to land on."""
        for i, row in enumerate(table.rows):
            for call in row.calls:
                target = self.tables[call.table]
                pool = [x for x in target.rows if not (call.table == table.name and self_calls(target, x))]
                if not pool:
                    raise self.r.fail(
                        _row_path(self.names, table, i, row, call.table),
                        _(
                            "table {name}: every row of {name} rolls on {name} again; give it a row with a plain result"
                        ).format(name=table.name),
                    )
                if call.rolls > 1 and target.duplicates == "reroll" and len(pool) < call.rolls:
                    raise self.r.fail(
                        _row_path(self.names, table, i, row, call.table),
                        _(
                            "table {name}: [{table} x{rolls}] needs {rolls} different rows of {table} "
                            '(duplicates = "reroll"), and it has {n}'
                        ).format(name=table.name, table=call.table, rolls=call.rolls, n=len(pool)),
                    )
