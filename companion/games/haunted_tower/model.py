"""The Haunted Tower's state: heroes, what they carry and keep, the fight in progress, the round.

Plain dataclasses (saved by the session codec from their type hints). The hero cards and the magic
item chits are not in the rulebook, so :class:`Card` and :class:`Item` hold what the players typed
from their own cards and chits; :meth:`Card.to_data` / :meth:`Item.to_data` are the form the
per-player catalogue keeps (``hero.<name>`` and ``item.<name>`` in ``state.data``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games.haunted_tower.data import LIMITS
from companion.games.haunted_tower.data.monsters import HITS

#: How a magic item is used: ``worn`` bonuses always count (armor, shield, a ring); ``attack`` is
#: picked for one attack at a time (weapons, holy water); ``spend`` is used up by hand (a potion:
#: companion counts its uses and leaves its effect to the players).
ITEM_USES: dict[str, str] = {
    "worn": "worn or carried: its bonuses always count",
    "attack": "used to attack: picked for an attack, one at a time",
    "spend": "used up by hand (e.g. a potion): companion only counts its uses",
}


@dataclass
class Bonus:
    """What a hero card's special ability adds in a fight, as the player read it off the card."""

    attack: int = 0
    damage: int = 0
    ac: int = 0
    #: ``all`` monsters, or ``undead`` only (the listing marks the undead).
    vs: str = "all"
    #: What the hero's own attacks count as (e.g. ``magic``), against the monsters only some attacks hurt.
    hits: list[str] = field(default_factory=list)

    def any(self) -> bool:
        return bool(self.attack or self.damage or self.ac or self.hits)

    def text(self) -> str:
        pairs = (("Att", self.attack), ("damage", self.damage), ("AC", self.ac))
        shown = [f"{label} {value:+d}" for label, value in pairs if value]
        if self.hits:
            shown.append("hits as " + ", ".join(HITS.get(h, h) for h in self.hits))
        if not shown:
            return "no fight bonus"
        return " ".join(shown) + (" against the undead" if self.vs == "undead" else "")


@dataclass
class Card:
    """A hero card: speed, hit points, attack number, armor class and special ability."""

    name: str
    speed: int
    hp: int
    attack: int
    ac: int
    ability: str = ""
    bonus: Bonus = field(default_factory=Bonus)
    #: How many armor, weapon and shield chits the hero may carry (the card may change the rule's).
    limits: dict[str, int] = field(default_factory=lambda: dict(LIMITS))

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "speed": self.speed,
            "hp": self.hp,
            "attack": self.attack,
            "ac": self.ac,
            "ability": self.ability,
        }
        if self.bonus.any():
            data["bonus"] = {
                "attack": self.bonus.attack,
                "damage": self.bonus.damage,
                "ac": self.bonus.ac,
                "vs": self.bonus.vs,
                "hits": list(self.bonus.hits),
            }
        if self.limits != LIMITS:
            data["limits"] = dict(self.limits)
        return data

    @classmethod
    def from_data(cls, name: str, data: dict[str, Any]) -> Card:
        b = data.get("bonus") or {}
        limits = dict(LIMITS)
        limits.update({k: int(v) for k, v in (data.get("limits") or {}).items() if k in LIMITS})
        return cls(
            name=name,
            speed=int(data["speed"]),
            hp=int(data["hp"]),
            attack=int(data["attack"]),
            ac=int(data["ac"]),
            ability=str(data.get("ability", "")),
            bonus=Bonus(
                attack=int(b.get("attack", 0)),
                damage=int(b.get("damage", 0)),
                ac=int(b.get("ac", 0)),
                vs=str(b.get("vs", "all")),
                hits=[str(h) for h in b.get("hits", [])],
            ),
            limits=limits,
        )


