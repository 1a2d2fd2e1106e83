"""The Haunted Tower's monster listing: every monster's numbers and special rule, as data.

Copied from the rulebook's "Monster Listing" (HP, Att, AC, the Undead mark and each special rule,
in our own words). The listing numbers its first eleven entries and then goes on with bullets; we
keep its order and its numbers (``listed``), and the stand-up counts from "Putting Together the Game"
(``standups``). The listing and the stand-up sheet differ in three places, kept as they are:

- "Giant Bats" and "Giant Rats" are plural in the listing; the sheet has two giant bats and one giant rat;
- the Wolf is in the listing but has no stand-up (the sheet has two dire wolves);
- the Specter of Sir Jameson has no "Undead" mark in the listing (see docs/rules/haunted-tower.md).

How a rule is encoded:

- ``on_hit`` is what a successful attack on a hero does: ``normal`` (1 HP), ``double`` (2 HP),
  ``drain`` (1 HP and a −1 chit), ``double-drain`` (2 HP and a −1 chit), ``table`` (a 1d10 roll on
  ``table``), ``steal`` (the robber fly takes a magic item) or ``rust`` (the rust monster eats a
  metal item);
- ``hurt_by`` is what can damage the monster (None: anything); the words are the ``HITS`` below;
- ``initiative`` is ``roll``, ``+1`` (the pit viper adds 1) or ``last`` (the zombie never rolls).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import InputError

#: What a hero's attack can count as, for the monsters that only some attacks can damage.
#: ``stake`` is the stake of the score table ("killing the vampire with the stake").
HITS: dict[str, str] = {
    "magical": "a magical weapon",
    "magic": "magic",
    "silver": "silver",
    "holy": "holy water",
    "stake": "the stake",
}

#: What a 1d10 roll after a hit does, per monster with a table: (lowest, highest, effect).
#: Effects: ``normal`` 1 HP; ``double`` 2 HP; ``stone`` HP to zero (the basilisk's gaze: the hero
#: dies); ``slow`` 1 HP and −2 on the hero's next attack roll on this monster (carrion crawler);
#: ``held`` 1 HP and the hero cannot move on their next turn (ghoul).
TABLES: dict[str, tuple[tuple[int, int, str], ...]] = {
    "basilisk": ((1, 4, "normal"), (5, 9, "double"), (10, 10, "stone")),
    "black-widow-spider": ((1, 7, "normal"), (8, 10, "double")),
    "carrion-crawler": ((1, 6, "normal"), (7, 10, "slow")),
    "ghoul": ((1, 7, "normal"), (8, 10, "held")),
    "pit-viper": ((1, 7, "normal"), (8, 10, "double")),
}

#: HP a hero loses for each effect of a hit (``stone`` takes them all).
EFFECT_DAMAGE: dict[str, int] = {"normal": 1, "double": 2, "slow": 1, "held": 1, "drain": 1, "double-drain": 2}

#: The words a table row is shown with.
EFFECT_TEXT: dict[str, str] = {
    "normal": "normal damage",
    "double": "double damage",
    "stone": "turned to stone: HP to zero",
    "slow": "normal damage and −2 on the next attack roll on it",
    "held": "normal damage and no move next turn",
}

#: The hit penalty the carrion crawler's venom puts on the hero's next attack roll on it.
CRAWLER_PENALTY = -2


@dataclass(frozen=True, slots=True)
class Monster:
    key: str
    name: str
    hp: int
    att: int
    ac: int
    undead: bool = False
    #: The entry's number in the listing (1-11), or None for the bulleted entries after it.
    listed: int | None = None
    #: How many stand-ups of it the box has ("Putting Together the Game"); 0 for the Wolf.
    standups: int = 1
    on_hit: str = "normal"
    hurt_by: frozenset[str] | None = None
    initiative: str = "roll"
    #: The special rule in a few words, for menus and the listing.
    special: str = ""

    @property
    def table(self) -> tuple[tuple[int, int, str], ...]:
        return TABLES.get(self.key, ())

    @property
    def initiative_bonus(self) -> int:
        return 1 if self.initiative == "+1" else 0

    def table_effect(self, face: int) -> str:
        for lo, hi, effect in self.table:
            if lo <= face <= hi:
                return effect
        raise InputError(f"{face} is not a face of 1d10")

    def table_text(self) -> str:
        """``1-4 normal damage, 5-9 double damage, 10 turned to stone``."""
        rows = []
        for lo, hi, effect in self.table:
            span = str(lo) if lo == hi else f"{lo}-{hi}"
            rows.append(f"{span} {EFFECT_TEXT[effect]}")
        return ", ".join(rows)

    def hurt_text(self) -> str:
        if self.hurt_by is None:
            return ""
        return " or ".join(HITS[h] for h in sorted(self.hurt_by, key=list(HITS).index))


_MAGIC = frozenset({"magical", "magic"})
_MAGIC_HOLY = frozenset({"magical", "magic", "holy"})

MONSTERS: dict[str, Monster] = {
    m.key: m
    for m in (
        Monster(
            "basilisk",
            "Basilisk",
            5,
            6,
            8,
            listed=1,
            on_hit="table",
            special="a hit rolls 1d10: 1-4 normal damage, 5-9 double, 10 turned to stone (HP to zero)",
        ),
        Monster(
            "black-widow-spider",
            "Black Widow Spider",
            2,
            3,
            6,
            listed=2,
            standups=2,
            on_hit="table",
            special="a hit rolls 1d10: 1-7 normal damage, 8-10 double",
        ),
        Monster("bone-golem", "Bone Golem", 4, 6, 10, listed=3, on_hit="double", special="double damage"),
        Monster(
            "carrion-crawler",
            "Carrion Crawler",
            3,
            4,
            5,
            listed=4,
            on_hit="table",
            special="a hit rolls 1d10: 1-6 normal damage, 7-10 normal and −2 on the hero's next attack roll on it",
        ),
        Monster("dire-wolf", "Dire Wolf", 4, 5, 6, listed=5, standups=2),
        Monster("displacer-beast", "Displacer Beast", 4, 5, 9, listed=6),
        Monster(
            "gargoyle",
            "Gargoyle",
            4,
            5,
            7,
            listed=7,
            standups=2,
            hurt_by=_MAGIC,
            special="only magical weapons or magic damage it",
        ),
        Monster(
            "ghoul",
            "Ghoul",
            2,
            3,
            6,
            undead=True,
            listed=8,
            standups=4,
            on_hit="table",
            special="a hit rolls 1d10: 1-7 normal damage, 8-10 normal and the hero cannot move next turn",
        ),
        Monster("giant-bat", "Giant Bats", 2, 2, 6, listed=9, standups=2),
        Monster("giant-rat", "Giant Rats", 1, 1, 5, listed=10),
        Monster(
            "giant-vampire-bat",
            "Giant Vampire Bat",
            2,
            3,
            6,
            listed=11,
            standups=2,
            on_hit="double",
            special="double damage",
        ),
        Monster(
            "mummy",
            "Mummy",
            5,
            6,
            8,
            undead=True,
            hurt_by=_MAGIC_HOLY,
            special="only magic, magical weapons or holy water damage it",
        ),
        Monster(
            "pit-viper",
            "Pit Viper",
            2,
            2,
            6,
            standups=2,
            on_hit="table",
            initiative="+1",
            special="+1 on initiative; a hit rolls 1d10: 1-7 normal damage, 8-10 double",
        ),
        Monster(
            "robber-fly",
            "Robber Fly",
            2,
            2,
            6,
            on_hit="steal",
            special="a hit takes a magic item (moved 10 squares away), no damage; "
            "it goes away when it hits a hero with no items",
        ),
        Monster(
            "rust-monster",
            "Rust Monster",
            3,
            5,
            8,
            on_hit="rust",
            special="metal items give no bonus against it; a hit eats a metal item, no damage",
        ),
        Monster("skeleton", "Skeleton", 1, 1, 5, undead=True, standups=6),
        Monster(
            "specter",
            "Specter of Sir Jameson",
            8,
            6,
            10,
            on_hit="double-drain",
            hurt_by=_MAGIC_HOLY,
            special="double energy drain; only magic, magical weapons or holy water damage it; "
            "full HP 8 at every encounter; stays when a hero runs away",
        ),
        Monster("tiger-beetle", "Tiger Beetle", 3, 5, 9, standups=2),
        Monster(
            "vampire",
            "Vampire",
            6,
            5,
            8,
            undead=True,
            on_hit="double-drain",
            hurt_by=_MAGIC_HOLY | {"stake"},
            special="double energy drain; only magic, magical weapons or holy water damage it",
        ),
        Monster(
            "werewolf",
            "Werewolf",
            4,
            4,
            7,
            standups=2,
            hurt_by=frozenset({"silver", "magical", "magic"}),
            special="only silver, magical weapons or magic damage it",
        ),
        Monster(
            "wight",
            "Wight",
            4,
            3,
            6,
            undead=True,
            standups=3,
            on_hit="drain",
            hurt_by=frozenset({"silver", "magic", "magical", "holy"}),
            special="energy drain; only silver weapons, magic, magical weapons or holy water damage it",
        ),
        Monster("wolf", "Wolf", 2, 3, 5, standups=0, special="no stand-up in the box"),
        Monster(
            "wraith",
            "Wraith",
            4,
            4,
            7,
            undead=True,
            on_hit="drain",
            hurt_by=frozenset({"silver", "magic", "magical", "holy"}),
            special="energy drain; only silver weapons, magic, magical weapons or holy water damage it",
        ),
        Monster(
            "zombie",
            "Zombie",
            2,
            2,
            4,
            undead=True,
            standups=2,
            initiative="last",
            special="always loses the initiative (no roll)",
        ),
    )
}

#: The monster that ends the game when it is killed.
SPECTER = "specter"
#: The monster whose kill with the stake scores a bonus.
VAMPIRE = "vampire"


def find(text: str) -> Monster:
    """A monster by key, name or an unambiguous start of either (``ghoul``, ``Giant Vamp``, ``sir``)."""
    t = " ".join(text.strip().lower().replace("-", " ").split())
    if not t:
        raise InputError("name a monster, e.g. ghoul or wight (companion haunted monsters lists them)")
    keyed = {m.key.replace("-", " "): m for m in MONSTERS.values()}
    if t in keyed:
        return keyed[t]
    for m in MONSTERS.values():
        names = {m.name.lower(), m.name.lower().rstrip("s")}
        if t in names:
            return m
    matches = [
        m
        for m in MONSTERS.values()
        if m.key.replace("-", " ").startswith(t) or m.name.lower().startswith(t) or t in m.name.lower().split()
    ]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise InputError(f"{text!r} could be {', '.join(m.name for m in matches)}; say which")
    raise InputError(f"no monster {text!r} in the listing; companion haunted monsters lists them")
