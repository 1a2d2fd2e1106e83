"""The GameSpec of this game: what the session layer, the shells and the simulator use."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.games.base import GameSpec, Variant
from companion.games.haunted_tower.data import DEAD_SCORE, RUN_FAIL_TURN, SPECTER_UNDEAD
from companion.games.haunted_tower.model import HauntedTower

if TYPE_CHECKING:
    from companion.engine.requests import Engine, Request
    from companion.session.state import State

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant(
            RUN_FAIL_TURN,
            "A failed run-away only loses the hero's attack",
            "The rulebook says that after a failed run-away 'the monster now gets its attack roll'. By default, "
            "when the monster has already attacked in that round, it attacks once more at once; with this "
            "variant it attacks only on its next turn.",
        ),
        Variant(
            SPECTER_UNDEAD,
            "The specter counts as undead",
            "The monster listing does not mark the Specter of Sir Jameson as undead; with this variant hero "
            "abilities against the undead work on it.",
        ),
        Variant(
            DEAD_SCORE,
            "Heroes out of the game still score",
            "By default a hero who died twice is out of the game and out of the score; with this variant "
            "the chits and stand-ups they won still count.",
        ),
    )
}


def setup(state: State) -> None:
    state.game = HauntedTower()


# The rules load when a session of this game is played or changed, not when ``companion haunted
# --help`` or the root help lists the command group: these thin functions import them then.


def play(state: State) -> Engine:
    from companion.games.haunted_tower.engine import play as run

    return run(state)


def reduce(state: State, event: dict[str, Any]) -> None:
    from companion.games.haunted_tower.rules.events import reduce as fold

    fold(state, event)


def advise(state: State, request: Request) -> list[str]:
    """The exact odds of the whole fight before the hero decides (computed only when shown)."""
    if request.key != "fight.turn" or state.game is None or state.game.fight is None:
        return []
    from companion.games.haunted_tower.view import fight_advice

    return fight_advice(state)


def best(state: State, request: Request) -> str | None:
    """At a hero's turn in a fight: the attack with the best chance to win a duel to the end (the one
    the whole-fight odds are shown for, listed first), where it can win at all."""
    if request.key != "fight.turn" or state.game is None or state.game.fight is None:
        return None
    from companion.games.haunted_tower.rules import lookup
    from companion.games.haunted_tower.view import best_weapon, duel_for

    _f, hero, monster = lookup.fighting(state)
    weapon = best_weapon(state, hero, monster)
    if not duel_for(state, weapon).win:
        return None  # no attack can win (the Gargoyle without magic): none is marked
    value = f"attack:{weapon.name if weapon else ''}"
    return value if value in getattr(request, "values", lambda: ())() else None


def status(state: State) -> list[tuple[str, object]]:
    from companion.games.haunted_tower.view import status_rows

    return status_rows(state)


def controls(state: State) -> list[object]:
    from companion.games.haunted_tower.view import controls as made

    return made(state)


def board(state: State) -> object:
    from companion.games.haunted_tower.view import board as made

    return made(state)


def hero_line(state: State) -> str | None:
    heroes = state.game.heroes if state.game else []
    return ", ".join(h.name for h in heroes) or None


GAME = GameSpec(
    name="haunted-tower",
    title="D&D The Haunted Tower",
    variants=VARIANTS,
    state_type=HauntedTower,
    setup=setup,
    play=play,
    reducers={"haunted": reduce},
    status=status,  # type: ignore[arg-type]
    advise=advise,
    board=board,
    best=best,
    controls=controls,
    commands="companion.games.haunted_tower.cli:app",
    hero=hero_line,
    log_title="D&D: The Haunted Tower",
    refresh=True,
)
