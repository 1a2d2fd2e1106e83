"""The Adventure in the Dungeon's guided play: the words the engine writes about heroes, in the log
and on the screen (how a hero died, the cure, the verdict). Used by :mod:`.engine` and the commands.
"""

from __future__ import annotations

from companion.games.adventure_in_the_dungeon import data as D
from companion.games.adventure_in_the_dungeon import rules as R
from companion.games.adventure_in_the_dungeon.data import HEROES, RANGERESS
from companion.games.adventure_in_the_dungeon.rules import Fight, Model


def hits_text(n: int) -> str:
    return f"{n} hit" + ("" if n == 1 else "s")


def them(i: int) -> str:
    return "her" if i == RANGERESS else "him"


def death_words(model: Model, old: Fight, new: Fight, i: int, cause: str) -> str:
    """How hero ``i`` died between ``old`` and ``new`` (a short phrase after the name)."""
    b = 1 << i
    monster = model.area.monster
    if new.hs[i] >= model.maxh[i]:
        return f"is slain by the {monster}"
    if cause == "flee" and old.twine & b:
        return f"is dragged under by the {monster} as the party flees"
    if cause == "flee" and old.trap & b:
        return f"is left in the webs, and the {monster} eats {them(i)}"
    if old.twine & b:
        return f"misses while entwined and is drowned by the {monster}"
    if old.trap & b or cause == "web":  # caught in this very step: the webs, then eaten at once
        return f"is eaten by the {monster}: no one is left to cut the webs"
    if old.para & b:
        return "dies of the paralysis: the Paladin's cure can no longer come"
    return f"dies of the {monster}'s poison: the Paladin's cure is spent"


def death_mark(fate: str) -> str:
    """The death mark on a tally for a hero who died by something other than hits."""
    if "drown" in fate or "dragged under" in fate:
        return "drowned"
    if "eat" in fate:
        return "eaten"
    return "poisoned"


def cure_words(i: int) -> str:
    """``Adelhardt cures one hit from Krylla``, or of his own."""
    if i == D.PALADIN:
        return "Adelhardt cures one of his own hits"
    return f"Adelhardt cures one hit from {HEROES[i].name}"


def verdict_words(survivors: int) -> str:
    """The verdict in words: the chart's word, and whether it is a victory at all."""
    heroes, monsters, verdict = R.score(survivors, 4 - survivors)
    if not survivors:
        return "No hero is left to carry the Talisman out"
    if not R.victory(survivors):
        return (
            f"Not a victory: three of the four heroes are lost, and the monsters outscore the heroes "
            f"{monsters} to {heroes} (the book's chart calls {heroes} points {verdict})"
        )
    return f"A {verdict} victory" if verdict else "A victory"
