"""Render a session's log as markdown: YAML front matter, then floors, rooms and their rolls.

The output is plain CommonMark (headings, paragraphs, nested lists, code spans) so it reads the same
in any viewer. Player-typed text is escaped; the front matter values are JSON strings, which are
valid YAML double-quoted scalars.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from companion.controls import visible
from companion.i18n import N_, _
from companion.log.model import Entry

if TYPE_CHECKING:
    from companion.session.state import State

_ESCAPE = re.compile(r"([\\`*_\[\]<>|#~])")


def escape(text: str) -> str:
    """Make player text literal in markdown (one line, specials backslash-escaped, control characters
    shown as their pictures: the log is read in terminals too)."""
    return _ESCAPE.sub(r"\\\1", visible(" ".join(text.split())))


def _yaml(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_yaml(v) for v in value) + "]"
    return json.dumps(visible(str(value)), ensure_ascii=False)


#: The front matter's labels, translated with the log (a Russian log reads "игра:", "кубики:", ...).
LABELS = {
    "game": N_("game"),
    "title": N_("title"),
    "session": N_("session"),
    "seed": N_("seed"),
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
        "seed": meta.seed,
        "dice": _(state.dice),
        "variants": list(meta.variants),
        "started": meta.created,
        "updated": state.updated or meta.created,
        "hero": hero,
        "finished": _(state.finished) if state.finished else None,
    }
    body = "\n".join(f"{_(LABELS[k])}: {_yaml(v)}" for k, v in fields.items())
    return f"---\n{body}\n---"


def roll_text(r: dict[str, Any]) -> str:
    """``d: `DC` +1 STR → `[4]` = 5 vs 5+ → **pass** · physical — why``."""
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
    return "d: " + text


def entry_text(entry: Entry) -> str:
    kind = entry["k"]
    if kind == "roll":
        return roll_text(entry["r"])
    if kind == "note":
        return _("Note: {text}").format(text=escape(entry.get("t", "")))
    return escape(entry.get("t", ""))


def body(entries: list[Entry]) -> str:
    keys = {e["key"] for e in entries if e["k"] == "line"}
    children: dict[str, list[Entry]] = {}
    for e in entries:
        parent = e.get("p")
        if parent is not None and parent in keys:
            children.setdefault(parent, []).append(e)
    out: list[str] = []
    for e in entries:
        parent = e.get("p")
        if parent is not None and parent in keys:
            continue
        if e["k"] == "heading":
            if out:
                out.append("")
            out.append("#" * max(2, min(6, e.get("lv", 2))) + " " + escape(e.get("t", "")))
            out.append("")
            continue
        out.append("- " + entry_text(e))
        if e["k"] == "line":
            for child in children.get(e["key"], ()):
                out.append("  - " + entry_text(child))
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
        lines.append(f"- Talisman: {status} after {ts.kills} kill(s); rolls: {rolls}")
    if not lines:
        return ""
    return "## " + _("Sheet") + "\n\n" + "\n".join(lines)


def render(state: State, title: str, hero: str | None = None) -> str:
    """The whole markdown log of ``state``."""
    title = _(title)
    parts = [front_matter(state, title, hero), f"# {escape(title)}: {escape(state.meta.name)}"]
    text = body(state.log.entries)
    if text:
        parts.append(text)
    s = sheet(state)
    if s:
        parts.append(s)
    if state.finished:
        parts.append(_("**The end:** {result}").format(result=escape(_(state.finished))))
    return "\n\n".join(parts) + "\n"
