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
import re

from companion.engine.requests import Choice, Number, Text
from companion.export import sheet as tags
from companion.export.replay import Replay, Step
from companion.export.source import Source
from companion.i18n import N_, pgettext
from companion.log.model import Entry

#: How a lonelog line may start (besides a header, a blank line and the player's own notes).
SYMBOLS = ("@ ", "? ", "d: ", "tbl: ", "-> ", "=> ", "[", "(note: ", "Rd")
FENCE = "```"


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


#: The widest a roll's line may be: a phone's code block (the detail goes on the line after it).
WIDTH = 80
#: The arrows the games write in their own words: Lonelog has one, ``->`` (and the resource add-on's
#: ``→`` inside its tags, which is left alone).
_ARROWS = ("⟶", "→")


def one_arrow(text: str) -> str:
    """``text`` with every arrow outside a tag written as Lonelog's ``->``."""
    out, depth = [], 0
    i = 0
    while i < len(text):
        ch = text[i]
        depth += ch == "["
        depth -= ch == "]" and depth > 0
        if ch in _ARROWS and not depth:
            out.append("->")
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def _source(r: dict, seed: int | None) -> str:
    """``physical``, ``virtual, seed 17``: in the session's language (``настоящие``, ``виртуальные, зерно 17``)."""
    from companion.i18n import _, pgettext

    if r["source"] == "virtual" and seed is not None:
        return pgettext("lonelog", "virtual, seed {seed}").format(seed=seed)
    return _(r["source"])


_MODIFIER = re.compile(r"(?:^|\s)([+−-])(\d+)\b")


def _summed(mods: str) -> str:
    """``+1 Level 1 +2 Battle Cry −1 penalty`` as one number, ``+2`` (the parts go in the detail)."""
    total = sum(int(n) * (-1 if sign in "−-" else 1) for sign, n in _MODIFIER.findall(mods))
    return f"{total:+d}".replace("-", "−")


def _fit(
    symbol: str,
    why: str,
    source: str,
    expr: str,
    rest: str,
    outcome: str,
    mods: str = "",
    tail: str = "",
    aside: str = "",
) -> list[str]:
    """A roll as Lonelog writes it: ``d: why: EXPR MODS REST ASIDE -> OUTCOME TAIL (source)`` on one
    line where it fits ``WIDTH``; else the roll on its line and the detail (why, source, and an
    ``aside`` such as an amendment) on the next, as a note; where the roll alone is still too wide, its
    modifiers summed (each one in the detail), then an outcome's words after its first colon in the
    detail too. Nothing is lost: the detail holds it."""
    why = _one_line(why)

    def roll(mod: str, said: str, more: str = "") -> str:
        return " ".join(p for p in (expr, mod, rest, more) if p) + f" -> {said}{tail}"

    whole = roll(mods, outcome, aside)
    if len(f"{symbol} {why}: {whole} ({source})" if why else f"{symbol} {whole} ({source})") <= WIDTH:
        return [f"{symbol} {why}: {whole} ({source})" if why else f"{symbol} {whole} ({source})"]
    detail = [p for p in (aside.strip("()"), why) if p]
    line = f"{symbol} {roll(mods, outcome)}"
    if len(line) > WIDTH and mods:
        detail.insert(0, mods)
        mods = _summed(mods)
        line = f"{symbol} {roll(mods, outcome)}"
    head, colon, more = outcome.partition(": ")
    if len(line) > WIDTH and colon:
        detail.insert(0, more)
        line = f"{symbol} {roll(mods, head)}"
    from companion.i18n import pgettext

    return [line, pgettext("lonelog", "(note: {text})").format(text=" · ".join([*detail, source]))]


def table_lines(r: dict, seed: int | None = None) -> list[str]:
    """``tbl: Forest Encounter [5] = 5 -> Traveler on the road (physical)``: a roll on a table, with its row."""
    table = r["expr"][3:].strip()
    why = r["why"] if r.get("why") and r["why"] != table else ""
    row = str(r["outcome"])
    total = str(r["total"])
    if row.startswith(total + ": "):
        row = row[len(total) + 2 :]
    rest = f"{_one_line(r['dice'])} = {total}"
    return _fit("tbl:", why, _source(r, seed), _one_line(table), rest, one_arrow(_one_line(row)))


def table_line(r: dict, seed: int | None = None) -> str:
    return "\n".join(table_lines(r, seed))


def draw_lines(r: dict, seed: int | None = None) -> list[str]:
    """A chit or a card drawn (the cards add-on: ``d: draw=8 of 9 -> dragon chit 4``), not a die."""
    from companion.log.markdown import draw_place

    place = draw_place(r)
    drawn = _one_line(r["drew"]) if r.get("drew") else place
    from companion.i18n import pgettext

    amended = ""
    if r.get("amended_from"):
        amended = pgettext("lonelog", " (amended from {dice}{reason})").format(dice=r["amended_from"], reason="")
    return _fit("d:", r.get("why", ""), _source(r, seed), f"draw={place}", "", one_arrow(drawn), tail=amended)


