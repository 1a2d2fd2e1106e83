"""The generic tracker commands asked against the rules first (``Game.allows``, the contract's hook).

Тёмная Башня keeps every hero on the table: health changed by dice, fights, obstacles and a card's own
text, items as cards, a level risen on each new floor. The generic ``floor``, ``room``, ``item``,
``tally`` and ``talisman`` would keep a second sheet beside the game's, which no rule reads: each is
refused with the game's own command (``hp``, ``xp`` and ``gold`` are in :data:`LACKS`, refused before
they are shown).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.i18n import N_, _

if TYPE_CHECKING:
    from companion.session.state import State

LACKS = {
    "hp": N_("each hero has their own health: companion dark hp PLAYER -1 (a card's own text)"),
    "xp": N_("heroes rise a level on each new floor, not by experience: companion dark floor"),
    "gold": N_("the heroes carry items, not gold: companion dark item PLAYER NAME"),
}

NOT_HERE = {
    "floor": N_("the heroes go up a floor together, each rising a level: companion dark floor"),
    "room": N_("the tower has no rooms to record: each turn draws a card of the floor, companion dark draw KIND NAME"),
    "item": N_("items are cards a player holds: companion dark item PLAYER NAME"),
    "tally": N_("each hero has their own health: companion dark hp PLAYER -1"),
    "talisman": N_("Dark Tower has no Talisman: the players win by their quest (companion dark quest)"),
    "counter": LACKS["hp"],
    "xp": LACKS["xp"],
}


def refuse(state: State, event: dict[str, Any]) -> str | None:
    """The game's own command for a generic tracker event: every one is refused (one line)."""
    line = NOT_HERE.get(str(event.get("t")))
    return _(line) if line else None
