"""The Haunted Tower's numbers of a fight: attack numbers and armor classes part by part, the items a
hero can attack with, and the damage of a hit.

One implementation of the rules for guided play and the one-shot commands: see :mod:`.lookup`.
"""

from __future__ import annotations

from companion.games.haunted_tower import data as D
from companion.games.haunted_tower.data.monsters import CRAWLER_PENALTY, SPECTER, Monster
from companion.games.haunted_tower.model import Hero, Item
from companion.games.haunted_tower.rules.lookup import SPECTER_UNDEAD


def is_undead(monster: Monster, variants: list[str]) -> bool:
    return monster.undead or (monster.key == SPECTER and SPECTER_UNDEAD in variants)


def _bonus_applies(hero: Hero, monster: Monster | None, variants: list[str]) -> bool:
    if hero.card.bonus.vs == "all":
        return True
    return monster is not None and is_undead(monster, variants)


def _counts(item: Item, monster: Monster | None) -> bool:
    """False for a metal item's bonuses against the rust monster."""
    return not (item.metal and monster is not None and monster.on_hit == "rust")


def attack_means(hero: Hero) -> list[Item]:
    """The items the hero can attack with now (one magical weapon at a time, uses left)."""
    return [i for i in hero.items if i.use == "attack" and (i.left is None or i.left > 0)]


def attack_parts(
    hero: Hero, monster: Monster | None, weapon: Item | None, variants: list[str], *, slowed: bool = False
) -> tuple[tuple[str, int], ...]:
    """The labelled parts of the hero's attack number: card, −1 chits, items, ability, venom."""
    parts: list[tuple[str, int]] = [("Att", hero.card.attack)]
    deaths = hero.minus.count("death")
    if len(hero.minus) > deaths:  # its −1 chits, each by what gave it: "+2 Att −1 energy drain −1 death"
        parts.append(("energy drain", deaths - len(hero.minus)))
    if deaths:
        parts.append(("death", -deaths))
    for item in hero.items:
        if item.use == "worn" and item.attack and _counts(item, monster):
            parts.append((item.name, item.attack))
    if weapon is not None and weapon.attack and _counts(weapon, monster):
        parts.append((weapon.name, weapon.attack))
    if hero.card.bonus.attack and _bonus_applies(hero, monster, variants):
        parts.append(("ability", hero.card.bonus.attack))
    if slowed:
        parts.append(("venom", CRAWLER_PENALTY))
    return tuple(parts)


def ac_parts(hero: Hero, monster: Monster | None, variants: list[str]) -> tuple[tuple[str, int], ...]:
    """The labelled parts of the hero's armor class: card, armor, shield, other items, ability."""
    parts: list[tuple[str, int]] = [("AC", hero.card.ac)]
    for item in hero.items:
        if item.ac and item.use != "spend" and _counts(item, monster):
            parts.append((item.name, item.ac))
    if hero.card.bonus.ac and _bonus_applies(hero, monster, variants):
        parts.append(("ability", hero.card.bonus.ac))
    return tuple(parts)


def total(parts: tuple[tuple[str, int], ...]) -> int:
    return sum(v for _, v in parts)


def attack_number(hero: Hero, monster: Monster | None = None, variants: list[str] | None = None) -> int:
    """The hero's attack number without a weapon (as the health table shows it)."""
    return total(attack_parts(hero, monster, None, variants or []))


def armor_class(hero: Hero, monster: Monster | None = None, variants: list[str] | None = None) -> int:
    return total(ac_parts(hero, monster, variants or []))


def damage_of(hero: Hero, monster: Monster, weapon: Item | None, variants: list[str]) -> tuple[int, str]:
    """HP one hit of the hero takes off the monster, and why it is 0 when it is.

    Normal damage is 1 plus the damage bonuses of the weapon used, of worn items and of the ability;
    a monster that only some attacks can damage takes 0 from any other attack.
    """
    hits = set(hero.card.bonus.hits) if _bonus_applies(hero, monster, variants) else set()
    if weapon is not None:
        hits |= set(weapon.hits)
    if monster.hurt_by is not None and not hits & monster.hurt_by:
        return 0, f"only {monster.hurt_text()} can damage the {monster.name}"
    amount = D.NORMAL_DAMAGE
    if weapon is not None and _counts(weapon, monster):
        amount += weapon.damage
    for item in hero.items:
        if item.use == "worn" and item.damage and _counts(item, monster):
            amount += item.damage
    if _bonus_applies(hero, monster, variants):
        amount += hero.card.bonus.damage
    return max(0, amount), ""
