"""Every action in the player's words: the one label undo, redo, history and the page say.

:func:`label` reads one event with the table as it stood before it (``state``) and, for an answer to a
guided step, the step it answered (``request``): what it did, to whom, the roll and its odds where it
had them. The shared actions (a roll, a note, a tracker, a section, a table pack's roll or fight) have
their words here; a game's own one-shot events and the guided steps it words itself come from the
game's :class:`companion.contract.words.Words`; any other answer is said by the step's own question and
the option chosen, which the game already wrote in the player's words. No request key, option value
or event type is ever shown: an event nobody gave words to reads "a step of the game".

Every message is a catalogue message with named placeholders (docs/translations.md), made in the
language shown when it is asked: a label is words, never stored in the events.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError
from companion.i18n import N_, _, ngettext, owned, quote

if TYPE_CHECKING:
    from companion.engine.requests import Request
    from companion.session.state import State

#: How much of a note or a typed answer a label quotes.
QUOTED = 60
#: How much of a step's question, or of the option chosen, a label keeps.
LONG = 90


@dataclass(frozen=True)
class Label:
    """One action in words: what it did (with whom), its dice as rolled, and their odds."""

    what: str
    #: The roll as it came out (``1d6 +3  [3] = 6  → fail · virtual``), or "".
    roll: str = ""
    #: The chance it had (``1/2 (50.0%)``), where a roll had a target, or "".
    odds: str = ""

    def line(self) -> str:
        """The action on one line: ``Aria attacks the Gargoyle: 1d6 +3 [3] → fail · odds 1/2 (50.0%)``."""
        text = self.what
        if self.roll:
            text = _("{what}: {roll}").format(what=text, roll=self.roll)
        if self.odds:
            text = _("{text} · odds {odds}").format(text=text, odds=self.odds)
        return text

    def as_json(self) -> dict[str, Any]:
        return {"words": self.line(), "what": self.what, "roll": self.roll or None, "odds": self.odds or None}

    def seen(self, view: Any) -> Label:
        """The label as ``view`` (the game's one filter, companion.contract.secrets) lets it be read:
        a word that would name a secret the game keeps is withheld."""
        if not getattr(view, "words", None):
            return self
        return Label(view.text(self.what), view.text(self.roll), self.odds)


#: What an action says when nobody gave it words (never its internal name).
A_STEP = N_("a step of the game")


def label(spec: Any, event: dict[str, Any], state: State | None = None, request: Request | None = None) -> Label:
    """``event`` in the player's words (see the module's docstring). ``spec`` is the game's."""
    t = event.get("t")
    if t == "answer":
        return _answer(spec, event, state, request)
    shared = _SHARED.get(str(t))
    if shared is not None and _words(spec).message(event) is None:
        if t == "section" and "back" in event and state is not None:
            return _section_back(event, state)
        try:
            said = shared(event)
        except (KeyError, TypeError, ValueError):  # a damaged or older event: said by its kind alone
            return Label(_(A_STEP))
        if event.get("correct"):  # --correct: the sheet fixed, not a move in the game
            said = Label(_("corrected: {what}").format(what=said.what), said.roll, said.odds)
        return said
    return _game_event(spec, event, state)


def keep(said: dict[int, tuple[str, str, Label]] | None, spec: Any, event: dict[str, Any], state: State,
         request: Request | None, lang: str | None = None) -> None:  # fmt: skip
    """Keep ``event`` in ``said`` (a fold's words, by id: its fingerprint, the language, its label), in
    ``lang`` when given (a session's first answer may be the choice of its language: said in the language
    it chose, as every later action is), else in the language shown now."""
    from companion import i18n
    from companion.store.journal import fingerprint

    if said is not None and "id" in event:
        with i18n.using(lang or i18n.language(), state.meta.game):
            said[int(event["id"])] = (fingerprint(event), i18n.language(), label(spec, event, state, request))


# ---- the dice ------------------------------------------------------------------------------------


