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
from companion.export.moments import At, Fight, Moments, moments, outcome, shown
from companion.export.replay import Replay
from companion.export.rolls import session_rolls
from companion.export.source import Source
from companion.i18n import N_, count
from companion.sim.fights import PASS, STAND, WIN

TEMPLATES = Path(__file__).parent / "templates"
#: The big moments shown first: where the player's chance was lowest (and where it changed most, if that
#: is not among them); every one is listed after the log.
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


def source_word(source: str, short: bool = False) -> str:
    """Where a die's faces came from, as the page says it (``short``: in the table's narrow column)."""
    if source == "physical":
        return i18n._("physical")
    if source == "virtual":
        return i18n._("virtual") if short else i18n._("virtual (control)")
    return source


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


_COUNT_LEFT = re.compile(r"\s*\([^()]*\)\s*$")


def draws(entries: list[Any]) -> list[dict[str, Any]]:
    """The draws the log shows (a chit or a card from a cup or a deck, not a die), grouped by what was
    drawn from (the roll's reason without its count of what was left), each with what it drew, in order."""
    from companion.log.markdown import draw_place

    groups: dict[str, dict[str, Any]] = {}
    for e in entries:
        if e is None or e.get("k") != "roll" or not e["r"].get("draw"):
            continue
        r = e["r"]
        what = _COUNT_LEFT.sub("", str(r.get("why", ""))) or i18n._("a draw")
        group = groups.setdefault(what, {"what": what, "drawn": [], "sources": set()})
        group["drawn"].append(r.get("drew") or draw_place(r))
        group["sources"].add(r.get("source", ""))
    return [{"what": g["what"], "drawn": g["drawn"], "source": i18n._(min(g["sources"]))} for g in groups.values()]


def _read_said(fights: list[Fight]) -> str:
    """``12 fights, 8 heroes in them, 3 checks``: what the big moments followed."""
    wins, stands, passes = (sum(1 for f in fights if f.of == of) for of in (WIN, STAND, PASS))
    parts = [count(wins, "{n} fight", "{n} fights")] if wins else []
    if stands:
        parts.append(count(stands, "{n} hero's chance to fall", "{n} heroes' chances to fall"))
    if passes:
        parts.append(count(passes, "{n} check", "{n} checks"))
    return ", ".join(parts)


def _some(names: list[str], most: int = 6) -> str:
    """``a, b, c``; past ``most`` names, the first and the last few around an ellipsis."""
    if len(names) <= most:
        return ", ".join(names)
    return ", ".join([*names[: most // 2], "…", *names[-(most // 2) :]])


def _at(at: At, of: str = WIN) -> dict[str, Any]:
    """A chance on the page: its exact value, as read, where, and the odds command that gives it (a
    hero's chance to come through standing is shown as the chance to fall)."""
    x = 1 - at.chance if of == STAND else at.chance
    return {
        "value": f"{x.numerator}/{x.denominator}",
        "text": _odds(x),
        "action": at.step,
        "words": at.position.words,
        "command": at.position.command(),
    }


#: How the page says each kind of chance (companion.sim.fights: WIN, STAND, PASS): its lowest point
#: (a hero's: the highest chance to fall), a rise and a fall of the player's chance, and the ends.
_SAID = {
    WIN: (N_("Lowest chance to win:"), N_("The chance to win went up from"), N_("The chance to win went down from"),
          N_("a win."), N_("a loss.")),
    STAND: (N_("Highest chance to fall:"), N_("The chance to fall went down from"),
            N_("The chance to fall went up from"), N_("coming through standing."), N_("a fall.")),
    PASS: (N_("Chance to pass:"), N_("The chance to pass went up from"), N_("The chance to pass went down from"),
           N_("a pass."), N_("a fail.")),
}  # fmt: skip


def _fight(f: Fight) -> dict[str, Any]:
    low, rise, drop, good, bad = (i18n._(s) for s in _SAID.get(f.of, _SAID[WIN]))
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
            "before": _at(t.before, f.of),
            "same": t.before == f.lowest,
            "after": _at(t.after, f.of) if t.after is not None else None,
            "end": t.end,
            "up": t.change > 0,
            "moved": rise if t.change > 0 else drop,
            "ended": good if t.end == "won" else bad,
        }
    return {"title": f.title, "result": f.result, "of": f.of, "low": low, "lowest": _at(f.lowest, f.of), "turn": turn}


def context(source: Source, replay: Replay, zone: tzinfo | None = None) -> dict[str, Any]:
    state = source.state
    rolls = session_rolls(source.meta.game, source.events)
    results = audit(rolls.faces)
    health = _both(charts.health_chart, replay)
    progress = _both(charts.progress_chart, replay)
    trackers = _both(charts.trackers_chart, replay)
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
        "rolls": max(0, state.rolls - len(rolls.draws)),
        "draws": draws(state.log.entries),
        "drawn": len(rolls.draws),
        "physical_dice": physical,
        "virtual_dice": virtual,
        "floors": [text for _, text in replay.headings(top=True)],
        "floors_said": _some([text for _, text in replay.headings(top=True)]),
        "fights": len(replay.fights()),
        "health_chart": health,
        "health_caption": charts.health_caption(replay) if health else "",
        "trackers_chart": trackers,
        "progress_chart": progress,
        "progress_caption": charts.progress_caption(replay),
        "probed": found.probed,
        "fights_read": [_fight(f) for f in found.fights],
        "closest": [_fight(f) for f in shown(found.fights, CLOSEST)],
        "read_said": _read_said(found.fights),
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
