"""The numbers and lists of The Adventure in the Dungeon (1979): only what the rule text prints.

Everything the text leaves out (three heroes' numbers, Area 12) is the player's game data: it is asked
for once, kept in the per-player catalogue under the keys below, and never filled in here. Where each
number comes from is listed in ``docs/rules/adventure-in-the-dungeon.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

# ---- the four heroes, in the book's order (the monsters work down this list) ----------------------

PALADIN, RANGERESS, FIGHTER, WIZARD = range(4)
HERO_KEYS = ("paladin", "rangeress", "fighter", "wizard")


@dataclass(frozen=True, slots=True)
class Hero:
    """A hero: name and class as the book writes them, and the numbers the text gives (None: data)."""

    key: str
    name: str
    role: str
    #: Hits withstood: the hero is slain when this many hits are scored (like the monsters).
    hits: int | None = None
    #: 2d6 total needed to hit a monster ("Base Score Required to Hit a Monster").
    to_hit: int | None = None
    #: 2d6 total a monster needs to hit this hero ("Base Score Required to Be Hit").
    be_hit: int | None = None


HEROES: tuple[Hero, ...] = (
    Hero("paladin", "Adelhardt", "PALADIN", hits=9, to_hit=4, be_hit=11),
    Hero("rangeress", "Krylla", "RANGERESS"),
    Hero("fighter", "Ibli", "FIGHTER"),
    Hero("wizard", "Regalan", "WIZARD"),
)

#: The Wizard's spells hit on this 2d6 total and score this many hits (when he was not struck first).
MAGIC_TO_HIT = 4
MAGIC_HITS = 2

# ---- the player's game data: stable keys (documented in docs/rules/adventure-in-the-dungeon.md) ------

SOURCE = "source"  # "book" or "house"
SOURCES = {"book": "from the player's copy of the book", "house": "house numbers, not the book's"}
HERO_FIELDS = ("hits", "to_hit", "be_hit")
AREA12 = "area12"
AREA12_KIND = "area12.kind"  # "monster" or "empty"
FORMS = ("normal", "magic", "poison")


@dataclass(frozen=True, slots=True)
class DataField:
    """One number (or word) the player enters once from their book."""

    key: str
    prompt: str
    where: str
    lo: int = 0
    hi: int = 0
    kind: str = "number"  # "number", "text" or "choice"
    options: tuple[tuple[str, str], ...] = ()


_TABLE = "the book's table of the four characters"


def hero_fields(hero: Hero) -> tuple[DataField, ...]:
    """The numbers the text does not print for ``hero`` (none for the Paladin)."""
    if hero.hits is not None:
        return ()
    who = f"{hero.name} the {hero.role.capitalize()}"
    weapon = " without magic" if hero.key == "wizard" else ""
    return (
        DataField(
            f"{hero.key}.hits",
            f"How many hits does {who} withstand?",
            f"{_TABLE}: the number after the class, like 'Adelhardt – PALADIN: 9'",
            1,
            20,
        ),
        DataField(
            f"{hero.key}.to_hit",
            f"What 2d6 total does {who} need to hit a monster{weapon}?",
            f"{_TABLE}: Base Score Required to Hit a Monster (the Paladin's is 4)",
            2,
            12,
        ),
        DataField(
            f"{hero.key}.be_hit",
            f"What 2d6 total does a monster need to hit {who}?",
            f"{_TABLE}: Base Score Required to Be Hit (the Paladin's is 11)",
            2,
            12,
        ),
    )


_AREA12_WHERE = "Area 12 in the book's list of the dungeon's areas (the rules skip from Area 11 to Area 13)"

AREA12_FIELDS: tuple[DataField, ...] = (
    DataField("area12.name", "What is Area 12's monster called?", _AREA12_WHERE, kind="text"),
    DataField("area12.hits", "How many hits slay it?", _AREA12_WHERE, 1, 20),
    DataField(
        "area12.attacks",
        "How many heroes does it attack each round (1 to 4; 4 for every hero)?",
        _AREA12_WHERE + "; 1 if the book names no more",
        1,
        4,
    ),
    DataField(
        "area12.bonus",
        "What does it add to its attack dice (0 if nothing)?",
        _AREA12_WHERE,
        -6,
        6,
    ),
    DataField(
        "area12.penalty",
        "What must heroes subtract from their dice to hit it (0 if nothing)?",
        _AREA12_WHERE,
        0,
        6,
    ),
    DataField(
        "area12.damage",
        "How many hits does a successful attack of it score (1 unless the book says more)?",
        _AREA12_WHERE,
        1,
        4,
    ),
    DataField(
        "area12.form",
        "What is its attack form?",
        _AREA12_WHERE + "; the dwarf resists magic and poison",
        kind="choice",
        options=(("normal", "Neither magic nor poison"), ("magic", "Magical"), ("poison", "Poisonous")),
    ),
)

#: The answer to SOURCE_FIELD that takes companion's suggested house numbers in one go.
SUGGESTED = "suggested"

#: companion's SUGGESTION for a player without the book: house numbers, NOT the book's (the book's
#: table is not in the rule text). How they were chosen, and what the simulator says they give, is in
#: docs/rules/adventure-in-the-dungeon.md ("A suggested set of house numbers"). Each hero is one step
#: below the one before on every number, in the order of strength the text suggests: the Paladin (the
#: one it prints: 9 hits, 4+ to hit, hit on 11+), Ibli the dwarf fighter, Krylla the fighter and
#: magic-user, Regalan the Wizard (who fights best with his spells).
SUGGESTED_HOUSE: dict[str, int | str] = {
    "fighter.hits": 8,
    "fighter.to_hit": 5,
    "fighter.be_hit": 10,
    "rangeress.hits": 7,
    "rangeress.to_hit": 6,
    "rangeress.be_hit": 9,
    "wizard.hits": 6,
    "wizard.to_hit": 7,
    "wizard.be_hit": 8,
    AREA12_KIND: "empty",
}


def suggestion_text() -> str:
    """The suggestion in one line: ``Krylla 7 hits, hits on 6+, is hit on 9+ · …``."""
    parts = []
    for hero in HEROES:
        if hero.hits is not None:
            continue
        h = hero.key
        parts.append(
            f"{hero.name} {SUGGESTED_HOUSE[h + '.hits']} hits, hits on {SUGGESTED_HOUSE[h + '.to_hit']}+, "
            f"is hit on {SUGGESTED_HOUSE[h + '.be_hit']}+"
        )
    return " · ".join(parts) + " · no monster in Area 12"


SOURCE_FIELD = DataField(
    SOURCE,
    "Where do the numbers you are about to enter come from?",
    "the book prints three heroes' numbers and Area 12, which the rule text leaves out",
    kind="choice",
    options=(
        ("book", "From my copy of the book"),
        ("house", "No book: I'll type house numbers (the log will say so)"),
        (SUGGESTED, "No book: companion's suggested house numbers (not the book's)"),
    ),
)

AREA12_KIND_FIELD = DataField(
    AREA12_KIND,
    "What does Area 12 hold in your book?",
    _AREA12_WHERE,
    kind="choice",
    options=(("monster", "A monster (enter its numbers next)"), ("empty", "No monster")),
)


def all_fields() -> tuple[DataField, ...]:
    """Every data field in the order companion asks for them (Area 12's details only for a monster)."""
    out: list[DataField] = [SOURCE_FIELD]
    for hero in HEROES:
        out.extend(hero_fields(hero))
    out.append(AREA12_KIND_FIELD)
    out.extend(AREA12_FIELDS)
    return tuple(out)


# ---- the areas and their monsters -----------------------------------------------------------------

#: Special rules an area may have (see :class:`Area`); each is read in the rules document.
NO_FLEE = "no-flee"  # nobody can leave until it dies (the rats)
NO_SPELLS = "no-spells"  # the Wizard's spells do not work on it (the rats)
GORGON = "gorgon"  # two hits on every hero unless it was struck first that round
ENTWINE = "entwine"  # a hero it hits is entwined; a miss in turn drowns them (the octopus)
PARALYSE = "paralyse"  # a hero it hits is paralysed until the Paladin's cure (the Cadaver Creeper)
LOCKOUT = "lockout"  # a miss (not by magic) costs that hero the next round's attack (the Remorhaz)
WEBS = "webs"  # every hero rolls to cut the webs on entering (the spider)
DOUBLE_ON_12 = "double-on-12"  # two hits on a roll of 12, one otherwise (the spider)
DWARF_ONE_HIT = "dwarf-one-hit"  # its two-hit attack scores one hit on the dwarf (the Ogre Mage)
SKELETONS = "skeletons"  # a group: each member falls to one hit and each one attacks

EVERY = 0  # ``attacks`` value: it attacks every hero each round


@dataclass(frozen=True, slots=True)
class Area:
    """One area of the dungeon and its monster, as the rule text describes them."""

    number: int
    place: str
    monster: str
    #: Hits that slay it (for the skeletons: how many there are, one hit each).
    hits: int
    #: Heroes it attacks each round (EVERY: all of them).
    attacks: int = 1
    #: True when its attacks may fall on the same hero (the octopus; the skeletons).
    repeat: bool = False
    #: Added to its attack dice.
    bonus: int = 0
    #: Subtracted from the heroes' dice to hit it.
    penalty: int = 0
    #: Hits scored by one successful attack.
    damage: int = 1
    #: "normal", "magic" or "poison" (the dwarf deducts 1 from magic and poison attacks on him).
    form: str = "normal"
    #: The heroes who can hit it (empty: all); it attacks only them while any of them lives.
    only: tuple[int, ...] = ()
    rules: frozenset[str] = frozenset()
    #: Its special rules in a line, for the screen.
    summary: str = ""
    #: Its name is plural (the rats, the skeletons): "the Giant Rats attack".
    plural: bool = False

    @property
    def title(self) -> str:
        return f"Area {self.number}: {self.place}"

    def says(self, singular: str, plural: str) -> str:
        """The verb (or phrase) that agrees with the monster's name."""
        return plural if self.plural else singular


AREAS: tuple[Area, ...] = (
    Area(
        1,
        "Lair of the Ocular Terror",
        "Ocular Terror",
        8,
        attacks=EVERY,
        bonus=3,
        form="magic",
        summary="attacks every hero at +3; its attack is magic",
    ),
    Area(
        2,
        "Demon's Den",
        "Demon",
        5,
        bonus=1,
        form="magic",
        only=(PALADIN, WIZARD),
        summary="only the Paladin and the Wizard can hit it, and it fights only them; +1; magic",
    ),
    Area(
        3,
        "Rats' Nest",
        "Giant Rats",
        8,
        attacks=EVERY,
        rules=frozenset({NO_FLEE, NO_SPELLS}),
        summary="the swarm attacks every hero; no one can leave until it dies; spells do not work",
        plural=True,
    ),
    Area(
        4,
        "The Ogre Mage",
        "Ogre Mage",
        4,
        penalty=1,
        damage=2,
        rules=frozenset({DWARF_ONE_HIT}),
        summary="two hits a blow (one on the dwarf); heroes take −1 to hit it",
    ),
    Area(
        5,
        "Chamber of the Ochre Jelly",
        "Ochre Jelly",
        5,
        attacks=2,
        only=(FIGHTER, WIZARD),
        summary="only the dwarf and the Wizard can attack it, and it attacks them both",
    ),
    Area(
        6,
        "The Gorgon's Room",
        "Gorgon",
        6,
        attacks=EVERY,
        damage=2,
        rules=frozenset({GORGON}),
        summary="two hits on every hero unless it is struck first",
    ),
    Area(
        7,
        "Octopus Pool",
        "Giant Octopus",
        8,
        attacks=2,
        repeat=True,
        rules=frozenset({ENTWINE}),
        summary="attacks twice; a hero it hits is entwined, and drowns on missing it in turn",
    ),
    Area(
        8,
        "Corridor of the Cadaver Creeper",
        "Cadaver Creeper",
        2,
        form="poison",
        rules=frozenset({PARALYSE}),
        summary="a hero it hits is paralysed until the Paladin's cure (dies if the cure is spent); poison",
    ),
    Area(
        9,
        "Xorn's Burrow",
        "Xorn",
        5,
        attacks=3,
        bonus=1,
        penalty=2,
        summary="attacks three heroes at +1; heroes take −2 to hit it",
    ),
    Area(
        10,
        "Hall of the Remorhaz",
        "Remorhaz",
        7,
        bonus=2,
        penalty=2,
        damage=2,
        rules=frozenset({LOCKOUT}),
        summary="two hits at +2; heroes take −2 to hit it, and a miss costs the next attack",
    ),
    Area(
        11,
        "The Spider's Nest",
        "Giant Spider",
        3,
        form="poison",
        rules=frozenset({WEBS, DOUBLE_ON_12}),
        summary="webs trap heroes who fail to cut them on entering; two hits on a 12; poison",
    ),
    Area(
        13,
        "The Crypts",
        "Iron Skeletons",
        4,
        attacks=4,
        repeat=True,
        bonus=1,
        penalty=4,
        rules=frozenset({SKELETONS}),
        summary="four skeletons, each attacking at +1 and falling to one hit; heroes take −4 to hit them",
        plural=True,
    ),
)

AREA_NUMBERS = tuple(range(1, 14))

# ---- the score (the book's chart) -----------------------------------------------------------------

#: Points for each hero alive when the party leaves with the Talisman, and for the monsters per slain hero.
HERO_POINTS = 25
MONSTER_POINTS = 10
#: The book's chart of the heroes' points.
VERDICTS = {25: "Pyrrhic", 50: "Costly", 75: "Resounding", 100: "Triumphant"}
#: "Victory for the adventurers unless they lose three of their four members": two survivors or more.
VICTORY_SURVIVORS = 2
