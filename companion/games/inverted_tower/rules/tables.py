"""The draft's two Dice Roll tables: Events and Treasure (``companion roll DR event``)."""

from __future__ import annotations

from companion.dice.tables import Row, Table
from companion.games.inverted_tower.data import BONFIRE, MERCHANT, STAIRS, TRAP

#: Tables → Events: 1 to 3 Trap, 4 Merchant, 5 Bonfire, 6 Stairs.
EVENT = Table(
    "event",
    "Events",
    (
        Row(1, 3, "Trap", "must handle the trap"),
        Row(4, 4, "Merchant", "sells daggers and potions for 5 gp each"),
        Row(5, 5, "Bonfire", "heals to Max HP"),
        Row(6, 6, "Stairs", "to the next floor"),
    ),
)
#: The event kind of each DR total (index 1..6).
EVENT_BY_TOTAL: tuple[str, ...] = ("", TRAP, TRAP, TRAP, MERCHANT, BONFIRE, STAIRS)

#: Tables → Treasure: 1-4 1 gp, 5 Dagger, 6 Potion.
TREASURE = Table(
    "treasure",
    "Treasure",
    (
        Row(1, 4, "1 gp"),
        Row(5, 5, "Dagger"),
        Row(6, 6, "Potion"),
    ),
)
#: What each treasure total gives: (tracker, amount); "gold" is a counter, the others items.
TREASURE_BY_TOTAL: tuple[tuple[str, int], ...] = (
    ("", 0),
    ("gold", 1),
    ("gold", 1),
    ("gold", 1),
    ("gold", 1),
    ("dagger", 1),
    ("potion", 1),
)

TABLES: dict[str, Table] = {EVENT.name: EVENT, TREASURE.name: TREASURE}


def table_text(table: Table) -> str:
    """One line for the prompt: ``Treasure: 1-4 1 gp · 5 Dagger · 6 Potion``."""
    return f"{table.title}: " + " · ".join(f"{row.span} {row.name}" for row in table.rows)
