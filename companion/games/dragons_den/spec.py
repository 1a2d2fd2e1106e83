"""The Dragon's Den as a GameSpec: its variants, state, engine, reducer and status."""

from __future__ import annotations

from companion.games.base import GameSpec, Variant
from companion.games.dragons_den import engine, rules, view
from companion.games.dragons_den.engine import actions
from companion.games.dragons_den.model import Den
from companion.session.state import State


def setup(state: State) -> None:
    state.game = rules.new_den(state.meta.variants)


GAME = GameSpec(
    name="dragons-den",
    title="D&D The Dragon's Den",
    variants={
        rules.LONG: Variant(
            rules.LONG,
            "The longer game",
            "No dragon chits are set aside at setup: 11 countdown chits instead of 9 (an option the rules give).",
        ),
        rules.SHIELD_ATTACKS_ONLY: Variant(
            rules.SHIELD_ATTACKS_ONLY,
            "The Shield Spell against attacks only",
            "Ren's Shield answers a monster's successful attack but not the dragon's breath (companion's default "
            "reading lets it answer the breath too, which the rules call the dragon's attack).",
        ),
        rules.ONE_EACH: Variant(
            rules.ONE_EACH,
            "One monster and one treasure per room",
            "The dragon player separates the room chits so every room holds one monster and one treasure "
            "(an option the rules give).",
        ),
    },
    state_type=Den,
    setup=setup,
    play=engine.play,
    reducers={actions.EVENT: actions.reduce},
    status=view.status_rows,
    board=view.board,
    commands="companion.games.dragons_den.cli:app",
    hero=view.hero_line,
    log_title="The Dragon's Den",
)