@dataclass
class Item:
    """A magic item chit as the players entered it; ``left`` counts the uses left of one held chit."""

    name: str
    kind: str
    back: str = "blue"
    attack: int = 0
    damage: int = 0
    ac: int = 0
    metal: bool = False
    #: What an attack with it counts as: ``magical`` (a magical weapon), ``magic``, ``silver``,
    #: ``holy`` (holy water), ``stake``.
    hits: list[str] = field(default_factory=list)
    use: str = "worn"
    #: Uses the chit shows (None: not limited).
    uses: int | None = None
    left: int | None = None

    def to_data(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "back": self.back,
            "attack": self.attack,
            "damage": self.damage,
            "ac": self.ac,
            "metal": self.metal,
            "hits": list(self.hits),
            "use": self.use,
            "uses": self.uses,
        }

    @classmethod
    def from_data(cls, name: str, data: dict[str, Any]) -> Item:
        uses = data.get("uses")
        return cls(
            name=name,
            kind=str(data["kind"]),
            back=str(data.get("back", "blue")),
            attack=int(data.get("attack", 0)),
            damage=int(data.get("damage", 0)),
            ac=int(data.get("ac", 0)),
            metal=bool(data.get("metal", False)),
            hits=[str(h) for h in data.get("hits", [])],
            use=str(data.get("use", "worn")),
            uses=None if uses is None else int(uses),
        )

    def describe(self) -> str:
        """``weapon, blue, Att +1 dmg +1, metal, magical weapon, 3 uses``."""
        bits = [self.kind, self.back]
        nums = " ".join(f"{k} {v:+d}" for k, v in (("Att", self.attack), ("dmg", self.damage), ("AC", self.ac)) if v)
        if nums:
            bits.append(nums)
        if self.metal:
            bits.append("metal")
        bits.extend(HITS.get(h, h) for h in self.hits)
        if self.uses is not None:
            left = self.uses if self.left is None else self.left
            bits.append(f"{left} use{'s' if left != 1 else ''} left")
        return ", ".join(bits)


@dataclass
class Chit:
    """A monster chit a hero kept after a kill (blue or purple back)."""

    monster: str
    back: str


@dataclass
class Hero:
    name: str
    card: Card
    hp: int
    #: Seat order round the table (clockwise), from 0.
    seat: int
    deaths: int = 0
    #: One entry per green "-1" chit the hero holds: what gave it.
    minus: list[str] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)
    chits: list[Chit] = field(default_factory=list)
    #: Monster stand-ups kept (monster keys).
    standups: list[str] = field(default_factory=list)
    tower: int = 1
    stake: bool = False
    specter_damaged: bool = False
    specter_killed: bool = False
    #: The round in which a ghoul's bite took the hero's next move (None: free to move).
    held_round: int | None = None
    out: bool = False

    @property
    def max_hp(self) -> int:
        return self.card.hp


@dataclass
class Fight:
    """One encounter between a hero and a monster, step by step.

    ``phase`` says what comes next: ``initiative`` (both roll 1d6), ``hero`` (the hero attacks or
    runs), ``monster`` (the monster attacks), ``table`` (the 1d10 after a monster's hit) or
    ``pick`` (the robber fly or the rust monster takes an item, chosen by its player).
    """

    n: int
    hero: str
    monster: str
    back: str
    hp: int
    round: int = 1
    phase: str = "initiative"
    #: Who attacks first this round, then second.
    order: list[str] = field(default_factory=list)
    acted: list[str] = field(default_factory=list)
    #: The monster's attack after a failed run-away when it had already attacked this round.
    extra: bool = False
    #: The carrion crawler's venom: −2 on the hero's next attack roll on it.
    slowed: bool = False
    #: This monster has already given the hero its one −1 chit.
    drained: bool = False
    #: ``steal`` or ``rust`` while phase is ``pick``.
    pick: str = ""
    #: The hero has damaged the monster in this fight.
    damaged: bool = False

    @property
    def key(self) -> str:
        return f"fight-{self.n}"


@dataclass
class HauntedTower:
    #: ``setup``, ``play`` or ``over``.
    phase: str = "setup"
    heroes: list[Hero] = field(default_factory=list)
    fight: Fight | None = None
    fights: int = 0
    #: Rounds of play so far (a round starts with the roll for who goes first).
    round: int = 0
    #: This round's order of play, clockwise from the player who rolled highest.
    order: list[str] = field(default_factory=list)
    #: Heroes still rolling 1d10 for who goes first (more than one after a tie); empty when decided.
    rolloff: list[str] = field(default_factory=list)
    #: ``placement`` (who places the first chit) or ``round`` (who moves first).
    rolloff_for: str = ""
    #: How many players drew blue chits (told once, at the first roll for who goes first).
    dealt: int = 0
    #: Monsters killed so far, by key (stand-ups off the board).
    kills: dict[str, int] = field(default_factory=dict)
    specter_seen: bool = False
    specter_dead: bool = False
