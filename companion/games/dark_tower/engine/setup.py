"""The Dark Tower's guided engine: the setup (players and heroes, items, the quest, the decks, who
goes first).

Part of the guided engine: see ``engine/__init__.py`` (the loop, and the keys every request is asked under).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.requests import RollRequest, Text, choice
from companion.games.dark_tower import data
from companion.games.dark_tower.engine.asks import Flow, pick_expr, random_pick
from companion.games.dark_tower.engine.cards import NO_QUEST, pick_card
from companion.games.dark_tower.rules import cards as C
from companion.games.dark_tower.rules import items as rules_items
from companion.games.dark_tower.rules import lookup
from companion.games.dark_tower.rules import setup as rules_setup
from companion.games.dark_tower.rules.lookup import game
from companion.i18n import _, ngettext, owned, pgettext

if TYPE_CHECKING:
    from companion.session.state import State


def setup(state: State) -> Flow:
    g = game(state)
    if not g.heroes:
        if state.meta.lang is None:  # a session started with no language chosen asks here (as it always did)
            lang = yield choice(
                "setup.lang",
                # Asked before there is a language: both languages in one line, each option in its own.
                _("Show the rules' terms in (язык игры)"),
                ("en", _("English")),
                ("ru", _("Русский: слова из правил (Этаж, Здоровье, ...)")),
            )
            rules_setup.set_lang(state, lang)
        g.cards = yield choice(
            "setup.cards",
            _("Where do the cards come from?"),
            ("table", _("Your own cards: you shuffle and draw, and tell companion what came up")),
            ("companion", _("Companion picks them from your catalogue with the session's dice (1dN)")),
        )
    problem: tuple[str, ...] = ()
    while len(g.heroes) < data.MAX_PLAYERS:
        if g.heroes:
            more = yield choice(
                "setup.more",
                seated(len(g.heroes)).format(n=len(g.heroes), players=", ".join(h.player for h in g.heroes)),
                ("add", _("Add a player")),
                ("done", _("Everyone is here")),
                info=problem,
            )
            if more == "done":
                break
        player = " ".join((yield Text("setup.player", _("Player {n}'s name").format(n=len(g.heroes) + 1))).split())
        if any(C.slug(h.player) == C.slug(player) for h in g.heroes):
            problem = (_("{player} is already at the table; give another name.").format(player=player),)
            continue
        problem = ()
        hero = yield from pick_card(
            state,
            "hero",
            owned(_("{player}'s hero").format(player=player), player),
            exclude=tuple(h.card for h in g.heroes),
        )
        if any(h.card == hero for h in g.heroes):
            problem = (_("{hero} is already taken.").format(hero=lookup.name_of(state, "hero", hero)),)
            continue
        rules_setup.add_hero(state, player, hero)
    for i, hero in enumerate(g.heroes):
        if hero.items:
            continue
        asked = owned(_("{player}'s random item").format(player=hero.player), hero.player)
        item = yield from random_card(state, "item", asked)
        rules_items.gain_item(state, i, item)
    if not g.quest_chosen:
        quest = yield from random_card(
            state, "quest", _("The random quest"), extra=((NO_QUEST, _("No quest: win by beating every monster")),)
        )
        rules_setup.choose_quest(state, None if quest == NO_QUEST else quest)
    plan = rules_setup.planned_decks(state)
    lang = lookup.lang(state)
    variant = _("fixed monsters (variant)") if data.FIXED_MONSTERS in state.meta.variants else _("monsters per player")
    lines = tuple(
        ngettext("Floor {n}: {cards} = {total} card", "Floor {n}: {cards} = {total} cards", d.total).format(
            n=d.floor, cards=lookup.deck_text(d, lang), total=d.total
        )
        for d in plan
    )
    build = (
        ngettext(
            "Build the three floor decks ({n} player, {variant}, with the quest's cards)",
            "Build the three floor decks ({n} players, {variant}, with the quest's cards)",
            len(g.heroes),
        )
        if g.quest
        else ngettext(
            "Build the three floor decks ({n} player, {variant})",
            "Build the three floor decks ({n} players, {variant})",
            len(g.heroes),
        )
    )
    yield choice(
        "setup.decks",
        build.format(n=len(g.heroes), variant=variant),
        (
            "ready",
            _("The decks are built: {decks}").format(
                decks="; ".join(f"{d.floor}: {d.monsters}/{d.obstacles}/{d.items}" for d in plan)
            ),
        ),
        info=lines,
    )
    first = 0
    if len(g.heroes) > 1:
        answer = yield choice(
            "setup.first",
            _("Who goes first?"),
            *[(str(i), h.player) for i, h in enumerate(g.heroes)],
            ("roll", _("Roll for it ({dice})").format(dice=f"1d{len(g.heroes)}")),
        )
        if answer == "roll":
            roll = yield RollRequest("pick.first", pick_expr(len(g.heroes)), _("who goes first"))
            first = roll.total - 1
            state.log.drew(g.heroes[first].player)
        else:
            first = int(answer)
    rules_setup.start(state, first)


def random_card(state: State, kind: str, prompt: str, *, extra: tuple[tuple[str, str], ...] = ()) -> Flow:
    """A random card of ``kind``: the one the players drew, or companion's pick from the catalogue."""
    g = game(state)
    in_play = {h.card for hero in g.heroes for h in hero.items} | {d.split(":", 1)[1] for d in g.drawn}
    if g.cards == "companion":
        candidates = sorted(s for s in C.catalogue(state, kind) if s not in in_play)
        if candidates:
            return (yield from random_pick(state, kind, candidates, prompt))
        info = (
            {
                "item": _("Your catalogue has no item card left to pick from: enter one."),
                "quest": _("Your catalogue has no quest card left to pick from: enter one."),
            }.get(kind)
            or _("Your catalogue has no card of this kind left to pick from: enter one."),
        )
        return (yield from pick_card(state, kind, prompt, extra=extra, info=info))
    return (yield from pick_card(state, kind, _("{what}: which card did you draw?").format(what=prompt), extra=extra))


def seated(n: int) -> str:
    """ "{n} at the table: {players}", with a message for each count a table can have: Russian counts people
    with its own numerals («За столом двое: Аня, Борис»), which no plural form gives."""
    if n == 1:
        return pgettext("one", "{n} at the table: {players}")
    if n == 2:
        return pgettext("two", "{n} at the table: {players}")
    if n == 3:
        return pgettext("three", "{n} at the table: {players}")
    if n == 4:
        return pgettext("four", "{n} at the table: {players}")
    return _("{n} at the table: {players}")