def roll_text(expr_text: str | None, payload: dict[str, Any], mod: int = 0, parts: tuple = ()) -> tuple[str, str]:
    """A payload's roll as shown (without its reason) and its odds ("" where it had no target)."""
    from companion.dice.expr import parse
    from companion.dice.render import fraction, plain
    from companion.dice.roll import evaluate, evaluate_total

    faces = payload.get("faces")
    try:
        if not expr_text:
            raise CompanionError("no dice named")  # i18n: as is (never shown: the faces are)
        expr = parse(expr_text)
        src = str(payload.get("src", "virtual"))
        if faces is not None:
            roll = evaluate(expr, tuple(faces), mod, source=src, parts=parts)
        else:
            roll = evaluate_total(expr, int(payload["total"]), mod, source=src, parts=parts)
    except (CompanionError, ValueError, TypeError, KeyError):
        if isinstance(faces, list):
            return " ".join(f"[{f}]" for f in faces), ""
        return (f"={payload['total']}" if "total" in payload else ""), ""
    from companion.dice.odds import odds

    try:
        chance = odds(expr, roll.modifier - expr.const).success
    except CompanionError:
        chance = None
    return plain(roll), (fraction(chance) if chance is not None else "")


def _payloads_text(event: dict[str, Any]) -> str:
    """The dice a game's own event rolled, one after another."""
    shown = []
    roll = event.get("roll")
    for payload in [roll] if isinstance(roll, dict) else []:
        shown.append(roll_text(payload.get("expr"), payload, int(payload.get("mod", 0)))[0])
    for payload in event.get("rolls", ()) or ():
        if isinstance(payload, dict):
            shown.append(roll_text(payload.get("expr"), payload, int(payload.get("mod", 0)))[0])
    return "; ".join(s for s in shown if s)


# ---- the shared actions --------------------------------------------------------------------------


def _signed(n: Any) -> str:
    return f"{int(n):+d}".replace("-", "−")


def _short(text: Any, most: int = LONG) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= most else text[: most - 1].rstrip() + "…"


def _quoted(text: Any) -> str:
    return quote(_short(text, QUOTED))


def _roll(event: dict[str, Any]) -> Label:
    parts = tuple((str(a), int(b)) for a, b in event.get("parts", []))
    roll, chance = roll_text(event.get("expr"), event, int(event.get("mod", 0)), parts)
    why = str(event.get("why") or "").strip()
    what = why or _("a roll")
    return Label(what, roll, chance)


def _note(event: dict[str, Any]) -> Label:
    return Label(_("a note: {text}").format(text=_quoted(event.get("text", ""))))


def _mode(event: dict[str, Any]) -> Label:
    from companion.dice.render import source_text

    return Label(_("the dice switched to {dice}").format(dice=source_text(str(event.get("dice", "")))))


def _amend(event: dict[str, Any]) -> Label:
    roll = event.get("roll") or {}
    faces = " ".join(f"[{f}]" for f in roll.get("faces", ())) or f"={roll.get('total', '?')}"
    what = _("roll #{n} corrected to {faces}").format(n=event.get("target"), faces=faces)
    if event.get("reason"):
        what = _("{what} ({why})").format(what=what, why=_quoted(event["reason"]))
    return Label(what)


def _tally(event: dict[str, Any]) -> Label:
    n, name = int(event.get("n", 1)), str(event.get("name", ""))
    words = {
        "hit": ngettext("{n} hit on {name}", "{n} hits on {name}", n),
        "heal": ngettext("{n} hit taken off {name}", "{n} hits taken off {name}", n),
        "add": _("a tally for {name}"),
        "remove": _("{name}'s tally removed"),
    }.get(str(event.get("op")), _("{name}'s tally changed"))
    return Label(owned(words.format(n=n, name=name), name))


def _counter(event: dict[str, Any]) -> Label:
    name = str(event.get("name", ""))
    shown = event.get("label") or (name.upper() if len(name) <= 3 else name.capitalize())
    parts = []
    if "max" in event:
        parts.append(_("max {n}").format(n=event["max"]))
    if event.get("op") == "set":
        parts.append(f"={event['value']}")
    elif event.get("op") == "add":
        parts.append(_signed(event["value"]))
    what = f"{shown} " + ", ".join(parts) if parts else _("{name} changed").format(name=shown)
    if event.get("why"):
        what = _("{what} ({why})").format(what=what, why=event["why"])
    return Label(what)


def _xp(event: dict[str, Any]) -> Label:
    return Label(f"XP {_signed(event.get('n', 0))}")


