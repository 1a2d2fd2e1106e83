"""A session as one self-contained html page: the log, charts of the run, the big moments, the dice.

Templates are Jinja2 (``templates/``) with autoescaping on, so everything a player typed (names,
notes, card names) reaches the page as text: a note ``<script>alert(1)</script>`` shows as written.
The log is the markdown log rendered by markdown-it (CommonMark) with raw html, links and images
turned off. The charts are pygal SVG (:mod:`companion.export.charts`), inlined. The page fetches
nothing (no script, no font, no stylesheet from elsewhere; a Content-Security-Policy says so to the
browser too), works with JavaScript off, and has a print stylesheet for A4.
"""

from __future__ import annotations

import re
from datetime import tzinfo
from fractions import Fraction
from pathlib import Path
from typing import Any

import jinja2
from markdown_it import MarkdownIt
from markupsafe import Markup, escape

from companion import __version__, i18n
from companion.dice import seal
from companion.export import charts, when
from companion.export.audit import DieAudit, audit, die_label, needed
from companion.export.moments import At, Fight, Moments, moments, outcome
from companion.export.replay import Replay
from companion.export.rolls import collect
from companion.export.source import Source

TEMPLATES = Path(__file__).parent / "templates"
#: The big moments shown first: the fights with the lowest chance to win (every fight is listed after the log).
CLOSEST = 3
#: At most this many rolls and choices are named for what turned a fight (a round can hold a dozen).
SHOWN_DONE = 4


def _env() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["odds"] = _odds
    # The page's words go through the catalogue (companion/i18n.py), in the language active when it
    # is rendered (the session's): scripts/i18n.py reads these calls from the templates.
    env.globals.update(
        _=i18n._,
        ngettext=i18n.ngettext,
        pgettext=i18n.pgettext,
        count=i18n.count,
        number=i18n.number,
        fill=fill,
        code=code,
        source_word=source_word,
    )
    return env


def fill(message: str, **values: Any) -> Markup:
    """A translated sentence with markup put in its places: ``message`` and every plain value are
    escaped, a :class:`Markup` value (``code(...)``) goes in as it is."""
    return escape(message).format(**values)


def code(text: str) -> Markup:
    """``<code>text</code>``, the text escaped."""
    return Markup("<code>{}</code>").format(text)


def source_word(source: str) -> str:
    """Where a die's faces came from, as the page says it."""
    if source == "physical":
        return i18n._("physical")
    return i18n._("virtual (control)") if source == "virtual" else source


def _odds(x: Fraction) -> str:
    """``5/16 (31.3%)``: the exact fraction where it is short enough to read, and the percentage."""
    from companion.sim.fights import chance_text

    return chance_text(Fraction(x))


def markdown_html(markdown: str) -> Markup:
    """The markdown log's body as html: no front matter, no title (the page header has them)."""
    body = markdown
    if body.startswith("---\n"):
        body = body.split("\n---\n", 1)[-1]
    lines = body.lstrip("\n").split("\n")
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    md = MarkdownIt("commonmark", {"html": False}).disable(["image", "link", "autolink", "html_inline", "html_block"])
    return Markup(md.render("\n".join(lines)))  # markdown-it escapes all text; raw html is off


_MARKDOWN = re.compile(r"\\(.)|`|\*\*")


def _roll_text(r: dict[str, Any]) -> str:
    """A roll as the log says it, in the log's language, without its markdown: ``DC +1 STR → [4] ...``."""
    from companion.log.markdown import roll_body

    return _MARKDOWN.sub(lambda m: m.group(1) or "", roll_body(r))


def _both(draw: Any, *args: Any) -> dict[str, Markup] | None:
    """A chart drawn wide and narrow (the page shows the one that fits the screen), or None."""
    wide = draw(*args)
    if wide is None:
        return None
    return {"wide": Markup(wide), "narrow": Markup(draw(*args, narrow=True))}  # pygal's SVG: it escapes the text


def _dice(results: list[DieAudit]) -> list[dict[str, Any]]:
    out = []
    for die in dict.fromkeys(r.die for r in results):
        rows = [r for r in results if r.die == die]
        rolled = any(r.rolls for r in rows)
        out.append(
            {
                "label": die_label(die),
                "needs": needed(die),
                "rows": rows,
                "chart": _both(charts.dice_chart, die, rows) if rolled else None,
            }
        )
    return out


def _at(at: At) -> dict[str, Any]:
    """A chance on the page: its exact value, as read, where, and the odds command that gives it."""
    x = at.chance
    return {
        "value": f"{x.numerator}/{x.denominator}",
        "text": _odds(x),
        "action": at.step,
        "words": at.position.words,
        "command": at.position.command(),
    }


