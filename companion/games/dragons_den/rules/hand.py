"""The generic tracker commands asked against the rules first (``Game.allows``, the contract's hook).

The Dragon's Den keeps every figure on the board: each hero's health changed by attacks and breaths,
treasure as chits, the den's rooms revealed as heroes enter them. The generic ``floor``, ``room``,
``item``, ``tally`` and ``talisman`` would keep a second sheet beside the game's, which no rule reads:
each is refused with the game's own command (``hp``, ``xp`` and ``gold`` are in :data:`LACKS`, refused
before they are shown).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.session.state import State

LACKS = {
    "hp": "each figure has its own health, changed by attacks and breaths: companion dragon attack, "
    "companion dragon breath (companion dragon health shows them)",
    "xp": "heroes gain no experience: the heroes' haul and the dragon's happiness decide (companion dragon score)",
    "gold": "treasure is in chits, each worth its gold: companion dragon take CHIT (companion dragon score "
    "adds them up)",
}

NOT_HERE = {
    "floor": "the den is one level: a room a hero enters is revealed with companion dragon reveal ROOM",
    "room": "a room a hero enters is revealed with companion dragon reveal ROOM",
    "item": "treasure is in chits: companion dragon take CHIT",
    "tally": "each figure's health is on the board: companion dragon attack, companion dragon breath "
    "(companion dragon health shows them)",
    "talisman": "D&D The Dragon's Den has no Talisman: heroes leave with treasure (companion dragon escape)",
    "counter": LACKS["hp"],
    "xp": LACKS["xp"],
}


def refuse(state: State, event: dict[str, Any]) -> str | None:
    """The game's own command for a generic tracker event: every one is refused (one line)."""
    return NOT_HERE.get(str(event.get("t")))
