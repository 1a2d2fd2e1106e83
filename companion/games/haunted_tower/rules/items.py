"""The Haunted Tower's items: magic item chits taken, dropped, given and used, and HP changed by hand.

One implementation of the rules for guided play and the one-shot commands: see :mod:`.lookup`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.errors import InputError
from companion.games.haunted_tower import data as D
from companion.games.haunted_tower.data.monsters import HITS, MONSTERS
from companion.games.haunted_tower.model import Hero, Item
from companion.games.haunted_tower.rules.fights import fall
from companion.games.haunted_tower.rules.lookup import find_hero, find_item, game

if TYPE_CHECKING:
    from companion.session.state import State


def check_item(item: Item) -> None:
    if not item.name.strip():
        raise InputError("an item needs a name")
    if item.kind not in D.ITEM_KINDS:
        raise InputError(f"an item is {', '.join(D.ITEM_KINDS)}, not {item.kind!r}")
    if item.back not in D.BACKS:
        raise InputError(f"a chit has a blue or a purple back, not {item.back!r}")
    for h in item.hits:
        if h not in HITS:
            raise InputError(f"{h!r} is not one of: {', '.join(HITS)}")
    from companion.games.haunted_tower.model import ITEM_USES

    if item.use not in ITEM_USES:
        raise InputError(f"an item is used {', '.join(ITEM_USES)}, not {item.use!r}")
    if item.kind == "weapon" and item.use != "attack":
        raise InputError("a weapon is used to attack")
    if item.kind in ("armor", "shield") and item.use != "worn":
        raise InputError(f"{item.kind} is worn")
    for label, value in (("attack", item.attack), ("damage", item.damage), ("AC", item.ac)):
        if not -9 <= value <= 20:
            raise InputError(f"an item's {label} bonus is from -9 to 20, not {value}")
    if item.uses is not None and not 1 <= item.uses <= 99:
        raise InputError("limited uses are from 1 to 99")


def over_limit(hero: Hero, kind: str) -> bool:
    limit = hero.card.limits.get(kind)
    if limit is None:
        return False
    return sum(1 for i in hero.items if i.kind == kind) >= limit


def take_item(state: State, hero_name: str, item: Item, swap: str = "") -> None:
    """The hero takes a magic item chit; over the limit, an item of the same kind must be swapped out."""
    g = game(state)
    hero = find_hero(g, hero_name)
    check_item(item)
    if g.fight is not None:
        raise InputError(
            f"{g.fight.hero} is fighting the {MONSTERS[g.fight.monster].name}: a chit is taken when a hero "
            "encounters it, not during a fight; finish the fight first"
        )
    old: Item | None = None
    if over_limit(hero, item.kind):
        limit = hero.card.limits[item.kind]
        if not swap:
            same = ", ".join(i.name for i in hero.items if i.kind == item.kind)
            raise InputError(
                f"{hero.name} already carries {limit} {item.kind} chit{'s' if limit != 1 else ''} ({same}): "
                "leave the new chit, or swap one out (--swap NAME)"
            )
        old = find_item(hero, swap)
        if old.kind != item.kind:
            raise InputError(f"{old.name} is {old.kind}; swap out a {item.kind} chit")
    elif swap:
        old = find_item(hero, swap)
    held = Item(**{**item.__dict__, "left": item.uses})
    if old is not None:
        hero.items.remove(old)
        state.log.text(f"{hero.name} drops {old.name} in an adjacent square.")
    hero.items.append(held)
    state.log.text(f"{hero.name} takes {held.name} ({held.describe()}).")


def drop_item(state: State, hero_name: str, name: str) -> Item:
    hero = find_hero(game(state), hero_name)
    item = find_item(hero, name)
    hero.items.remove(item)
    state.log.text(f"{hero.name} drops {item.name} in an adjacent square (face up).")
    return item


def give_item(state: State, hero_name: str, name: str, to: str) -> Item:
    g = game(state)
    giver = find_hero(g, hero_name)
    taker = find_hero(g, to)
    if giver is taker:
        raise InputError("a hero trades with another hero")
    if giver.tower != taker.tower:
        raise InputError(
            f"{giver.name} is on Tower {giver.tower} and {taker.name} on Tower {taker.tower}: "
            "heroes trade only when they are adjacent"
        )
    f = g.fight
    if f is not None and f.hero in (giver.name, taker.name):
        raise InputError(f"{f.hero} is fighting the {MONSTERS[f.monster].name}: trade after the fight")
    item = find_item(giver, name)
    if over_limit(taker, item.kind):
        raise InputError(f"{taker.name} already carries as many {item.kind} chits as allowed; drop one first")
    giver.items.remove(item)
    taker.items.append(item)
    state.log.text(f"{giver.name} gives {item.name} to {taker.name}.")
    return item


def use_item(state: State, hero_name: str, name: str) -> Item:
    """One use of a limited item spent by hand (a potion); the last use removes it from the game."""
    hero = find_hero(game(state), hero_name)
    item = find_item(hero, name)
    if item.left is None:
        raise InputError(f"{item.name} has no limited uses to count")
    item.left -= 1
    if item.left <= 0:
        hero.items.remove(item)
        state.log.text(f"{hero.name} uses {item.name} for the last time: removed from the game.")
    else:
        state.log.text(f"{hero.name} uses {item.name}: {item.left} use{'s' if item.left != 1 else ''} left.")
    return item


def change_hp(state: State, hero_name: str, delta: int) -> None:
    """HP changed by hand (a potion, a correction); never above the card's HP; zero is a death."""
    hero = find_hero(game(state), hero_name)
    if delta == 0:
        raise InputError("an HP change is +N or -N")
    before = hero.hp
    hero.hp = min(hero.max_hp, hero.hp + delta)
    state.log.text(f"{hero.name} HP {before} → {max(0, hero.hp)}/{hero.max_hp} (by hand).")
    if hero.hp <= 0:
        fall(state, hero)
