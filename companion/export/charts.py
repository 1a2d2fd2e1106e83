"""The page's charts, drawn by pygal as SVG (imported only when an html page is made).

pygal (pure Python, ~1 MB, no numpy) makes an SVG a browser shows without JavaScript; the page
inlines it. Three things are set so the SVG stays self-contained and the same on every run:

- ``js=[]``: no tooltip script fetched from pygal's site, and the inline config script pygal
  writes for it is dropped: the charts read without JavaScript, and the page runs none;
- a style with system fonts only (pygal would otherwise name a web font in some styles);
- each chart's id is set from its name instead of a random uuid, and pygal's comments (which carry
  today's date and its web address) are dropped, so an export is byte-for-byte reproducible.

Each chart is drawn twice: wide (860 units across, for a screen of 800 px or more and for paper) and
narrow (400 across, fewer legend columns, for a phone). An SVG scales its text with its width, so
one drawing cannot keep its text at 10 CSS px or more on both; the page shows the one that fits
(docs/log-format.md, "On a phone"). The font sizes are chosen so that the text is at least 10 CSS px
wherever each one is shown: 12 units at 760 px or more for the wide one, 12 at 336 px or more for the
narrow one.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

import pygal
from pygal.style import Style

from companion.export.audit import DieAudit, categories, die_label
from companion.export.replay import Replay
from companion.i18n import _, count, number, percent

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif"
PALETTE = ("#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#117a65", "#a04000", "#5d6d7e", "#cb4335",
           "#2e86c1", "#999999", "#444444")  # fmt: skip
FIGHT = "#f5cba7"
MARK = "#888888"
#: The dice histogram's colours: the same source in the same colour on every chart.
SOURCE_COLOURS = {"physical": PALETTE[0], "virtual": PALETTE[1]}
FAIR = "#9a9a9a"


#: The two drawings of every chart (see the module's docstring).
WIDE = {"width": 860, "legend_at_bottom_columns": 4, "truncate_legend": 40}
NARROW = {"width": 400, "legend_at_bottom_columns": 2, "truncate_legend": 24}


def style(colors: tuple[str, ...] = PALETTE, opacity: str = ".9", narrow: bool = False) -> Style:
    """System fonts only (no web font is named, so nothing is fetched), light guides, our colours."""
    fonts = {
        f"{part}_family": FONT
        for part in ("font", "label_font", "major_label_font", "value_font", "value_label_font", "tooltip_font",
                     "title_font", "legend_font", "no_data_font")
    }  # fmt: skip
    return Style(
        background="#ffffff",
        plot_background="#ffffff",
        foreground="#222222",
        foreground_strong="#111111",
        foreground_subtle="#e3e3e3",
        guide_stroke_color="#e3e3e3",
        major_guide_stroke_color="#cfcfcf",
        opacity=opacity,
        opacity_hover=opacity,
        colors=colors,
        title_font_size=14 if narrow else 15,
        legend_font_size=12,
        label_font_size=12,
        major_label_font_size=12,
        **fonts,
    )


_COMMENT = re.compile(r"<!--.*?-->", re.S)
#: pygal always writes its tooltip config as an inline script (even with ``js=[]``); the page has none.
_SCRIPT = re.compile(r"<script\b[^>]*>.*?</script>|<script\b[^>]*/>", re.S)


def _config(narrow: bool = False, **extra: Any) -> dict[str, Any]:
    return {
        "style": style(narrow=narrow),
        "js": [],
        "disable_xml_declaration": True,
        "height": 340,
        "legend_at_bottom": True,
        "show_x_guides": False,
        "margin": 12,
        # pygal places a bottom legend a little low on some charts; this keeps it inside the picture.
        "margin_bottom": 30,
        **(NARROW if narrow else WIDE),
        **extra,
    }


def _svg(chart: Any, name: str, narrow: bool = False) -> str:
    chart.uuid = name + ("-narrow" if narrow else "")  # a fixed id, not pygal's random one: reproducible
    return _SCRIPT.sub("", _COMMENT.sub("", chart.render(is_unicode=True)))


def _steps(values: list[int | None]) -> list[tuple[int, int] | None]:
    """A series as XY points on the action axis (action 1 is the first event), gaps as None."""
    out: list[tuple[int, int] | None] = []
    for i, v in enumerate(values, 1):
        if v is None:
            if out and out[-1] is not None:
                out.append(None)
            continue
        out.append((i, v))
    return out


def _marks(chart: Any, replay: Replay, top: float) -> None:
    """Fights (shaded stretches of play) and floors (dashed vertical lines), where there are any.
    Added first, so the values are drawn over them (their colours lead the chart's style)."""
    band: list[tuple[float, float] | None] = []
    for start, end in replay.fights():
        band += [(start + 0.5, 0), (start + 0.5, top), (end + 1.5, top), (end + 1.5, 0), None]
    if band:
        chart.add(_("Fight"), band, fill=True, show_dots=False, stroke_style={"width": 0})
    points: list[tuple[float, float] | None] = []
    for step, _text in replay.headings(top=True):
        points += [(step + 1, 0), (step + 1, top), None]
    if points:
        chart.add(_("Floor or area"), points, stroke_style={"width": 1.2, "dasharray": "5, 4"}, show_dots=False)


def _timeline(
    title: str,
    replay: Replay,
    series: dict[str, list[int | None]],
    top: float,
    name: str,
    narrow: bool = False,
    **extra: Any,
) -> str:
    colors = (*([FIGHT] if replay.fights() else []), *([MARK] if replay.headings(top=True) else []), *PALETTE)
    chart = pygal.XY(
        **_config(
            narrow,
            title=title,
            x_title=_("action"),
            value_formatter=_number,
            x_value_formatter=_number,
            allow_interruptions=True,
            range=(0, top),
            y_labels=_ticks(top),
            xrange=(1, max(2, len(replay.steps))),
            # Whole labels, never cut to "1…": fewer of them on a phone, where each has less room.
            x_labels=[t for t in _ticks(len(replay.steps), most=5 if narrow else 10) if 0 < t <= len(replay.steps)],
            truncate_label=-1,
            style=style(colors, opacity=".55", narrow=narrow),
            **extra,
        )
    )
    _marks(chart, replay, top)
    for label, values in series.items():
        chart.add(label, _steps(values), show_dots=False, stroke_style={"width": 2.5})
    return _svg(chart, name, narrow)


def _health_series(replay: Replay) -> dict[str, list[int | None]]:
    series: dict[str, list[int | None]] = {}
    for kind in ("hp", "hits", "hero", "health"):
        series.update(replay.series(kind))
    return {n: v for n, v in series.items() if any(x is not None for x in v)}


def _what(replay: Replay) -> tuple[list[str], bool, bool]:
    """What the health chart draws: the names of the game's HP trackers (HP, a pack's STAMINA), and
    whether it has heroes' hits left and figures' health."""
    shown = _health_series(replay)
    hp = [n for n in shown if replay.kinds[n] == "hp"]
    return hp, any(replay.kinds[n] == "hits" for n in shown), any(replay.kinds[n] in ("hero", "health") for n in shown)


def health_title(replay: Replay) -> str:
    """The health chart's title, by what the game has (``HP over the session``, ``STAMINA ...``)."""
    hp, hits, health = _what(replay)
    name = ", ".join(hp)
    if hp and hits and health:
        return _("{hp}, hits left and health over the session").format(hp=name)
    if hp and hits:
        return _("{hp} and hits left over the session").format(hp=name)
    if hp and health:
        return _("{hp} and health over the session").format(hp=name)
    if hits and health:
        return _("Hits left and health over the session")
    if hits:
        return _("Each hero's hits left over the session")
    if health:
        return _("Each figure's health over the session")
    return _("{hp} over the session").format(hp=name)


def health_caption(replay: Replay) -> str:
    """What each line of the health chart is."""
    hp, hits, health = _what(replay)
    parts = [*hp, *([_("each hero's hits left")] if hits else []), *([_("each figure's health")] if health else [])]
    return _("Each line is a value after each recorded action: {what}.").format(what=", ".join(parts))


def health_chart(replay: Replay, narrow: bool = False) -> str | None:
    """HP (by the tracker's name), each hero's hits left, each figure's health, over the session's actions."""
    series = _health_series(replay)
    if not series:
        return None
    top = max([x for v in series.values() for x in v if x is not None] + list(replay.maxima.values()) + [1])
    return _timeline(health_title(replay), replay, series, top, "health", narrow)


def _trackers(replay: Replay) -> dict[str, list[int | None]]:
    """A game's or a pack's own counters (SKILL, LUCK, provisions) that change over the session; not its
    money (a sum of treasure, no figure of the run)."""
    from companion.export.sheet import WEALTH

    series = replay.series("counter")
    return {n: v for n, v in series.items() if n.lower() not in WEALTH and len({x for x in v if x is not None}) > 1}


def trackers_chart(replay: Replay, narrow: bool = False) -> str | None:
    """The session's other counters, each by its own name, where any changed."""
    series = _trackers(replay)
    if not series:
        return None
    top = max([x for v in series.values() for x in v if x is not None] + [1])
    title = _("{names} over the session").format(names=", ".join(series))
    return _timeline(title, replay, series, top, "trackers", narrow, height=300)


def _ticks(top: float, most: int = 10) -> list[int]:
    """Whole-number marks up the axis, at most about ``most`` (a level of 1 to 3 gets 0, 1, 2, 3, not
    fractions of a level)."""
    top = int(top) if top == top and top not in (float("inf"), float("-inf")) else 1  # NaN, infinity: 1
    step = next(s for s in _nice_steps() if top / s <= most)
    return list(range(0, top + step, step))


def _nice_steps() -> Iterator[int]:
    """1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, ...: without end, so any stored value has its marks."""
    yield from (1, 2, 5)
    scale = 10
    while True:
        yield from (scale, 2 * scale, 5 * scale // 2, 5 * scale)
        scale *= 10


def _number(v: float) -> str:
    """An axis label as the language writes a number: ``0.5``, Russian ``0,5``; whole numbers bare."""
    if float(v).is_integer():
        return str(int(v))
    return number(v, 2).rstrip("0") if abs(v) < 10 else number(v, 1)


def _progress(replay: Replay) -> dict[str, list[int | None]]:
    """The XP and level series that change over the session."""
    series: dict[str, list[int | None]] = {}
    for kind in ("xp", "level"):
        series.update(replay.series(kind))
    return {n: v for n, v in series.items() if len({x for x in v if x is not None}) > 1}


def _progress_kinds(replay: Replay) -> set[str]:
    return {replay.kinds[n] for n in _progress(replay)}


def progress_caption(replay: Replay) -> str:
    """What the progress chart shows, by what the game has: XP and levels, XP only, levels only."""
    kinds = _progress_kinds(replay)
    if kinds == {"level"}:
        return _("Each hero's level after each action.")
    if kinds == {"xp"}:
        return _("Experience after each action.")
    return _("Experience and level after each action.")


def progress_chart(replay: Replay, narrow: bool = False) -> str | None:
    """XP and level over time, where the game has them (titled by what it has)."""
    series = _progress(replay)
    if not series:
        return None
    top = max([x for v in series.values() for x in v if x is not None] + [1])
    kinds = _progress_kinds(replay)
    title = _("Level") if kinds == {"level"} else _("XP") if kinds == {"xp"} else _("XP and level")
    return _timeline(title, replay, series, top, "progress", narrow, height=300)


def dice_chart(die: str, results: list[DieAudit], narrow: bool = False) -> str:
    """One die type's faces: each source's share of rolls per face, beside a fair die's share."""
    cats = categories(die)
    chart = pygal.Bar(
        **_config(
            narrow,
            title=_("{die_label}: share of rolls per face").format(die_label=die_label(die)),
            y_title=_("% of rolls"),
            height=300,
            legend_at_bottom_columns=2 if narrow else 3,
            value_formatter=lambda v: percent(v),
        )
    )
    chart.x_labels = list(cats.labels)
    shares = [100 * r.counts[face] / r.rolls for r in results if r.rolls for face in cats.labels]
    shares += [100 * p for p in cats.probabilities]
    top = _ticks(math.ceil(max([*shares, 1])))[-1]  # the highest bar inside the axis, not above its last mark
    chart.config.range = (0, top)
    chart.config.y_labels = _ticks(top)
    colors = []
    for r in results:
        if r.rolls:
            colors.append(SOURCE_COLOURS[r.source])
            name = _("{source} ({rolls})").format(source=_(r.source), rolls=count(r.rolls, "{n} roll", "{n} rolls"))
            chart.add(name, [round(100 * r.counts[face] / r.rolls, 2) for face in cats.labels])
    chart.add(_("a fair die"), [round(100 * p, 2) for p in cats.probabilities])
    chart.config.style = style((*colors, FAIR), narrow=narrow)
    return _svg(chart, f"dice-{die}", narrow)
