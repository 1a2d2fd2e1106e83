"""The Dark Tower's guided engine: the end of a turn (the random item owed, the class limit, trades,
discards, health, the quest).

Part of the guided engine: see ``engine/__init__.py`` (the loop, and the keys every request is asked under).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.requests import Number, RollRequest, choice
from companion.games.dark_tower.engine.asks import Flow, pick_expr
from companion.games.dark_tower.rules import cards as C
from companion.games.dark_tower.rules import health as rules_health
from companion.games.dark_tower.rules import items as rules_items
from companion.games.dark_tower.rules import lookup
from companion.games.dark_tower.rules import turns as rules_turns
from companion.games.dark_tower.rules.lookup import game
from companion.i18n import _, count, owned

if TYPE_CHECKING:
    from companion.session.state import State


def end_step(state: State) -> Flow:
    g = game(state)
    step = g.step
    if g.owed:
        who = g.owed[0]
        hero = g.heroes[who]
        names = [lookup.name_of(state, "item", h.card) for h in hero.items]
        if len(hero.items) > 1:
            roll = yield RollRequest(
                "lose.item",
                pick_expr(len(hero.items)),
                _("{player} discards a random item: {items}").format(
                    player=hero.player, items=", ".join(f"{n + 1} {x}" for n, x in enumerate(names))
                ),
            )
            if g.step != step:
                return
            state.log.drew(names[roll.total - 1])
            rules_items.lose_item(state, who, roll.total - 1)
        else:
            rules_items.lose_item(state, who, 0)
        rules_turns.pass_if_fallen(state)
        return
    extra = rules_items.over_limit(state)
    if extra:
        who, cls, items = extra[0]
        hero = g.heroes[who]
        answer = yield choice(
            "end.discard",
            _("{player} may hold 1 {cls} item: discard which?").format(
                player=hero.player, cls=C.class_name(cls, lookup.lang(state))
            ),
            *[(s, C.describe(lookup.item_card(state, s), lookup.lang(state))) for s in items],
        )
        if g.step != step:
            return
        yield from give_away(state, who, lookup.held_index(state, who, answer))
        return
    leader = g.current()
    nxt = _next_player(state)
    options = [("end", _("End the turn (next: {player})").format(player=nxt))]
    if len(g.living()) > 1 and any(g.heroes[i].items for i in g.living()):
        options.append(("trade", _("Trade or give an item")))
    if any(g.heroes[i].items for i in g.living()):
        options.append(("discard", _("Discard an item")))
    options.append(("health", _("Change a hero's health (a card's own text)")))
    if g.quest:
        options.append(("quest", _("The quest is done")))
    title = owned(_("End of {player}'s turn").format(player=leader.player), leader.player)
    answer = yield choice("end.menu", title, *options)
    if g.step != step:
        return
    if answer == "end":
        rules_turns.end_turn(state)
    elif answer == "trade":
        yield from trade_flow(state)
    elif answer == "discard":
        who = yield from choose_hero(state, "discard.who", _("Who discards?"), need_items=True)
        if g.step != step:
            return
        index = yield from choose_item(state, "discard.item", who)
        if g.step != step:
            return
        yield from give_away(state, who, index)
    elif answer == "health":
        who = yield from choose_hero(state, "health.who", _("Whose health?"))
        hero = g.heroes[who]
        value = yield Number(
            "health.value",
            owned(_("{player}'s health now").format(player=hero.player), hero.player),
            0,
            hero.max_health,
            default=hero.health,
        )
        if g.step != step:
            return
        rules_health.change_health(state, who, value=value)
    else:
        rules_turns.quest_done(state)


def _next_player(state: State) -> str:
    g = game(state)
    n = len(g.heroes)
    for k in range(1, n + 1):
        h = g.heroes[(g.turn + k) % n]
        if h.alive:
            return h.player
    return _("nobody")


def choose_hero(state: State, key: str, prompt: str, *, need_items: bool = False, exclude: int | None = None) -> Flow:
    g = game(state)
    options = [
        (
            str(i),
            _("{player} ({items})").format(
                player=g.heroes[i].player, items=count(len(g.heroes[i].items), "{n} item", "{n} items")
            ),
        )
        for i in g.living()
        if i != exclude and (g.heroes[i].items or not need_items)
    ]
    return int((yield choice(key, prompt, *options)))


def choose_item(state: State, key: str, who: int, *, nothing: bool = False) -> Flow:
    g = game(state)
    hero = g.heroes[who]
    options = [
        (
            str(n),
            C.describe(lookup.item_card(state, h.card), lookup.lang(state))
            + (_(" (new: usable next turn)") if h.fresh else ""),
        )
        for n, h in enumerate(hero.items)
    ]
    if nothing:
        options.append(("none", _("Nothing in return")))
    answer = yield choice(key, owned(_("{player}'s item").format(player=hero.player), hero.player), *options)
    return None if answer == "none" else int(answer)


def give_away(state: State, who: int, index: int) -> Flow:
    """A discarded item: to the discard pile, or picked up by another player (the discarder decides)."""
    g = game(state)
    step = g.step
    item = g.heroes[who].items[index].card
    others = [i for i in g.living() if i != who and rules_items.class_refusal(state, i, item) is None]
    to = None
    if others:
        answer = yield choice(
            "end.to",
            _("Does another player pick it up? (the one who discards decides)"),
            ("pile", _("No: to the discard pile")),
            *[(str(i), _("{player} picks it up").format(player=g.heroes[i].player)) for i in others],
        )
        if g.step != step:
            return
        to = None if answer == "pile" else int(answer)
    rules_items.discard(state, who, index, to)


def trade_flow(state: State) -> Flow:
    g = game(state)
    step = g.step
    a = yield from choose_hero(state, "trade.from", _("Who gives an item?"), need_items=True)
    item_a = yield from choose_item(state, "trade.give", a)
    b = yield from choose_hero(state, "trade.to", _("To whom?"), exclude=a)
    item_b = None
    if g.heroes[b].items:
        item_b = yield from choose_item(state, "trade.back", b, nothing=True)
    if g.step != step:
        return
    rules_items.trade(state, a, item_a, b, item_b)
