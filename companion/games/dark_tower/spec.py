"""The GameSpec of this game: what the session layer, the shells and the simulator use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.base import GameSpec, Variant
from companion.games.dark_tower import data
from companion.games.dark_tower.model import DarkTower
from companion.i18n import N_

if TYPE_CHECKING:
    from companion.engine.requests import Engine, Request
    from companion.session.state import State


def setup(state: State) -> None:
    # The language chosen at ``companion new`` (None: English, and guided setup asks the players).
    state.game = DarkTower(lang=state.meta.lang or "en")


def play(state: State) -> Engine:
    from companion.games.dark_tower.engine import play as run

    return run(state)


def status(state: State) -> list[tuple[str, str]]:
    from companion.games.dark_tower.view import status as rows

    return rows(state)


def controls(state: State) -> list[object]:
    from companion.games.dark_tower.view import controls as made

    return made(state)


def board(state: State) -> object:
    from companion.games.dark_tower.view import board as made

    return made(state)


def best(state: State, request: Request) -> str | None:
    from companion.games.dark_tower.engine.fights import best as favoured

    return favoured(state, request)


def hero(state: State) -> str | None:
    from companion.games.dark_tower.rules import cards, lookup

    g = state.game
    if not isinstance(g, DarkTower) or not g.heroes:
        return None
    return ", ".join(f"{h.player} ({cards.title(lookup.hero_card(state, h))})" for h in g.heroes)


def _reduce(state: State, event: dict) -> None:
    from companion.games.dark_tower.rules.events import reduce

    reduce(state, event)


GAME = GameSpec(
    name="dark-tower",
    title=N_("Dark Tower (Тёмная Башня)"),
    variants={
        data.FIXED_MONSTERS: Variant(
            data.FIXED_MONSTERS,
            "A fixed number of monsters per floor",
            "Reads 'по 4 монстра, 1 препятствию на каждого участника' as 4 monsters on floor 1 (3 on floors 2 "
            "and 3) whatever the number of players; only the obstacles and items scale with the players.",
        )
    },
    state_type=DarkTower,
    setup=setup,
    play=play,
    reducers={"dark": _reduce},
    status=status,
    board=board,
    best=best,
    controls=controls,
    commands="companion.games.dark_tower.cli:app",
    hero=hero,
    log_title=N_("Dark Tower"),
    refresh=True,
)
