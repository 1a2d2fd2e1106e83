"""The Dragon's Den's numbers, as the rule text prints them: heroes, dragons, monsters, treasure, charts.

Every number the rules use lives here, so the rules module reads as rules and a reader can check this
file against the rule text line by line. Where the text is garbled (rows 9 and 10 of both treasure
tables, printed in a jumble after the last section) the row carries ``reading=True``: companion shows
it as a reading, and the player can correct it once in their game data (``treasure.dragon.9.gp`` and
so on, see :func:`companion.games.dragons_den.rules.treasure_row`).

The descriptions are companion's own summaries of each ability, not the rule text.
"""

from __future__ import annotations

from dataclasses import dataclass

# ---- rule numbers -------------------------------------------------------------------------------

#: Every special ability (hero, monster or dragon breath) costs the user this much health.
ABILITY_COST = 1
#: Deathblow and Magic Missile can each be used at most this many times in a game.
LIMITED_USES = 4
#: An attack succeeds on a d6 roll at or under the attacker's current health; this is the die.
ATTACK_DIE = 6
#: A successful attack takes this much health from its target.
ATTACK_DAMAGE = 1
#: Deathblow's damage.
DEATHBLOW_DAMAGE = 4
#: Heal Spell: health regained (never above the hero's health score).
HEAL_AMOUNT = 2
#: Elin's Cause Wounds Spell, and the wraith's Cause Wounds: health lost.
CAUSE_WOUNDS_DAMAGE = 2
WRAITH_WOUNDS_DAMAGE = 2
#: The troll regains this much, never above this.
REGENERATE_AMOUNT = 3
REGENERATE_CAP = 4
#: Shield Spell: the attack does no harm on a d6 roll of 1 to this.
SHIELD_SAVES_UP_TO = 5
#: Haste Spell: a d6 roll of 1 to this adds that many squares; a higher roll (6) fails.
HASTE_WORKS_UP_TO = 5
#: Magic Missile and Clever Trickster reach this many squares.
SPELL_RANGE = 6
#: Clever Trickster: a dragon gives this many treasures (a monster gives its one treasure).
TRICKSTER_DRAGON_TREASURES = 2
#: Greater breath: health lost, or this much less on a save (d6 at or under current health).
GREATER_BREATH_DAMAGE = 2
GREATER_BREATH_SAVED = 1
#: Lesser breath: health lost (no save).
LESSER_BREATH_DAMAGE = 1
#: Every breath costs the dragon this much health.
BREATH_COST = 1

#: Dragon chits in the dragon cup; one is the dragon, two are set aside in the standard game.
DRAGON_CHITS = 12
DRAGON_DISCARDS = 2
#: Countdown chits left in the cup: 9 in the standard game, 11 in the longer game (no discards).
COUNTDOWN = DRAGON_CHITS - 1 - DRAGON_DISCARDS
LONG_COUNTDOWN = DRAGON_CHITS - 1
#: Rooms 1 to 20 get room chits, two each; 40 chits, half monsters and half treasures.
CHIT_ROOMS = 20
CHITS_PER_ROOM = 2
MONSTER_CHITS = 20
TREASURE_CHITS = 20
#: Dragon treasure chits placed face down in the lair.
HOARD_CHITS = 10
#: The cost of a monument, subtracted from the heroes' haul for each hero slain or trapped.
MONUMENT_GP = 1000
#: The hero dice: advancing rolls 1d6 + speed, running 1d6 + 1d10 + speed.
ADVANCE_DICE = "1d6"
RUN_DICE = "1d6+1d10"


# ---- heroes -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ability:
    """A special ability. ``instead`` abilities take the place of the user's attack that turn."""

    key: str
    name: str
    summary: str
    #: At most this many uses in a game (None: no limit but health).
    max_uses: int | None = None
    #: Used instead of an attack (everything but the Shield Spell, which answers an attack).
    instead: bool = True
    #: Counts as a successful attack (on the dragon, it takes a treasure chit from the hoard).
    counts_as_attack: bool = False
    cost: int = ABILITY_COST


