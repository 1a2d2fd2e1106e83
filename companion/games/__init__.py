"""The games companion knows, one folder each, loaded only when a command needs one.

Each game package exposes ``GAME``, a :class:`companion.games.base.GameSpec`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from companion.errors import NotFoundError

if TYPE_CHECKING:
    from companion.games.base import GameSpec

#: Game name (as typed in ``companion new GAME``) to the package that holds it.
GAMES: dict[str, str] = {
    "freeform": "companion.games.freeform",
    "inverted-tower": "companion.games.inverted_tower",
    "dark-tower": "companion.games.dark_tower",
    "haunted-tower": "companion.games.haunted_tower",
    "dragons-den": "companion.games.dragons_den",
    "talisman": "companion.games.adventure_in_the_dungeon",
}

#: Each game's own one-shot command group, mounted lazily as ``companion NAME ...``:
#: command name → "module:typer app attribute".
COMMAND_GROUPS: dict[str, str] = {
    "tower": "companion.games.inverted_tower.cli:app",
    "dark": "companion.games.dark_tower.cli:app",
    "haunted": "companion.games.haunted_tower.cli:app",
    "dragon": "companion.games.dragons_den.cli:app",
    "dungeon": "companion.games.adventure_in_the_dungeon.cli:app",
}

#: Other names players may type for a game.
ALIASES: dict[str, str] = {
    "it": "inverted-tower",
    "tower": "inverted-tower",
    "тёмная-башня": "dark-tower",
    "темная-башня": "dark-tower",
    "dtower": "dark-tower",
    "ht": "haunted-tower",
    "dd": "dragons-den",
    "adventure-in-the-dungeon": "talisman",
    "aitd": "talisman",
    "dungeon": "talisman",
}


def canonical(name: str) -> str:
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = ALIASES.get(key, key)
    if key not in GAMES:
        from companion.errors import closest

        near = closest(key, [*GAMES, *ALIASES])
        from companion.i18n import _, quote

        raise NotFoundError(
            _("unknown game {name}; known games: {games}").format(name=quote(name), games=", ".join(GAMES)),
            hint=_("did you mean {name}?").format(name=ALIASES.get(near, near)) if near else None,
        )
    return key


def load(name: str) -> GameSpec:
    """The game's spec, importing its package on first use."""
    module = importlib.import_module(GAMES[canonical(name)])
    return module.GAME
