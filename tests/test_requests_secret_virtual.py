"""The core additions the Dragon's Den needed: secret and virtual-only requests, rolls in game events."""

from __future__ import annotations

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from companion.dice.expr import parse
from companion.dice.roll import evaluate
from companion.engine.describe import request_json
from companion.engine.requests import Number, RollRequest
from companion.session.fold import Fold, answer_event
from companion.session.state import Meta, State
from companion.shell import prompts
from tests.contract_support import toy_game


def state() -> State:
    return State(meta=Meta(name="t", slug="t", game="x", seed=1, dice="virtual"))


def test_a_game_event_counts_the_virtual_dice_it_carries():
    seen = []
    spec = toy_game(name="x", title="X", reducers={"g": lambda s, e: seen.append(e["t"])})
    fold = Fold(spec, state(), draws=5)
    fold.apply({"t": "g", "rolls": [{"faces": [3, 4], "src": "virtual"}, {"faces": [1], "src": "physical"}]})
    fold.apply({"t": "g"})
    assert seen == ["g", "g"]
    assert fold.draws == 7  # the two virtual dice; the typed one does not move the stream


def test_a_secret_roll_is_not_logged_but_counted():
    def play(st):
        yield RollRequest("secret", parse("1d12"), "a chit drawn in secret", secret=True, virtual=True)
        yield RollRequest("open", parse("1d6"), "an open roll")

    spec = toy_game(name="x", title="X", play=play)
    fold = Fold(spec, state())
    fold.start()
    secret = fold.pending
    fold.apply(answer_event(secret, evaluate(secret.expr, (7,))) | {"id": 1})
    opened = fold.pending
    fold.apply(answer_event(opened, evaluate(opened.expr, (2,))) | {"id": 2})
    rolls = [e for e in fold.state.log.entries if e["k"] == "roll"]
    assert [r["r"]["why"] for r in rolls] == ["an open roll"]
    assert fold.state.rolls == 2 and fold.draws == 2
    assert request_json(secret)["secret"] is True and request_json(secret)["virtual"] is True
    assert request_json(opened)["secret"] is False


def test_a_secret_number_is_typed_unseen():
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        inp.send_text("7\r")
        assert prompts.ask_number(Number("n", "Which chit?", 1, 12, secret=True)) == 7
    assert request_json(Number("n", "Which chit?", 1, 12, secret=True))["secret"] is True
