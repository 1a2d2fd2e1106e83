"""Small bar charts of an outcome distribution: a rich table for commands, one line of text for play.

Bars are drawn with eighth blocks, so a 30-cell bar shows a chance to the nearest 0.4%; every bar is
scaled to the largest row, and the exact percentage stands beside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.table import Table

_EIGHTHS = " ▏▎▍▌▋▊▉█"
_SPARK = "▁▂▃▄▅▆▇█"
WIDTH = 30


def bar(share: float, peak: float, width: int = WIDTH) -> str:
    """A bar of ``share`` scaled so that ``peak`` fills ``width`` cells; a non-zero share shows at least ▏."""
    if share <= 0 or peak <= 0:
        return ""
    eighths = max(1, round(share / peak * width * 8))
    full, part = divmod(eighths, 8)
    return "█" * full + (_EIGHTHS[part] if part else "")


def bar_chart(rows: Sequence[tuple[str, float | Fraction, str]], style: str = "magenta") -> Table:
    """A table of ``(label, chance, text)`` rows: the label, a bar, and the text (e.g. ``32.9%``)."""
    from rich.table import Table
    from rich.text import Text

    grid = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1))
    grid.add_column(justify="right")
    grid.add_column()
    grid.add_column(justify="right")
    peak = max((float(p) for _, p, _ in rows), default=0.0)
    for label, p, text in rows:
        grid.add_row(label, Text(bar(float(p), peak), style=style), text)
    return grid


def spark(shares: Sequence[float | Fraction]) -> str:
    """One character per value, its height its share of the largest (a blank for a zero share)."""
    peak = max((float(p) for p in shares), default=0.0)
    out = []
    for p in shares:
        x = float(p)
        out.append(" " if x <= 0 or peak <= 0 else _SPARK[min(7, int(x / peak * 8 - 1e-9))])
    return "".join(out)
