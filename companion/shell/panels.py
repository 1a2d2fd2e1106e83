"""Rich renderings of a session: the status panel and new log entries."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from companion.i18n import N_, _, ngettext
from companion.log.markdown import roll_body
from companion.log.model import Entry

if TYPE_CHECKING:
    from companion.session.service import Session
    from companion.session.state import State


def bar(value: int, maximum: int, width: int = 10) -> Text:
    """An HP bar: ``█████░░░░░ 5/10``, green, then yellow, then red as it empties."""
    maximum = max(1, maximum)
    filled = round(width * max(0, min(value, maximum)) / maximum)
    ratio = value / maximum
    style = "green" if ratio > 0.5 else ("yellow" if ratio > 0.25 else "red")
    return Text("█" * filled, style=style).append("░" * (width - filled), style="dim").append(f" {value}/{maximum}")


def status_rows(session: Session) -> list[tuple[str, object]]:
    """What ``status`` shows, as (label, value) rows: the game's own, else the trackers. The shell's
    toolbar reads the same rows."""
    state = session.state
    rows: list[tuple[str, object]] = []
    if session.spec.provides("status"):
        rows.extend(session.spec.status_rows(state))
    else:
        t = state.trackers
        hp = t.counters.get("hp")
        if hp is not None:  # a table pack may call it by its book's name (STAMINA)
            rows.append((hp.label or "HP", bar(hp.value, hp.max) if hp.max else str(hp.value)))
        for name, c in t.counters.items():
            if name != "hp":
                rows.append(
                    (
                        c.label or (name.upper() if len(name) <= 3 else name.capitalize()),
                        f"{c.value}" + (f"/{c.max}" if c.max is not None else ""),
                    )
                )
        if t.items:
            rows.append((N_("Items"), ", ".join(f"{k} ×{v}" for k, v in t.items.items() if v)))
        if t.rooms:
            here = sum(1 for r in t.rooms if r.floor == t.floor)
            rows.append(
                (N_("Floor"), ngettext("{floor} ({n} room)", "{floor} ({n} rooms)", here).format(floor=t.floor, n=here))
            )
        for tally in t.tallies.values():
            rows.append((N_("Tally"), tally.book()))
        ts = t.talisman
        if ts.kills or ts.found:
            rows.append(
                (
                    N_("Talisman"),
                    _("found")
                    if ts.found
                    else (
                        _("held by the last monster")
                        if ts.held_by_last
                        else ngettext("not found after {n} kill", "not found after {n} kills", ts.kills).format(
                            n=ts.kills
                        )
                    ),
                )
            )
    sections = state.trackers.sections
    if sections.path:  # a gamebook's section (companion section N), in every session
        seen = len(sections.visits())
        rows.append(
            (
                "Section",
                f"§{sections.current} " + ngettext("({n} section read)", "({n} sections read)", seen).format(n=seen),
            )
        )
    return rows


def status_panel(session: Session, width: int | None = None) -> Panel:
    """The status panel; with ``width`` it keeps that width whatever its rows hold (guided play
    passes one width for the whole game, so the panel does not grow and shrink between turns)."""
    state = session.state
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    rows = status_rows(session)
    for label, value in rows:
        grid.add_row(_(label), value if isinstance(value, Text) else Text(str(value)))
    title = f"{_(session.spec.title)} · {session.meta.name}"
    footer = ngettext(
        "{dice} dice · seed {seed} · {n} action", "{dice} dice · seed {seed} · {n} actions", session.count
    ).format(dice=_(state.dice), seed=seed_text(state), n=session.count)
    if state.finished:
        footer += f" · {_(state.finished)}"
    body = (
        Group(grid, Text(footer, style="dim")) if rows else Text(footer + "\n" + _("Nothing tracked yet."), style="dim")
    )
    # A str title is read as markup by rich: the session's name is the player's text.
    return Panel(body, title=Text(title), title_align="left", expand=width is not None, width=width)


def entry_renderable(entry: Entry) -> Text:
    kind = entry["k"]
    text = entry.get("t", "")
    if kind == "heading":
        return Text(f"\n{text}", style="bold underline")
    if kind == "roll":  # a die rolled; a chit or a card drawn (no die) has a hand
        mark = "✋ " if entry["r"].get("draw") else "🎲 "
        return Text("  " + mark + roll_body(entry["r"]).replace("`", "").replace("**", ""))
    if kind == "note":
        return Text(f"  ✎ {text}", style="italic")
    if kind == "line":
        return Text(text, style="bold cyan")
    return Text(("  " if entry.get("p") else "") + text)


#: A no-break space (``93,8 %``, ``u/г отмена``), and what stands for it while rich wraps a line: rich
#: breaks at any whitespace, this one too, so it is held as a character of the same width that is no
#: whitespace, and given back once the line is cut into the terminal's lines.
NBSP, HELD = "\u00a0", "\ue000"


class NoBreak:
    """``renderable`` (built with :func:`held`) wrapped by rich without breaking at a no-break space."""

    def __init__(self, renderable: RenderableType) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Any, options: Any) -> Any:
        from rich.segment import Segment

        for seg in console.render(self.renderable, options):
            yield Segment(seg.text.replace(HELD, NBSP), seg.style, seg.control) if HELD in seg.text else seg

    def __rich_measure__(self, console: Any, options: Any) -> Any:
        from rich.measure import Measurement

        return Measurement.get(console, options, self.renderable)


def held(text: Text) -> Text:
    """``text`` with its no-break spaces held (see :class:`NoBreak`)."""
    if NBSP in text.plain:
        text = text.copy()
        text.plain = text.plain.replace(NBSP, HELD)
    return text


def hang(text: Text, width: int, indent: int = 2) -> Text:
    """``text`` wrapped between words at ``width``: its first line from the left edge, every line after it
    ``indent`` columns in (a question, a hint, a menu's option: never continued at column 0)."""
    from rich.cells import cell_len

    if cell_len(text.plain) <= width or width <= indent + 10:
        return text
    plain = text.plain
    cut = plain.rfind(" ", 0, width + 1)
    while cut > 0 and cell_len(plain[:cut]) > width:
        cut = plain.rfind(" ", 0, cut)
    if cut <= indent:
        return text
    first, rest = text[:cut], text[cut + 1 :]
    out = Text()
    out.append_text(first)
    out.append("\n" + " " * indent)
    out.append_text(hang(rest, width - indent, 0) if indent else hang(rest, width, 0))
    return _indented(out, indent)


def _indented(text: Text, indent: int) -> Text:
    """Every line break of ``text`` followed by ``indent`` spaces (once)."""
    pad = " " * indent
    out = Text()
    for i, line in enumerate(text.split("\n")):
        if i:
            out.append("\n")
            if not line.plain.startswith(pad):
                out.append(pad)
        out.append_text(line)
    return out


def hanging(text: Text, extra: int = 0) -> RenderableType:
    """``text`` with its wrapped lines under its first word, not at the screen's edge.

    The lead (leading spaces, and a ``🎲``/``✋``/``✎`` mark) stays in a column of its own, and the rest
    wraps beside it (``extra`` more columns in), so a long log line or odds line reads as one block.
    """
    plain = text.plain
    body = plain.lstrip(" ")
    lead = len(plain) - len(body)
    for mark in ("🎲 ", "✋ ", "✎ "):
        if body.startswith(mark):
            lead += len(mark)
            break
    if not lead and not extra:
        return NoBreak(held(text)) if NBSP in plain else text
    from rich.cells import cell_len

    grid = Table.grid()
    grid.add_column(width=cell_len(plain[:lead]) + extra, no_wrap=True)
    grid.add_column()
    grid.add_row(text[:lead], held(text[lead:]))
    return NoBreak(grid) if NBSP in plain else grid


def seed_text(state: State) -> str:
    """The seed as the status shows it: the seed, or a sealed session's commitment until it is revealed."""
    meta = state.meta
    if state.seed_shown:
        return str(meta.seed)
    from companion.dice.seal import short

    return _("sealed: SHA-256 {commitment}").format(commitment=short(meta.sealed or ""))
