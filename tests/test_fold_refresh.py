"""The fold's support for table games: REFRESH after one-shot events, and dice kept in game events."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from companion.contract.game import Game
from companion.dice.expr import parse
from companion.engine.requests import REFRESH, choice
from companion.session.fold import Fold, answer_event
from companion.session.service import new_state
from companion.session.state import Meta
from tests.contract_support import toy_game


@dataclass
class Board:
    tokens: list[str] = field(default_factory=list)
    refreshes: int = 0


def _setup(state):
    state.game = Board()


def _play(state):
    while True:
        board: Board = state.game
        options = [(t, f"take {t}") for t in board.tokens] or [("wait", "wait")]
        answer = yield choice("menu", "What now?", *options)
        if answer is REFRESH:
            state.game.refreshes += 1
            continue
        if answer in state.game.tokens:
            state.game.tokens.remove(answer)


def _token(state, event):
    state.game.tokens.append(event["name"])


def _spec(refresh: bool) -> Game:
    return toy_game(
        name="board",
        title="Board",
        state_type=Board,
        setup=_setup,
        play=_play,
        reducers={"token": _token},
        refresh=refresh,
    )


def _fold(refresh: bool) -> Fold:
    spec = _spec(refresh)
    return Fold(spec, new_state(spec, Meta(name="t", slug="t", game="board", seed=1, dice="virtual")))


def test_a_one_shot_event_refreshes_a_waiting_menu():
    fold = _fold(refresh=True)
    fold.start()
    assert fold.pending.values() == ("wait",)
    fold.apply({"t": "token", "name": "key"})
    # the menu is asked again from the fresh state
    assert fold.pending.values() == ("key",)
    assert fold.state.game.refreshes == 1
    fold.apply(answer_event(fold.pending, "key"))
    assert fold.state.game.tokens == []


def test_without_the_flag_the_menu_stays_as_it_was_asked():
    fold = _fold(refresh=False)
    fold.start()
    fold.apply({"t": "token", "name": "key"})
    assert fold.pending.values() == ("wait",)
    assert fold.state.game.refreshes == 0


@pytest.mark.parametrize("kind", ["note", "roll", "mode"])
def test_events_that_cannot_change_the_menu_send_no_refresh(kind):
    fold = _fold(refresh=True)
    fold.start()
    event = {
        "note": {"t": "note", "text": "hi"},
        "roll": {"t": "roll", "expr": "1d6", "faces": [3], "src": "virtual"},
        "mode": {"t": "mode", "dice": "physical"},
    }[kind]
    fold.apply(event)
    assert fold.state.game.refreshes == 0


def test_no_refresh_before_the_engine_starts():
    fold = _fold(refresh=True)
    fold.apply({"t": "token", "name": "key"})
    assert fold.engine is None
    fold.start()
    assert fold.pending.values() == ("key",)


def test_virtual_dice_kept_in_a_game_event_advance_the_stream():
    fold = _fold(refresh=False)
    fold.apply(
        {
            "t": "token",
            "name": "x",
            "rolls": [
                {"faces": [4], "src": "virtual"},
                {"faces": [2, 9], "src": "virtual"},
                {"faces": [6], "src": "physical"},
            ],
        }
    )
    assert fold.draws == 3


def test_the_dice_stream_resumes_after_a_game_event():
    """Two sessions with the same seed: the dice after a game event's virtual roll are the next ones."""
    from companion.dice.source import VirtualDice

    d6 = parse("1d6")
    stream = VirtualDice(11)
    first, second = stream.roll(d6), stream.roll(d6)
    fold = _fold(refresh=False)
    fold.apply({"t": "token", "name": "x", "rolls": [{"faces": list(first.faces), "src": "virtual"}]})
    resumed = VirtualDice(11)
    resumed.skip(fold.draws)
    assert resumed.roll(d6).faces == second.faces
