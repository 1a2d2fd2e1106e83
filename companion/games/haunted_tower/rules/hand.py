"""The generic tracker commands asked against the rules first (``Game.allows``, the contract's hook).

The Haunted Tower keeps every figure's numbers on the board: each hero's HP on their card, magic items
as a hero's chits, the towers climbed by the climbing check, the score from stand-ups and chits. The
generic ``floor``, ``room``, ``item``, ``tally`` and ``talisman`` would keep a second sheet beside the
game's, which no rule reads: each is refused with the game's own command (``hp``, ``xp`` and ``gold``
are in :data:`LACKS`, refused before they are shown).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.session.state import State

LACKS = {
    "hp": "each hero has their own, on their card: companion haunted hp HERO -1 (companion haunted health shows them)",
    "xp": "heroes gain no experience; the score counts stand-ups and monster chits (companion haunted score)",
    "gold": "the score counts stand-ups and monster chits, not gold (companion haunted score)",
}

NOT_HERE = {
    "floor": "the heroes climb to the next tower by the climbing check: companion haunted climb HERO",
    "room": "the board's rooms are not kept here: a monster chit revealed in one is "
    "companion haunted fight HERO MONSTER",
    "item": "magic items are a hero's chits: companion haunted item HERO NAME (drop, give and use them too)",
    "tally": "each hero's HP is on their card (companion haunted hp HERO -1), and a monster's is kept in its "
    "fight (companion haunted attack)",
    "talisman": "D&D The Haunted Tower has no Talisman: the heroes score stand-ups and monster chits "
    "(companion haunted score)",
    "counter": LACKS["hp"],
    "xp": LACKS["xp"],
}


def refuse(state: State, event: dict[str, Any]) -> str | None:
    """The game's own command for a generic tracker event: every one is refused (one line)."""
    return NOT_HERE.get(str(event.get("t")))