def _fight(f: Fight) -> dict[str, Any]:
    turn = None
    if f.turn is not None:
        t = f.turn
        what = [_roll_text(d["roll"]) if "roll" in d else d.get("choice") or d["action"] for d in t.done]
        if len(what) > SHOWN_DONE:  # a round's rolls: the first few, and how many more
            what = [*what[: SHOWN_DONE - 1], i18n._("and {n} more").format(n=len(what) - SHOWN_DONE + 1)]
        turn = {
            "first": t.first + 1,
            "last": t.last + 1,
            "what": what,
            "rolls": len(t.rolls),
            "before": _at(t.before),
            "same": t.before == f.lowest,
            "after": _at(t.after) if t.after is not None else None,
            "end": t.end,
            "up": t.change > 0,
        }
    return {"title": f.title, "result": f.result, "lowest": _at(f.lowest), "turn": turn}


def _closest(fights: list[Fight]) -> list[Fight]:
    """The big moments shown first: every fight in the order fought, or the CLOSEST lowest, lowest first."""
    if len(fights) <= CLOSEST:
        return fights
    return sorted(fights, key=lambda f: f.lowest.chance)[:CLOSEST]


def context(source: Source, replay: Replay, zone: tzinfo | None = None) -> dict[str, Any]:
    state = source.state
    rolls = collect(source.events)
    results = audit(rolls.faces)
    health = _both(charts.health_chart, replay)
    progress = _both(charts.progress_chart, replay)
    found: Moments = moments(replay)
    physical = sum(1 for f in rolls.faces if f.source == "physical")
    virtual = sum(1 for f in rolls.faces if f.source == "virtual")
    return {
        "lang": i18n.language(),
        "title": i18n._(source.title),
        "session": source.meta.name,
        "game": source.meta.game,
        "hero": source.hero,
        "finished": i18n._(state.finished) if state.finished else None,
        "result": outcome(state.finished),
        "date": when.date(state.updated or source.meta.created, zone),
        "played": when.span(source.meta.created, state.updated or source.meta.created, zone),
        "seed": source.meta.seed if state.seed_shown else seal.short(source.meta.sealed or ""),
        "sealed": source.meta.sealed,
        "seed_shown": state.seed_shown,
        "dice_mode_word": i18n._(state.dice),
        "variants": source.meta.variants,
        "actions": len(source.events),
        "rolls": state.rolls,
        "physical_dice": physical,
        "virtual_dice": virtual,
        "floors": [text for _, text in replay.headings()],
        "fights": len(replay.fights()),
        "health_chart": health,
        "progress_chart": progress,
        "progress_caption": charts.progress_caption(replay),
        "probed": found.probed,
        "fights_read": [_fight(f) for f in found.fights],
        "closest": [_fight(f) for f in _closest(found.fights)],
        "dice": _dice(results),
        "amended": rolls.amended,
        "unknown": rolls.unknown,
        "log": markdown_html(source.markdown),
        "sections": sections(state),
        "sections_read": len(state.trackers.sections.visits()),
        "branches": branches(state),
        "version": __version__,
    }


def sections(state: Any) -> list[str]:
    """A gamebook's sections as the decision log keeps them, one line a visit (``§213 — took the left
    stair``, ``§1 — back 1, from §213``), in the order they were read."""
    return [e["t"] for e in state.log.entries if e["k"] == "line" and str(e.get("key", "")).startswith("section-")]


def branches(state: Any) -> list[str]:
    """The ways tried and left, one line each (``from §1: §52 → §7, went back``)."""
    out = []
    for b in state.trackers.sections.branches:
        way = " → ".join(f"§{n}" for n in b.path)
        if b.how == "undo":
            out.append(i18n._("from §{start}: {way}, taken back by undo").format(start=b.start, way=way))
        else:
            out.append(i18n._("from §{start}: {way}, went back").format(start=b.start, way=way))
    return out


def page(source: Source, replay: Replay, zone: tzinfo | None = None) -> str:
    """The whole page of one session, its times in ``zone`` (default: the machine's local zone), in
    the language shown now (the session's, once it is opened)."""
    from companion.controls import html_safe

    # Text is data: a control character from a save shown as its picture (a raw ESC is a parse error),
    # a bidirectional or zero-width one left out (it would reorder or hide the page's words).
    return html_safe(_env().get_template("session.html.j2").render(**context(source, replay, zone)))


def index_page(pages: list[tuple[str, Source]], zone: tzinfo | None = None) -> str:
    """The index of ``companion export --all --format html``: one row per session page, newest first."""
    rows = []
    for file, source in pages:
        last = source.state.updated or source.meta.created
        rows.append(
            {
                "file": file,
                "session": source.meta.name,
                "title": i18n._(source.title),
                "hero": source.hero,
                "finished": i18n._(source.state.finished) if source.state.finished else None,
                "stamp": last or "",
                "date": when.date(last, zone),
                "actions": len(source.events),
            }
        )
    rows.sort(key=lambda r: (r["stamp"], r["session"]), reverse=True)
    from companion.controls import html_safe

    return html_safe(_env().get_template("index.html.j2").render(rows=rows, version=__version__, lang=i18n.language()))
