"""The Dark Tower's table as the rules read it: the game on a session state, its language and terms,
cards by slug, heroes and held items by name, the phase guard, and what the game waits for, in words.

One implementation for both ways of playing: the guided engine (``engine/``) calls these functions
while it folds its answers, and the one-shot commands (``cli/``) record ``dark`` events whose
reducer (``rules/events.py``'s ``reduce``) calls the same functions. Plain Python on the state: no I/O, no dice
(a roll comes in as a :class:`companion.dice.roll.Roll`), no clock. Bad input raises
:class:`companion.errors.InputError` before anything changes.

Every reading of the Russian text these functions encode is in ``docs/rules/dark-tower.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.errors import InputError
from companion.games.dark_tower.model import DarkTower, Deck, Hero
from companion.games.dark_tower.rules import cards as C
from companion.games.dark_tower.rules.decks import FloorDeck
from companion.i18n import _, count, ngettext

if TYPE_CHECKING:
    from companion.session.state import State


def game(state: State) -> DarkTower:
    g = state.game
    if not isinstance(g, DarkTower):
        raise InputError(_("this session is not a Dark Tower game; start one with: companion new dark-tower"))
    return g


def lang(state: State) -> str:
    return game(state).lang


def t(state: State, term: str) -> str:
    return C.term(term, lang(state))


def name_of(state: State, kind: str, card_slug: str) -> str:
    return C.title(C.get(state, kind, card_slug), lang(state))


def hero_card(state: State, hero: Hero) -> C.HeroCard:
    card = C.get(state, "hero", hero.card)
    assert isinstance(card, C.HeroCard)
    return card


def item_card(state: State, item: str) -> C.ItemCard:
    card = C.get(state, "item", item)
    assert isinstance(card, C.ItemCard)
    return card


def monster_card(state: State, monster: str) -> C.MonsterCard:
    card = C.get(state, "monster", monster)
    assert isinstance(card, C.MonsterCard)
    return card


def hero_index(state: State, text: str) -> int:
    """A hero by its player's name, its hero card's name, or its place at the table (1-4)."""
    g = game(state)
    t_ = text.strip()
    if t_.isdigit() and 1 <= int(t_) <= len(g.heroes):
        return int(t_) - 1
    wanted = C.slug(t_)
    for i, h in enumerate(g.heroes):
        card = C.get(state, "hero", h.card)
        if wanted in (C.slug(h.player), h.card, C.slug(card.name), C.slug(card.ru)):
            return i
    players = ", ".join(h.player for h in g.heroes) or _("none yet")
    raise InputError(
        _("no player or hero {text!r} at the table; players: {players}").format(text=text, players=players)
    )


def held_index(state: State, who: int, text: str) -> int:
    """The place of an item in a hero's hand, by name (English or Russian) or by its number (1-based)."""
    hero = game(state).heroes[who]
    t_ = text.strip()
    if t_.isdigit() and 1 <= int(t_) <= len(hero.items):
        return int(t_) - 1
    wanted = C.slug(t_)
    for i, held in enumerate(hero.items):
        card = item_card(state, held.card)
        if wanted in (held.card, C.slug(card.name), C.slug(card.ru)):
            return i
    if not hero.items:
        raise InputError(_("{player} holds no {text!r} (no item at all)").format(player=hero.player, text=text))
    have = ", ".join(name_of(state, "item", h.card) for h in hero.items)
    raise InputError(_("{player} holds no {text!r} (holds: {have})").format(player=hero.player, text=text, have=have))


def require_phase(state: State, *phases: str, doing: str) -> DarkTower:
    """``doing`` is already in the words shown (``_("add a player")``)."""
    g = game(state)
    if g.phase not in phases:
        raise InputError(_("cannot {doing} now: {waiting}").format(doing=doing, waiting=waiting_for(state)))
    return g


def waiting_for(state: State) -> str:
    """What the game waits for, in words (for error lines and the screen)."""
    g = game(state)
    if state.finished or g.phase == "over":
        return _("the game is over ({result})").format(result=t(state, state.finished or "over"))
    if g.phase == "setup":
        return _("the game is being set up (add players, a quest, then start)")
    who = g.current().player
    if g.phase == "draw":
        return _("{player} draws the top card of floor {floor}").format(player=who, floor=g.floor)
    if g.phase == "obstacle":
        return _("{player} rolls the check of {obstacle}").format(
            player=who, obstacle=name_of(state, "obstacle", g.obstacle or "")
        )
    if g.phase == "fight":
        return ngettext("{player} fights {monsters}", "{player} fights {monsters}", len(g.group)).format(
            player=who, monsters=group_text(state)
        )
    if g.owed:
        return _("{player} discards a random item").format(player=g.heroes[g.owed[0]].player)
    return _("{player} ends the turn (trades and discards first)").format(player=who)


def group_text(state: State) -> str:
    g = game(state)
    names = [f"{name_of(state, 'monster', m)} ({monster_card(state, m).strength})" for m in g.group]
    return " + ".join(names) if names else _("nothing")


def deck_text(deck: Deck | FloorDeck, lang_: str = "en") -> str:
    m, o, i = deck.monsters, deck.obstacles, deck.items
    return ", ".join(
        (
            count(m, "{n} monster", "{n} monsters"),
            count(o, "{n} obstacle", "{n} obstacles"),
            count(i, "{n} item", "{n} items"),
        )
    )


def word(text: str) -> str:
    """``text`` as one word of a command line, for a line that says what to type."""
    if not any(c.isspace() or c in "'\"\\$`;&|<>()*?[]#~!" for c in text):
        return text
    if '"' in text or "\\" in text or "$" in text or "`" in text:
        import shlex

        return shlex.quote(text)
    return f'"{text}"'


def bump(g: DarkTower, phase: str) -> None:
    g.phase = phase
    g.step += 1
