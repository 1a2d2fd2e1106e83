"""The table's screen: the floor, the cards left in its deck, and each hero's health, level, energy and items.

Plain rows of text (label, value), the same for the status panel of ``companion play``,
``companion status``, ``companion dark status`` and its ``--json``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.games.dark_tower.model import DarkTower
from companion.games.dark_tower.rules import cards as C
from companion.games.dark_tower.rules import fights as rules_fights
from companion.games.dark_tower.rules import lookup
from companion.i18n import _, ngettext

if TYPE_CHECKING:
    from companion.session.state import State


def _items(state: State, i: int, lang: str) -> str:
    hero = lookup.game(state).heroes[i]
    shown = []
    for held in hero.items:
        text = C.describe(lookup.item_card(state, held.card), lang)
        shown.append(text + (_(" (next turn)") if held.fresh else ""))
    return ", ".join(shown) or "—"


def hero_line(state: State, i: int, lang: str | None = None) -> str:
    lang = lang or lookup.lang(state)
    g = lookup.game(state)
    hero = g.heroes[i]
    card = lookup.hero_card(state, hero)
    if hero.fallen:
        return f"{C.title(card, lang)} · {C.term('fallen', lang)}"
    bits = [
        C.title(card, lang),
        _("Level {n}").format(n=hero.level),
        f"♥ {hero.health}/{hero.max_health}",
        f"★ {hero.energy}",
        _("combat bonus {bonus}").format(bonus=f"{rules_fights.standing_bonus(state, i):+d}".replace("-", "−")),
    ]
    if hero.penalty:
        bits.append(_("penalty −{n}").format(n=hero.penalty))
    bits.append(_("items: {items}").format(items=_items(state, i, lang)))
    return " · ".join(bits)


def status(state: State, lang: str | None = None) -> list[tuple[str, str]]:
    g = state.game
    if not isinstance(g, DarkTower):
        return []
    lang = lang or g.lang
    rows: list[tuple[str, str]] = []
    if g.decks:
        deck = g.deck()
        rows.append(
            (
                C.term("floor", lang),
                ngettext("{floor} · deck: {n} left ({cards})", "{floor} · deck: {n} left ({cards})", deck.left).format(
                    floor=g.floor, n=deck.left, cards=lookup.deck_text(deck, lang)
                ),
            )
        )
    if g.quest_chosen:
        rows.append((C.term("quest", lang), lookup.name_of(state, "quest", g.quest) if g.quest else "—"))
    for i, hero in enumerate(g.heroes):
        mark = "▶ " if g.decks and i == g.turn and not state.finished else ""
        rows.append((f"{mark}{hero.player}", hero_line(state, i, lang)))
    if g.group:
        rows.append((C.term("table", lang), lookup.group_text(state)))
    if g.decks:
        rows.append((C.term("beaten", lang), str(g.beaten)))
    rows.append((C.term("now", lang), lookup.waiting_for(state)))
    return rows


def status_json(state: State) -> dict[str, Any]:
    """The screen as data (``companion dark status --json``)."""
    from companion.session import codec

    g = lookup.game(state)
    heroes = []
    for i, hero in enumerate(g.heroes):
        d = codec.dump(hero)
        d["hero"] = lookup.hero_card(state, hero).name
        d["bonus"] = rules_fights.standing_bonus(state, i)
        d["items"] = [
            {"card": h.card, "name": lookup.item_card(state, h.card).name, "fresh": h.fresh} for h in hero.items
        ]
        heroes.append(d)
    return {
        "phase": g.phase,
        "waiting_for": lookup.waiting_for(state),
        "floor": g.floor,
        "decks": [
            {"floor": d.floor, "monsters": d.monsters, "obstacles": d.obstacles, "items": d.items} for d in g.decks
        ],
        "turn": g.turns,
        "current": g.current().player if g.heroes else None,
        "quest": g.quest,
        "group": [{"card": m, "name": lookup.monster_card(state, m).name} for m in g.group],
        "group_strength": sum(lookup.monster_card(state, m).strength for m in g.group),
        "obstacle": g.obstacle,
        "owed": [g.heroes[i].player for i in g.owed],
        "beaten": g.beaten,
        "heroes": heroes,
        "finished": state.finished,
        "lang": g.lang,
        "cards": g.cards,
    }


def board(state: State) -> Any:
    """The table for the shell's bar: every player's ♥ and ★ with whose turn it is, the monsters on
    the table with their strength, the floor and its deck, the monsters beaten."""
    from companion.engine.board import Board, Figure

    g = state.game
    if not isinstance(g, DarkTower):
        return Board()
    lang = g.lang
    playing = bool(g.decks) and not state.finished
    heroes = tuple(
        Figure(
            hero.player,
            f"♥{hero.health}/{hero.max_health}",
            f"★{hero.energy}",
            turn=playing and i == g.turn,
            out=hero.fallen,
        )
        for i, hero in enumerate(g.heroes)
    )
    fight = tuple(
        Figure(lookup.name_of(state, "monster", m), str(lookup.monster_card(state, m).strength)) for m in g.group
    )
    rest = []
    if g.decks:
        deck = g.deck()
        rest.append(
            ngettext("{floor} · deck: {n} left ({cards})", "{floor} · deck: {n} left ({cards})", deck.left).format(
                floor=C.words(lang).gettext("Floor {n}").format(n=g.floor),
                n=deck.left,
                cards=lookup.deck_text(deck, lang),
            )
        )
        rest.append(f"{C.term('beaten', lang)}: {g.beaten}")
    else:
        rest.append(lookup.waiting_for(state))
    return Board(heroes, fight, C.term("table", lang) if fight else "", tuple(rest))


def controls(state: State) -> list[Any]:
    """The page's +/- buttons: each standing hero's ♥, through ``companion dark hp PLAYER ±1``."""
    from companion.engine.board import Control

    g = state.game
    if not isinstance(g, DarkTower):
        return []
    return [
        Control(
            f"dark:hp:{hero.player}",
            "♥",
            f"{hero.health}/{hero.max_health}",
            ("dark", "hp", hero.player, "-1") if hero.health > 0 else (),
            ("dark", "hp", hero.player, "+1") if hero.health < hero.max_health else (),
            who=hero.player,
        )
        for hero in g.heroes
        if not hero.fallen
    ]
