"""The Dark Tower's own state (``state.game``): the heroes at the table, the floor decks, the turn.

Plain dataclasses saved by the session codec from their type hints. Cards are referred to by their
catalogue slug; their numbers live in the catalogue (``state.data``), so a card entered once reads
the same everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: What the turn is waiting for. ``setup`` until the decks are built; then, each turn, ``draw`` (the
#: top card of the floor), ``obstacle`` (a drawn obstacle to check), ``fight`` (monsters on the table
#: to fight) and ``end`` (trades and discards, then the next player); ``over`` when the game ends.
PHASES = ("setup", "draw", "obstacle", "fight", "end", "over")


@dataclass
class Held:
    """An item a hero holds. ``fresh`` items came by a trade: usable from the owner's next turn."""

    card: str
    fresh: bool = False


@dataclass
class Hero:
    """A player and their hero card."""

    player: str
    card: str
    health: int
    max_health: int
    level: int = 1
    #: ★ gained this turn, for activated spells; gone at the end of the turn.
    energy: int = 0
    #: Taken off the combat bonus in this hero's next fight (failed obstacles).
    penalty: int = 0
    items: list[Held] = field(default_factory=list)
    fallen: bool = False

    @property
    def alive(self) -> bool:
        return not self.fallen


@dataclass
class Deck:
    """What is left in one floor's deck (the cards are face down: only the counts are known)."""

    floor: int
    monsters: int = 0
    obstacles: int = 0
    items: int = 0

    @property
    def left(self) -> int:
        return self.monsters + self.obstacles + self.items

    def count(self, kind: str) -> int:
        return {"monster": self.monsters, "obstacle": self.obstacles, "item": self.items}[kind]

    def take(self, kind: str) -> None:
        if kind == "monster":
            self.monsters -= 1
        elif kind == "obstacle":
            self.obstacles -= 1
        else:
            self.items -= 1


@dataclass
class DarkTower:
    heroes: list[Hero] = field(default_factory=list)
    phase: str = "setup"
    #: The quest card's slug, or None when playing without one (beat every monster).
    quest: str | None = None
    quest_chosen: bool = False
    decks: list[Deck] = field(default_factory=list)
    floor: int = 1
    #: Index into ``heroes`` of the player whose turn it is.
    turn: int = 0
    #: Turns played so far (the log numbers them).
    turns: int = 0
    #: The monsters on the table, by slug: drawn this turn, or survivors the next player must fight.
    group: list[str] = field(default_factory=list)
    #: The obstacle drawn this turn, waiting for its check.
    obstacle: str | None = None
    #: Heroes (indexes) who must discard a random item (a monster that takes one won).
    owed: list[int] = field(default_factory=list)
    #: Monsters beaten so far.
    beaten: int = 0
    #: Cards drawn in this game ("kind:slug"), so companion's own draws never repeat a card.
    drawn: list[str] = field(default_factory=list)
    #: "table": the players draw their own cards; "companion": companion draws from the catalogue.
    cards: str = "table"
    #: "en", or "ru" for the rule text's own Russian terms.
    lang: str = "en"
    #: Bumped on every change of phase, so a guided step overtaken by a one-shot command notices.
    step: int = 0
    #: How the last fight's roll ended: "beaten", "tie" (equal totals: not beaten, no damage), "damage".
    last: str = ""

    def current(self) -> Hero:
        return self.heroes[self.turn]

    def deck(self) -> Deck:
        return self.decks[self.floor - 1]

    def living(self) -> list[int]:
        return [i for i, h in enumerate(self.heroes) if h.alive]
