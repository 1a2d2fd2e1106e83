"""The Inverted Tower's own state (``state.game``): what the generic trackers do not hold.

HP, XP, gold, the level, daggers and potions live in ``state.trackers`` (counters ``hp``/``xp``/
``gold``, items ``dagger``/``potion``, ``level``), so ``companion hp -1`` and guided play change the
same numbers. The floor and its rooms are kept here (the rules need each room's kind) and mirrored
into ``state.trackers.floor`` / ``state.trackers.rooms`` for the generic room commands and the log.
"""

from __future__ import annotations

from dataclasses import dataclass, field


def _attributes() -> dict[str, int]:
    return {"STR": 0, "DEX": 0, "INT": 0}


@dataclass
class Fight:
    """The fight in progress: foes are fought in order, the Skeleton Warriors first, then the strong one."""

    #: How many Skeleton Warriors (a boss's minions are Skeleton Warriors too).
    normal: int
    #: "" (none), "elite" (a Lich), "boss" (a Necromancer Acolyte) or "necromancer" (floor 10's boss).
    strong: str = ""
    #: Foes killed so far (the next foe is number ``killed + 1``).
    killed: int = 0
    #: The attribute chosen for the fight ("" until chosen).
    attribute: str = ""
    #: The room line text before this fight's foes, and what separates them (" " or ", ").
    prefix: str = ""
    sep: str = " "
    #: Daggers spent in this fight so far.
    daggers: int = 0

    @property
    def foes(self) -> int:
        return self.normal + (1 if self.strong else 0)


@dataclass
class Tower:
    attributes: dict[str, int] = field(default_factory=_attributes)
    #: True once the hero is made (one point placed).
    created: bool = False
    #: Level-up points not placed in an attribute yet.
    points: int = 0
    #: The floor the fields below describe.
    floor: int = 1
    #: The kind of each room found on this floor, in order (``data.ROOM_TITLES`` keys; "" while it is resolved).
    rooms: list[str] = field(default_factory=list)
    #: The room the hero stands in (0: at the foot of the stairs, before any room).
    at: int = 0
    #: True once the floor heading is written (guided play or ``companion tower hero``).
    entered: bool = False
    #: The fight in progress, if any.
    fight: Fight | None = None
    #: True while guided play resolves a room (one-shot room commands wait until it is done).
    busy: bool = False
    #: The treasure of the room the hero stands in: "due" (a won encounter or a passed trap: one DR on the
    #: treasure table), "taken", or "" (none: a failed trap, an event room, a boss whose drop is its treasure).
    loot: str = ""
    #: Tallies for the closing sheet.
    kills: int = 0
    elites: int = 0
    bosses: int = 0
