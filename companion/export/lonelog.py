"""A session in Lonelog v1.6 (Roberto Bisceglie's notation for solo play logs), with its add-ons.

The mapping (docs/log-format.md, "Lonelog"), in the spec's own symbols:

- a YAML campaign header, the campaign title as ``#``, ``## Session 1`` with the date and result;
- ``### S<n> *<floor or area>*`` for each heading of the log (a scene per floor or area) and for each
  section of a gamebook read (``### S3 *§213 — took the left stair*``), and the notation of each
  scene in a code fence, as the spec asks of a digital log;
- ``@ <choice>`` for each choice the player made in guided play (and each number or name typed);
- ``d: <why>: <expr> <modifiers> <dice> = <total> vs <target> -> <outcome> (<source>)`` for each roll,
  the source ``physical`` or ``virtual, seed N``; ``tbl: <table> <dice> = <n> -> <row>`` for a roll on a
  table (a table pack's or the game's own);
- ``=> <what it caused>`` for what the game recorded after it (a hit, HP lost, a room's outcome: a
  room or round line is written when play leaves it, with its final text);
- the dungeon add-on: ``[R:ID|status|description]`` when a room is met or changes, and a
  ``[DUNGEON STATUS]`` block at the end; the resource add-on: ``[Inv:Item|3→2]``, ``[Wealth:Gold+15]``,
  ``[PC:Hero|HP-2|HP 6/10]`` as they change, and a ``[RESOURCES]`` block at the end; the combat
  add-on: ``[COMBAT]`` ... ``[/COMBAT]`` around each fight, ``[F:Name|HP 6]`` for the foes it opens with
  and as they are hurt, ``Rd1``, ``Rd2`` for its rounds (companion/export/sheet.py);
- notes exactly as the player typed them (so a note written in Lonelog passes through unchanged);
- ``[N:...]`` tags for the monsters at the end, ``(note: ...)`` for companion's own remarks (dice
  mode switched, rolls amended, game data).
"""

from __future__ import annotations

import json

from companion.engine.requests import Choice, Number, Text
from companion.export import sheet as tags
from companion.export.replay import Replay, Step
from companion.export.source import Source
from companion.i18n import N_
from companion.log.model import Entry

#: How a lonelog line may start (besides a header, a blank line and the player's own notes).
SYMBOLS = ("@ ", "? ", "d: ", "tbl: ", "-> ", "=> ", "[", "(note: ", "Rd")
FENCE = "```"


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _source(r: dict, seed: int | None) -> str:
    """``physical``, ``virtual, seed 17``: in the session's language (``настоящие``, ``виртуальные, зерно 17``)."""
    from companion.i18n import _, pgettext

    if r["source"] == "virtual" and seed is not None:
        return pgettext("lonelog", "virtual, seed {seed}").format(seed=seed)
    return _(r["source"])


def table_line(r: dict, seed: int | None = None) -> str:
    """``tbl: Forest Encounter [5] = 5 -> Traveler on the road (physical)``: a roll on a table, with its row."""
    table = r["expr"][3:].strip()
    head = f"{_one_line(r['why'])}: " if r.get("why") and r["why"] != table else ""
    row = str(r["outcome"])
    total = str(r["total"])
    if row.startswith(total + ": "):
        row = row[len(total) + 2 :]
    return f"tbl: {head}{_one_line(table)} {_one_line(r['dice'])} = {total} -> {_one_line(row)} ({_source(r, seed)})"


def roll_line(r: dict, seed: int | None = None) -> str:
    """``d: why: DC +1 STR [4] = 5 vs 5+ -> pass (physical)``; a table's roll as ``tbl:``."""
    if str(r["expr"]).startswith("DR ") and len(str(r["expr"]).split()) > 1 and not r.get("target"):
        return table_line(r, seed)
    head = f"{_one_line(r['why'])}: " if r.get("why") else ""
    from companion.i18n import _, pgettext

    dice = r["dice"] if r["dice"] != "(total only)" else _("total only")
    if r.get("amended_from"):
        reason = f": {_one_line(r['reason'])}" if r.get("reason") else ""
        dice += pgettext("lonelog", " (amended from {dice}{reason})").format(dice=r["amended_from"], reason=reason)
    parts = [r["expr"]]
    if r.get("mods"):
        parts.append(r["mods"])
    parts.append(dice)
    text = " ".join(parts)
    several = r["dice"].count("[") > 1 or r["dice"] == "(total only)"
    if (several or (r.get("mods") and not r.get("target"))) and not str(r["outcome"]).startswith(f"{r['total']},"):
        text += f" = {r['total']}"
    if r.get("target"):
        text += pgettext("lonelog", " vs {target}").format(target=r["target"])
    outcome = r["outcome"] if r["outcome"] else str(r["total"])
    text += f" -> {_one_line(outcome)}"
    if r.get("natural"):
        text += f", {r['natural']}"
    return f"d: {head}{text} ({_source(r, seed)})"


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


