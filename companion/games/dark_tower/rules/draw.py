"""The Dark Tower's rules for the top card of a floor: drawing it, and monsters joining the group.

Plain Python on the state, shared by guided play and the one-shot commands: see :mod:`.lookup`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.errors import InputError
from companion.games.dark_tower.rules import cards as C
from companion.games.dark_tower.rules.items import check_take, gain_item
from companion.games.dark_tower.rules.lookup import (
    bump,
    deck_text,
    game,
    group_text,
    lang,
    monster_card,
    require_phase,
    t,
)
from companion.games.dark_tower.rules.turns import settle
from companion.i18n import _

if TYPE_CHECKING:
    from companion.session.state import State


def other_floor(state: State, monster: str) -> int | None:
    """The floor ``monster``'s card names when it is not this one (its card goes in that floor's pile)."""
    card = monster_card(state, monster)
    floor = game(state).floor
    return card.floor if card.floor and card.floor != floor else None


def _own_floor(state: State, monster: str, any_floor: bool, command: str) -> None:
    """Refuse a monster from another floor's pile unless the players confirm it (``any_floor``)."""
    floor = other_floor(state, monster)
    if floor is not None and not any_floor:
        card = monster_card(state, monster)
        raise InputError(
            _("{monster} lives on floor {floor}: its card goes in floor {floor}'s pile, not floor {here}'s").format(
                monster=C.title(card, lang(state)), floor=floor, here=game(state).floor
            ),
            hint=_("if it really came up here (a quest may add it), confirm with: {command} --any-floor").format(
                command=command
            ),
        )


def draw(state: State, kind: str, card_slug: str, *, any_floor: bool = False) -> None:
    """The current player drew the top card of the floor: a monster, an obstacle or an item.

    A monster whose card names another floor is refused unless ``any_floor`` confirms it: the text puts
    each monster in its own floor's pile (a quest's own cards may say otherwise)."""
    g = require_phase(state, "draw", doing=_("draw a card"))
    deck = g.deck()
    if deck.count(kind) < 1:
        raise InputError(
            _(
                "the floor {floor} deck has no {kind} left by the count ({cards}); "
                "fix the count with companion dark deck if your deck differs"
            ).format(floor=g.floor, kind=t(state, kind).lower(), cards=deck_text(deck))
        )
    if kind == "monster":
        _own_floor(state, card_slug, any_floor, "companion dark draw monster NAME")
    if kind == "item":
        check_take(state, g.turn, card_slug, limit=False)
    card = C.get(state, kind, card_slug)
    deck.take(kind)
    g.drawn.append(f"{kind}:{card_slug}")
    hero = g.current()
    label = _("Turn {n} · {player}: {kind} {card}").format(
        n=g.turns, player=hero.player, kind=t(state, kind), card=C.title(card, lang(state))
    )
    state.log.line(f"turn-{g.turns}", label)
    if card.text:
        state.log.text(card.text)
    if kind == "item":
        gain_item(state, g.turn, card_slug, limit=False)  # an extra is discarded before the turn passes
        bump(g, "end")
        settle(state)  # the last card of the tower may be an item
    elif kind == "obstacle":
        g.obstacle = card_slug
        bump(g, "obstacle")
    else:
        g.group = [card_slug]
        bump(g, "fight")
        props = C.monster_props(card, lang(state))  # type: ignore[arg-type]
        if props:
            state.log.text(f"{C.title(card, lang(state))}: " + ", ".join(p.lower() for p in props) + ".")


def join_group(state: State, monster: str, *, from_deck: bool, any_floor: bool = False) -> None:
    """Another monster joins the group on the table (one that summons, or a card that says so).

    One from this floor's deck must be a monster of this floor, unless ``any_floor`` confirms it."""
    g = require_phase(state, "fight", doing=_("add a monster to the group"))
    card = monster_card(state, monster)
    if from_deck:
        _own_floor(state, monster, any_floor, "companion dark group NAME --from-deck")
        deck = g.deck()
        if deck.monsters < 1:
            raise InputError(_("the floor {floor} deck has no monster left by the count").format(floor=g.floor))
        deck.take("monster")
        g.drawn.append(f"monster:{monster}")
    g.group.append(monster)
    g.step += 1
    line = (
        _("{monster} ({strength}) joins the group from the deck: {group}.")
        if from_deck
        else _("{monster} ({strength}) joins the group from outside the deck: {group}.")
    )
    state.log.text(line.format(monster=C.title(card, lang(state)), strength=card.strength, group=group_text(state)))
