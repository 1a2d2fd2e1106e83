"""Shared helpers for the Dark Tower tests: a table set up through the rules, fixed dice, a scripted engine."""

from __future__ import annotations

from typing import Any

from companion.dice.expr import parse
from companion.dice.roll import Roll, evaluate
from companion.engine.requests import Choice, Number, RollRequest, Text
from companion.games.dark_tower import GAME
from companion.games.dark_tower.rules import cards as C
from companion.games.dark_tower.rules import draw as rules_draw
from companion.games.dark_tower.rules import items as rules_items
from companion.games.dark_tower.rules import lookup
from companion.games.dark_tower.rules import setup as rules_setup
from companion.games.dark_tower.rules import turns as rules_turns
from companion.session.service import new_state
from companion.session.state import Meta, State

SWORD = C.ItemCard("Sword", "weapon", 2)
AXE = C.ItemCard("Axe", "weapon", 3)
MAIL = C.ItemCard("Mail", "armor", 1, ru="Кольчуга")
LUCKY = C.ItemCard("Lucky Coin", "", 0, die=True)
BOMB = C.ItemCard("Bomb", "", 5, single=True)
TROLL = C.MonsterCard("Troll", 2, 9)
GOLEM = C.MonsterCard("Golem", 1, 6, ignores=["weapon", "armor"])
WISP = C.MonsterCard("Wisp", 2, 5, immune=True)
SHAMAN = C.MonsterCard("Shaman", 1, 3, summons=True)
RAT = C.MonsterCard("Rat", 1, 2)
PIT = C.ObstacleCard("Pit", 5, damage=2, penalty=1, event="A bat swarm")
ROGUE = C.HeroCard("Rogue", 8, [1, 2, 3], [C.Spell("Backstab", 2, "activated", 3, "self", 2)])


def new(variants: tuple[str, ...] = ()) -> State:
    state = new_state(
        GAME, Meta(name="t", slug="t", game="dark-tower", seed=1, dice="virtual", variants=list(variants))
    )
    for kind, card in (
        ("item", SWORD),
        ("item", AXE),
        ("item", MAIL),
        ("item", LUCKY),
        ("item", BOMB),
        ("monster", TROLL),
        ("monster", GOLEM),
        ("monster", WISP),
        ("monster", SHAMAN),
        ("monster", RAT),
        ("obstacle", PIT),
        ("hero", ROGUE),
    ):
        rules_setup.enter_card(state, kind, card)
    return state


def table(players: list[tuple[str, str, list[str]]], floor: int = 1, variants: tuple[str, ...] = ()) -> State:
    """A started game: (player, hero slug, item slugs) each; the heroes walked up to ``floor``."""
    state = new(variants)
    for i, (player, hero, items) in enumerate(players):
        rules_setup.add_hero(state, player, hero)
        for item in items:
            rules_items.gain_item(state, i, item)
    rules_setup.choose_quest(state, None)
    rules_setup.start(state, 0)
    for _ in range(floor - 1):
        rules_turns.enter_next_floor(state, force=True)
    return state


def dt(*faces: int | str, check: int | None = None) -> Roll:
    """A roll of Dark Tower dice with the faces given (1-6, or the symbols: ♥ is 4, ★ is 6)."""
    stored = tuple(4 if f == "♥" else 6 if f == "★" else int(f) for f in faces)
    text = f"{len(stored)}dt" + (f">{check}" if check is not None else "")
    return evaluate(parse(text), stored, source="physical")


def fight_with(state: State, monster: str) -> None:
    """Put ``monster`` on the table for the current player (drawn from the deck)."""
    g = lookup.game(state)
    if g.deck().monsters < 1:
        rules_turns.set_deck(state, g.floor, (1, g.deck().obstacles, g.deck().items))
    rules_draw.draw(state, "monster", monster, any_floor=True)


class Script:
    """Drive an engine generator with answers, checking each answer fits its request like the fold does."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.engine = GAME.play(state)
        self.request: Any = next(self.engine)
        self.seen: list[Any] = [self.request]

    def answer(self, value: Any, key: str | None = None) -> Any:
        req = self.request
        if key is not None:
            assert req.key == key, f"expected {key}, the engine asks {req.key}: {req}"
        if isinstance(req, Choice):
            assert value in req.values(), f"{value!r} not in {req.values()} for {req.key}"
        elif isinstance(req, Number):
            assert req.lo <= value <= req.hi
        elif isinstance(req, Text):
            assert isinstance(value, str) and value.strip()
        elif isinstance(req, RollRequest) and not isinstance(value, Roll):
            value = evaluate(req.expr, tuple(value), req.mod, parts=req.parts)
        try:
            self.request = self.engine.send(value)
        except StopIteration:
            self.request = None
        self.seen.append(self.request)
        return self.request

    def run(self, *answers: Any) -> Any:
        for a in answers:
            if isinstance(a, tuple) and len(a) == 2 and isinstance(a[0], str) and "." in a[0]:
                self.answer(a[1], key=a[0])
            else:
                self.answer(a)
        return self.request
