"""Gauss-Jordan elimination in exact fractions, for the tests' brute-force solves of a fight's chain.

Rows are sparse (column -> value, zeros left out): the same arithmetic as on dense rows, without the
multiplications by zero that made most of a dense solve's time.
"""

from __future__ import annotations

from fractions import Fraction


def add(row: dict[int, Fraction], column: int, value: Fraction | int) -> None:
    """``row[column] += value``, keeping zeros out."""
    total = row.get(column, 0) + value
    if total:
        row[column] = Fraction(total)
    else:
        row.pop(column, None)


def eliminate(rows: list[dict[int, Fraction]], unknowns: int) -> list[int]:
    """Reduce ``rows`` in place so that row ``c`` has 1 in column ``c`` and 0 in every other unknown's
    column (columns ``unknowns`` and up are the right-hand sides). The columns with no pivot (a set of
    states no round ever leaves) are skipped and returned."""
    stuck = []
    for c in range(unknowns):
        pivot = next((r for r in range(c, unknowns) if rows[r].get(c, 0) != 0), None)
        if pivot is None:
            stuck.append(c)
            continue
        rows[c], rows[pivot] = rows[pivot], rows[c]
        p = rows[c][c]
        rows[c] = {col: x / p for col, x in rows[c].items()}
        for r in range(unknowns):
            f = rows[r].get(c, 0)
            if r != c and f != 0:
                for col, y in rows[c].items():
                    add(rows[r], col, -f * y)
    return stuck
