"""The Dark Tower's guided engine: a turn's top card, and the monsters a summoner brings.

Part of the guided engine: see ``engine/__init__.py`` (the loop, and the keys every request is asked under).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.requests import RollRequest, choice
from companion.games.dark_tower import data
from companion.games.dark_tower.engine.asks import Flow, pick_expr, random_pick, yes_no
from companion.games.dark_tower.engine.cards import pick_card
from companion.games.dark_tower.rules import cards as C
from companion.games.dark_tower.rules import draw as rules_draw
from companion.games.dark_tower.rules import lookup
from companion.games.dark_tower.rules import turns as rules_turns
from companion.games.dark_tower.rules.lookup import game, t
from companion.i18n import _, ngettext

if TYPE_CHECKING:
    from companion.session.state import State


def draw_step(state: State) -> Flow:
    g = game(state)
    step = g.step
    deck = g.deck()
    hero = g.current()
    head = _("Turn {n} · {player}: the top card of floor {floor}").format(n=g.turns, player=hero.player, floor=g.floor)
    extra = [("quest", _("The quest is done"))] if g.quest else []
    if deck.left == 0 and g.floor == data.FLOORS:
        rules_turns.settle(state)  # the tower is empty: every monster is beaten
        return
    if deck.left == 0:
        options = [("up", _("Go up to floor {n}").format(n=g.floor + 1))] if g.floor < data.FLOORS else []
        answer = yield choice("turn.card", _("{head}: the deck is empty.").format(head=head), *options, *extra)
        if g.step != step:
            return
        if answer == "up":
            rules_turns.enter_next_floor(state)
        else:
            rules_turns.quest_done(state)
        return
    left = ngettext("{n} left: {cards}", "{n} left: {cards}", deck.left).format(
        n=deck.left, cards=lookup.deck_text(deck, lookup.lang(state))
    )
    if g.cards == "companion":
        answer = yield choice("turn.card", f"{head} ({left})", ("draw", _("Draw it")), *extra)
    else:
        kinds = [
            (
                k,
                ngettext("{kind} ({n} left)", "{kind} ({n} left)", deck.count(k)).format(
                    kind=t(state, k), n=deck.count(k)
                ),
            )
            for k in data.DECK_KINDS
            if deck.count(k)
        ]
        answer = yield choice(
            "turn.card", _("{head}: what is it? ({left})").format(head=head, left=left), *kinds, *extra
        )
    if g.step != step:
        return
    if answer == "quest":
        rules_turns.quest_done(state)
        return
    if answer == "draw":
        roll_pos = 1
        if deck.left > 1:
            roll = yield RollRequest(
                "pick.card", pick_expr(deck.left), _("the top card of floor {n}").format(n=g.floor)
            )
            if g.step != step:
                return
            roll_pos = roll.total
        kind = (
            "monster"
            if roll_pos <= deck.monsters
            else ("obstacle" if roll_pos <= deck.monsters + deck.obstacles else "item")
        )
        if deck.left > 1:
            state.log.drew(t(state, kind))
        card = yield from companion_card(state, kind)
    else:
        kind = answer
        card = yield from pick_card(state, kind, _which(kind), this_floor=kind == "monster")
    if g.step != step:
        return
    any_floor = False
    if kind == "monster" and rules_draw.other_floor(state, card) is not None:  # a new card entered for another floor
        any_floor = yield from confirm_floor(state, card)
        if not any_floor or g.step != step:
            return
    rules_draw.draw(state, kind, card, any_floor=any_floor)
    if kind == "monster":
        yield from summons(state)


def _which(kind: str) -> str:
    if kind == "monster":
        return _("Which monster?")
    if kind == "obstacle":
        return _("Which obstacle?")
    return _("Which item?")


def companion_card(state: State, kind: str) -> Flow:
    """Companion's draw: a card of ``kind`` from the catalogue not drawn yet (floor-matched monsters)."""
    g = game(state)
    drawn = {d.split(":", 1)[1] for d in g.drawn if d.startswith(kind + ":")}
    held = {h.card for hero in g.heroes for h in hero.items}
    candidates = []
    for s, c in sorted(C.catalogue(state, kind).items()):
        if s in drawn or s in held:
            continue
        if kind == "monster" and c.floor != g.floor:  # type: ignore[union-attr]
            continue
        candidates.append(s)
    if candidates:
        why = {"monster": _("which monster it is"), "obstacle": _("which obstacle it is")}.get(kind) or _(
            "which item it is"
        )
        return (yield from random_pick(state, kind, candidates, why))
    if kind == "monster":
        info = _("A monster comes up, and your catalogue has none left for this floor: enter the card.")
        prompt = _("The monster that comes up")
    elif kind == "obstacle":
        info = _("A obstacle comes up, and your catalogue has none left for this floor: enter the card.")
        prompt = _("The obstacle that comes up")
    else:
        info = _("A item comes up, and your catalogue has none left for this floor: enter the card.")
        prompt = _("The item that comes up")
    return (yield from pick_card(state, kind, prompt, info=(info,), this_floor=kind == "monster"))


def confirm_floor(state: State, monster: str) -> Flow:
    """A monster whose card names another floor: the text puts it in that floor's pile. True to take it."""
    card = lookup.monster_card(state, monster)
    name = C.title(card, lookup.lang(state))
    answer = yield yes_no(
        "draw.floor",
        _("{monster} is a floor {floor} card. Drawn here anyway?").format(monster=name, floor=card.floor),
        info=(
            _("Each monster goes in its own floor's pile; a quest's cards may say otherwise."),
            _("No goes back to the top card."),
        ),
    )
    return answer == "yes"


def summons(state: State) -> Flow:
    """A monster that summons brings others into the fight: the players add them to the group."""
    g = game(state)
    step = g.step
    while any(lookup.monster_card(state, m).summons for m in g.group):
        options = [("fight", _("No more: the group is complete"))]
        if g.deck().monsters:
            options.append(
                (
                    "deck",
                    ngettext(
                        "A monster from this floor's deck ({n} left)",
                        "A monster from this floor's deck ({n} left)",
                        g.deck().monsters,
                    ).format(n=g.deck().monsters),
                )
            )
        options.append(("outside", _("A monster the card names (not from the deck)")))
        answer = yield choice(
            "draw.group",
            _("{monsters}: it summons. Does another monster join the fight?").format(monsters=lookup.group_text(state)),
            *options,
        )
        if g.step != step or answer == "fight":
            return
        from_deck = answer == "deck"
        monster = yield from pick_card(state, "monster", _("Which monster joins?"), this_floor=from_deck)
        if g.step != step:
            return
        any_floor = False
        if from_deck and rules_draw.other_floor(state, monster) is not None:
            any_floor = yield from confirm_floor(state, monster)
            if not any_floor or g.step != step:
                continue
        rules_draw.join_group(state, monster, from_deck=from_deck, any_floor=any_floor)
        step = g.step
