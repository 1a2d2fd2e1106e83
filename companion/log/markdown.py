"""Render a session's log as markdown: YAML front matter, then floors, rooms and their rolls.

The output is plain CommonMark (headings, paragraphs, nested lists, code spans) so it reads the same
in any viewer, and holds no html (Obsidian's reader drops some). Player-typed text is escaped.

The front matter reads as Obsidian properties: texts are JSON strings (valid YAML double-quoted
scalars), numbers are numbers, a list is a YAML list (one ``- item`` a line), and the times are
YAML date-times as Obsidian's "Date & time" property writes them (``2026-12-01T20:50:30``, UTC, as
the save keeps them).

The file on disk is not rendered whole after every action: :mod:`companion.log.writer` edits it by
what changed, from the same pieces (:func:`head_text`, :func:`top_rows`, :func:`child_row`,
:func:`tail_text`), and :func:`render` must stay their concatenation. The front matter may hold any
property of the state (it is rendered again and written in place after every action; a property whose
length in bytes changes often costs a copy of the file each time it does): see that module.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from companion.controls import visible
from companion.i18n import N_, _, ngettext, pgettext
from companion.log.model import Entry

if TYPE_CHECKING:
    from companion.session.state import State

_ESCAPE = re.compile(r"([\\`*_\[\]<>|#~])")


def escape(text: str) -> str:
    """Make player text literal in markdown (one line, specials backslash-escaped, control characters
    shown as their pictures: the log is read in terminals too)."""
    return _ESCAPE.sub(r"\\\1", visible(" ".join(text.split())))


_STAMP = re.compile(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.\d+)?Z")


def _yaml(value: object) -> str:
    """One property's value: after ``key:`` on its line (a list: its items on the lines below)."""
    if value is None:
        return " null"
    if isinstance(value, bool):
        return " true" if value else " false"
    if isinstance(value, int):
        return f" {value}"
    if isinstance(value, list):
        return "".join(f"\n  -{_yaml(v)}" for v in value) if value else " []"
    stamp = _STAMP.fullmatch(str(value))
    if stamp:  # a date-time, unquoted: a date to Obsidian and to YAML
        return f" {stamp.group(1)}"
    return " " + json.dumps(visible(str(value)), ensure_ascii=False)


#: The front matter's labels, translated with the log (a Russian log reads "игра:", "кубики:", ...).
LABELS = {
    "game": N_("game"),
    "title": N_("title"),
    "session": N_("session"),
    "seed": N_("seed"),
    "sealed": N_("sealed dice (SHA-256)"),
    "dice": N_("dice"),
    "variants": N_("variants"),
    "started": N_("started"),
    "updated": N_("updated"),
    "hero": N_("hero"),
    "finished": N_("finished"),
}


def front_matter(state: State, title: str, hero: str | None) -> str:
    meta = state.meta
    fields = {
        "game": meta.game,
        "title": title,
        "session": meta.name,
        "seed": meta.seed if state.seed_shown else None,
        **({"sealed": meta.sealed} if meta.sealed else {}),
        "dice": _(state.dice),
        "variants": list(meta.variants),
        "started": meta.created,
        "updated": state.updated or meta.created,
        "hero": hero,
        "finished": _(state.finished) if state.finished else None,
    }
    body = "\n".join(f"{_(LABELS[k])}:{_yaml(v)}" for k, v in fields.items())
    return f"---\n{body}\n---"


def draw_place(r: dict[str, Any]) -> str:
    """Where in the cup or deck a draw was: ``8 of 9`` (the 1dN over the N left picked the 8th)."""
    sides = str(r.get("expr", "")).partition("d")[2]
    return _("{n} of {of}").format(n=r["total"], of=sides) if sides.isdigit() else str(r["total"])


def draw_text(r: dict[str, Any]) -> str:
    """``drew **dragon chit 4** (8 of 9) · virtual — why``: a chit or a card drawn, not a die rolled."""
    place = draw_place(r)
    what = f"**{escape(r['drew'])}** ({place})" if r.get("drew") else f"**{place}**"
    text = _("drew {what}").format(what=what)
    if r.get("amended_from") is not None:
        text += _(" (amended from {dice}").format(dice=f"`{r['amended_from']}`") + ")"
    text += f" · {_(r['source'])}"
    if r.get("why"):
        text += f" — {escape(r['why'])}"
    return text


def roll_text(r: dict[str, Any]) -> str:
    """A roll's line in the log: ``d: `2d6` → `[3] [4]` = 7 · virtual`` (in Russian ``🎲 `2d6` → ...``); a
    draw as :func:`draw_text`, with no die's mark."""
    if r.get("draw"):
        return draw_text(r)
    return pgettext("log", "d: ") + roll_body(r)


