"""The Adventure in the Dungeon's guided play, first: the player's numbers, asked for once.

The rule text prints only the Paladin's numbers and the Wizard's spell; the engine asks for the rest
(kept in the player's catalogue) before the first area. Used by :mod:`.engine`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.engine.requests import REFRESH, Choice, Number, Option, Text
from companion.games.adventure_in_the_dungeon import data as D

if TYPE_CHECKING:
    from companion.engine.requests import Engine
    from companion.session.state import State


# ---- the player's numbers -------------------------------------------------------------------------


def valid(fld: D.DataField, value: Any) -> bool:
    """Whether a stored value fits its field (a hand-edited catalogue may hold anything)."""
    if fld.kind == "choice":
        return value in {v for v, _ in fld.options}
    if fld.kind == "text":
        return isinstance(value, str) and bool(value.strip())
    return isinstance(value, int) and not isinstance(value, bool) and fld.lo <= value <= fld.hi


def missing(values: dict[str, Any]) -> list[D.DataField]:
    """The fields still to ask for, in order (Area 12's details only if it holds a monster)."""
    out = []
    for fld in D.all_fields():
        if fld.key.startswith("area12.") and fld.key != D.AREA12_KIND and values.get(D.AREA12_KIND) != "monster":
            continue
        if not valid(fld, values.get(fld.key)):
            out.append(fld)
    return out


def ask_field(fld: D.DataField) -> Number | Text | Choice:
    """The request that asks the player for one field (its key: ``data.`` and the field's key)."""
    key = "data." + fld.key
    if fld.kind == "choice":
        return Choice(key, f"{fld.prompt} ({fld.where})", tuple(Option(v, label) for v, label in fld.options))
    if fld.kind == "text":
        return Text(key, f"{fld.prompt} ({fld.where})")
    return Number(key, fld.prompt, fld.lo, fld.hi, where=fld.where)


def ask_data(state: State) -> Engine:
    """Ask once for every number the text does not print; answers go to the player's catalogue."""
    first = True
    while True:
        todo = missing(state.data)
        if not todo:
            return
        if first and state.log.enabled:
            state.log.heading("Numbers from the book")
            state.log.text(
                "The rule text prints only the Paladin's numbers and the Wizard's spell; companion asks for "
                "the rest once and keeps them for every game (companion dungeon data shows and edits them)."
            )
        first = False
        fld = todo[0]
        answer = yield ask_field(fld)
        if answer is REFRESH:
            continue  # a hand command meanwhile (the number given with companion dungeon data): ask again
        if fld.key == D.SOURCE and answer == D.SUGGESTED:
            # companion's suggestion, stored as house numbers like any the player types
            state.data[D.SOURCE] = "house"
            state.data.update(D.SUGGESTED_HOUSE)
            if state.log.enabled:
                state.log.text("companion's suggested house numbers, not the book's: " + D.suggestion_text() + ".")
            continue
        state.data[fld.key] = answer
