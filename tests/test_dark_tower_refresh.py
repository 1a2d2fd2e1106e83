"""Guided Dark Tower play with one-shot ``companion dark ...`` commands between two answers (#13 item 10).

Every one-shot command is folded while the engine waits on a request. Afterwards the engine must ask
exactly what a fresh engine started from the new table asks, and the next answer must be taken by that
question (never recorded and then dropped), leaving the same table a fresh engine would.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from companion.dice.roll import Roll, evaluate
from companion.engine.describe import request_json
from companion.engine.requests import Choice, Number, RollRequest
from companion.games.dark_tower import GAME
from companion.games.dark_tower.rules import cards as C
from companion.session import codec
from companion.session.fold import Fold, answer_event
from companion.session.service import new_state
from companion.session.state import Meta

CARDS = {
    C.key("item", "sword"): C.to_json(C.ItemCard("Sword", "weapon", 2)),
    C.key("item", "axe"): C.to_json(C.ItemCard("Axe", "weapon", 3)),
    C.key("item", "mail"): C.to_json(C.ItemCard("Mail", "armor", 1)),
    C.key("obstacle", "pit"): C.to_json(C.ObstacleCard("Pit", 5, 2, 1, "Bats")),
    C.key("monster", "troll"): C.to_json(C.MonsterCard("Troll", 2, 9)),
    C.key("monster", "rat"): C.to_json(C.MonsterCard("Rat", 1, 2)),
    C.key("hero", "rogue"): C.to_json(C.HeroCard("Rogue", 8, [1, 2, 3], [])),
}

#: Answers from a new game to the first card of the first turn: two players, their items, no quest.
SETUP = ["en", "table", "Ann", "clan-champion", "add", "Bob", "rogue", "done", "sword", "axe", "+none", "ready", "0"]


def _fold(events: list[dict[str, Any]]) -> Fold:
    fold = Fold(GAME, new_state(GAME, Meta(name="t", slug="t", game="dark-tower", seed=5, dice="physical")))
    for event in events:
        fold.apply(event)
    return fold


def _answer_value(request: Any, value: Any) -> Any:
    if isinstance(request, RollRequest) and not isinstance(value, Roll):
        return evaluate(request.expr, tuple(value), request.mod, source="physical", parts=request.parts)
    return value


def _play(answers: list[Any]) -> list[dict[str, Any]]:
    """The events of a new game answered with ``answers`` through the guided engine."""
    events: list[dict[str, Any]] = [{"t": "gamedata", "values": CARDS, "source": "catalogue"}]
    fold = _fold(events)
    fold.start()
    for value in answers:
        event = answer_event(fold.pending, _answer_value(fold.pending, value))
        fold.apply(event)
        events.append(event)
    return events


def _any_answer(request: Any) -> Any:
    """Some answer the request accepts: the first option, the lowest number, a roll of all 1s, a text."""
    if isinstance(request, Choice):
        return request.values()[0]
    if isinstance(request, Number):
        return request.lo
    if isinstance(request, RollRequest):
        return evaluate(
            request.expr, (1,) * request.expr.terms[0].count, request.mod, source="physical", parts=request.parts
        )
    return "Zed"


def _roll(expr: str, *faces: int) -> dict[str, Any]:
    return {"expr": expr, "faces": list(faces), "src": "physical"}


#: (where the game waits: the answers after SETUP, the one-shot event, what it does)
POSITIONS = {
    "setup": [],
    "draw": None,  # right after SETUP
    "obstacle": ["obstacle", "pit"],
    "fight": ["monster", "rat"],
    "end": ["item", "mail"],
}

ONE_SHOTS: list[tuple[str, dict[str, Any]]] = [
    ("setup", {"op": "join", "player": "Cy", "hero": "rogue"}),
    ("setup", {"op": "item", "hero": 0, "item": "mail"}),
    ("setup", {"op": "lang", "lang": "ru"}),
    ("setup", {"op": "card", "kind": "hero", "card": C.to_json(C.HeroCard("Monk", 7, [1, 1, 2], []))}),
    ("draw", {"op": "draw", "kind": "monster", "card": "troll", "any_floor": True}),
    ("draw", {"op": "draw", "kind": "item", "card": "mail"}),
    ("draw", {"op": "deck", "floor": 1, "counts": [1, 0, 0]}),
    ("draw", {"op": "floor", "force": True}),
    ("draw", {"op": "health", "hero": 0, "delta": -3}),
    ("draw", {"op": "item", "hero": 1, "item": "mail"}),
    ("draw", {"op": "lang", "lang": "ru"}),
    ("draw", {"op": "card", "kind": "monster", "card": C.to_json(C.MonsterCard("Bat", 1, 1))}),
    ("obstacle", {"op": "check", "roll": _roll("3dt", 1, 1, 1), "use": []}),
    ("obstacle", {"op": "health", "hero": 0, "value": 4}),
    ("fight", {"op": "fight", "roll": _roll("4dt", 3, 3, 3, 3), "helper": None, "use": [], "conditions": []}),
    ("fight", {"op": "group", "monster": "rat", "from_deck": True}),
    ("end", {"op": "end"}),
    ("end", {"op": "trade", "a": 0, "item_a": 0, "b": 1, "item_b": None}),
    ("end", {"op": "discard", "hero": 0, "index": 0}),
    ("end", {"op": "health", "hero": 1, "max": 9}),
]


def _events_at(where: str) -> list[dict[str, Any]]:
    if where == "setup":
        return _play(SETUP[:5])  # waiting on Bob's name: one player at the table
    return _play(SETUP + (POSITIONS[where] or []))


def _same(a: Any, b: Any) -> None:
    assert (a is None) == (b is None)
    if a is not None:
        assert request_json(a) == request_json(b)


@pytest.mark.parametrize(("where", "event"), ONE_SHOTS, ids=[f"{w}-{e['op']}" for w, e in ONE_SHOTS])
def test_a_one_shot_command_between_two_answers_loses_no_answer(where, event):
    events = _events_at(where)
    fold = _fold(events)
    asked_before = fold.pending
    assert asked_before is not None
    fold.apply({"t": "dark", **event})
    answer = _any_answer(fold.pending)
    answered = answer_event(fold.pending, answer)
    if event["op"] == "card":
        # Only the catalogue changed: the question half-way through the step keeps its place.
        _same(fold.pending, asked_before)
        fold.apply(answered)
    else:
        # A fresh engine started from the table the command left: what the game should ask now.
        table = copy.deepcopy(fold.state)
        fresh = GAME.play(table)
        _same(fold.pending, next(fresh))
        # The next answer goes to that question, and leaves the table a fresh engine leaves.
        fold.apply(answered)
        try:
            expected = fresh.send(answer)
        except StopIteration:
            expected = None
        _same(fold.pending, expected)
        assert codec.dump(fold.state.game) == codec.dump(table.game)
    # And a replay of the saved events (what the next command does) agrees.
    replayed = _fold([*events, {"t": "dark", **event}, answered])
    _same(replayed.pending, fold.pending)


def test_the_issues_repro_a_trade_then_end_ends_the_turn():
    """`dark trade` at the end-of-turn menu, then `next end`: the turn ends at once (not a second `end`)."""
    fold = _fold(_events_at("end"))
    assert fold.pending.key == "end.menu"
    fold.apply({"t": "dark", "op": "trade", "a": 0, "item_a": 0, "b": 1, "item_b": None})
    # Bob now holds two weapons: the table asks him to discard one before the turn can end.
    assert fold.pending.key == "end.discard"
    fold.apply(answer_event(fold.pending, "sword"))
    fold.apply(answer_event(fold.pending, "pile"))
    assert fold.pending.key == "end.menu"
    turn = fold.state.game.turn
    fold.apply(answer_event(fold.pending, "end"))
    assert fold.state.game.turn != turn
    assert fold.pending.key == "turn.card"


def test_the_issues_repro_a_deck_count_then_the_card_kind_is_taken():
    fold = _fold(_play(SETUP))
    assert fold.pending.key == "turn.card"
    fold.apply({"t": "dark", "op": "deck", "floor": 1, "counts": [1, 0, 0]})
    assert fold.pending.values() == ("monster",)
    fold.apply(answer_event(fold.pending, "monster"))
    assert fold.pending.key == "card.monster"


def test_a_new_card_entered_by_command_shows_in_the_waiting_card_menu():
    fold = _fold(_play(SETUP[:3]))
    assert fold.pending.key == "card.hero"
    assert "monk" not in fold.pending.values()
    fold.apply({"t": "dark", "op": "card", "kind": "hero", "card": C.to_json(C.HeroCard("Monk", 7, [1, 1, 2], []))})
    assert fold.pending.key == "card.hero"
    assert "monk" in fold.pending.values()
    fold.apply(answer_event(fold.pending, "monk"))
    assert fold.state.game.heroes[0].card == "monk"
