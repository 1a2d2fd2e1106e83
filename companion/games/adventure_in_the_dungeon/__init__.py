"""The Adventure in the Dungeon (1979): four heroes seek the Holy Talisman of St. Cuthbert.

Guided play (``companion new talisman``, ``companion play``) and table-top helpers
(``companion dungeon ...``). The rule numbers the text gives are in :mod:`.data`; the ones it leaves
out are the player's game data, asked for once. The readings of unclear rules are in
``docs/rules/adventure-in-the-dungeon.md``.

``GAME`` is loaded on first use, so ``companion dungeon ...`` (whose module lives in this package)
starts without importing the engine and the odds.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name in ("GAME", "VARIANTS"):
        from companion.games.adventure_in_the_dungeon import spec

        return getattr(spec, name)
    raise AttributeError(name)
