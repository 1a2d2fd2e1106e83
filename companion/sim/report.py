"""The simulator's report: every figure with its 95% confidence interval, as JSON and as rich tables.

The JSON holds only what the runs determine (no timings, no process count), so the same
simulation gives the same document on one core or on every core.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.i18n import _

from .runner import HISTOGRAM, MEAN, RATE, Simulator, Tally, run_seed
from .stats import mean_interval, wilson

if TYPE_CHECKING:
    from rich.console import RenderableType

#: Decimals kept in the JSON (the intervals are far wider than this).
DIGITS = 6


def _r(x: float) -> float:
    return round(x, DIGITS)


def build(
    sim: Simulator,
    tally: Tally,
    *,
    title: str,
    seed: int,
    variants: tuple[str, ...],
    policy: str,
) -> dict[str, Any]:
    """The report as plain data (what ``--json`` prints)."""
    spec = sim.policy(policy)
    figures: dict[str, Any] = {}
    for m in sim.metrics:
        n, total, squares = tally.sums.get(m.key, [0, 0, 0])
        entry: dict[str, Any] = {"label": m.label, "kind": m.kind, "n": n}
        if m.among:
            entry["among"] = m.among
        if m.kind == RATE:
            lo, hi = wilson(total, n)
            entry.update(count=total, rate=_r(total / n) if n else None, ci95=[_r(lo), _r(hi)])
            yes, no = tally.first.get(m.key, [None, None])
            entry["examples"] = {
                label: None if i is None else {"run": i, "seed": run_seed(seed, i)}
                for label, i in (("yes", yes), ("no", no))
            }
        else:
            mean, lo, hi = mean_interval(n, total, squares)
            entry.update(mean=_r(mean) if n else None, ci95=[_r(lo), _r(hi)] if n else None)
        if m.kind == HISTOGRAM:
            counts = tally.hist.get(m.key, {})
            values = {}
            for v in sorted(counts):
                c = counts[v]
                lo, hi = wilson(c, n)
                values[str(v)] = {"count": c, "share": _r(c / n), "ci95": [_r(lo), _r(hi)]}
            entry["values"] = values
        figures[m.key] = entry
    return {
        "game": sim.game,
        "title": title,
        "runs": tally.runs,
        "seed": seed,
        "variants": list(variants),
        "policy": spec.name,
        "policy_summary": spec.summary,
        "intervals": "95%: Wilson score for rates and shares, Student t for means",
        "seeds": "run i (from 0) is the session seed splitmix64(seed, i) % 10**9 (companion.sim.runner.run_seed)",
        "figures": figures,
    }


def _pct(x: float) -> str:
    """``12.5%``; a share that happened never reads 0.0% (``<0.1%``), nor one short of all 100.0%."""
    if 0 < x < 0.0005:
        return "<0.1%"
    if 0.9995 < x < 1:
        return ">99.9%"
    return f"{x * 100:.1f}%"


def _num(x: float) -> str:
    """``1,234.57``; a bound that rounds to -0.00 (a t interval around a mean of 0) reads 0.00."""
    return f"{round(x, 2) + 0.0:,.2f}"


def render(report: dict[str, Any], sim: Simulator) -> list[RenderableType]:
    """The report for a terminal: a headline, a table of figures, and a bar chart per histogram."""
    from rich.table import Table
    from rich.text import Text

    from .chart import bar_chart

    variants = ", ".join(report["variants"]) or "none (the base rules)"
    out: list[RenderableType] = [
        Text.assemble(
            (f"{report['title']}", "bold"),
            f": {report['runs']:,} runs, seed {report['seed']}, policy ",
            (report["policy"], "bold"),
            f" ({report['policy_summary']}), variants: {variants}",
        )
    ]
    table = Table(box=None, pad_edge=False, show_header=True, header_style="bold")
    table.add_column(_("figure"))
    table.add_column(_("value"), justify="right")
    table.add_column(_("95% interval"), justify="right")
    table.add_column(_("of"), justify="right", style="dim")
    charts = []
    for m in sim.metrics:
        f = report["figures"][m.key]
        n = f["n"]
        of = f"{n:,} {m.among or 'runs'}"
        if m.kind == RATE:
            if n:
                lo, hi = f["ci95"]
                table.add_row(m.label, _pct(f["rate"]), f"{_pct(lo)} – {_pct(hi)}", of)
            else:
                table.add_row(m.label, "–", "", of)
        elif n:
            lo, hi = f["ci95"]
            table.add_row(m.label, _num(f["mean"]), f"{_num(lo)} – {_num(hi)}", of)
        else:
            table.add_row(m.label, "–", "", of)
        if m.kind == HISTOGRAM and n:
            rows = [
                (m.value.format(v), e["share"], f"{_pct(e['share'])} ({_pct(e['ci95'][0])}–{_pct(e['ci95'][1])})")
                for v, e in f["values"].items()
            ]
            charts.append((f"{m.label} ({of})", rows))
    out.append(table)
    for m in sim.metrics:
        if m.kind != RATE or not any(m.examples):
            continue
        ex = report["figures"][m.key].get("examples") or {}
        shown = [
            f"{word} is seed {ex[k]['seed']}"
            for k, word in zip(("yes", "no"), m.examples, strict=True)
            if ex.get(k) and word
        ]
        if shown:
            out.append(
                Text(
                    _("Replay one at the table with companion new {game} --seed N: {seeds}.").format(
                        game=sim.game, seeds="; ".join(shown)
                    ),
                    style="dim",
                )
            )
    for title, rows in charts:
        out.append(Text(title, style="bold"))
        out.append(bar_chart(rows))
    return out


__all__ = ["HISTOGRAM", "MEAN", "RATE", "build", "render"]
