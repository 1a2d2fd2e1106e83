"""The Dark Tower's rules for health: ♥ heals, damage, a fall, and health changed by a card's own text.

Plain Python on the state, shared by guided play and the one-shot commands: see :mod:`.lookup`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.errors import InputError
from companion.games.dark_tower.rules.lookup import game
from companion.games.dark_tower.rules.turns import settle
from companion.i18n import _, ngettext

if TYPE_CHECKING:
    from companion.session.state import State


def heal(state: State, who: int, amount: int) -> int:
    """Restore up to ``amount`` health (never above the card's health); returns what was restored."""
    hero = game(state).heroes[who]
    if amount <= 0 or hero.fallen:
        return 0
    before = hero.health
    hero.health = min(hero.max_health, hero.health + amount)
    gained = hero.health - before
    if gained:
        state.log.text(
            ngettext(
                "♥ ×{hearts}: {player} heals {n} → {health}/{max}.",
                "♥ ×{hearts}: {player} heals {n} → {health}/{max}.",
                gained,
            ).format(hearts=amount, player=hero.player, n=gained, health=hero.health, max=hero.max_health)
        )
    else:
        state.log.text(
            _("♥ ×{hearts}: {player} is at full health ({health}/{max}).").format(
                hearts=amount, player=hero.player, health=hero.health, max=hero.max_health
            )
        )
    return gained


def hurt(state: State, who: int, amount: int, why: str) -> int:
    hero = game(state).heroes[who]
    if amount <= 0 or hero.fallen:
        return 0
    before = hero.health
    hero.health = max(0, hero.health - amount)
    state.log.text(
        ngettext(
            "{player} loses {n} health ({why}) → {health}/{max}.",
            "{player} loses {n} health ({why}) → {health}/{max}.",
            amount,
        ).format(player=hero.player, n=amount, why=why, health=hero.health, max=hero.max_health)
    )
    if hero.health == 0 and before > 0:
        hero.fallen = True
        state.log.text(_("{player} has fallen.").format(player=hero.player))
    return before - hero.health


def change_health(
    state: State, who: int, delta: int | None = None, value: int | None = None, maximum: int | None = None
) -> None:
    """Health changed by a card's own text (an item that raises it, an event): by hand, within 0..max."""
    g = game(state)
    hero = g.heroes[who]
    if hero.fallen:
        raise InputError(
            _("{player} has fallen; undo the action that felled them to take it back").format(player=hero.player)
        )
    if maximum is not None:
        if maximum < 1:
            raise InputError(_("the most health a hero can have is at least 1"))
        hero.max_health = maximum
    new = hero.health
    if value is not None:
        new = value
    if delta is not None:
        new += delta
    hero.health = max(0, min(hero.max_health, new))
    state.log.text(
        _("{player}: health {health}/{max}.").format(player=hero.player, health=hero.health, max=hero.max_health)
    )
    if hero.health == 0:
        hero.fallen = True
        state.log.text(_("{player} has fallen.").format(player=hero.player))
        settle(state)
