"""The Haunted Tower's table as the rules read it: the game on a session state, the variants' names,
heroes and items found by name, the seats, and the fight in progress (found, its log line, ended).

The guided menu (``engine.py``) and the one-shot commands (``cli/`` through ``rules/events.py``) both
call these functions, so there is one implementation of the rules. A function of the ``rules/``
modules:

- takes the dice as faces already rolled (never rolls, never prints, never reads a clock);
- checks everything first and raises :class:`~companion.errors.InputError` before changing anything;
- changes ``state.game`` and writes what happened to ``state.log``.

A fight is a small state machine (:class:`~companion.games.haunted_tower.model.Fight`): its
``phase`` names the next step, :func:`~companion.games.haunted_tower.rules.rolls.need` says what that
step asks for (a roll, a decision, an item), and one function of ``rules/fights.py`` applies each step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.errors import InputError
from companion.games.haunted_tower import data as D
from companion.games.haunted_tower.data.monsters import MONSTERS, Monster
from companion.games.haunted_tower.model import Fight, HauntedTower, Hero, Item

if TYPE_CHECKING:
    from companion.session.state import State


#: Variant names (see ``__init__.VARIANTS`` and docs/rules/haunted-tower.md).
RUN_FAIL_TURN = D.RUN_FAIL_TURN


SPECTER_UNDEAD = D.SPECTER_UNDEAD


DEAD_SCORE = D.DEAD_SCORE


def game(state: State) -> HauntedTower:
    return state.game


def norm(text: str) -> str:
    return " ".join(text.strip().lower().split())


def find_hero(g: HauntedTower, text: str, *, living: bool = True) -> Hero:
    """A hero by name, or by an unambiguous start of it (``ar`` for Aria)."""
    t = norm(text)
    pool = [h for h in g.heroes if not (living and h.out)]
    exact = [h for h in pool if norm(h.name) == t]
    matches = exact or ([h for h in pool if norm(h.name).startswith(t)] if t else [])
    if len(matches) == 1:
        return matches[0]
    names = ", ".join(h.name for h in pool) or "none yet"
    if matches:
        raise InputError(f"{text!r} could be {', '.join(h.name for h in matches)}; say which")
    gone = [h for h in g.heroes if h.out and norm(h.name) == t]
    if gone:
        raise InputError(f"{gone[0].name} is out of the game (died twice)")
    raise InputError(f"no hero {text!r} in this game; heroes: {names}")


def find_item(hero: Hero, text: str) -> Item:
    """An item the hero holds by its name, the start of its name, or the start of a word in it
    (``stake`` for the Wooden stake)."""
    t = norm(text)
    exact = [i for i in hero.items if norm(i.name) == t]
    matches = exact or ([i for i in hero.items if norm(i.name).startswith(t)] if t else [])
    if not matches and t:
        matches = [i for i in hero.items if any(w.startswith(t) for w in norm(i.name).split())]
    if len(matches) >= 1 and len({m.name for m in matches}) == 1:
        return matches[0]
    held = ", ".join(i.name for i in hero.items) or "nothing"
    if matches:
        raise InputError(f"{text!r} could be {', '.join(i.name for i in matches)}; say which")
    raise InputError(f"{hero.name} holds no item {text!r}; {hero.name} holds: {held}")


def living(g: HauntedTower) -> list[Hero]:
    return [h for h in g.heroes if not h.out]


def right_of(g: HauntedTower, hero: Hero) -> Hero | None:
    """The hero on this hero's right: the one before it in the clockwise seat order.

    "Any monster attacks against a hero are handled by the player to his or her right."
    """
    seats = [h for h in g.heroes if not h.out or h is hero]
    if len(seats) < 2:
        return None
    return seats[(seats.index(hero) - 1) % len(seats)]


def fighting(state: State) -> tuple[Fight, Hero, Monster]:
    """The fight in progress, its hero and its monster; InputError when there is none."""
    g = game(state)
    if g.fight is None:
        raise InputError("no fight is in progress; start one with: companion haunted fight HERO MONSTER")
    f = g.fight
    return f, find_hero(g, f.hero, living=False), MONSTERS[f.monster]


def fight_title(f: Fight, monster: Monster) -> str:
    return f"Fight {f.n}: {f.hero} vs the {monster.name} ({f.back} chit)"


def end_fight(state: State, f: Fight, monster: Monster, outcome: str) -> None:
    g = game(state)
    g.fight = None
    state.log.update(f.key, f"{fight_title(f, monster)}: {outcome}")
    state.log.close()
