"""The big moments of a won or lost game: the lowest chance to win met, and the roll that turned it.

A game plugs in a *probe*: given the state after an event and the request the game waits on next, the
exact chance (a Fraction, from the game's own odds code, never sampled) to win the fight under way,
or None outside a fight. The replay asks the probe after every event, so the chance is known all
along the session:

- **the lowest chance met**: the smallest chance to win a fight the player faced;
- **the roll that turned it**: in a won game, the roll (or the choice, such as a potion drunk) after
  the low point, in the same fight, that raised the chance most, with the chance before and after;
  in a lost game, the one in any fight that lowered it most.

The Inverted Tower probes at every step of a fight (its odds are the rest of the fight with the
attribute chosen); The Adventure in the Dungeon at each "fight or flee" (fighting on to the end, as
its play screen shows). The table assistants have no probe yet: their page says so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from companion.export.replay import Replay

Probe = Callable[[Any, Any], "tuple[Fraction, str] | None"]


def _tower(state: Any, request: Any) -> tuple[Fraction, str] | None:
    from companion.games.inverted_tower.view import remaining_odds

    g = state.game
    f = getattr(g, "fight", None)
    if f is None or not f.attribute or state.trackers.counter("hp").value <= 0:
        return None
    odds = remaining_odds(state, f, g.attributes[f.attribute])
    left = max(0, f.normal - f.killed) + (1 if f.strong and f.killed < f.foes else 0)
    what = f"{left} foe{'s' if left != 1 else ''} left, HP {state.trackers.counter('hp').value}, floor {g.floor}"
    return Fraction(odds.win), what


def _dungeon(state: Any, request: Any) -> tuple[Fraction, str] | None:
    if request is None or getattr(request, "key", None) != "round.action":
        return None
    from companion.games.adventure_in_the_dungeon import odds as O
    from companion.games.adventure_in_the_dungeon import rules as R
    from companion.games.adventure_in_the_dungeon.engine import model_for, snapshot

    g = state.game
    areas = R.areas(state.data)
    if g.area is None or g.area not in areas:
        return None
    area = areas[g.area]
    model = model_for(state, area)
    odds = O.fight_odds(model, snapshot(state, model), at="choice", exact=False)
    return Fraction(odds.slain), f"the {area.monster}, Area {area.number}, round {g.round}"


PROBES: dict[str, Probe] = {"inverted-tower": _tower, "talisman": _dungeon}


def probe_for(game: str) -> Probe | None:
    return PROBES.get(game)


@dataclass(frozen=True)
class Moment:
    step: int
    chance: Fraction
    what: str


@dataclass(frozen=True)
class Turn:
    """The action that turned a fight (a roll, or a choice such as drinking a potion) and the chance
    to win before and after it."""

    step: int
    before: Fraction
    after: Fraction
    #: The roll as the log keeps it (companion/log/model.py), or None for a choice.
    roll: dict[str, Any] | None
    #: The choice, as lonelog writes it ("@ Drink a potion (heal to Max HP)"), or None for a roll.
    choice: str | None = None


@dataclass(frozen=True)
class Moments:
    result: str  # "won" or "lost"
    lowest: Moment | None
    turn: Turn | None
    probed: bool


def _choice(step: Any) -> str | None:
    if step.event.get("t") != "answer":
        return None
    from companion.export.lonelog import choice_line

    return choice_line(step.request, step.event)


def outcome(finished: str | None) -> str | None:
    """ "won" or "lost" from how a game ended, or None (not over, or neither)."""
    if not finished:
        return None
    head = finished.strip().lower()
    if head.startswith(("won", "victory", "win")):
        return "won"
    if head.startswith(("lost", "dead", "died", "defeat", "lose")):
        return "lost"
    return None


def moments(replay: Replay, finished: str | None) -> Moments | None:
    result = outcome(finished)
    if result is None:
        return None
    points = [(i, s.chance) for i, s in enumerate(replay.steps) if s.chance is not None]
    if not points:
        return Moments(result, None, None, probed=False)
    low_i, low = min(points, key=lambda p: (p[1][0], p[0]))
    lowest = Moment(low_i, low[0], low[1])
    if result == "won":
        # The fight the low point is in: the stretch of steps around it with a fight on.
        first, last_step = low_i, low_i
        while first > 0 and replay.steps[first - 1].fight:
            first -= 1
        while last_step + 1 < len(replay.steps) and replay.steps[last_step + 1].fight:
            last_step += 1
    else:
        first, last_step = 0, len(replay.steps) - 1
    best: Turn | None = None
    before: Fraction | None = None
    for i in range(first, last_step + 1):
        step = replay.steps[i]
        if not step.fight:
            before = None  # a fight ended: the next one starts its own count
            continue
        after = step.chance[0] if step.chance is not None else None
        rolls = [e["r"] for e in step.entries if e["k"] == "roll"]
        choice = _choice(step) if not rolls else None
        if (rolls or choice) and before is not None and after is not None:
            delta = after - before
            wanted = (i > low_i and delta > 0) if result == "won" else delta < 0
            if wanted and (best is None or abs(delta) > abs(best.after - best.before)):
                best = Turn(i, before, after, rolls[-1] if rolls else None, choice)
        if after is not None:
            before = after
    return Moments(result, lowest, best, probed=True)
