"""The Dragon's Den's fights as the exports' big moments read them (companion/export/moments.py).

A fight is a hero and a monster trading blows: it is read at each attack between the two (a hero's
on the monster, or the monster's on the hero), and it is over when one of them is slain. The chance
to win is the hero's in an exchange of single blows from there, as the attack's odds line shows it
(:func:`.odds.exchange`): before a blow, with its striker first; after it, with the other side next.
The dragon, whose only attack is its breath, is read as the heroes it can slay: before a hero's
save against a greater breath, his chance to come through it standing (a save takes 1 health, a
failed one 2: at health 2 he stands on a save, at 1 he falls either way), as ``companion odds
1d6<=N`` gives it; the page shows his chance to fall. Ren, who may answer with his Shield, is read by
his exchanges only. Each fight's reading names the position as ``companion odds fight dragons-den``
takes it, so that command gives the same fraction.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from companion.engine.requests import RollRequest
from companion.games.dragons_den import data
from companion.games.dragons_den.model import IN, SLAIN
from companion.games.dragons_den.odds import fight_outcome
from companion.sim.fights import STAND, Position, Reading


def _choice(event: Any) -> Any:
    if event is None or event.get("t") != "answer":
        return None
    return (event.get("v") or {}).get("choice")


class Probe:
    def __init__(self) -> None:
        #: The attack under way in guided play: (attacker, target), and a monster picked to attack.
        self.attack: tuple[str, str] | None = None
        self.monster = ""
        #: Fight key → whether the hero strikes the next blow.
        self.first: dict[tuple[str, str], bool] = {}

    def before(self, state: Any, request: Any, event: Any) -> Reading | list[Reading] | None:
        den = state.game
        key = getattr(request, "key", None)
        if isinstance(request, RollRequest) and str(key).startswith("dd.save."):
            return self._breath(den, str(key).rpartition(".")[2], event)
        if event is not None and event.get("t") == "dragon" and event.get("do") == "breath":  # one-shot
            if den.dragon is None or data.DRAGON_BY_CHIT.get(den.dragon.number, None) is None:
                return None
            if data.DRAGON_BY_CHIT[den.dragon.number].breath != "greater":
                return None
            targets = [str(k) for k in (event.get("args") or {}).get("targets", [])]
            found = [self._breath(den, k, event) for k in targets if k not in den.sneaking]
            return [r for r in found if r is not None]
        chosen = _choice(event)
        pair: tuple[str, str] | None = None
        if event is not None and event.get("t") == "dragon" and event.get("do") == "attack":
            args = event.get("args") or {}
            pair = (str(args.get("attacker", "")), str(args.get("target", "")))
        elif key == "dd.menu" and isinstance(chosen, str) and chosen.startswith("attack:"):
            pair = (den.turn, chosen.split(":", 1)[1])
        elif key == "dd.monster" and isinstance(chosen, str):
            self.monster = chosen
        elif key == "dd.target" and isinstance(chosen, str) and chosen != "back":
            pair = (self.monster, chosen)
        elif isinstance(request, RollRequest) and key == "dd.attack":
            pair = self.attack
        self.attack = pair
        if pair is None:
            return None
        a, t = den.figure(pair[0]), den.figure(pair[1])
        if a is None or t is None or "dragon" in (a.kind, t.kind) or (a.kind == "hero") == (t.kind == "hero"):
            return None
        hero, monster = (a, t) if a.kind == "hero" else (t, a)
        fight = (hero.key, monster.key)
        self.first[fight] = a.kind == "hero"
        return self._reading(den, fight)

    def _reading(self, den: Any, fight: tuple[str, str]) -> Reading | None:
        hero, monster = den.figure(fight[0]), den.figure(fight[1])
        if hero is None or monster is None or hero.status != IN or monster.status != IN:
            return None
        first = self.first[fight]
        o = fight_outcome(hero.health, monster.health, first=first, name=hero.name, other=f"the {monster.name}")
        args = ["dragons-den", "--health", str(hero.health), "--against", str(monster.health)]
        if not first:
            args.append("--second")
        striker = hero.name if first else f"the {monster.name}"
        words = f"{hero.name} (health {hero.health}) against the {monster.name} (health {monster.health})"
        words += f", {striker} to strike"
        return Reading(fight, f"{hero.name} against the {monster.name}", o.win, Position(words, tuple(args)))

    def _breath(self, den: Any, hero_key: str, event: Any) -> Reading | None:
        """A hero's save against the greater breath: his chance to stand through it (health 2 or less)."""
        hero = den.figure(hero_key)
        card = data.HERO_BY_KEY.get(hero_key)
        if hero is None or hero.status != IN or hero.health > data.GREATER_BREATH_DAMAGE:
            return None
        if card is not None and "shield" in card.abilities:
            return None  # his Shield may still turn it: not a fall the save decides
        saves = hero.health > data.GREATER_BREATH_SAVED  # a save takes 1: he stands on it at health 2
        need = hero.health if saves else 0
        chance = Fraction(min(need, data.ATTACK_DIE), data.ATTACK_DIE)
        dragon = den.dragon.name if den.dragon is not None else "dragon"
        words = (
            f"{hero.name} (health {hero.health}) under the {dragon}'s greater breath: a save on 1-{hero.health} "
            f"takes {data.GREATER_BREATH_SAVED} health, a failed one {data.GREATER_BREATH_DAMAGE}"
        )
        position = Position(words, (f"1d{data.ATTACK_DIE}<={need}",), odds="")
        key = ("breath", den.round, hero.key, (event or {}).get("id"))
        return Reading(key, f"{hero.name} under the {dragon}'s breath", chance, position, of=STAND)

    def after(self, reading: Reading, state: Any, request: Any) -> Reading | None:
        if reading.of == STAND:
            return None
        fight = reading.fight
        if getattr(request, "key", None) in (None, "dd.menu"):  # the blow is struck: the other side is next
            self.first[fight] = not self.first[fight]
            self.attack = None
        return self._reading(state.game, fight)

    def result(self, reading: Reading, state: Any) -> str | None:
        den = state.game
        if reading.of == STAND:  # the save is rolled: the breath's harm is done
            hero = den.figure(reading.fight[2])
            return "lost" if hero is None or hero.status == SLAIN else "won"
        hero, monster = den.figure(reading.fight[0]), den.figure(reading.fight[1])
        if monster is not None and monster.status == SLAIN:
            return "won"
        if hero is not None and hero.status == SLAIN:
            return "lost"
        return None
