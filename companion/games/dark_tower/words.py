"""What each of the Dark Tower's one-shot commands did, in the players' words (its ``words`` member):
what undo, redo, ``history`` and the page say («Аня сражается: Тролль»), never ``dark health``.

The messages are catalogue messages with named placeholders (the ``dark-tower`` catalogue); the
names come from the table as it stood before the command (:func:`fields`: a seat's number is its
player, a card's slug its name in the game's language). A guided step is said by its own question
and the answer chosen (companion/session/labels.py), already in the game's words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.contract.words import Words
from companion.i18n import N_

if TYPE_CHECKING:
    from companion.session.state import State

EVENTS = {
    "dark card": N_("the card {card} entered in the catalogue"),
    "dark join": N_("{player} joins the table as {hero}"),
    "dark item": N_("{player} takes {item}"),
    "dark quest": N_("the quest: {quest}"),
    "dark quest-done": N_("the quest marked done"),
    "dark start": N_("the game starts: {first} goes first"),
    "dark draw": N_("{player} draws {card}"),
    "dark group": N_("{monster} joins the group of monsters"),
    "dark check": N_("{player} rolls the check of {obstacle}"),
    "dark fight": N_("{player} fights {monsters}"),
    "dark lose": N_("{player} loses an item to the monster"),
    "dark discard": N_("{player} discards {item}"),
    "dark trade": N_("{player} gives {item} to {other}"),
    "dark end": N_("{player} ends the turn"),
    "dark floor": N_("the heroes go up to the next floor"),
    "dark health": N_("{player}'s health {change}"),
    "dark deck": N_("the deck of floor {floor} built"),
    "dark lang": N_("the rules' terms shown in {language}"),
}


def fields(state: State, event: dict[str, Any]) -> dict[str, Any]:
    """The names an event's message reads, from the table as it stood before the event."""
    from companion.games.dark_tower.rules import cards as C
    from companion.games.dark_tower.rules import lookup
    from companion.i18n import _

    g = lookup.game(state)
    out: dict[str, Any] = {}

    def player(index: Any) -> str:
        return g.heroes[int(index)].player

    def held(who: Any, index: Any) -> str:
        return lookup.name_of(state, "item", g.heroes[int(who)].items[int(index)].card)

    op = event.get("op")
    if g.heroes and g.phase not in ("setup", "over"):
        out["player"] = g.current().player
    if "hero" in event and isinstance(event["hero"], int):
        out["player"] = player(event["hero"])
    if op == "join":
        out["hero"] = lookup.name_of(state, "hero", event["hero"])
    if op == "card":
        card = event.get("card") or {}
        out["card"] = C.title(C.from_json(event["kind"], card), lookup.lang(state)) if card else ""
    if op == "item":
        out["item"] = lookup.name_of(state, "item", event["item"])
    if op == "quest":
        out["quest"] = lookup.name_of(state, "quest", event["quest"]) if event.get("quest") else _("none")
    if op == "start":
        out["first"] = player(event["first"])
    if op == "draw":
        out["card"] = lookup.name_of(state, event["kind"], event["card"])
    if op == "group":
        out["monster"] = lookup.name_of(state, "monster", event["monster"])
    if op == "check" and g.obstacle:
        out["obstacle"] = lookup.name_of(state, "obstacle", g.obstacle)
    if op == "fight":
        out["monsters"] = ", ".join(lookup.name_of(state, "monster", m) for m in g.group)
    if op == "discard":
        out["item"] = held(event["hero"], event["index"])
    if op == "trade":
        out.update(player=player(event["a"]), other=player(event["b"]), item=held(event["a"], event["item_a"]))
    if op == "health":
        change = []
        if "delta" in event:
            change.append(f"{int(event['delta']):+d}".replace("-", "−"))
        if "value" in event:
            change.append(f"={event['value']}")
        if "max" in event:
            change.append(_("max {n}").format(n=event["max"]))
        out["change"] = ", ".join(change)
    if op == "lang":
        out["language"] = {"ru": "русский", "en": "English"}.get(str(event.get("lang")), str(event.get("lang")))
    return out


#: The language's answer, said in the language it chose (its question is asked in both at once).
ANSWERS = {"setup.lang": N_("The rules' terms → {answer}")}

WORDS = Words(events=EVENTS, answers=ANSWERS, fields=fields)
