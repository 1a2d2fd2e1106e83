"""The Dragon's Den's action steps: rounds and turns, treasure taken, escapes, the dragon player's
turn, and the end with its reckoning.

One of the action steps shared by guided play and the one-shot commands: see :mod:`.engine.steps`.
"""

from __future__ import annotations

from typing import Any

from companion.errors import InputError
from companion.games.dragons_den import data, rules
from companion.games.dragons_den.engine.common import Steps, den_of, figure, open_line, say
from companion.games.dragons_den.engine.cups import draw_number
from companion.games.dragons_den.model import DRAGON, ESCAPED, HEROES, IN, OVER, TRAPPED, Den, Score
from companion.i18n import ngettext
from companion.session.state import State


def new_round(state: State) -> None:
    den = den_of(state)
    rules.start_round(den)
    state.log.heading(f"Round {den.round}")


def take(state: State, args: dict[str, Any]) -> Steps:
    """A hero "attacks" a treasure lying in a room: he picks it up, no roll (it is his attack this turn)."""
    den = den_of(state)
    hero = figure(den, str(args.get("hero", "")))
    rules.require_hero_turn(den, hero)
    rules.require_free(den, hero, "take a treasure")
    rules.require_attack_left(den, hero, "take a treasure")
    chit = str(args.get("chit", "")).upper()
    if chit not in den.loose:
        lying = ", ".join(f"{c} in room {r}" for c, r in den.loose.items()) or "none"
        raise InputError(f"{chit or 'that'} is not a treasure lying in a room (lying: {lying})")
    den.acted.append(hero.key)
    line = open_line(state, f"{hero.name} takes a treasure")
    say(state, *rules.give(den, hero, chit, state.data))
    state.log.update(line, f"{hero.name} takes {rules.chit_text(state.data, chit)}")
    return
    yield  # a generator like every step


def escape(state: State, args: dict[str, Any]) -> Steps:
    """A hero steps onto an entrance and leaves the den for good, with what he carries."""
    den = den_of(state)
    hero = figure(den, str(args.get("hero", "")))
    rules.require_hero_turn(den, hero)
    rules.require_free(den, hero, "move")
    hero.status = ESCAPED
    gp = sum(rules.chit_value(state.data, c) for c in hero.treasure)
    n = len(hero.treasure)
    chits = ngettext("{n} treasure chit", "{n} treasure chits", n).format(n=n)
    open_line(state, f"{hero.name} leaves the den with {chits} worth {gp:,} gp")
    return
    yield  # a generator like every step


def end_turn(state: State, args: dict[str, Any] | None = None) -> Steps:
    """Pass the turn: to the next hero (7 down to 1), then to the dragon player, then a new round."""
    den = den_of(state)
    rules.require_playing(den)
    if den.phase == HEROES:
        current = den.figure(den.turn)
        number = current.number if current is not None else 99
        yield from next_hero(state, number)
    else:
        new_round(state)


def next_hero(state: State, after: int) -> Steps:
    den = den_of(state)
    nxt = rules.next_hero(den, after)
    if nxt is not None:
        den.turn = nxt.key
        return
    yield from dragon_turn(state)


def dragon_turn(state: State) -> Steps:
    """The dragon player's turn begins: once the alarm has sounded, a countdown chit is drawn first."""
    den = den_of(state)
    den.phase, den.turn = DRAGON, ""
    state.log.heading(f"Round {den.round}: the dragon player's turn", level=3)
    if not den.alarm:
        return
    line = open_line(state, "Countdown: the dragon player draws a dragon chit")
    got = yield from draw_number(
        state,
        lambda: den_of(state).cup,
        "dd.draw.countdown",
        "countdown chit",
        data.DRAGON_CHITS,
        "the number on the dragon chit drawn",
        entered=den.chits == "physical",
        name=lambda n: f"dragon chit {n}",
    )
    if got is None:
        return
    den = den_of(state)
    den.cup.remove(got[0])
    den.drawn.append(got[0])
    state.log.update(line, f"Countdown: dragon chit {got[0]} drawn; {len(den.cup)} left in the cup")
    say(state, f"Dragon chit {got[0]} is set aside: {len(den.cup)} left in the cup.")
    if not den.cup:
        finish(state, "The last dragon chit is drawn: the gates slam shut.")


def finish(state: State, why: str) -> None:
    """The end: heroes still inside are trapped; read both victory charts."""
    den = den_of(state)
    state.log.heading("The end")
    open_line(state, why)
    for h in den.heroes:
        if h.status == IN:
            h.status = TRAPPED
            say(state, f"{h.name} is trapped inside the den.")
    den.phase, den.turn = OVER, ""
    score = rules.final_score(den, state.data)
    den.score = score
    for line in score_lines(den, state.data):
        say(state, line)
    state.finished = (
        f"heroes: {score.heroes_result} ({score.haul:,} gp); dragon: {score.dragon_result} ({score.happiness})"
    )


def reckoning(den: Den, values: dict[str, Any]) -> Score:
    """The final score, or, while the game goes on, the score if the gates shut now."""
    if den.phase == OVER:
        return rules.final_score(den, values)  # read again: a treasure row may be corrected after the end
    import copy

    shut = copy.deepcopy(den)
    for h in shut.heroes:
        if h.status == IN:
            h.status = TRAPPED
    return rules.final_score(shut, values)


def score_lines(den: Den, values: dict[str, Any]) -> list[str]:
    """The reckoning, line by line, as the log and ``companion dragon score`` show it."""
    s = reckoning(den, values)
    lost = s.slain + s.trapped
    escaped = ngettext("{n} hero", "{n} heroes", s.escaped).format(n=s.escaped)
    lost_heroes = ngettext("{n} hero", "{n} heroes", lost).format(n=lost)
    monuments = f"monuments for {lost_heroes} slain or trapped: -{lost * data.MONUMENT_GP:,} gp; " if lost else ""
    left = ngettext("{n} chit", "{n} chits", s.hoard_left).format(n=s.hoard_left)
    points = ngettext("{n} point", "{n} points", s.happiness).format(n=s.happiness)
    lines = [
        f"Treasure carried out by {escaped}: {s.carried:,} gp; {monuments}the heroes' haul: {s.haul:,} gp.",
        f"Heroes' Victory Chart: {s.heroes_result} — {s.heroes_outcome}",
        f"Dragon happiness: {lost_heroes} slain or trapped + {left} left in the lair + "
        f"{s.held_by_lost} held by lost heroes = {points}.",
        f"Dragon's Victory Chart: {s.dragon_result} — {s.dragon_outcome}",
    ]
    return lines