def roll_body(r: dict[str, Any]) -> str:
    """```DC` +1 STR → `[4]` = 5 vs 5+ → **pass** · physical — why``: a roll's line without its mark; a
    draw as :func:`draw_text`."""
    if r.get("draw"):
        return draw_text(r)
    dice_shown = r["dice"]
    mods = r.get("mods", "")
    parts = [f"`{r['expr']}`"]
    if mods:
        parts.append(mods)
    dice = f"`{dice_shown}`" if dice_shown not in ("(total only)", _("(total only)")) else _("total only")
    if r.get("amended_from") is not None:
        reason = r.get("reason")
        dice += (
            _(" (amended from {dice}").format(dice=f"`{r['amended_from']}`")
            + (f": {escape(reason)}" if reason else "")
            + ")"
        )
    text = " ".join(parts) + f" → {dice}"
    several = dice_shown.count("[") > 1 or dice_shown in ("(total only)", _("(total only)"))
    # A check is read by its dice against what they must show (``[4] [5] = 9 vs 7+``); a plain sum by
    # its total, modifiers counted (``[3] = 5``); a dt pool says its sum itself.
    if (several or (mods and not r.get("target"))) and not r["outcome"].startswith(f"{r['total']},"):
        text += f" = {r['total']}"
    if r.get("target"):
        text += _(" vs {target}").format(target=r["target"])
    if r["outcome"] and r["outcome"] != str(r["total"]):
        text += f" → **{escape(r['outcome'])}**"
    if r.get("natural"):
        text += f" ({r['natural']})"
    text += f" · {_(r['source'])}"
    if r.get("why"):
        text += f" — {escape(r['why'])}"
    return text


def entry_text(entry: Entry) -> str:
    kind = entry["k"]
    if kind == "roll":
        return roll_text(entry["r"])
    if kind == "note":
        return _("Note: {text}").format(text=escape(entry.get("t", "")))
    return escape(entry.get("t", ""))


def heading_row(entry: Entry) -> str:
    return "#" * max(2, min(6, entry.get("lv", 2))) + " " + escape(entry.get("t", ""))


def top_rows(entry: Entry, first: bool) -> list[str]:
    """The rows of an entry that stands on its own (a heading has a blank row around it, none above it
    when it is the first thing in the log)."""
    if entry["k"] == "heading":
        return [heading_row(entry), ""] if first else ["", heading_row(entry), ""]
    return ["- " + entry_text(entry)]


def child_row(entry: Entry) -> str:
    return "  - " + entry_text(entry)


def grouped(entries: list[Entry]) -> tuple[dict[int, list[Entry]], set[int]]:
    """Which entries hang under which line: an entry whose parent is ``key`` hangs under the last line
    of that key before it (a key closed and used again names a new line, see companion.log.model)."""
    latest: dict[str, int] = {}
    children: dict[int, list[Entry]] = {}
    under: set[int] = set()
    for i, e in enumerate(entries):
        parent = e.get("p")
        if parent is not None and parent in latest:
            children.setdefault(latest[parent], []).append(e)
            under.add(i)
        if e["k"] == "line":
            latest[e["key"]] = i
    return children, under


def body(entries: list[Entry]) -> str:
    children, under = grouped(entries)
    out: list[str] = []
    for i, e in enumerate(entries):
        if i in under:
            continue
        out.extend(top_rows(e, not out))
        if e["k"] == "line":
            out.extend(child_row(child) for child in children.get(i, ()))
    return "\n".join(out)


def sheet(state: State) -> str:
    """The trackers at the end of the log, the way players keep them on paper."""
    t = state.trackers
    lines: list[str] = []
    for tally in t.tallies.values():
        lines.append(f"- {escape(tally.book())}")
    for name, c in t.counters.items():
        value = f"{c.value}/{c.max}" if c.max is not None else str(c.value)
        label = c.label or (name.upper() if len(name) <= 3 else name.capitalize())
        lines.append(f"- {escape(label)}: {value}")
    if any(t.items.values()):  # items all spent leave no empty "Items:" line
        lines.append("- Items: " + escape(", ".join(f"{n} ×{k}" for n, k in t.items.items() if k)))
    ts = t.talisman
    if ts.kills or ts.found or ts.held_by_last:
        status = "found" if ts.found else ("held by the last monster" if ts.held_by_last else "not found")
        rolls = ", ".join(str(r) for r in ts.rolls) or "none"
        after = ngettext("after {n} kill", "after {n} kills", ts.kills).format(n=ts.kills)
        lines.append(f"- Talisman: {status} {after}; rolls: {rolls}")
    if not lines:
        return ""
    return "## " + _("Sheet") + "\n\n" + "\n".join(lines)


def head_text(state: State, title: str, hero: str | None = None) -> str:
    """The front matter and the title: what comes before the first entry."""
    title = _(title)
    return front_matter(state, title, hero) + "\n\n" + f"# {escape(title)}: {escape(state.meta.name)}"


def tail_text(state: State) -> str:
    """The sheet and the end: what comes after the last entry."""
    parts = [sheet(state)]
    if state.finished:
        parts.append(_("**The end:** {result}").format(result=escape(_(state.finished))))
    return "".join("\n\n" + p for p in parts if p) + "\n"


def render(state: State, title: str, hero: str | None = None) -> str:
    """The whole markdown log of ``state``."""
    text = body(state.log.entries)
    return head_text(state, title, hero) + ("\n\n" + text if text else "") + tail_text(state)
