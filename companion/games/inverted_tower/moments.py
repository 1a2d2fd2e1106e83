"""The Inverted Tower's fights as the exports' big moments read them (companion/export/moments.py).

A fight starts when a room's foes appear and ends with the last foe killed (won) or the hero dead
(lost). Once the attribute is chosen, the chance to win is the rest of the fight with that attribute
(:func:`.view.remaining_odds`, counting no further potions), with the daggers already put on the
roll about to be made; each reading names the position as ``companion odds fight inverted-tower``
takes it, so that command gives the same fraction.
"""

from __future__ import annotations

from typing import Any

from companion.games.inverted_tower import data as d
from companion.games.inverted_tower.odds import foes_text
from companion.games.inverted_tower.view import remaining_odds
from companion.sim.fights import Position, Reading


def _spend(request: Any) -> int:
    """The daggers on the roll the game asks for now (0 unless it is a fight's roll)."""
    if getattr(request, "key", None) != "combat.roll":
        return 0
    return sum(value for label, value in request.parts if label == "dagger") // d.DAGGER_BONUS


def _foes(normal: int, strong: str, floor: int) -> str:
    """``2 Skeleton Warriors + a Lich``, ``a Lich``, ``1 Skeleton Warrior``."""
    text = foes_text(normal, strong == "elite", strong in ("boss", "necromancer"), floor)
    return text.split(" + ", 1)[1] if not normal and strong else text


class Probe:
    def __init__(self) -> None:
        self.fight: Any = None
        self.n = 0

    def before(self, state: Any, request: Any, event: Any) -> Reading | None:
        g = state.game
        f = getattr(g, "fight", None)
        if f is None:
            return None
        if f is not self.fight:  # a new fight (the object is kept, so its id is never reused)
            self.fight, self.n = f, self.n + 1
        return self._reading(state, request)

    def _reading(self, state: Any, request: Any) -> Reading | None:
        g = state.game
        f = g.fight
        hp = state.trackers.counter("hp").value
        if not f.attribute or hp <= 0:
            return None
        value = g.attributes[f.attribute]
        spend = _spend(request)
        plan = (spend,) if spend else 0
        odds = remaining_odds(state, f, value, daggers=plan)
        normal = max(0, f.normal - f.killed)
        strong = bool(f.strong) and f.killed < f.foes
        args = ["inverted-tower", "--mobs", str(normal)]
        if strong:
            args.append("--elite" if f.strong == "elite" else "--boss")
        args += ["--attr", str(value), "--hp", str(hp), "--floor", str(state.trackers.floor)]
        if spend:
            args += ["--daggers", str(spend) if spend == 1 else f"{spend},0"]
        for v in state.meta.variants:
            args += ["-V", v]
        floor = state.trackers.floor
        left = _foes(normal, f.strong if strong else "", floor)
        words = f"{left} left, HP {hp}, {f.attribute} {value:+d} on floor {floor}"
        if spend:
            words += f", {spend} dagger{'s' if spend > 1 else ''} on this roll"
        title = f"Floor {floor}, room {g.at}: {_foes(f.normal, f.strong, floor)}"
        return Reading(self.n, title, odds.win, Position(words, tuple(args)))

    def after(self, reading: Reading, state: Any, request: Any) -> Reading | None:
        if getattr(state.game, "fight", None) is not self.fight or self.n != reading.fight:
            return None
        return self._reading(state, request)

    def result(self, reading: Reading, state: Any) -> str | None:
        if self.n != reading.fight:
            return "won"  # another fight began: the hero lived through this one
        if getattr(state.game, "fight", None) is self.fight:
            return None
        if state.trackers.counter("hp").value <= 0 or state.finished == "lost":
            return "lost"
        return "won"
