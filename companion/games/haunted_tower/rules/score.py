"""The Haunted Tower's score: each hero's line, the winners, and the end of the game.

One implementation of the rules for guided play and the one-shot commands: see :mod:`.lookup`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.errors import InputError
from companion.games.haunted_tower import data as D
from companion.games.haunted_tower.data.monsters import MONSTERS
from companion.games.haunted_tower.model import Hero
from companion.games.haunted_tower.rules.lookup import DEAD_SCORE, end_fight, game

if TYPE_CHECKING:
    from companion.session.state import State


@dataclass(frozen=True)
class ScoreLine:
    hero: str
    counts: dict[str, int]
    points: dict[str, int]
    total: int
    out: bool
    scored: bool


def score_line(hero: Hero, variants: list[str]) -> ScoreLine:
    backs = [c.back for c in hero.chits] + [i.back for i in hero.items]
    counts = {
        "standups": len(hero.standups),
        "blue": backs.count("blue"),
        "purple": backs.count("purple"),
        "stake": int(hero.stake),
        "specter_damaged": int(hero.specter_damaged),
        "specter_killed": int(hero.specter_killed),
    }
    points = {k: n * D.POINTS[k] for k, n in counts.items()}
    scored = not hero.out or DEAD_SCORE in variants
    return ScoreLine(hero.name, counts, points, sum(points.values()) if scored else 0, hero.out, scored)


def scores(state: State) -> list[ScoreLine]:
    return [score_line(h, state.meta.variants) for h in game(state).heroes]


def winners(lines: list[ScoreLine]) -> list[str]:
    eligible = [line for line in lines if line.scored]
    if not eligible:
        return []
    best = max(line.total for line in eligible)
    return [line.hero for line in eligible if line.total == best]


def finish(state: State, reason: str) -> None:
    """End the game: the final score in the log, the winner(s) in ``state.finished``."""
    g = game(state)
    if g.phase == "over":
        raise InputError("the game is already over")
    if g.fight is not None:
        m = MONSTERS[g.fight.monster]
        end_fight(state, g.fight, m, "the game ended")
    g.phase = "over"
    lines = scores(state)
    state.log.heading("Final score")
    state.log.text(f"The game ends: {reason}.")
    for line in lines:
        if not line.scored:
            state.log.text(f"{line.hero}: out of the game (died twice), no score.")
            continue
        bits = [f"{D.SHORT[key]} {line.counts[key]}×{D.POINTS[key]}" for key in D.POINTS if line.counts[key]]
        state.log.text(f"{line.hero}: {line.total} points" + (f" ({'; '.join(bits)})" if bits else ""))
    won = winners(lines)
    best = max((line.total for line in lines if line.scored), default=0)
    if not won:
        state.finished = "no hero left to win"
    elif len(won) == 1:
        state.finished = f"{won[0]} wins with {best} points"
    else:
        state.finished = f"{' and '.join(won)} share the win with {best} points"
    state.log.text(state.finished[0].upper() + state.finished[1:] + ".")