ABILITIES: dict[str, Ability] = {
    a.key: a
    for a in (
        Ability(
            "axe",
            "Dragonbane Rune Axe",
            "a dragon next to Grochek loses 1d6 health; monsters are not affected",
            counts_as_attack=True,
        ),
        Ability(
            "deathblow",
            "Deathblow",
            f"a monster or dragon next to Jared loses {DEATHBLOW_DAMAGE} health",
            max_uses=LIMITED_USES,
            counts_as_attack=True,
        ),
        Ability(
            "heal",
            "Heal Spell",
            f"Elin or a hero next to her regains {HEAL_AMOUNT} health, never above the hero's health score",
        ),
        Ability(
            "wounds",
            "Cause Wounds Spell",
            f"a monster or dragon next to Elin loses {CAUSE_WOUNDS_DAMAGE} health",
            counts_as_attack=True,
        ),
        Ability(
            "shield",
            "Shield Spell",
            f"when Ren is hit, roll 1d6: on 1-{SHIELD_SAVES_UP_TO} the hit does no harm; on a 6 it fails",
            instead=False,
        ),
        Ability(
            "missile",
            "Magic Missile Spell",
            f"a monster or dragon within {SPELL_RANGE} squares of Ren loses 1d6 health",
            max_uses=LIMITED_USES,
            counts_as_attack=True,
        ),
        Ability(
            "trickster",
            "Clever Trickster",
            f"a monster within {SPELL_RANGE} squares gives Talina its treasure; a dragon gives "
            f"{TRICKSTER_DRAGON_TREASURES} treasures at random",
        ),
        Ability(
            "haste",
            "Haste Spell",
            f"when Cara advances or runs, roll 1d6: 1-{HASTE_WORKS_UP_TO} adds that many squares; a 6 fails",
        ),
        Ability(
            "charm",
            "Charm Spell",
            "a monster or dragon next to Cara gives her one treasure, unharmed",
        ),
        Ability(
            "sneak",
            "Sneak",
            "next to the dragon, Sam takes one treasure chit from the hoard, and its breath cannot touch "
            "him this dragon turn; no effect on monsters",
        ),
    )
}


@dataclass(frozen=True, slots=True)
class HeroCard:
    number: int
    key: str
    name: str
    kind: str
    health: int
    speed: int
    abilities: tuple[str, ...]

    @property
    def title(self) -> str:
        return f"{self.name}, {self.kind}"


HEROES: tuple[HeroCard, ...] = (
    HeroCard(1, "grochek", "Grochek Hammerfist", "Dwarf", 14, 1, ("axe",)),
    HeroCard(2, "jared", "Jared O'loria", "Fighter", 12, 1, ("deathblow",)),
    HeroCard(3, "elin", "Reverend Elin", "Cleric", 10, 2, ("heal", "wounds")),
    HeroCard(4, "ren", "Ren Wardo", "Magic-User", 7, 4, ("shield", "missile")),
    HeroCard(5, "talina", "Talina", "Thief", 8, 3, ("trickster",)),
    HeroCard(6, "cara", "Cara Windwright", "Elf", 8, 3, ("haste", "charm")),
    HeroCard(7, "sam", "Sam Barleyman", "Halfling", 8, 2, ("sneak",)),
)
HERO_BY_NUMBER = {h.number: h for h in HEROES}
HERO_BY_KEY = {h.key: h for h in HEROES}

# ---- dragons ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DragonNote:
    chit: int
    age: str
    colour: str
    health: int
    speed: int
    #: "greater" (2 health, 1 on a save) or "lesser" (1 health, no save).
    breath: str
    breath_name: str

    @property
    def name(self) -> str:
        return f"{self.age} {self.colour} Dragon"

    @property
    def breath_title(self) -> str:
        return f"{self.breath.capitalize()} {self.breath_name} Breath"


#: Each colour comes in four ages: (age, health, speed, breath), chits 1-4 black, 5-8 green, 9-12 red.
_AGES = (
    ("Aged", 24, 10, "greater"),
    ("Adult", 20, 8, "greater"),
    ("Young", 18, 6, "lesser"),
    ("Yearling", 16, 4, "lesser"),
)
_COLOURS = (("Black", "Acid"), ("Green", "Chlorine Gas"), ("Red", "Fire"))

DRAGONS: tuple[DragonNote, ...] = tuple(
    DragonNote(c * 4 + a + 1, age, colour, health, speed, breath, breath_name)
    for c, (colour, breath_name) in enumerate(_COLOURS)
    for a, (age, health, speed, breath) in enumerate(_AGES)
)
DRAGON_BY_CHIT = {d.chit: d for d in DRAGONS}

# ---- monsters -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MonsterNote:
    chit: int
    name: str
    health: int
    speed: int
    #: "paralysis", "regenerate", "wounds" or "" (the text gives no special to the others).
    special: str = ""


MONSTERS: tuple[MonsterNote, ...] = (
    MonsterNote(1, "Fire Beetle", 1, 1),
    MonsterNote(2, "Giant Rat", 1, 4),
    MonsterNote(3, "Goblin", 1, 6),
    MonsterNote(4, "Giant Racer Snake", 1, 2),
    MonsterNote(5, "Lizard Man", 2, 1),
    MonsterNote(6, "Troglodyte", 2, 2),
    MonsterNote(7, "Giant Centipede", 2, 3),
    MonsterNote(8, "Giant Crab Spider", 2, 4),
    MonsterNote(9, "Troglodyte Warrior", 3, 2),
    MonsterNote(10, "Harpy", 3, 6),
    MonsterNote(11, "Carrion Crawler", 4, 4, "paralysis"),
    MonsterNote(12, "Grizzly Bear", 4, 2),
    MonsterNote(13, "Gelatinous Cube", 6, 1),
    MonsterNote(14, "Lizard Man Warrior", 5, 2),
    MonsterNote(15, "Troll", 4, 1, "regenerate"),
    MonsterNote(16, "Shadow", 5, 3),
    MonsterNote(17, "Wererat", 6, 4),
    MonsterNote(18, "Hill Giant", 8, 2),
    MonsterNote(19, "Lizard Man Chieftain", 8, 3),
    MonsterNote(20, "Wraith", 8, 2, "wounds"),
)
MONSTER_BY_CHIT = {m.chit: m for m in MONSTERS}

