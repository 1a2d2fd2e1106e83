"""The Inverted Tower (Draft 4.5): a solo dungeon crawl down ten floors, fully guided or recorded by hand.

- guided play: ``companion new inverted-tower`` then ``companion play`` (:mod:`.engine`);
- table-top play: ``companion tower ...`` one-shot commands (:mod:`.cli`, reducers in :mod:`.rules.events`);
- exact fight odds: :func:`.odds.fight_odds`.

The rule numbers are in :mod:`.data` and :mod:`.rules.tables`; the readings of what the draft leaves open
are in ``docs/rules/inverted-tower.md``.

``GAME`` is built on first use (in :mod:`.spec`), so that importing the command group loads only typer.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "GAME":
        from companion.games.inverted_tower.spec import GAME

        return GAME
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
