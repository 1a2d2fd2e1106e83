"""The numbers and names of The Inverted Tower (Draft 4.5), in one place.

Every number here is printed in the draft; the comment beside it says where. Readings of what the
draft leaves open (and the variants that change them) are in ``docs/rules/inverted-tower.md``.
"""

from __future__ import annotations

from companion.contract.game import Variant

#: Character Creation → Attributes.
ATTRIBUTES: tuple[str, ...] = ("STR", "DEX", "INT")
ATTRIBUTE_TEXT: dict[str, str] = {
    "STR": "how strong your character is",
    "DEX": "how dexterous your character is",
    "INT": "how intelligent your character is",
}
#: Character Creation: "Select one attribute and put one point in it."
START_POINTS = 1
#: Hit Points: "Max HP starts at 5."
START_MAX_HP = 5
#: Initial Equipment: one dagger, one potion.
START_ITEMS: dict[str, int] = {"dagger": 1, "potion": 1}
DAGGER = "dagger"
POTION = "potion"

#: Leveling up: "Every (10 + current level) XP, you level up." A new hero is level 1 (our reading).
XP_BASE = 10
START_LEVEL = 1
#: "Max HP is increased by one on level up, and 1 point can be added to an attribute."
LEVEL_MAX_HP = 1
LEVEL_POINTS = 1

#: Combat: "The Player gets 1 XP"; "Elite and bosses gives 2 XP."
XP_NORMAL = 1
XP_STRONG = 2
#: Combat: "The Player's HP is decreased by 1." (2 for elites and bosses with the elites-deal-2 variant.)
DAMAGE = 1
STRONG_DAMAGE_VARIANT = 2
#: Combat: "minus floor level (ignore this on floor 1)".
NO_FLOOR_PENALTY_ON = 1
#: Combat: a dagger "adds +1 to a combat roll and then discarded".
DAGGER_BONUS = 1
#: Traps: "If it fails, -1 HP and no treasure."
TRAP_DAMAGE = 1

#: Boss: "If passed, he has 4. Otherwise, 2."
BOSS_MINIONS_PASS = 4
BOSS_MINIONS_FAIL = 2
#: Boss: "A boss always drops one potion, one dagger, and one gold piece as treasure."
BOSS_DROP: dict[str, int] = {"potion": 1, "dagger": 1, "gold": 1}

#: Events → Merchant: "Sell items (dagger and potion) for 5gp each".
PRICE = 5
MERCHANT_WARES: tuple[str, ...] = (DAGGER, POTION)

#: Dead-ends: "A level has 12 a maximum of rooms."
MAX_ROOMS = 12
#: Objective: "get to the 10th floor and slay the necromancer (boss)".
LAST_FLOOR = 10
#: Under consideration: "No XP if the current level is +2 the floor level".
FARMING_GAP = 2

#: Flavor → Mobs.
NORMAL_NAME = "Skeleton Warrior"
ELITE_NAME = "Lich"
BOSS_NAME = "Necromancer Acolyte"
FINAL_BOSS_NAME = "Necromancer"

#: Event kinds, as the Events table names them (DR 1-3, 4, 5, 6).
TRAP, MERCHANT, BONFIRE, STAIRS = "trap", "merchant", "bonfire", "stairs"
EVENT_KINDS: tuple[str, ...] = (TRAP, MERCHANT, BONFIRE, STAIRS)
#: Room kinds of our own bookkeeping: an encounter, the boss's lair (also the stairs), an empty room.
ENCOUNTER, LAIR, EMPTY = "encounter", "lair", "empty"
ROOM_TITLES: dict[str, str] = {
    TRAP: "Trap",
    MERCHANT: "Merchant",
    BONFIRE: "Bonfire",
    STAIRS: "Stairs",
    ENCOUNTER: "Encounter",
    LAIR: "Stairs, Boss",
    EMPTY: "Empty",
}
#: What the generic room tracker calls each kind (``companion rooms`` shows it).
#: The generic room tracker's state of a room while foes stand in it (its fight is on, or lost).
FIGHTING = "active"
TRACKER_STATE: dict[str, str] = {
    TRAP: "trap",
    MERCHANT: "event",
    BONFIRE: "event",
    STAIRS: "stairs",
    ENCOUNTER: FIGHTING,  # cleared once every foe in it is slain
    LAIR: "boss",
    EMPTY: "empty",
}

# ---- variants: the draft's open questions, and readings of ours that change play ----------------
ELITES_DEAL_2 = "elites-deal-2"
NO_XP_FARMING = "no-xp-farming"
BOSS_GUARDS_STAIRS = "boss-guards-stairs"
REROLL_DUPLICATES = "reroll-duplicate-events"
MERCHANT_BUYS = "merchant-buys"
BONFIRE_EVERY_VISIT = "bonfire-every-visit"

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant(
            ELITES_DEAL_2,
            "Elites deal 2 damage",
            'Open question of the draft ("Should elites cause 2 points of damage?"): a failed roll against a '
            "Lich or a boss costs 2 HP instead of 1.",
        ),
        Variant(
            NO_XP_FARMING,
            "No XP when far above the floor",
            'Under consideration in the draft ("No XP if the current level is +2 the floor level"): kills give '
            "no XP while your level is the floor number + 2 or more.",
        ),
        Variant(
            BOSS_GUARDS_STAIRS,
            "A boss guards every stairs",
            'Reads "A Boss is ... always found in the last room of the floor" as the stairs room, wherever it '
            "is found: the floor's boss (and its minions) waits there. By default a boss is met only in a dead "
            "end (the 12th room reached without the stairs), and floor 10's Necromancer always in its 12th room.",
        ),
        Variant(
            REROLL_DUPLICATES,
            "Roll duplicate events again",
            "An event the floor already has is rolled again (DR) until it gives one the floor does not have. "
            "By default the room is empty.",
        ),
        Variant(
            MERCHANT_BUYS,
            "The merchant buys too",
            'Reads "Sell items (dagger and potion) for 5gp each" both ways: the merchant also buys your daggers '
            "and potions for 5 gp each. By default the merchant only sells.",
        ),
        Variant(
            BONFIRE_EVERY_VISIT,
            "The bonfire heals on every visit",
            "Going back to the bonfire's room heals to Max HP again. By default a bonfire heals once, when its "
            "room is found.",
        ),
    )
}


#: The hero's wares as the English words count them (``wares("dagger", 2)``: "2 daggers").
WARES = {DAGGER: ("{n} dagger", "{n} daggers"), POTION: ("{n} potion", "{n} potions")}


def wares(item: str, n: int) -> str:
    """``1 dagger``, ``2 potions``: a number and its noun, plural by the language (no "(s)")."""
    from companion.i18n import ngettext

    one, many = WARES.get(item, ("{n} " + item, "{n} " + item))
    return ngettext(one, many, n).format(n=n)
