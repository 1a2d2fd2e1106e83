"""A session in Lonelog's core notation, ASCII arrows: for solo journalers and their tools.

The mapping (docs/log-format.md, "Lonelog"):

- a YAML header (Lonelog's campaign header) and ``## Session 1`` with the date and the result;
- ``### S<n> <floor or area>`` for each heading of the log (a scene per floor or area), and for each
  section of a gamebook read (``### S3 §213 — took the left stair``, a scene per section);
- ``@ <choice>`` for each choice the player made in guided play (and each number or name typed);
- ``d: <why>: <expr> <modifiers> <dice> = <total> vs <target> -> <outcome> (<source>)`` for each roll;
- ``=> <what it caused>`` for what the game recorded after it (a hit, HP lost, a room's outcome: a
  room or round line is written when play leaves it, with its final text);
- notes exactly as the player typed them (so a note written in Lonelog passes through unchanged);
- ``[PC:...]`` and ``[N:...]`` tags for the heroes and monsters at the end, ``(note: ...)`` for
  companion's own remarks (dice mode switched, rolls amended, game data).
"""

from __future__ import annotations

import json

from companion.engine.requests import Choice, Number, Text
from companion.export.replay import Replay
from companion.export.source import Source
from companion.log.model import Entry

#: How a lonelog line may start (besides a header, a blank line and the player's own notes).
SYMBOLS = ("@ ", "? ", "d: ", "-> ", "=> ", "[", "(note: ")


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def roll_line(r: dict) -> str:
    """``d: why: DC +1 STR [4] = 5 vs 5+ -> pass (physical)``."""
    head = f"{_one_line(r['why'])}: " if r.get("why") else ""
    dice = r["dice"] if r["dice"] != "(total only)" else "total only"
    if r.get("amended_from"):
        dice += f" (amended from {r['amended_from']}" + (f": {_one_line(r['reason'])}" if r.get("reason") else "") + ")"
    parts = [r["expr"]]
    if r.get("mods"):
        parts.append(r["mods"])
    parts.append(dice)
    text = " ".join(parts)
    several = r["dice"].count("[") > 1 or r["dice"] == "(total only)"
    if (several or (r.get("mods") and not r.get("target"))) and not str(r["outcome"]).startswith(f"{r['total']},"):
        text += f" = {r['total']}"
    if r.get("target"):
        text += f" vs {r['target']}"
    outcome = r["outcome"] if r["outcome"] else str(r["total"])
    text += f" -> {_one_line(outcome)}"
    if r.get("natural"):
        text += f", {r['natural']}"
    return f"d: {head}{text} ({r['source']})"


def choice_line(request: object, event: dict) -> str | None:
    """``@ <what the player chose>``, or None where the answer is no choice (a roll, a secret number)."""
    v = event.get("v") or {}
    if isinstance(request, Choice):
        label = next((o.label for o in request.options if o.value == v.get("choice")), str(v.get("choice")))
        label = _one_line(label)
        return f"@ {label}" if len(label.split()) >= 3 else f"@ {_asked(request.prompt)} {label}"
    if isinstance(request, Number) and not request.secret:
        return f"@ {_asked(request.prompt)} {v.get('n')}"
    if isinstance(request, Text):
        return f"@ {_asked(request.prompt)} {_one_line(v.get('text', ''))}"
    return None


def _asked(prompt: str) -> str:
    """A prompt before its answer: ``Fight with which attribute?`` or ``Hit points:``."""
    prompt = _one_line(prompt)
    return prompt if prompt.endswith(("?", ":")) else prompt + ":"


def _meta_prefixes() -> tuple[str, ...]:
    """How the log's lines about the session itself begin, in English and in the language shown."""
    from companion.i18n import _
    from companion.session.fold import DICE_SWITCHED, GAME_DATA_ENTERED, GAME_DATA_KEPT, ROLL_AMENDED

    messages = (DICE_SWITCHED, ROLL_AMENDED, GAME_DATA_KEPT, GAME_DATA_ENTERED)
    return tuple({text.split("{")[0].split(" (")[0] for m in messages for text in (m, _(m))})


