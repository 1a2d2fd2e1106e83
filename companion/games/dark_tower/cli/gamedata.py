"""``companion gamedata dark-tower``: the cards of the player's catalogue as a player reads them (each
described in the game's words, in the language shown), and a card's number changed by the card's name
and the number's own word: ``companion gamedata тёмная-башня лич.сила=13`` (or ``Lich.strength=13``).

The shared command (companion/cli/session_cmds.py) asks a game's ``cli.gamedata`` module, when it has
one, for :func:`shown`, :func:`resolve` and :func:`check`; a game without one lists its raw keys.
"""

from __future__ import annotations

from typing import Any

from companion.errors import InputError
from companion.games.dark_tower import data
from companion.i18n import _

#: A card's number or word as a player names it (Russian as the rule text writes it, or English) → the
#: field of the card in the catalogue.
FIELDS = {
    "name": "name", "название": "name", "ru": "ru", "русское": "ru",
    "health": "health", "здоровье": "health",
    "bonus": "bonus", "бонус": "bonus",
    "floor": "floor", "этаж": "floor",
    "strength": "strength", "сила": "strength",
    "class": "cls", "cls": "cls", "класс": "cls",
    "check": "check", "проверка": "check",
    "damage": "damage", "урон": "damage",
    "penalty": "penalty", "штраф": "penalty",
    "event": "event", "событие": "event",
    "goal": "goal", "задание": "goal",
    "text": "text", "текст": "text",
    "single": "single", "разовый": "single",
    "die": "die", "кубик": "die",
    "summons": "summons", "призывает": "summons",
    "immune": "immune", "иммунитет": "immune",
    "ignores": "ignores", "игнорирует": "ignores",
}  # fmt: skip


def shown(values: dict[str, Any]) -> list[str]:
    """The catalogue as lines a player reads: each card of the player's, described as the game shows it
    (its kind, name, numbers and properties); anything else as its key and value."""
    from companion.games.dark_tower.rules import cards as C

    out: list[str] = []
    rest = dict(values)
    for kind in data.CARD_KINDS:
        prefix = f"cards.{kind}."
        for key in sorted(k for k in values if k.startswith(prefix) and isinstance(values[k], dict)):
            rest.pop(key)
            try:
                card = C.from_json(kind, values[key])
            except InputError as exc:
                out.append(f"{C.term(kind)}: {exc.message}")
                continue
            out.append(_("{kind}: {card}").format(kind=C.term(kind), card=C.describe(card)))
    import json

    for key in sorted(rest):
        value = rest[key]
        out.append(f"{key} = {json.dumps(value, ensure_ascii=False) if isinstance(value, (dict, list)) else value}")
    return out


def resolve(values: dict[str, Any], text: str) -> tuple[str, str | None] | None:
    """The catalogue key ``text`` names and the card's field it names, if any: ``лич.сила`` →
    (``cards.monster.лич``, ``strength``); ``лич`` → (``cards.monster.лич``, None). None when ``text`` names
    no card of the catalogue."""
    from companion.games.dark_tower.rules import cards as C

    name, dot, word = text.rpartition(".") if "." in text else (text, "", "")
    field = None
    if dot:
        field = FIELDS.get(word.strip().lower().replace("ё", "е"))
        if field is None:
            known = ", ".join(sorted({w for w in FIELDS if not w.isascii()}))
            raise InputError(_("a card has no number {word!r}; its numbers: {known}").format(word=word, known=known))
    wanted = C.slug(name)
    found = [
        k
        for k, raw in values.items()
        if k.startswith("cards.")
        and isinstance(raw, dict)
        and wanted in (k.rpartition(".")[2], C.slug(str(raw.get("name", ""))), C.slug(str(raw.get("ru", ""))))
    ]
    if len(found) != 1:
        return None
    return found[0], field


def check(key: str, raw: dict[str, Any]) -> None:
    """Refuse a card the game cannot read or whose numbers the rules do not allow (one line)."""
    from companion.games.dark_tower.rules import cards as C
    from companion.games.dark_tower.rules import setup as rules_setup

    kind = key.split(".")[1]
    card = C.from_json(kind, raw)
    rules_setup.validate(card)