def _entry(e: Entry, seed: int | None = None) -> list[str]:
    kind = e["k"]
    if kind == "roll":
        return [roll_line(e["r"], seed)]
    if kind == "note":
        return [line.rstrip() for line in str(e.get("t", "")).splitlines() if line.strip()]
    text = _one_line(e.get("t", ""))
    if not text:
        return []
    if text.startswith(_meta_prefixes()):
        from companion.i18n import pgettext

        return [pgettext("lonelog", "(note: {text})").format(text=text)]
    return [f"=> {text}"]


#: The header's keys (Lonelog's campaign header): as they are in English, in the session's language else.
HEADER_KEYS = (
    N_("title"), N_("ruleset"), N_("genre"), N_("pcs"), N_("start_date"), N_("last_update"), N_("seed"),
    N_("variants"), N_("tools"),
)  # fmt: skip


def _header(source: Source, scenes: int) -> list[str]:
    from companion.i18n import _, pgettext

    meta, state = source.meta, source.state
    title = _(source.title)
    values = (
        f"{title}: {meta.name}",
        title,
        pgettext("lonelog", "dungeon crawl"),
        source.hero or "",
        (meta.created or "")[:10],
        source.date,
        meta.seed if state.seed_shown else _("sealed, SHA-256 {hash}").format(hash=meta.sealed),
        ", ".join(meta.variants),
        "companion",
    )
    fields = {_(key): value for key, value in zip(HEADER_KEYS, values, strict=True)}
    lines = ["---", *(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in fields.items()), "---", ""]
    lines += [f"# {_one_line(title)}: {_one_line(meta.name)}", ""]
    result = _(state.finished) if state.finished else _("in play")
    scene_text = pgettext("lonelog", " | Scenes: S1-S{n}").format(n=scenes) if scenes else ""
    lines += [
        pgettext("lonelog", "## Session 1"),
        pgettext("lonelog", "*Date: {date}{scenes} | Result: {result}*").format(
            date=source.date, scenes=scene_text, result=_one_line(result)
        ),
    ]
    return lines


def _tags(source: Source) -> list[str]:
    """The monsters (and heroes by their hits) as Lonelog tags, the way the sheet keeps them."""
    from companion.export.replay import figures
    from companion.i18n import pgettext

    t = source.state.trackers
    out = []
    for tally in t.tallies.values():
        state = (
            pgettext("lonelog", "slain")
            if tally.slain
            else pgettext("lonelog", "{left} of {most} hits left").format(left=tally.left, most=tally.max_hits)
        )
        out.append(f"[{'N' if tally.monster else 'PC'}:{tags.one_line(tally.name)}|{state}]")
    for name, health, most, level in figures(source.state.game):
        shown = pgettext("lonelog", "health {health}").format(health=f"{health}/{most}" if most is not None else health)
        if level is not None:
            shown += "|" + pgettext("lonelog", "level {n}").format(n=level)
        out.append(f"[N:{tags.one_line(name)}|{shown}]")
    return out


