"""Tables a Dice Roll (DR) is read against: a die total maps to a named row.

Tables are game data; each game folder declares its own (``companion/games/<game>/tables.py``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Row:
    lo: int
    hi: int
    name: str
    detail: str = ""

    @property
    def span(self) -> str:
        return str(self.lo) if self.lo == self.hi else f"{self.lo}-{self.hi}"


@dataclass(frozen=True, slots=True)
class Table:
    """A named table rolled on with ``die`` (``1d6`` unless the game says otherwise)."""

    name: str
    title: str
    rows: tuple[Row, ...]
    die: str = "1d6"

    def lookup(self, total: int) -> Row:
        for row in self.rows:
            if row.lo <= total <= row.hi:
                return row
        raise KeyError(total)

    def row_text(self, total: int) -> str:
        row = self.lookup(total)
        return f"{row.name} ({row.detail})" if row.detail else row.name