SPECIALS: dict[str, tuple[str, str]] = {
    "paralysis": ("Paralysis", "a hero next to it may not advance, run or attack on his next turn"),
    "regenerate": ("Regenerate", f"regains {REGENERATE_AMOUNT} health, never above {REGENERATE_CAP}"),
    "wounds": ("Cause Wounds", f"every hero, monster or dragon next to it loses {WRAITH_WOUNDS_DAMAGE} health"),
}

# ---- treasure -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TreasureRow:
    number: int
    name: str
    gp: int
    #: True where the text is garbled and this is companion's reading of it (see docs/rules).
    reading: bool = False


DRAGON_TREASURE: tuple[TreasureRow, ...] = (
    TreasureRow(1, "Silver ring", 200),
    TreasureRow(2, "Amber amulet", 300),
    TreasureRow(3, "Silver armband", 300),
    TreasureRow(4, "Gem-studded brooch", 500),
    TreasureRow(5, "Pearl necklace", 500),
    TreasureRow(6, "Jade statuette", 500),
    TreasureRow(7, "Diamond tiara", 1000),
    TreasureRow(8, "Sack of diamonds", 1500),
    TreasureRow(9, "Jeweled scepter", 1750, reading=True),
    TreasureRow(10, "Crown of glory", 2000, reading=True),
)

MONSTER_TREASURE: tuple[TreasureRow, ...] = (
    TreasureRow(1, "Small bag of coins", 200),
    TreasureRow(2, "Small bag of coins", 300),
    TreasureRow(3, "Small bag of coins", 400),
    TreasureRow(4, "Small bag of coins", 500),
    TreasureRow(5, "Small gemstone", 500),
    TreasureRow(6, "Large sack of coins", 500),
    TreasureRow(7, "Large sack of coins", 1000),
    TreasureRow(8, "Large sack of coins", 1500),
    TreasureRow(9, "Jade amulet", 1750, reading=True),
    TreasureRow(10, "Small bag of gemstones", 2000, reading=True),
    *(TreasureRow(n, "Blank", 0, reading=True) for n in range(11, TREASURE_CHITS + 1)),
)

TREASURE_TABLES: dict[str, tuple[TreasureRow, ...]] = {"dragon": DRAGON_TREASURE, "monster": MONSTER_TREASURE}

# ---- victory charts -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChartRow:
    """A row of a victory chart: a named result (``lo`` None) or a band ``lo``..``hi`` (hi None: or more)."""

    result: str
    outcome: str
    lo: int | None = None
    hi: int | None = None


HEROES_CHART: tuple[ChartRow, ...] = (
    ChartRow("Dragon slain!", "A great triumph: the Duke holds a banquet for the heroes."),
    ChartRow("10,000+ gp", "A fabulous success: the land sings of your deeds.", 10_000, None),
    ChartRow("5,000-9,999 gp", "A notable feat: all Karameikos knows your names.", 5_000, 9_999),
    ChartRow("2,000-4,999 gp", "Quite a haul: long-lost relatives come asking for loans.", 2_000, 4_999),
    ChartRow("500-1,999 gp", "Not bad: the expenses are paid and there is enough for a party.", 500, 1_999),
    ChartRow("250-499 gp", "Nothing to brag about: better luck next time.", 250, 499),
    ChartRow("0-249 gp", "A humiliating disaster: the tavern maids laugh behind your backs.", 0, 249),
    ChartRow("Heroes slain!", "Dragon food: every hero slain or trapped feeds the beast."),
)

DRAGON_CHART: tuple[ChartRow, ...] = (
    ChartRow("Dragon rules!", "Every hero slain or trapped: the whole land trembles at your name."),
    ChartRow("15+ points", "That will teach them: adventurers give your lair a wide berth.", 15, None),
    ChartRow("10-14 points", "Still fearsome, if a little nervous: most of the trove is safe.", 10, 14),
    ChartRow("5-9 points", "Fie on manthings: you grumble on your shrunken trove.", 5, 9),
    ChartRow("0-4 points", "Shame and desolation: your own minions drive you out.", 0, 4),
    ChartRow("Dragon slain!", "Total defeat: your head is paraded through the cities."),
)