class _Writer:
    """The body as it is written: scenes, each a list of notation lines (fenced when written out)."""

    def __init__(self, source: Source, replay: Replay) -> None:
        self.seed = source.meta.seed if source.state.seed_shown else None
        self.hero = source.state.hero or source.meta.hero or source.hero or "Hero"
        #: (scene heading or None before the first one, its lines).
        self.scenes: list[tuple[str | None, list[str]]] = [(None, [])]
        self.open_line: Entry | None = None
        self.lines_by_key: dict[str, Entry] = {}
        # A choice is written just before what it led to, after the room or round it ended is closed.
        self.waiting: list[str] = []
        self.sheet = replay.start
        self.fighting = False
        self.rounds = 0
        self.round: int | None = None
        #: A fight begins with this step: [COMBAT] is written before its first line after a heading.
        self.opening: Step | None = None

    @property
    def body(self) -> list[str]:
        return self.scenes[-1][1]

    def close(self) -> None:
        if self.open_line is not None:
            self.body.append(f"=> {_one_line(self.open_line.get('t', ''))}")
            self.open_line = None

    def flush(self) -> None:
        self.body.extend(self.waiting)
        self.waiting.clear()

    def step(self, step: Step) -> None:
        if step.event.get("t") == "answer":
            choice = choice_line(step.request, step.event)
            if choice:
                self.waiting.append(choice)
        # The round this event was played in: the one under way before it (the event that ends a
        # round moves the count on), or for a fight's first event, the fight's own.
        played_in = self.sheet.round if self.fighting else step.sheet.round
        was_fighting = self.fighting
        if step.fight and not self.fighting:
            self.opening = step
        elif self.fighting and self._new_round(step, played_in):  # the event that ends a fight is in it
            self.flush()
            self.rounds += 1
            self.body.append(f"Rd{self.rounds}")
        for e in step.entries:
            self.entry(e)
        self._open()
        self.flush()
        shown = tags.changes(self.sheet, step.sheet, self.hero)
        if was_fighting and step.fight:  # a foe that joins the fight
            shown += tags.foe_tags(step.sheet, self.sheet, new_only=True)
        self.body.extend(shown)
        if self.fighting and not step.fight:
            self.body.append("[/COMBAT]")
            self.fighting = False
        self.sheet = step.sheet

    def _open(self) -> None:
        """``[COMBAT]`` and the foes it opens with, once the scene it is fought in has begun."""
        step, self.opening = self.opening, None
        if step is None:
            return
        self.flush()
        self.body.append("[COMBAT]")
        self.body.extend(tags.foe_tags(step.sheet))
        self.fighting, self.rounds, self.round = True, 0, step.sheet.round
        if self._new_round(step, step.sheet.round):
            self.rounds += 1
            self.body.append(f"Rd{self.rounds}")

    def _new_round(self, step: Step, played_in: int | None) -> bool:
        """A round begins: a roll in a round the game counts as new, or (a game that counts none) a roll."""
        rolled = any(e["k"] == "roll" for e in step.entries)
        if played_in is None:
            return rolled
        if not rolled or (self.rounds and played_in == self.round):
            return False
        self.round = played_in
        return True

    def entry(self, e: Entry) -> None:
        kind = e["k"]
        section = kind == "line" and str(e.get("key", "")).startswith("section-")  # a gamebook's: a scene
        if kind != "heading" and not section:
            self._open()
        if kind == "heading" or section:
            self.close()
            if self.fighting:  # a scene ends the combat block (the spec: the next scene marker ends it)
                self.body.append("[/COMBAT]")
                self.fighting = False
            self.scenes.append((_one_line(e.get("t", "")), []))
            self.flush()
            return
        if kind == "line":
            self.close()
            self.flush()
            self.lines_by_key[e["key"]] = e
            self.open_line = e
            return
        parent = e.get("p")
        if parent is not None and parent in self.lines_by_key and self.lines_by_key[parent] is not self.open_line:
            self.close()
            self.open_line = self.lines_by_key[parent]
        self.flush()
        self.body.extend(_entry(e, self.seed))

    def finish(self, source: Source, last: tags.Sheet) -> None:
        self.close()
        self.flush()
        if self.fighting:
            self.body.append("[/COMBAT]")
        end = tags.dungeon_status(last) + tags.resources(last, self.hero) + _tags(source)
        if end:
            if self.body:
                self.body.append("")
            self.body.extend(end)


def render(source: Source, replay: Replay) -> str:
    """The whole session in Lonelog notation."""
    w = _Writer(source, replay)
    for step in replay.steps:
        w.step(step)
    w.finish(source, replay.steps[-1].sheet if replay.steps else replay.start)
    scenes = [s for s in w.scenes if s[0] is not None]
    out = _header(source, len(scenes))
    n = 0
    for heading, lines in w.scenes:
        if heading is not None:
            n += 1
            out += ["", f"### S{n} *{heading}*"]
        if lines:
            out += ["", FENCE, *lines, FENCE]
    return "\n".join(out).rstrip() + "\n"
