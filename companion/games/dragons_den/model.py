"""The Dragon's Den's own state, kept in ``State.game``: figures, cups, rooms, the hoard, the turn.

Plain dataclasses (saved by the session codec from their type hints). The board itself stays on the
table: companion keeps what the players would otherwise keep on scrap paper and in their heads, the
health of every figure, the chits left in each cup, what each room held, who carries what, the
alarm and the countdown.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Hero statuses. A hero is "in" the den until he leaves it ("escaped"), dies ("slain"), or is still
#: inside when the gates shut ("trapped").
IN, ESCAPED, SLAIN, TRAPPED = "in", "escaped", "slain", "trapped"
#: The dragon's chit lies face down in the lair until it is revealed.
HIDDEN = "hidden"

SETUP, HEROES, DRAGON, OVER = "setup", "heroes", "dragon", "over"


@dataclass
class Figure:
    """A hero, a monster or the dragon: what its stand-up on the board stands for."""

    key: str
    name: str
    #: "hero", "monster" or "dragon".
    kind: str
    #: The hero's number (1-7), the monster's chit (1-20) or the dragon's chit (1-12).
    number: int
    health: int
    max_health: int
    speed: int
    status: str = IN
    #: The room a monster was found in (its treasure is a treasure chit found in the same room).
    room: int = 0
    #: Ability key → times used this game.
    uses: dict[str, int] = field(default_factory=dict)
    #: Treasure chits carried: "D3" (dragon treasure 3) or "T7" (monster treasure 7).
    treasure: list[str] = field(default_factory=list)
    #: The round in which a paralysed hero may not advance, run or attack (0: not paralysed).
    paralysed: int = 0

    @property
    def alive(self) -> bool:
        return self.status in (IN, HIDDEN)


@dataclass
class Score:
    """The final reckoning, kept once the game is over."""

    haul: int
    carried: int
    slain: int
    trapped: int
    escaped: int
    heroes_result: str
    heroes_outcome: str
    happiness: int
    hoard_left: int
    held_by_lost: int
    dragon_result: str
    dragon_outcome: str


@dataclass
class Den:
    heroes: list[Figure] = field(default_factory=list)
    #: Monsters revealed so far (slain ones stay, with status "slain").
    monsters: list[Figure] = field(default_factory=list)
    #: The dragon once drawn; its status is "hidden" until its chit is revealed.
    dragon: Figure | None = None
    #: How the dragon was drawn, shown when it is revealed ("1d12 → 7 · virtual").
    dragon_draw: str = ""
    #: The dragon cup: countdown chits left (their numbers, ascending).
    cup: list[int] = field(default_factory=list)
    discards: list[int] = field(default_factory=list)
    #: Countdown chits drawn so far, in order.
    drawn: list[int] = field(default_factory=list)
    countdown: int = 0
    #: Room chits not yet revealed: "M1".."M20" (monsters) and "T1".."T20" (treasures), in that order.
    room_cup: list[str] = field(default_factory=list)
    #: Room number → the chits revealed there.
    rooms: dict[int, list[str]] = field(default_factory=dict)
    #: Treasure chits revealed but not taken: chit → the room it lies in.
    loose: dict[str, int] = field(default_factory=dict)
    #: Dragon treasure chits still in the lair (numbers, ascending).
    hoard: list[int] = field(default_factory=list)
    alarm: bool = False
    #: "virtual": companion draws every chit from its own cups; "physical": players type the chit drawn.
    chits: str = "virtual"
    #: One monster and one treasure per room (the dragon player separates the chits).
    one_each: bool = False
    round: int = 0
    phase: str = SETUP
    #: The hero whose turn it is (heroes' phase), else "".
    turn: str = ""
    #: Figures that attacked (or used an ability instead of an attack) this round.
    acted: list[str] = field(default_factory=list)
    #: Figures that advanced or ran this round, and the heroes among them who ran.
    moved: list[str] = field(default_factory=list)
    ran: list[str] = field(default_factory=list)
    #: Heroes the dragon's breath cannot touch this dragon turn (Sneak).
    sneaking: list[str] = field(default_factory=list)
    breathed: bool = False
    #: The hero whose blow slew the dragon.
    slayer: str = ""
    #: Actions so far (the guided menu notices one made by a one-shot command meanwhile).
    actions: int = 0
    #: Log lines opened so far (each action's line gets a key of its own).
    lines: int = 0
    score: Score | None = None

    # ---- lookups ---------------------------------------------------------------------------
    def figures(self) -> list[Figure]:
        out = [*self.heroes, *self.monsters]
        if self.dragon is not None:
            out.append(self.dragon)
        return out

    def figure(self, key: str) -> Figure | None:
        for f in self.figures():
            if f.key == key:
                return f
        return None

    def heroes_in(self) -> list[Figure]:
        """Heroes still inside the den, in turn order (largest hero number first)."""
        return sorted((h for h in self.heroes if h.status == IN), key=lambda h: -h.number)

    def monsters_alive(self) -> list[Figure]:
        return [m for m in self.monsters if m.status == IN]

    def dragon_on_board(self) -> bool:
        """True once the dragon is revealed and still alive."""
        return self.dragon is not None and self.dragon.status == IN