def _item(event: dict[str, Any]) -> Label:
    return Label(f"{event.get('name', '')} {_signed(event.get('delta', 0))}")


def _room(event: dict[str, Any]) -> Label:
    what = _("room {n}").format(n=event.get("number"))
    if event.get("content"):
        what = _("{what}: {content}").format(what=what, content=_quoted(event["content"]))
    if event.get("state"):
        what = _("{what} ({state})").format(what=what, state=event["state"])
    return Label(what)


def _floor(event: dict[str, Any]) -> Label:
    return Label(_("on to floor {n}").format(n=event.get("n")))


def _talisman(event: dict[str, Any]) -> Label:
    what = _("the search for the Talisman after a kill")
    if "faces" not in event and "total" not in event:
        return Label(_("a kill: the last monster holds the Talisman"))
    roll, chance = roll_text("talisman", event)
    return Label(what, roll, chance)


def _hero(event: dict[str, Any]) -> Label:
    return Label(_("the hero named {name}").format(name=event.get("name", "")))


def _gamedata(event: dict[str, Any]) -> Label:
    if event.get("source") == "catalogue":
        return Label(_("the numbers kept from an earlier game"))
    values = event.get("values") or {}
    shown = ", ".join(f"{k} = {v}" for k, v in values.items() if not isinstance(v, (dict, list)))
    if not shown:
        return Label(_("numbers entered from your book"))
    return Label(_("numbers entered from your book: {values}").format(values=shown))


def _reveal(event: dict[str, Any]) -> Label:
    if event.get("how") == "end":
        return Label(_("the sealed dice's seed revealed at the game's end: {seed}").format(seed=event.get("seed")))
    return Label(_("the sealed dice's seed revealed: {seed}").format(seed=event.get("seed")))


def _end(event: dict[str, Any]) -> Label:
    return Label(_("the end of the game: {result}").format(result=_(str(event.get("result", "")))))


def _table(event: dict[str, Any]) -> Label:
    kept = [r for r in event.get("rolls", ()) if not r.get("discarded")]
    first = kept[0] if kept else {}
    if first.get("title"):  # the pack's own words for it: "Swim a flooded passage"
        what = str(first["title"])
    elif event.get("check"):
        what = _("the check {check}").format(check=event["check"])
    else:
        what = _("a roll on the table {table}").format(table=event.get("table", ""))
    if event.get("why"):
        what = _("{what} ({why})").format(what=what, why=event["why"])
    shown = []
    for r in kept:
        dice = " ".join(f"[{f}]" for f in r.get("faces", ())) or (f"={r['total']}" if "total" in r else "")
        shown.append(f"{dice} → {r.get('result', '')}".strip())
    return Label(what, "; ".join(shown))


def _table_reset(event: dict[str, Any]) -> Label:
    names = ", ".join(str(k).rpartition("/")[2] for k in event.get("tables", ()))
    return Label(_("the tables reset: {tables}").format(tables=names))


def _fight(event: dict[str, Any]) -> Label:
    op = event.get("op")
    foe = event.get("foe", "")
    if op == "start":
        return Label(_("a fight begun against {foe}").format(foe=foe))
    rolls = [roll_text(r.get("expr"), r, int(r.get("mod", 0)))[0] for r in event.get("rolls", ())]
    shown = "; ".join(r for r in rolls if r)
    if op == "round":
        return Label(_("a round of the fight"), shown)
    if op == "luck":
        return Label(_("LUCK tested in the fight"), shown)
    if op == "flee":
        return Label(_("a flight from the fight"), shown)
    return Label(_("the fight ended by hand"))


def _section(event: dict[str, Any]) -> Label:
    if "back" in event:
        n = int(event["back"])
        what = ngettext("back {n} section", "back {n} sections", n).format(n=n)
    else:
        what = _("section §{n}").format(n=event.get("n"))
    if event.get("note"):
        what = _("{what}: {note}").format(what=what, note=_quoted(event["note"]))
    return Label(what)


def _section_back(event: dict[str, Any], state: State) -> Label:
    """``section back K`` with where it went: ``back to §1 (2 sections)``."""
    trail = state.trackers.sections.trail
    n = int(event["back"])
    if not 1 <= n < len(trail):
        return _section(event)
    what = ngettext("back to §{to} ({n} section)", "back to §{to} ({n} sections)", n).format(to=trail[-n - 1], n=n)
    if event.get("note"):
        what = _("{what}: {note}").format(what=what, note=_quoted(event["note"]))
    return Label(what)


