"""Every action at the table as a small generator: it asks for dice and choices, then applies the rules.

One implementation serves both ways of playing:

- the guided menu (:mod:`.engine`) yields these steps' requests to ``companion play`` / ``next``;
- a one-shot command (:mod:`.engine.actions`) answers them (virtual dice, ``--got`` faces, options) on a copy
  of the state, records one ``dragon`` event with the answers, and the event's reducer runs the
  same step again on the session's state with those answers.

A step checks everything it can *before* its first request and raises :class:`InputError` if the
action is not possible, so bad input changes nothing. After each request it reads the state again
(a one-shot command may have changed it in between) and gives up with a log line if the action no
longer makes sense.

Draws from a cup companion keeps are a roll of ``1dN`` over the ``N`` chits left, read as the N-th
chit in the cup's order (numbers ascending; monster chits before treasure chits), asked as a virtual
roll. When the players draw real chits, they type the chit instead.

This module holds the table of actions and :func:`run`; the steps are by topic in ``engine/setup``,
``engine/moves`` (revealing, moving), ``engine/attacks`` (attacks, the breath), ``engine/abilities``
(abilities, monsters' specials) and ``engine/turns`` (turns, treasure, escapes, the end), over
``engine/cups`` (the cups and the hoard) and ``engine/common`` (what every step uses).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.errors import InputError
from companion.games.dragons_den import rules
from companion.games.dragons_den.engine.abilities import ability, special
from companion.games.dragons_den.engine.attacks import attack, breath
from companion.games.dragons_den.engine.common import Steps, den_of
from companion.games.dragons_den.engine.moves import move, reveal, reveal_dragon
from companion.games.dragons_den.engine.setup import setup
from companion.games.dragons_den.engine.turns import end_turn, escape, finish, next_hero, take
from companion.games.dragons_den.model import HEROES, IN, OVER
from companion.session.state import State


def after(state: State) -> Steps:
    """After every action: pass the turn of a hero who is no longer in the den; end a den with no hero."""
    den = den_of(state)
    if den.phase in ("setup", OVER):
        return
    if rules.nobody_inside(den):
        finish(state, "No hero is left inside the den.")
        return
    if den.phase == HEROES:
        current = den.figure(den.turn)
        if current is None or current.status != IN:
            yield from next_hero(state, current.number if current is not None else 99)


ACTIONS: dict[str, Callable[[State, dict[str, Any]], Steps]] = {
    "setup": setup,
    "reveal": reveal,
    "lair": reveal_dragon,
    "move": move,
    "attack": attack,
    "ability": ability,
    "special": special,
    "breath": breath,
    "take": take,
    "escape": escape,
    "end-turn": end_turn,
}


def run(state: State, do: str, args: dict[str, Any]) -> Steps:
    """Run the action ``do`` with ``args``, then the checks every action is followed by."""
    step = ACTIONS.get(do)
    if step is None:
        raise InputError(f"unknown action {do!r}; actions: {', '.join(ACTIONS)}")
    gen = step(state, args)
    request = next(gen, None)  # the step's checks run here: a refused action changes nothing
    den_of(state).actions += 1
    if request is not None:
        answer = yield request
        while True:
            try:
                request = gen.send(answer)
            except StopIteration:
                break
            answer = yield request
    yield from after(state)


__all__ = ["ACTIONS", "run"]
