"""The games companion knows, one folder each, loaded only when a command needs one.

Each game package exposes ``GAME``, a :class:`companion.contract.game.Game` (built in its ``spec.py``).
The names and the loading live one layer down, in :mod:`companion.contract.registry` (the session
layer loads a game through it); this package adds each game's one-shot command group.
"""

from __future__ import annotations

from companion.contract.registry import ALIASES, GAMES, canonical, load

__all__ = ["ALIASES", "COMMAND_GROUPS", "GAMES", "canonical", "load"]

#: Each game's own one-shot command group, mounted lazily as ``companion NAME ...``:
#: command name → "module:typer app attribute".
COMMAND_GROUPS: dict[str, str] = {
    "tower": "companion.games.inverted_tower.cli:app",
    "dark": "companion.games.dark_tower.cli:app",
    "haunted": "companion.games.haunted_tower.cli:app",
    "dragon": "companion.games.dragons_den.cli:app",
    "dungeon": "companion.games.adventure_in_the_dungeon.cli:app",
}