def roll_lines(r: dict, seed: int | None = None) -> list[str]:
    """``d: why: DC +1 STR [4] = 5 vs 5+ -> pass (physical)`` (two lines where one does not fit): a
    table's roll as ``tbl:``, a draw as ``d: draw=...``. A game's outcome that reads its dice first and
    its verdict after an arrow (the Dark Tower's ``1, ♥1 ★1 → fail``) is the roll's result ``=`` and
    its outcome ``->``: one arrow."""
    if r.get("draw"):
        return draw_lines(r, seed)
    if str(r["expr"]).startswith("DR ") and len(str(r["expr"]).split()) > 1 and not r.get("target"):
        return table_lines(r, seed)
    from companion.i18n import _, pgettext

    dice = r["dice"] if r["dice"] != "(total only)" else _("total only")
    amended = ""
    if r.get("amended_from"):
        reason = f": {_one_line(r['reason'])}" if r.get("reason") else ""
        amended = pgettext("lonelog", " (amended from {dice}{reason})").format(dice=r["amended_from"], reason=reason)
        amended = amended.strip()
    text = dice
    outcome = _one_line(r["outcome"] if r["outcome"] else str(r["total"]))
    read, arrow, verdict = next(
        (outcome.partition(f" {a} ") for a in _ARROWS if f" {a} " in outcome), (outcome, "", "")
    )
    several = r["dice"].count("[") > 1 or r["dice"] == "(total only)"
    if arrow:  # the game's reading of its dice, then its verdict
        text += f" = {read}"
    elif (several or (r.get("mods") and not r.get("target"))) and not outcome.startswith(f"{r['total']},"):
        text += f" = {r['total']}"
    if r.get("target"):
        text += pgettext("lonelog", " vs {target}").format(target=r["target"])
    natural = f", {r['natural']}" if r.get("natural") else ""
    said = one_arrow(verdict if arrow else outcome)
    why = r.get("why", "")
    return _fit("d:", why, _source(r, seed), r["expr"], text, said, r.get("mods", ""), natural, aside=amended)


def roll_line(r: dict, seed: int | None = None) -> str:
    """:func:`roll_lines` joined (one line where it fits)."""
    return "\n".join(roll_lines(r, seed))


def choice_line(request: object, event: dict) -> str | None:
    """``@ <what the player chose>``, or None where the answer is no choice (a roll, a secret number)."""
    v = event.get("v") or {}
    if isinstance(request, Choice):
        label = next((o.label for o in request.options if o.value == v.get("choice")), str(v.get("choice")))
        label = one_arrow(_one_line(label))
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
        return roll_lines(e["r"], seed)
    if kind == "note":
        return [line.rstrip() for line in str(e.get("t", "")).splitlines() if line.strip()]
    text = one_arrow(_one_line(e.get("t", "")))
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
    """The heroes (``[PC:]``) and the monsters (``[N:]``) at the end, the way the sheet keeps them."""
    from companion.export.replay import cast
    from companion.i18n import _, pgettext

    t = source.state.trackers
    out = []
    for tally in t.tallies.values():
        state = (
            pgettext("lonelog", "slain")
            if tally.slain
            else pgettext("lonelog", "{left} of {most} hits left").format(left=tally.left, most=tally.max_hits)
        )
        out.append(f"[{'N' if tally.monster else 'PC'}:{tags.one_line(tally.name)}|{state}]")
    for name, health, most, level, hero, status in cast(source.state.game):
        fields = [f"{'PC' if hero else 'N'}:{tags.one_line(name)}"]
        shown = f"{health}/{most}" if most is not None else str(health)
        fields.append(pgettext("lonelog", "HP {health}").format(health=shown))
        if level is not None:
            fields.append(pgettext("lonelog", "level {n}").format(n=level))
        if status:
            fields.append(tags.one_line(_(status)))
        out.append("[" + "|".join(fields) + "]")
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
        #: The session's rooms are on several floors: every room's ID is ``F2.3``, from the first.
        self.floors = len({r.floor for r in source.state.trackers.rooms} | {1}) > 1

    @property
    def body(self) -> list[str]:
        return self.scenes[-1][1]

    def close(self) -> None:
        if self.open_line is not None:
            self.body.append(f"=> {one_arrow(_one_line(self.open_line.get('t', '')))}")
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
        shown = tags.changes(self.sheet, step.sheet, self.hero, self.floors)
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
            if len(self.scenes) == 1:
                self.set_up()
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

    def set_up(self) -> None:
        """The lines before the first scene are the game's setup: not play, so no ``@`` actions; what it
        said stays as notes, its rolls as rolls, and the table it set up is one block of tags, a
        ``[PC:]`` for each hero on the game's board."""
        self.flush()
        lines = self.scenes[0][1]
        if not lines:
            return
        kept = []
        for line in lines:
            if line.startswith("@ "):
                continue
            kept.append(pgettext("lonelog", "(note: {text})").format(text=line[3:]) if line.startswith("=> ") else line)
        for name, (health, extra) in self.sheet.party.items():
            fields = [f"PC:{tags.one_line(name)}"]
            if health:
                shown = health.lstrip("♥")
                hp = pgettext("lonelog", "HP {health}").format(health=tags.one_line(shown))
                fields.append(hp if shown[:1].isdigit() else tags.one_line(shown))
            if extra:
                fields.append(tags.one_line(extra))
            kept.append("[" + "|".join(fields) + "]")
        lines[:] = kept

    def finish(self, source: Source, last: tags.Sheet) -> None:
        self.close()
        self.flush()
        if self.fighting:
            self.body.append("[/COMBAT]")
        end = tags.dungeon_status(last, self.floors) + tags.resources(last, self.hero) + _tags(source)
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
