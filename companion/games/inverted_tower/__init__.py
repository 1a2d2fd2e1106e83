"""The Inverted Tower (Draft 4.5): a solo dungeon crawl down ten floors, fully guided or recorded by hand.

- guided play: ``companion new inverted-tower`` then ``companion play`` (:mod:`.engine`);
- table-top play: ``companion tower ...`` one-shot commands (:mod:`.cli`, reducers in :mod:`.events`);
- exact fight odds: :func:`.odds.fight_odds`.

The rule numbers are in :mod:`.data` and :mod:`.tables`; the readings of what the draft leaves open
are in ``docs/rules/inverted-tower.md``.
"""

from __future__ import annotations

from companion.games.base import GameSpec

from . import data, events, rules, view
from .engine import play
from .state import Tower
from .tables import TABLES

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
    xp_to_next=rules.xp_to_next,
    commands="companion.games.inverted_tower.cli:app",
    hero=view.hero,
    log_title="The Inverted Tower",
)
