"""The Haunted Tower's rolls, as the engine asks for them and the one-shot commands roll them, and
what a fight needs next.

One implementation of the rules for guided play and the one-shot commands: see :mod:`.lookup`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from companion.dice.expr import Expr, Term
from companion.dice.faces import plain
from companion.engine.requests import RollRequest
from companion.errors import InputError
from companion.games.haunted_tower import data as D
from companion.games.haunted_tower.data.monsters import Monster
from companion.games.haunted_tower.model import Fight, Hero, Item
from companion.games.haunted_tower.rules.lookup import fighting, find_item, game
from companion.games.haunted_tower.rules.numbers import armor_class, attack_means, attack_parts, total
from companion.i18n import possessive

if TYPE_CHECKING:
    from companion.session.state import State


D6 = plain(D.D6)


D10 = plain(D.D10)


def check(sides_die: int, target: int) -> Expr:
    """``1d6>=AC`` or ``1d10>=Att``: a roll that passes at ``target`` or more."""
    return Expr("sum", (Term(1, plain(sides_die)),), op=">=", target=target)


def bare(sides_die: int) -> Expr:
    return Expr("sum", (Term(1, plain(sides_die)),))


@dataclass(frozen=True, slots=True)
class RollSpec:
    """One roll a step needs: what the engine asks (as a RollRequest) and a one-shot command rolls."""

    key: str
    expr: Expr
    why: str
    parts: tuple[tuple[str, int], ...] = ()

    @property
    def mod(self) -> int:
        return total(self.parts)

    def request(self, info: tuple[str, ...] = ()) -> RollRequest:
        return RollRequest(self.key, self.expr, self.why, self.mod, self.parts, info)


def weapon_named(hero: Hero, name: str) -> Item | None:
    if not name:
        return None
    item = find_item(hero, name)
    if item.use != "attack":
        raise InputError(f"{item.name} is not used to attack ({item.kind}); its bonuses count by themselves")
    if item.left is not None and item.left <= 0:
        raise InputError(f"{item.name} has no uses left")
    return item


def initiative_specs(state: State) -> tuple[RollSpec, RollSpec]:
    f, hero, monster = fighting(state)
    bonus = monster.initiative_bonus
    return (
        RollSpec("fight.initiative.hero", bare(D.D6), f"Round {f.round} initiative: {hero.name}"),
        RollSpec(
            "fight.initiative.monster",
            bare(D.D6),
            f"Round {f.round} initiative: {monster.name}",
            ((monster.name, bonus),) if bonus else (),
        ),
    )


def attack_spec(state: State, weapon: str = "") -> RollSpec:
    f, hero, monster = fighting(state)
    item = weapon_named(hero, weapon)
    parts = attack_parts(hero, monster, item, state.meta.variants, slowed=f.slowed)
    with_ = f" with {item.name}" if item else ""
    return RollSpec(
        "fight.hero-attack", check(D.D6, monster.ac), f"{hero.name} attacks the {monster.name}{with_}", parts
    )


def monster_spec(state: State) -> RollSpec:
    _, hero, monster = fighting(state)
    ac = armor_class(hero, monster, state.meta.variants)
    return RollSpec(
        "fight.monster-attack", check(D.D6, ac), f"The {monster.name} attacks {hero.name}", (("Att", monster.att),)
    )


def run_spec(state: State) -> RollSpec:
    _, hero, monster = fighting(state)
    return RollSpec("fight.run", check(D.D10, monster.att), f"{hero.name} runs from the {monster.name}")


def table_spec(state: State) -> RollSpec:
    monster = fighting(state)[2]
    return RollSpec("fight.table", bare(D.D10), f"{monster.name}'s hit: {monster.table_text()}")


def order_spec(name: str, purpose: str) -> RollSpec:
    what = "places the first chit" if purpose == "placement" else "goes first"
    return RollSpec("order.roll", bare(D.D10), f"Who {what}: {name}")


@dataclass(frozen=True)
class Need:
    """The next step of a fight: ``initiative``, ``hero``, ``monster``, ``table`` or ``pick``."""

    step: str
    rolls: tuple[RollSpec, ...] = ()
    #: For ``pick``: the items the monster's player chooses from; for ``hero``: the attack means.
    items: tuple[str, ...] = field(default=())


def need(state: State) -> Need | None:
    g = game(state)
    if g.fight is None:
        return None
    f, hero, _ = fighting(state)
    if f.phase == "initiative":
        return Need("initiative", initiative_specs(state))
    if f.phase == "hero":
        return Need("hero", items=tuple(i.name for i in attack_means(hero)))
    if f.phase == "monster":
        return Need("monster", (monster_spec(state),))
    if f.phase == "table":
        return Need("table", (table_spec(state),))
    return Need("pick", items=tuple(i.name for i in pick_options(hero, f.pick)))


def pick_options(hero: Hero, pick: str) -> list[Item]:
    if pick == "rust":
        return [i for i in hero.items if i.metal]
    return list(hero.items)


def expect(state: State, phase: str, step: str) -> None:
    """Raise the one-line error saying what comes next, unless the fight is at ``phase``."""
    f, hero, monster = fighting(state)
    if f.phase != phase:
        raise phase_error(f, hero, monster, step)


def phase_error(f: Fight, hero: Hero, monster: Monster, step: str) -> InputError:
    now = {
        "initiative": "initiative is to be rolled (companion haunted init)",
        "hero": f"it is {possessive(hero.name)} turn: attack or run (companion haunted attack / run)",
        "monster": f"it is the {monster.name}'s turn to attack (companion haunted attack)",
        "table": f"the {monster.name}'s hit needs its 1d10 roll (companion haunted attack --table N)",
        "pick": f"the {monster.name}'s player picks one of {possessive(hero.name)} items "
        "(companion haunted attack --take ITEM)",
    }[f.phase]
    return InputError(f"cannot {step} now: {now}")
