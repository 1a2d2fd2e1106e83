"""The Haunted Tower's fights as the exports' big moments read them (companion/export/moments.py).

A fight is one encounter of a hero and a monster, from the roll for initiative until the monster is
killed (won), the hero falls (lost) or runs away (fled). The chance to win is the duel's from where
the round stands, with the hero's best weapon, as the play screen shows it before each decision
(:func:`.view.duel_for`); it is read before initiative and before each attack (not while a hit's
1d10 or a stolen item is settled). Each reading names the position as ``companion odds fight
haunted-tower`` takes it, so that command gives the same fraction.
"""

from __future__ import annotations

from typing import Any

from companion.games.haunted_tower import view
from companion.games.haunted_tower.odds import duel
from companion.games.haunted_tower.rules import lookup
from companion.sim.fights import Position, Reading

#: The fight's phases at which the duel's odds are read.
READ_AT = ("initiative", "hero", "monster")


class Probe:
    def __init__(self) -> None:
        #: Fight number → (the hero, their deaths and the monsters killed when it was first read).
        self.seen: dict[int, tuple[str, int, int]] = {}

    def before(self, state: Any, request: Any, event: Any) -> Reading | None:
        g = lookup.game(state)
        f = g.fight
        if f is None or f.phase not in READ_AT:
            return None
        _, hero, monster = lookup.fighting(state)
        self.seen.setdefault(f.n, (hero.name, hero.deaths, sum(g.kills.values())))
        if hero.hp <= 0:
            return None
        weapon = view.best_weapon(state, hero, monster)
        args = view.fight_args(state, weapon)
        odds = duel(monster, **args)
        cli = [
            "haunted-tower",
            monster.key,
            "--hp",
            str(args["hero_hp"]),
            "--attack",
            str(args["hero_attack"]),
            "--ac",
            str(args["hero_ac"]),
            "--damage",
            str(args["hero_damage"]),
            "--monster-hp",
            str(args["monster_hp"]),
            "--items",
            str(args["items"]),
            "--turn",
            args["turn"],
        ]
        cli += [flag for flag, on in (("--drained", args["drained"]), ("--slowed", args["slowed"])) if on]
        if not args["free_attack"]:
            cli.append("--run-fail-turn")
        with_ = f" with {weapon.name}" if weapon else ""
        turn = {
            "round": "before initiative",
            "hero-first": f"{hero.name} to attack first",
            "hero-last": f"{hero.name} to attack after the {monster.name}",
            "monster-first": f"the {monster.name} to attack first",
            "monster-last": f"the {monster.name} to attack after {hero.name}",
            "monster-extra": f"the {monster.name} to attack again",
        }[args["turn"]]
        words = (
            f"{hero.name}{with_} (HP {hero.hp}, Att {args['hero_attack']}, AC {args['hero_ac']}) against the "
            f"{monster.name} (HP {f.hp} of {monster.hp}), round {f.round}, {turn}"
        )
        title = lookup.fight_title(f, monster)
        return Reading(f.n, title, odds.win, Position(words, tuple(cli)))

    def after(self, reading: Reading, state: Any, request: Any) -> Reading | None:
        f = lookup.game(state).fight
        if f is None or f.n != reading.fight:
            return None
        return self.before(state, request, None)

    def result(self, reading: Reading, state: Any) -> str | None:
        g = lookup.game(state)
        if g.fight is not None and g.fight.n == reading.fight:
            return None
        hero, deaths, kills = self.seen[reading.fight]
        if lookup.find_hero(g, hero, living=False).deaths > deaths:
            return "lost"
        if sum(g.kills.values()) > kills:
            return "won"
        return None if g.phase == "over" else "fled"
