"""Shared helpers for the Haunted Tower tests: a state with three heroes, and fixed-dice steps."""

from __future__ import annotations

from companion.games.haunted_tower import GAME
from companion.games.haunted_tower.model import Bonus, Card, Item
from companion.games.haunted_tower.rules import fights as rules_fights
from companion.games.haunted_tower.rules import heroes as rules_heroes
from companion.games.haunted_tower.rules import items as rules_items
from companion.games.haunted_tower.rules import lookup
from companion.session.service import new_state
from companion.session.state import Meta, State

# Made-up cards for the tests (the real cards are the players' own; companion ships none).
ARIA = Card("Aria", speed=6, hp=6, attack=3, ac=5, ability="test fighter")
BRAM = Card("Bram", speed=5, hp=5, attack=2, ac=4, ability="test cleric", bonus=Bonus(hits=["magic"]))
CAEL = Card("Cael", speed=7, hp=4, attack=2, ac=3, ability="test elf")


def make_state(*variants: str, heroes: tuple[Card, ...] = (ARIA, BRAM, CAEL)) -> State:
    meta = Meta(name="t", slug="t", game="haunted-tower", seed=1, dice="virtual", variants=list(variants))
    state = new_state(GAME, meta)
    for card in heroes:
        rules_heroes.add_hero(state, Card.from_data(card.name, card.to_data()))
    return state


def item(name: str, kind: str = "weapon", **kw: object) -> Item:
    use = {"weapon": "attack", "armor": "worn", "shield": "worn"}.get(kind, "worn")
    values: dict[str, object] = {"kind": kind, "use": use, "hits": ["magical"] if kind == "weapon" else []}
    values.update(kw)
    return Item.from_data(name, values)


def give(state: State, hero: str, *items: Item) -> None:
    for it in items:
        rules_items.take_item(state, hero, it)


def fight(state: State, monster: str, hero: str = "Aria", back: str = "blue", first: str | None = "hero") -> None:
    """Start a fight and, unless ``first`` is None, settle the initiative with fixed dice. The specter
    is met on Tower 3 (its chit lies only there): the hero is put there first."""
    if monster == "specter":
        lookup.find_hero(state.game, hero).tower = 3
    rules_fights.start_fight(state, hero, monster, back)
    if first is not None and state.game.fight.phase == "initiative":
        rules_fights.initiative(state, 6, 1) if first == "hero" else rules_fights.initiative(state, 1, 6)


def hero(state: State, name: str = "Aria"):
    return lookup.find_hero(state.game, name, living=False)


def texts(state: State) -> str:
    return "\n".join(e.get("t", "") for e in state.log.entries)
