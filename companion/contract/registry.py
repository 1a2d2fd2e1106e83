"""The games companion knows, by name: a plugin table of module paths, loaded only when a game is needed.

Each name maps to the module that holds the game's ``GAME`` (a :class:`companion.contract.game.Game`).
The session layer loads a game by name through :func:`load` without importing ``companion.games``
(the table holds paths, not imports), and a game outside this package plugs in with :func:`register`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from companion.errors import NotFoundError

if TYPE_CHECKING:
    from companion.contract.game import Game

#: Game name (as typed in ``companion new GAME``) to the module that holds its ``GAME``.
GAMES: dict[str, str] = {
    "freeform": "companion.games.freeform",
    "inverted-tower": "companion.games.inverted_tower",
    "dark-tower": "companion.games.dark_tower",
    "haunted-tower": "companion.games.haunted_tower",
    "dragons-den": "companion.games.dragons_den",
    "talisman": "companion.games.adventure_in_the_dungeon",
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


def register(name: str, module: str, *aliases: str) -> None:
    """Add a game (its ``GAME`` in ``module``) under ``name`` and any ``aliases``."""
    GAMES[name] = module
    for alias in aliases:
        ALIASES[alias] = name


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


def load(name: str) -> Game:
    """The game's contract, importing its module on first use."""
    module = importlib.import_module(GAMES[canonical(name)])
    return module.GAME  # type: ignore[no-any-return]
