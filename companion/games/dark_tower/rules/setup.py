"""The Dark Tower's rules for setting up: cards entered into the catalogue, players and their heroes,
the quest, the decks, the start, and the language of the rules' terms.

Plain Python on the state, shared by guided play and the one-shot commands: see :mod:`.lookup`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.errors import InputError
from companion.games.dark_tower import data
from companion.games.dark_tower.model import Deck, Hero
from companion.games.dark_tower.rules import cards as C
from companion.games.dark_tower.rules.decks import FloorDeck, deck_counts
from companion.games.dark_tower.rules.lookup import game, lang, name_of, require_phase, t, word
from companion.games.dark_tower.rules.turns import begin_turn, floor_heading
from companion.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from companion.session.state import State


#: The log's line for a card entered, one sentence a kind (a language names the kind in its own case).
CARD_ENTERED = {
    "hero": N_("Card entered: Hero {card}."),
    "monster": N_("Card entered: Monster {card}."),
    "obstacle": N_("Card entered: Obstacle {card}."),
    "item": N_("Card entered: Item {card}."),
    "quest": N_("Card entered: Quest {card}."),
}


def enter_card(state: State, kind: str, card: C.Card, card_slug: str | None = None) -> str:
    """Keep a card in the session's data (the CLI and the engine's ``data.`` answers put it in the catalogue)."""
    card_slug = card_slug or C.slug_for(state.data, kind, card)
    if not card_slug:
        raise InputError(_("a card needs a name"))
    state.data[C.key(kind, card_slug)] = C.to_json(card)
    described = C.describe(card, lang(state))
    if kind in CARD_ENTERED:
        state.log.text(_(CARD_ENTERED[kind]).format(card=described))
    else:
        state.log.text(_("Card entered: {kind} {card}.").format(kind=t(state, kind), card=described))
    return card_slug


def validate(card: C.Card) -> None:
    """Refuse numbers a card cannot print (one line each)."""
    if isinstance(card, C.HeroCard):
        if card.health < 1:
            raise InputError(_("a hero's health is at least 1"))
        if len(card.bonus) != data.MAX_LEVEL:
            raise InputError(_("a hero has a combat bonus for each of the {n} levels").format(n=data.MAX_LEVEL))
        for s in card.spells:
            if not 1 <= s.level <= data.MAX_LEVEL:
                raise InputError(_("spell {name!r}: the level is 1 to {n}").format(name=s.name, n=data.MAX_LEVEL))
            if s.activated and s.cost < 1:
                raise InputError(_("spell {name!r}: an activated spell costs at least 1 ★").format(name=s.name))
    elif isinstance(card, C.MonsterCard):
        if not 1 <= card.floor <= data.FLOORS:
            raise InputError(_("a monster lives on floor 1 to {n}").format(n=data.FLOORS))
        if card.strength < 0:
            raise InputError(_("a monster's strength is 0 or more"))
    elif isinstance(card, C.ObstacleCard):
        if card.check < 0 or card.damage < 0 or card.penalty < 0:
            raise InputError(_("an obstacle's check, health loss and penalty are 0 or more"))
    elif isinstance(card, C.QuestCard) and (
        len(card.adds) != data.FLOORS or any(len(a) != 3 or min(a) < 0 for a in card.adds)
    ):
        raise InputError(_("a quest adds 0 or more monsters, obstacles and items to each of the 3 floors"))


def add_hero(state: State, player: str, hero: str) -> Hero:
    g = require_phase(state, "setup", doing=_("add a player"))
    player = " ".join(player.split())
    if not player:
        raise InputError(_("a player needs a name"))
    if len(g.heroes) >= data.MAX_PLAYERS:
        raise InputError(_("the Dark Tower is for at most {n} players").format(n=data.MAX_PLAYERS))
    if any(C.slug(h.player) == C.slug(player) for h in g.heroes):
        raise InputError(_("{player} is already at the table").format(player=player))
    if any(h.card == hero for h in g.heroes):
        raise InputError(
            _("{hero} is already taken; each player picks a different hero").format(hero=name_of(state, "hero", hero))
        )
    card = C.get(state, "hero", hero)
    assert isinstance(card, C.HeroCard)
    h = Hero(player=player, card=hero, health=card.health, max_health=card.health)
    g.heroes.append(h)
    state.log.text(_("{player} plays {card}.").format(player=player, card=C.describe(card, lang(state))), under=False)
    return h


def choose_quest(state: State, quest: str | None) -> None:
    g = require_phase(state, "setup", doing=_("choose the quest"))
    if quest is not None:
        card = C.get(state, "quest", quest)
        state.log.text(_("Quest: {card}.").format(card=C.describe(card, lang(state))), under=False)
    else:
        state.log.text(_("No quest: the heroes win by beating every monster in the tower."), under=False)
    g.quest = quest
    g.quest_chosen = True


def planned_decks(state: State) -> list[FloorDeck]:
    """The three decks the recipe gives for this table (its players, variant and quest)."""
    g = game(state)
    adds = None
    if g.quest is not None:
        q = C.get(state, "quest", g.quest)
        assert isinstance(q, C.QuestCard)
        adds = q.adds
    fixed = data.FIXED_MONSTERS in state.meta.variants
    return deck_counts(max(1, len(g.heroes)), fixed_monsters=fixed, quest=adds)


def start(state: State, first: int) -> None:
    """Build the decks, put every hero on floor 1 at level 1, and give ``first`` the first turn."""
    g = require_phase(state, "setup", doing=_("start"))
    if not g.heroes:
        raise InputError(_("add at least one player first (companion dark join PLAYER HERO)"))
    if not g.quest_chosen:
        raise InputError(_("choose the quest first (companion dark quest NAME, or --none)"))
    if not 0 <= first < len(g.heroes):
        raise InputError(_("player {n} is not at the table").format(n=first + 1))
    g.decks = [Deck(d.floor, d.monsters, d.obstacles, d.items) for d in planned_decks(state)]
    g.floor = 1
    for h in g.heroes:
        h.level = 1
    g.turn = first
    floor_heading(state)
    begin_turn(state)


def starting_item_refusal(state: State, who: int, item: str) -> str | None:
    """Before the start a player takes their one random item («получают 1 случайный предмет»): a second
    one is refused, with the discard that swaps the first (None: this one may be taken, or a card in play
    already, which taking refuses by itself)."""
    g = game(state)
    hero = g.heroes[who]
    if g.phase != "setup" or not hero.items or any(held.card == item for h in g.heroes for held in h.items):
        return None
    held = name_of(state, "item", hero.items[0].card)
    return _(
        "each player receives 1 random item before the start, and {player} holds {item}: to swap it, "
        "companion dark discard {player_arg} {item_arg} first"
    ).format(player=hero.player, item=held, player_arg=word(hero.player), item_arg=word(held))


def check_starting_items(state: State) -> None:
    """Every player takes 1 random item before the first turn («потом получают 1 случайный предмет»):
    guided play asks for it; ``companion dark start`` refuses to start without it."""
    g = game(state)
    empty = [h.player for h in g.heroes if not h.items]
    if empty:
        raise InputError(
            ngettext(
                "{players} has no item yet: each player takes 1 random item before the start "
                "(companion dark item {first} ITEM)",
                "{players} have no item yet: each player takes 1 random item before the start "
                "(companion dark item {first} ITEM)",
                len(empty),
            ).format(players=", ".join(empty), first=word(empty[0]))
        )


def set_lang(state: State, value: str) -> None:
    from companion import i18n

    if value not in i18n.languages(state.meta.game):
        known = i18n._(" or ").join(i18n.languages(state.meta.game))
        raise InputError(_("{lang!r} is not a language; use {known}").format(lang=value, known=known))
    game(state).lang = value
    i18n.activate(value, state.meta.game)
