"""The Dark Tower's rules for an obstacle's check.

Plain Python on the state, shared by guided play and the one-shot commands: see :mod:`.lookup`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.errors import InputError
from companion.games.dark_tower import data
from companion.games.dark_tower.rules import cards as C
from companion.games.dark_tower.rules.health import heal, hurt
from companion.games.dark_tower.rules.items import check_use, extra_dice, spend_single
from companion.games.dark_tower.rules.lookup import bump, game, lang, require_phase, t
from companion.games.dark_tower.rules.turns import settle
from companion.i18n import _, ngettext

if TYPE_CHECKING:
    from companion.dice.roll import Roll
    from companion.session.state import State


def check_dice(state: State, use: list[str]) -> int:
    g = game(state)
    return data.CHECK_DICE + len(extra_dice(state, g.turn, use))


@dataclass
class CheckResult:
    obstacle: str
    check: int
    total: int
    passed: bool
    healed: int
    damage: int
    penalty: int
    event: str


def resolve_check(state: State, roll: Roll, use: list[str]) -> CheckResult:
    """The obstacle check: the numbers more than the check value pass; each ♥ heals 1; a fail applies the card."""
    g = require_phase(state, "obstacle", doing=_("roll an obstacle check"))
    check_use(state, g.turn, use)
    dice = check_dice(state, use)
    if roll.faces is None or len(roll.faces) != dice or not roll.expr.has_dt:
        raise InputError(
            ngettext("this check rolls {n} Dark Tower die", "this check rolls {n} Dark Tower dice", dice).format(n=dice)
        )
    card = C.get(state, "obstacle", g.obstacle or "")
    assert isinstance(card, C.ObstacleCard)
    hero = g.current()
    numbers = roll.total - roll.modifier
    passed = numbers > card.check
    healed = heal(state, g.turn, (roll.hearts or 0) * data.HEAL_PER_HEART)
    result = CheckResult(g.obstacle or "", card.check, numbers, passed, healed, 0, 0, "")
    name = C.title(card, lang(state))
    if passed:
        state.log.text(
            _("{total} is more than {check}: {player} gets past {obstacle}.").format(
                total=numbers, check=card.check, player=hero.player, obstacle=name
            )
        )
    else:
        state.log.text(
            _("{total} is not more than {check}: {obstacle} takes effect.").format(
                total=numbers, check=card.check, obstacle=name
            )
        )
        if card.damage:
            result.damage = hurt(state, g.turn, card.damage, f"{name}")
        if card.penalty:
            hero.penalty += card.penalty
            result.penalty = card.penalty
            state.log.text(
                _("{player}: −{n} in the next fight (penalty {total}).").format(
                    player=hero.player, n=card.penalty, total=hero.penalty
                )
            )
        if card.event:
            result.event = card.event
            state.log.text(_("Event: {event}").format(event=card.event))
    spend_single(state, g.turn, use)
    outcome = _("passed") if passed else _("failed")
    state.log.update(
        f"turn-{g.turns}",
        _("Turn {n} · {player}: {kind} {card} ({check}) — {outcome}").format(
            n=g.turns, player=hero.player, kind=t(state, "obstacle"), card=name, check=card.check, outcome=outcome
        ),
    )
    g.obstacle = None
    bump(g, "end")
    settle(state)
    return result
