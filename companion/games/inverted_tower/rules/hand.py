"""The generic tracker commands asked against the draft first (``Game.allows``, the contract's hook).

``companion floor``, ``hp``, ``xp``, ``gold``, ``item``, ``room``, ``tally`` and ``talisman`` are the
table's own commands, shared by every game. In the Inverted Tower each one is asked here before it is
recorded: :func:`refuse` gives the rule it would break and the game's own command in one line, or
None. A correction (``--correct``) is not a move: the move rules do not hold it back, the numbers
the draft gives (ten floors, the hero's two wares) still do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.errors import InputError
from companion.games.inverted_tower import data as d

if TYPE_CHECKING:
    from companion.games.inverted_tower.model import Tower
    from companion.session.state import State

#: The generic commands the draft has no use for, each with the game's own way.
NOT_HERE = {
    "talisman": "the Inverted Tower has no Talisman: the tower is won by slaying the "
    f"{d.FINAL_BOSS_NAME} on floor {d.LAST_FLOOR} (companion tower kill)",
    "tally": "the hero's health is HP, and a foe falls to one combat roll: companion tower kill, "
    "companion tower fail (companion hp shows the HP)",
    "room": "rooms are found in order, each with what it holds: companion tower room KIND "
    "(companion tower back N goes back to one)",
}


def refuse(state: State, event: dict[str, Any]) -> str | None:
    """The rule a generic tracker event breaks, and the game's command for it (one line); None: allowed."""
    kind = event.get("t")
    if kind in NOT_HERE:
        return NOT_HERE[kind]
    if kind == "floor" and not 1 <= int(event["n"]) <= d.LAST_FLOOR:
        return f"the tower has {d.LAST_FLOOR} floors, not {event['n']}"
    if kind == "item" and event["name"] not in d.MERCHANT_WARES:
        return f"the hero carries daggers and potions, not {event['name']!r} (companion item dagger +1)"
    if event.get("correct"):
        return None  # the sheet fixed: said so in the log
    if state.finished is not None:
        return (
            f"the game is over ({state.finished}): nothing more happens in it "
            "(companion undo takes back the step that ended it; --correct fixes the sheet)"
        )
    if kind == "floor":
        return _stairs(state, int(event["n"]))
    if kind == "counter" and event.get("name") == "hp":
        return _hp(state, event)
    return None


def _stairs(state: State, n: int) -> str | None:
    """The stairs lead to the next floor, from the stairs room: ``floor N`` is ``tower down`` or nothing."""
    g: Tower = state.game
    if n != g.floor + 1:
        here = "you are on it" if n == g.floor else f"you are on floor {g.floor}"
        return (
            f"the stairs lead one floor down, from the stairs room: floor {n} is not the next ({here}); "
            "companion tower down takes them"
        )
    from companion.games.inverted_tower.rules.events import check_down

    try:
        check_down(state)
    except InputError as refusal:
        return str(refusal)
    return None


def _hp(state: State, event: dict[str, Any]) -> str | None:
    """Max HP rises by a level alone; the blow that takes the last HP is a failed roll (it ends the game)."""
    if "max" in event:
        return (
            f"Max HP rises only by a level, +{d.LEVEL_MAX_HP} every 10 + level XP (companion xp +N, "
            "companion tower kill); --correct fixes the sheet"
        )
    c = state.trackers.counters["hp"]
    value = int(event.get("value", 0))
    after = value if event.get("op") == "set" else c.value + value
    if after <= 0 < c.value:
        return (
            "the hero dies at 0 HP, and the game ends there: record the blow with companion tower fail "
            "(or a failed trap, companion tower room trap ATTR failed)"
        )
    return None
