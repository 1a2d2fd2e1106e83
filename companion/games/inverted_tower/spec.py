"""The GameSpec of this game: what the session layer, the shells and the simulator use."""

from __future__ import annotations

from companion.games.base import GameSpec

from . import data, rules, view
from .engine import play
from .model import Tower
from .rules import events
from .rules.tables import TABLES

GAME = GameSpec(
    name="inverted-tower",
    title="The Inverted Tower",
    tables=TABLES,
    variants=data.VARIANTS,
    state_type=Tower,
    setup=rules.setup,
    play=play,
    reducers=events.REDUCERS,
    status=view.status,
    advise=view.advise,
    risk=view.risk,
    board=view.board,
    best=view.best,
    xp_to_next=rules.xp_to_next,
    commands="companion.games.inverted_tower.cli:app",
    hero=view.hero,
    log_title="The Inverted Tower",
)
