"""The Dark Tower's fights as the exports' big moments read them (companion/export/moments.py).

A fight is one roll against the monsters on the table: it is read from the moment they are there
until the roll, with what the players chose before it (a helper, single-use items, the conditions
of permanent spells that hold), as the odds lines of the fight show it (:func:`.odds.fight_odds`:
beaten when the total is more than the strength, the leader's ★ spells counted). It is won when the
monsters are beaten, a tie when the totals are equal (not beaten, and no damage), else lost. Each
reading names the position as ``companion odds fight dark-tower`` takes it, so that command gives
the same fraction.
"""

from __future__ import annotations

from typing import Any

from companion.errors import InputError
from companion.games.dark_tower import odds
from companion.games.dark_tower.rules import cards as C
from companion.games.dark_tower.rules import fights as rules_fights
from companion.games.dark_tower.rules import items as rules_items
from companion.games.dark_tower.rules import lookup
from companion.games.dark_tower.rules.fights import Plan
from companion.i18n import _, ngettext
from companion.sim.fights import Position, Reading


def _answer(event: Any) -> Any:
    if event is None or event.get("t") != "answer":
        return None
    return (event.get("v") or {}).get("choice")


class Probe:
    def __init__(self) -> None:
        #: The fight read now: its step, the plan chosen so far in guided play, and the questions asked.
        self.step: int | None = None
        self.plan = Plan()
        self.asked = {"fight.use": 0, "fight.condition": 0}
        #: Fights so far (one a roll: the phase "fight" until the roll is settled), and the monsters
        #: beaten when each was first read.
        self.fights = 0
        self.on = False
        self.beaten: dict[int, int] = {}

    def _track(self, state: Any) -> bool:
        """Follow the phase: a new fight when it turns to "fight"; True while one is on."""
        g = lookup.game(state)
        on = g.phase == "fight" and bool(g.group)
        if on and not self.on:
            self.fights += 1
            self.beaten[self.fights] = g.beaten
        self.on = on
        return on

    def before(self, state: Any, request: Any, event: Any) -> Reading | None:
        g = lookup.game(state)
        if not self._track(state):
            return None
        if self.step != g.step:  # a new fight, or the guided fight asked again (a monster joined)
            self.step, self.plan = g.step, Plan()
            self.asked = {"fight.use": 0, "fight.condition": 0}
        key = getattr(request, "key", None)
        if key == "fight.cast":
            return None  # the dice are rolled: spells are cast on a known total
        plan = self.plan
        if event is not None and event.get("t") == "dark" and event.get("op") == "fight":
            plan = Plan(event.get("helper"), list(event.get("use", [])), list(event.get("conditions", [])))
        reading = self._reading(state, plan)
        self._learn(state, key, _answer(event))
        return reading

    def _learn(self, state: Any, key: str | None, answer: Any) -> None:
        """What a guided answer adds to the plan (the engine asks in this order: engine.fights.fight_step)."""
        g = lookup.game(state)
        if key == "fight.help" and answer is not None:
            self.plan.helper = None if answer == "alone" else int(answer)
        elif key == "fight.use":
            bonus = rules_fights.fight_bonus(state, self.plan)
            items = rules_items.single_use(state, g.turn, bonus.ignores)
            i = self.asked[key]
            self.asked[key] += 1
            if answer == "yes" and i < len(items):
                self.plan.use.append(items[i])
        elif key == "fight.condition":
            waiting = rules_fights.fight_bonus(state, self.plan).conditional
            i = self.asked[key]
            self.asked[key] += 1
            if answer == "yes" and i < len(waiting):
                self.plan.conditions.append(C.slug(waiting[i][1].name))

    def _reading(self, state: Any, plan: Plan) -> Reading | None:
        g = lookup.game(state)
        try:
            bonus = rules_fights.fight_bonus(state, plan)
        except InputError:  # a plan the state no longer allows (a one-shot command changed it)
            return None
        boosts = rules_fights.boosts(state, bonus)
        fo = odds.fight_odds(bonus.total, bonus.strength, bonus.dice, boosts)
        hero = g.current()
        strengths = [lookup.monster_card(state, m).strength for m in g.group]
        args = ["dark-tower", "--bonus", str(bonus.total)]
        for s in strengths:
            args += ["--strength", str(s)]
        args += ["--dice", str(bonus.dice)]
        for value, cost in boosts:
            args += ["--boost", f"{value}:{cost}"]
        args += ["--health", f"{hero.health}/{hero.max_health}"]
        helper = _(" with {player}").format(player=g.heroes[plan.helper].player) if plan.helper is not None else ""
        against = ngettext(
            "{n} die {bonus} against strength {group}", "{n} dice {bonus} against strength {group}", bonus.dice
        ).format(n=bonus.dice, bonus=f"{bonus.total:+d}", group=bonus.strength)
        words = f"{hero.player}{helper}: {against}"
        if boosts:
            words += _(", ★ spells ") + ", ".join(_("+{b} for {c}★").format(b=b, c=c) for b, c in boosts)
        title = _("Turn {n} · {player}: fight {monsters}").format(
            n=g.turns, player=hero.player, monsters=lookup.group_text(state)
        )
        return Reading(self.fights, title, fo.win, Position(words, tuple(args)))

    def after(self, reading: Reading, state: Any, request: Any) -> Reading | None:
        if not self._track(state) or self.fights != reading.fight or getattr(request, "key", None) == "fight.cast":
            return None
        return self._reading(state, self.plan)

    def result(self, reading: Reading, state: Any) -> str | None:
        g = lookup.game(state)
        if self._track(state) and self.fights == reading.fight:
            return None
        if g.beaten > self.beaten[reading.fight]:
            return "won"
        return "tie" if g.last == "tie" else "lost"  # a tie: not beaten, and no damage dealt