def _entry(e: Entry) -> list[str]:
    kind = e["k"]
    if kind == "roll":
        return [roll_line(e["r"])]
    if kind == "note":
        return [line.rstrip() for line in str(e.get("t", "")).splitlines() if line.strip()]
    text = _one_line(e.get("t", ""))
    if not text:
        return []
    if text.startswith(_meta_prefixes()):
        return [f"(note: {text})"]
    return [f"=> {text}"]


def _header(source: Source, scenes: int) -> list[str]:
    meta, state = source.meta, source.state
    fields = {
        "title": f"{source.title}: {meta.name}",
        "ruleset": source.title,
        "genre": "dungeon crawl",
        "pcs": source.hero or "",
        "start_date": (meta.created or "")[:10],
        "last_update": source.date,
        "seed": meta.seed,
        "variants": ", ".join(meta.variants),
        "tools": "companion",
    }
    lines = ["---", *(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in fields.items()), "---", ""]
    result = state.finished or "in play"
    scene_text = f" | Scenes: S1-S{scenes}" if scenes else ""
    lines += ["## Session 1", f"*Date: {source.date}{scene_text} | Result: {_one_line(result)}*"]
    return lines


def _tags(source: Source) -> list[str]:
    """The heroes and monsters as Lonelog tags, the way the sheet keeps them."""
    from companion.export.replay import figures

    t = source.state.trackers
    out = []
    pc = []
    for name, c in t.counters.items():
        label = name.upper() if len(name) <= 3 else name.capitalize()
        pc.append(f"{label} {c.value}/{c.max}" if c.max is not None else f"{label} {c.value}")
    if "xp" in t.counters:
        pc.append(f"Level {t.level}")
    pc += [f"{n} x{k}" for n, k in t.items.items() if k]
    if pc:
        out.append(f"[PC:{_one_line(source.hero or 'Hero')}|" + "|".join(pc) + "]")
    for tally in t.tallies.values():
        state = "slain" if tally.slain else f"{tally.left} of {tally.max_hits} hits left"
        out.append(f"[{'N' if tally.monster else 'PC'}:{_one_line(tally.name)}|{state}]")
    for name, health, most, level in figures(source.state.game):
        shown = f"health {health}/{most}" if most is not None else f"health {health}"
        out.append(f"[N:{_one_line(name)}|{shown}" + (f"|level {level}" if level is not None else "") + "]")
    return out


def render(source: Source, replay: Replay) -> str:
    """The whole session in Lonelog notation."""
    body: list[str] = []
    scenes = 0
    open_line: Entry | None = None

    def close() -> None:
        nonlocal open_line
        if open_line is not None:
            body.append(f"=> {_one_line(open_line.get('t', ''))}")
            open_line = None

    lines_by_key: dict[str, Entry] = {}
    # A choice is written just before what it led to, after the room or round it ended is closed.
    waiting: list[str] = []

    def flush() -> None:
        body.extend(waiting)
        waiting.clear()

    for step in replay.steps:
        if step.event.get("t") == "answer":
            choice = choice_line(step.request, step.event)
            if choice:
                waiting.append(choice)
        for e in step.entries:
            kind = e["k"]
            if kind == "heading":
                close()
                scenes += 1
                body.extend(["", f"### S{scenes} {_one_line(e.get('t', ''))}"])
                flush()
                continue
            if kind == "line" and str(e.get("key", "")).startswith("section-"):
                close()  # a gamebook's section: a scene of its own (§213 — what was chosen there)
                scenes += 1
                body.extend(["", f"### S{scenes} {_one_line(e.get('t', ''))}"])
                flush()
                continue
            if kind == "line":
                close()
                flush()
                lines_by_key[e["key"]] = e
                open_line = e
                continue
            parent = e.get("p")
            if parent is not None and parent in lines_by_key and lines_by_key[parent] is not open_line:
                close()
                open_line = lines_by_key[parent]
            flush()
            body.extend(_entry(e))
    close()
    flush()
    out = _header(source, scenes)
    if body and body[0] != "":
        out.append("")
    out += body
    tags = _tags(source)
    if tags:
        out += ["", *tags]
    return "\n".join(out).rstrip() + "\n"
