"""The Adventure's menu keys (:mod:`companion.engine.keys`): a cure is its hero's letters, an area its
monster's. Used by :mod:`.engine`."""

from __future__ import annotations

from companion.engine.keys import assign, letters, words
from companion.games.adventure_in_the_dungeon import data as D
from companion.games.adventure_in_the_dungeon.data import HEROES

#: The keys of the menus (:mod:`companion.engine.keys`): a cure is its hero's letters, an area its
#: monster's, made once over every hero and every monster of the area list (Area 12's, the player's
#: own, takes the first letters left), so that each keeps its key while the others fall.
HERO_KEYS = assign((h.name for h in HEROES), ("le", "gi", "fi", "fl"))
AREA_KEYS = assign((a.monster for a in D.AREAS), ("le", "gi", "fi", "fl", *HERO_KEYS.values()))


def area_key(monster: str) -> str:
    """The key of the area whose monster is ``monster``."""
    return AREA_KEYS.get(monster) or letters(words(monster), (*AREA_KEYS.values(), *HERO_KEYS.values()), name=True)
