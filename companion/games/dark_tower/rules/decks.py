"""The deck calculator: how many monster, obstacle and item cards go into each floor's deck.

Pure arithmetic on :data:`companion.games.dark_tower.data.DECK_RECIPE`. "For every two players" is
rounded up (a solo game's third floor would otherwise have no cards at all); the reading of
"по 4 монстра ... на каждого участника" is in ``docs/rules/dark-tower.md``: by default the monsters
scale with the players too, and the ``fixed-monsters`` variant keeps them at 4, 3 and 3.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.errors import InputError
from companion.games.dark_tower import data


@dataclass(frozen=True)
class FloorDeck:
    """One floor's deck: the recipe's cards plus the quest's."""

    floor: int
    monsters: int
    obstacles: int
    items: int

    @property
    def total(self) -> int:
        return self.monsters + self.obstacles + self.items

    def counts(self) -> tuple[int, int, int]:
        return self.monsters, self.obstacles, self.items


def _per(cards: int, per: int, players: int) -> int:
    """``cards`` for each ``per`` players, rounded up: 1 per two players is 1 for 1-2, 2 for 3-4."""
    return cards * -(-players // per)


def deck_counts(
    players: int, *, fixed_monsters: bool = False, quest: Sequence[Sequence[int]] | None = None
) -> list[FloorDeck]:
    """The three floor decks for ``players`` players, with the quest's cards ``quest[floor-1]`` added."""
    if not data.MIN_PLAYERS <= players <= data.MAX_PLAYERS:
        from companion.i18n import _

        raise InputError(
            _("the Dark Tower is for {lo} to {hi} players, not {n}").format(
                lo=data.MIN_PLAYERS, hi=data.MAX_PLAYERS, n=players
            )
        )
    decks = []
    for floor in range(1, data.FLOORS + 1):
        recipe = data.DECK_RECIPE[floor]
        counts = []
        for kind in data.DECK_KINDS:
            cards, per = recipe[kind]
            if kind == "monster" and fixed_monsters:
                counts.append(cards)
            else:
                counts.append(_per(cards, per, players))
        if quest is not None:
            counts = [c + int(q) for c, q in zip(counts, quest[floor - 1], strict=True)]
        decks.append(FloorDeck(floor, *counts))
    return decks
