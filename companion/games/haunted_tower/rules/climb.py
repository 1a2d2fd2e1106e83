"""The Haunted Tower's climbing and experience: chits counted as blue ones, the climb, and trades.

One implementation of the rules for guided play and the one-shot commands: see :mod:`.lookup`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.errors import InputError
from companion.games.haunted_tower import data as D
from companion.games.haunted_tower.data.monsters import MONSTERS
from companion.games.haunted_tower.model import Hero
from companion.games.haunted_tower.rules.lookup import find_hero, game
from companion.games.haunted_tower.rules.numbers import attack_number
from companion.i18n import ngettext

if TYPE_CHECKING:
    from companion.session.state import State


def blue_equivalents(hero: Hero) -> int:
    """The chits a hero holds, counted as blue chits (a purple chit counts as two)."""
    backs = [c.back for c in hero.chits] + [i.back for i in hero.items]
    return sum(D.BLUE_EQUIVALENT[b] for b in backs)


@dataclass(frozen=True)
class ClimbCheck:
    hero: str
    to: int
    have: int
    needs: int
    cleared: bool

    @property
    def ok(self) -> bool:
        return self.have >= self.needs or self.cleared

    def text(self) -> str:
        worth = f"chits worth {self.have} blue of the {self.needs} needed"
        if self.ok and self.have < self.needs:
            return f"{self.hero} may climb to Tower {self.to}: Tower {self.to - 1} has no chits left ({worth})."
        if self.ok:
            return f"{self.hero} may climb to Tower {self.to}: {worth}."
        return f"{self.hero} cannot leave Tower {self.to - 1} yet: {worth}."


def climb_check(hero: Hero, cleared: bool = False) -> ClimbCheck:
    to = hero.tower + 1
    if to > D.TOWERS:
        raise InputError(f"{hero.name} is already in Tower {D.TOWERS}, the top")
    return ClimbCheck(hero.name, to, blue_equivalents(hero), D.CLIMB_NEEDS[to], cleared)


def climb(state: State, hero_name: str, cleared: bool = False) -> ClimbCheck:
    g = game(state)
    hero = find_hero(g, hero_name)
    if g.fight is not None:
        raise InputError(
            f"{g.fight.hero} is fighting the {MONSTERS[g.fight.monster].name}: finish the fight "
            "(or run away) before anyone climbs"
        )
    c = climb_check(hero, cleared)
    if not c.ok:
        raise InputError(c.text()[:-1] + f" (if Tower {c.to - 1}'s chits are all gone: --cleared)")
    hero.tower = c.to
    state.log.text(c.text().replace("may climb", "climbs"))
    return c


def trade(state: State, hero_name: str, pay: str) -> None:
    """Two blue monster chits, or one purple monster chit, remove one −1 chit."""
    hero = find_hero(game(state), hero_name)
    if pay not in D.TRADE_COST:
        raise InputError(f"trade in blue or purple monster chits, not {pay!r}")
    if not hero.minus:
        raise InputError(f"{hero.name} has no −1 chit; chits are only traded to win back lost attack")
    need_ = D.TRADE_COST[pay]
    have = [c for c in hero.chits if c.back == pay]
    if len(have) < need_:
        chits = ngettext("{n} {back} monster chit", "{n} {back} monster chits", len(have)).format(n=len(have), back=pay)
        raise InputError(f"{hero.name} has {chits}; the trade takes {need_}")
    for chit in have[:need_]:
        hero.chits.remove(chit)
    removed = hero.minus.pop()
    names = ", ".join(MONSTERS[c.monster].name for c in have[:need_])
    state.log.text(f"{hero.name} trades in {names} ({pay}) for the −1 chit from {removed}: Att {attack_number(hero)}.")
