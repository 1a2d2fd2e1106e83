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
    "talisman": "companion.games.adventure_in_the_dungeon",
}

#: Each game's own one-shot command group, mounted lazily as ``companion NAME ...``:
#: command name → "module:typer app attribute".
COMMAND_GROUPS: dict[str, str] = {
    "dungeon": "companion.games.adventure_in_the_dungeon.cli:app",
}

#: Other names players may type for a game.
ALIASES: dict[str, str] = {
    "it": "inverted-tower",
    "tower": "inverted-tower",
    "adventure-in-the-dungeon": "talisman",
    "aitd": "talisman",
    "dungeon": "talisman",
}


def canonical(name: str) -> str:
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = ALIASES.get(key, key)
    if key not in GAMES:
        raise NotFoundError(f"unknown game {name!r}; known games: {', '.join(GAMES)}")
    return key


def load(name: str) -> GameSpec:
    """The game's spec, importing its package on first use."""
    module = importlib.import_module(GAMES[canonical(name)])
    return module.GAME
