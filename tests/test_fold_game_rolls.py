"""A game's own events that carry dice: the seeded stream moves on, and amend corrects them."""

from __future__ import annotations

from typing import Any

from companion.dice.expr import parse
from companion.dice.source import VirtualDice
from companion.session.amend import amend_event
from companion.session.fold import Fold, roll_from, roll_payload
from companion.session.service import Session, new_state
from companion.session.state import Meta
from companion.store.sessions import Store
from tests.contract_support import toy_game

SEEN: list[dict[str, Any]] = []


def _reduce(state, event):
    SEEN.append(event["roll"])
    roll = roll_from(parse(event["roll"]["expr"]), event["roll"])
    state.log.text(f"rolled {roll.total}")


SPEC = toy_game(name="freeform", title="Dice game", reducers={"dicey": _reduce})


def _meta() -> Meta:
    return Meta(name="t", slug="t", game="freeform", seed=7, dice="virtual")


def test_virtual_dice_in_a_game_event_advance_the_stream():
    fold = Fold(SPEC, new_state(SPEC, _meta()))
    dice = VirtualDice(7)
    roll = dice.roll(parse("3dt"))
    fold.apply({"t": "dicey", "id": 1, "roll": {"expr": "3dt", **roll_payload(roll)}})
    assert fold.draws == 3
    physical = {"expr": "3dt", "faces": [1, 2, 3], "src": "physical"}
    fold.apply({"t": "dicey", "id": 2, "roll": physical})
    assert fold.draws == 3  # physical dice do not use the stream


def test_amend_corrects_a_game_event_roll(tmp_path, monkeypatch):
    monkeypatch.setattr("companion.session.service.load", lambda game: SPEC)
    store = Store(tmp_path / "data")
    session = Session.create(store, "t", "freeform", seed=1, physical=True, variants=[], logs_dir=tmp_path / "logs")
    with session.files.locked():
        session.record({"t": "dicey", "roll": {"expr": "3dt", "faces": [1, 1, 1], "src": "physical"}})
        event, expr, mod = amend_event(session, None)
        assert str(expr) == "3dt" and mod == 0
        event["roll"] = {"faces": [3, 3, 3]}
        event["reason"] = "misread"
        SEEN.clear()
        session.record(event)
    assert SEEN[-1]["faces"] == [3, 3, 3]
    assert SEEN[-1]["src"] == "amended"
    assert SEEN[-1]["original"]["faces"] == [1, 1, 1]
    assert SEEN[-1]["reason"] == "misread"
    assert "rolled 9" in session.log_text()