_SHARED = {
    "roll": _roll,
    "note": _note,
    "mode": _mode,
    "amend": _amend,
    "tally": _tally,
    "counter": _counter,
    "xp": _xp,
    "item": _item,
    "room": _room,
    "floor": _floor,
    "talisman": _talisman,
    "hero": _hero,
    "gamedata": _gamedata,
    "end": _end,
    "table": _table,
    "table_reset": _table_reset,
    "fight": _fight,
    "section": _section,
    "reveal": _reveal,
}

#: The event types every game shares, with their words above (a game's own reducer may replace one).
SHARED_TYPES = frozenset(_SHARED)


# ---- a game's own actions ------------------------------------------------------------------------


def _words(spec: Any) -> Any:
    from companion.contract.words import NONE

    return getattr(spec, "words", None) or NONE


class _Fields(dict):  # type: ignore[type-arg]
    """A message's placeholders: a name no field gives reads as nothing, never as an error."""

    def __missing__(self, key: str) -> str:
        return ""


def fill(message: str, values: dict[str, Any]) -> str:
    """A catalogue message in the language shown, its placeholders from ``values``."""
    from companion.i18n import _formatter

    return " ".join(_formatter().vformat(_(message), (), _Fields(values)).split())


def _event_fields(spec: Any, event: dict[str, Any], state: State | None) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for key, value in event.items():
        if isinstance(value, (str, int)) and not isinstance(value, bool) and key not in ("t", "id", "at"):
            values[key] = value
        elif isinstance(value, dict):
            values.update({k: v for k, v in value.items() if isinstance(v, (str, int)) and k not in values})
    words = _words(spec)
    if words.fields is not None and state is not None:
        with suppress(LookupError, TypeError, ValueError, AttributeError, CompanionError):
            values.update(words.fields(state, event))  # an event the table no longer explains keeps its own
    return values


def _game_event(spec: Any, event: dict[str, Any], state: State | None) -> Label:
    message = _words(spec).message(event)
    what = fill(message, _event_fields(spec, event, state)) if message else _(A_STEP)
    return Label(what or _(A_STEP), _payloads_text(event))


# ---- an answer to a guided step ------------------------------------------------------------------


def _answer(spec: Any, event: dict[str, Any], state: State | None, request: Request | None) -> Label:
    from companion.engine.requests import Choice, Number, RollRequest

    v = event.get("v") or {}
    key = str(event.get("key", ""))
    question, answer, roll, chance = "", "", "", ""
    secret = bool(getattr(request, "secret", False)) or "withheld" in v
    if isinstance(request, RollRequest):
        question = request.why
        if secret:
            answer = _("drawn in secret")
        else:
            roll, chance = roll_text(str(request.expr), v, request.mod, request.parts)
            answer = roll
    elif isinstance(request, Choice):
        question = request.prompt
        chosen = v.get("choice")
        if request.private:
            answer = _("chosen in private")
        else:
            try:
                answer = request.option(chosen).label
            except KeyError:
                answer = _("an option the step no longer offers")
    elif isinstance(request, Number):
        question = request.prompt
        answer = _("given in secret") if secret else str(v.get("n", ""))
    elif request is not None:
        question = getattr(request, "prompt", "")
        answer = _quoted(v.get("text", ""))
    else:  # the step is not known (a save the rules no longer replay): what was given, without its key
        if "faces" in v or "total" in v:
            roll, chance = roll_text(event.get("expr"), v, int(event.get("mod", 0)))
            return Label(_("a roll in guided play"), roll, chance)
        return Label(_("an answer in guided play"))
    message = _words(spec).answer(key)
    values = {**_event_fields(spec, {}, state), "question": _short(question.rstrip(":?. ")), "answer": _short(answer)}
    if message:
        what = fill(message, values)
    elif roll:
        return Label(question.rstrip(": ") or _("a roll in guided play"), roll, chance)
    else:
        what = _("{question} → {answer}").format(question=values["question"], answer=answer)
    return Label(what, roll if message else "", chance)
