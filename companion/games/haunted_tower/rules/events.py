"""The ``haunted`` event: what a one-shot command recorded, folded through the same rules as play.

One event per command (so ``companion undo`` takes back the whole command)::

    {"t": "haunted", "op": "attack",
     "steps": [{"do": "monster"}, {"do": "table"}],
     "rolls": [{"faces": [5], "src": "virtual"}, {"faces": [8], "src": "physical"}]}

Fight steps (``init``, ``attack``, ``run``, ``monster``, ``table``, ``pick``) take their dice from
``rolls`` in order (``init`` takes two: the hero's, then the monster's); the fold counts the virtual
ones so the session's dice stream resumes after them. Each roll is logged exactly as guided play logs
the answer to the same request (its ``why``, its dice, its modifier parts).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.dice.roll import Roll, evaluate
from companion.errors import InputError
from companion.games.haunted_tower.model import Card, Item
from companion.games.haunted_tower.rules import climb as rules_climb
from companion.games.haunted_tower.rules import fights as rules_fights
from companion.games.haunted_tower.rules import heroes as rules_heroes
from companion.games.haunted_tower.rules import items as rules_items
from companion.games.haunted_tower.rules import lookup
from companion.games.haunted_tower.rules import rolls as rules_rolls
from companion.games.haunted_tower.rules import score as rules_score
from companion.i18n import ngettext
from companion.log.rolls import roll_line

if TYPE_CHECKING:
    from companion.session.state import State

EVENT = "haunted"


def roll_of(spec: rules_rolls.RollSpec, payload: dict[str, Any]) -> Roll:
    """The roll a payload holds, read under a step's roll spec (its faces checked against the dice)."""
    faces = payload.get("faces")
    dice = spec.expr.dice
    if not isinstance(faces, list) or len(faces) != len(dice):
        raise InputError(f"{spec.why}: " + ngettext("needs {n} face", "needs {n} faces", len(dice)).format(n=len(dice)))
    for die, face in zip(dice, faces, strict=True):
        if not isinstance(face, int) or not 1 <= face <= die.sides:
            raise InputError(f"{face!r} is not a face of a {die.name}")
    return evaluate(spec.expr, tuple(faces), spec.mod, source=payload.get("src", "virtual"), parts=spec.parts)


class _Rolls:
    """The event's rolls, taken in order by the steps that need them; each one logged."""

    def __init__(self, state: State, event: dict[str, Any]) -> None:
        self.state = state
        self.payloads = list(event.get("rolls", []))
        self.event_id = event.get("id")

    def take(self, spec: rules_rolls.RollSpec) -> int:
        if not self.payloads:
            raise InputError(f"{spec.why}: no roll given")
        roll = roll_of(spec, self.payloads.pop(0))
        self.state.log.roll(roll_line(roll, spec.why), event=self.event_id)
        return roll.faces[0]  # type: ignore[index]

    def done(self) -> None:
        if self.payloads:
            raise InputError("more rolls were given than the steps need")


def fight_steps(state: State, steps: list[dict[str, Any]], rolls: _Rolls) -> None:
    """Apply fight steps in order (the same functions guided play calls)."""
    for step in steps:
        do = step.get("do")
        if do == "init":
            hero_spec, monster_spec = rules_rolls.initiative_specs(state)
            h = rolls.take(hero_spec)
            m = rolls.take(monster_spec)
            rules_fights.initiative(state, h, m)
        elif do == "attack":
            weapon = str(step.get("weapon", ""))
            rules_fights.hero_attack(state, weapon, rolls.take(rules_rolls.attack_spec(state, weapon)))
        elif do == "run":
            rules_fights.run_away(state, rolls.take(rules_rolls.run_spec(state)))
        elif do == "monster":
            rules_fights.monster_attack(state, rolls.take(rules_rolls.monster_spec(state)))
        elif do == "table":
            rules_fights.table_roll(state, rolls.take(rules_rolls.table_spec(state)))
        elif do == "pick":
            rules_fights.pick(state, str(step["item"]))
        else:
            raise InputError(f"unknown fight step {do!r}")
    rolls.done()


def _card(event: dict[str, Any]) -> Card:
    return Card.from_data(str(event["hero"]), event["card"])


def _hero(state: State, event: dict[str, Any]) -> None:
    card = _card(event)
    rules_heroes.add_hero(state, card)
    state.data[f"hero.{card.name}"] = card.to_data()


def _edit_card(state: State, event: dict[str, Any]) -> None:
    card = _card(event)
    rules_heroes.check_card(card)
    rules_heroes.update_card(state, card)
    state.data[f"hero.{card.name}"] = card.to_data()


def _first(state: State, event: dict[str, Any]) -> None:
    g = lookup.game(state)
    if not g.rolloff:
        rules_heroes.start_rolloff(state, event.get("purpose", "round"))
    rolls = _Rolls(state, event)
    faces = [rolls.take(rules_rolls.order_spec(name, g.rolloff_for)) for name in list(g.rolloff)]
    rolls.done()
    rules_heroes.order_roll(state, faces)


def _fight(state: State, event: dict[str, Any]) -> None:
    rules_fights.start_fight(state, str(event["hero"]), str(event["monster"]), str(event.get("back", "blue")))


def _steps(state: State, event: dict[str, Any]) -> None:
    fight_steps(state, list(event.get("steps", [])), _Rolls(state, event))


def _item(state: State, event: dict[str, Any]) -> None:
    item = Item.from_data(str(event["item"]), event["chit"])
    rules_items.take_item(state, str(event["hero"]), item, str(event.get("swap", "")))
    data = item.to_data()
    if event.get("define"):
        state.data[f"item.{item.name}"] = data


OPS: dict[str, Callable[[State, dict[str, Any]], Any]] = {
    "hero": _hero,
    "card": _edit_card,
    "first": _first,
    "fight": _fight,
    "init": _steps,
    "attack": _steps,
    "run": _steps,
    "item": _item,
    "drop": lambda s, e: rules_items.drop_item(s, e["hero"], e["item"]),
    "give": lambda s, e: rules_items.give_item(s, e["hero"], e["item"], e["to"]),
    "use": lambda s, e: rules_items.use_item(s, e["hero"], e["item"]),
    "hp": lambda s, e: rules_items.change_hp(s, e["hero"], int(e["delta"])),
    "climb": lambda s, e: rules_climb.climb(s, e["hero"], bool(e.get("cleared"))),
    "trade": lambda s, e: rules_climb.trade(s, e["hero"], e["pay"]),
    "moved": lambda s, e: rules_heroes.moved(s, e["hero"]),
    "end": lambda s, e: rules_score.finish(s, str(e.get("reason") or "the players ended it")),
}

#: What may still be recorded once the game is over: a hero card corrected (it is kept for next games).
AFTER_THE_END = frozenset({"card"})


def reduce(state: State, event: dict[str, Any]) -> None:
    """Fold one ``haunted`` event. Raises InputError (changing nothing) when it does not fit."""
    op = event.get("op")
    fn = OPS.get(str(op))
    if fn is None:
        raise InputError(f"unknown Haunted Tower action {op!r}")
    if lookup.game(state).phase == "over" and op not in AFTER_THE_END:
        raise InputError("the game is over (companion haunted score shows the final score)")
    fn(state, event)
