"""What undo and redo (and the page's undo button) call a step: a roll, a note, a tracker's change in the
words the player typed; a game's step in the game's own words (its ``data.EVENT_WORDS`` and
``data.ANSWER_WORDS``) in a language other than English («Отменено действие №24: изменение здоровья»)."""

from __future__ import annotations

from typing import Any


def describe_event(event: dict[str, Any], game: str | None = None) -> str:  # undo, redo, the page's undo button
    from companion.i18n import _, language

    t = event.get("t")
    if t == "roll":
        return _("roll {dice}").format(dice=event.get("expr"))
    if t == "note":
        return _("note")
    if t == "table":  # a table pack's roll (docs/tables.md), with every table it led to
        return f"DR {event['table']}" if event.get("table") else f"check {event.get('check')}"
    if t == "table_reset":  # companion tables reset NAME: a unique table's drawn rows put back
        return "tables reset " + ", ".join(k.rpartition("/")[2] for k in event.get("tables", ()))
    words = _tracker_words(event)
    if words:
        return words
    if language() != "en":  # the event's own words are English data: say what kind of step it was
        return _game_words(event, game)
    if t == "answer":
        from companion.cli.answer_words import answer_words

        return answer_words(event)
    return f"{t} {event.get('name') or event.get('op') or ''}".strip()


def _game_words(event: dict[str, Any], game: str | None) -> str:
    """What a game's step was, in the game's own words (its ``data.EVENT_WORDS`` by the command's ``op``,
    ``data.ANSWER_WORDS`` by a guided answer's key), with what was answered when it reads in any language
    (a number, the faces rolled, text typed); a generic phrase for a game that names none."""
    import importlib

    from companion.games import COMMAND_GROUPS, GAMES
    from companion.i18n import _, quote

    t = event.get("t")
    package = GAMES.get(game or "") if t == "answer" else COMMAND_GROUPS.get(str(t), "").partition(".cli")[0]
    data: Any = None
    if package:
        try:
            data = importlib.import_module(package + ".data")
        except ImportError:
            data = None
    if t != "answer":
        words = getattr(data, "EVENT_WORDS", {}).get(event.get("op"))
        return _(words) if words else _("a step")
    answers: dict[str, str] = getattr(data, "ANSWER_WORDS", {})
    key = str(event.get("key", ""))
    found = next(
        (answers[k] for k in sorted(answers, key=len, reverse=True) if key == k or key.startswith(k + ".")), None
    )
    what = _(found) if found else _("an answer")
    v = event.get("v") or {}
    if "faces" in v:
        from companion.dice.faces import DT

        dt = "dt" in str(event.get("expr", ""))  # the Dark Tower's dice: ♥ and ★ as they were rolled
        shown = " ".join(DT.symbol(int(f)) if dt else str(f) for f in v["faces"])
    elif "total" in v:
        shown = f"={v['total']}"
    elif "n" in v:
        shown = str(v["n"])
    elif "text" in v:
        shown = quote(str(v["text"]))
    else:
        return what
    return _("{what}: {answer}").format(what=what, answer=shown)


def _tracker_words(event: dict[str, Any]) -> str | None:
    """A tracker change in the words the player typed it: ``HP −1``, ``2 hits on Orc``, ``rope +1``."""
    from companion.i18n import _, ngettext, owned

    t = event.get("t")
    name = str(event.get("name", ""))

    def signed(n: Any) -> str:
        return f"{int(n):+d}".replace("-", "−")

    if t == "counter":
        label = event.get("label") or (name.upper() if len(name) <= 3 else name.capitalize())
        parts = []
        if "max" in event:
            parts.append(_("max {n}").format(n=event["max"]))
        if event.get("op") == "set":
            parts.append(f"={event['value']}")
        elif event.get("op") == "add":
            parts.append(signed(event["value"]))
        return f"{label} " + ", ".join(parts) if parts else None
    if t == "xp":
        return f"XP {signed(event.get('n', 0))}"
    if t == "item":
        return f"{name} {signed(event.get('delta', 0))}"
    if t == "tally":
        n = int(event.get("n", 1))
        words = {
            "hit": ngettext("{n} hit on {name}", "{n} hits on {name}", n),
            "heal": ngettext("{n} hit taken off {name}", "{n} hits taken off {name}", n),
            "add": _("a tally for {name}"),
            "remove": _("{name}'s tally removed"),
        }.get(str(event.get("op")))
        return owned(words.format(n=n, name=name), name) if words else None
    return None
