"""The guided menu (``companion play``'s engine): setup, the menu's options and odds, replay."""

from __future__ import annotations

from typing import Any

import pytest

from companion.dice.roll import evaluate
from companion.engine.requests import Choice, Number, RollRequest, Text
from companion.games.dragons_den import GAME
from companion.games.dragons_den.engine import actions
from companion.session.fold import answer_event
from companion.session.service import Session
from companion.store.sessions import Store
from tests.dragons_den.helpers import den, fresh, log_text


class Driver:
    """Drive ``play(state)`` one answer at a time, keeping the request it waits on."""

    def __init__(self, state) -> None:
        self.state = state
        self.engine = GAME.play(state)
        self.request = next(self.engine)

    def send(self, answer: Any) -> Any:
        r = self.request
        if isinstance(r, RollRequest):
            faces = answer if isinstance(answer, tuple) else (answer,)
            answer = evaluate(r.expr, faces, r.mod, parts=r.parts)
        try:
            self.request = self.engine.send(answer)
        except StopIteration:
            self.request = None
        return self.request

    def values(self) -> tuple[str, ...]:
        assert isinstance(self.request, Choice)
        return self.request.values()

    def option(self, value: str):
        assert isinstance(self.request, Choice)
        return self.request.option(value)


def set_up(*heroes: str, chits: str = "physical") -> Driver:
    d = Driver(fresh())
    assert d.request.key == "dd.setup.hero"
    for h in heroes:
        d.send(h)
    d.send("done")
    assert d.request.key == "dd.setup.chits"
    d.send(chits)
    return d


def test_setup_through_the_menu_with_typed_chits_asks_for_the_dragon_unseen():
    d = set_up("7", "2")
    assert isinstance(d.request, Number) and d.request.secret and d.request.key == "dd.draw.dragon"
    d.send(9)
    d.send(1)
    d.send(2)
    assert d.request.key == "dd.menu"
    assert den(d.state).dragon.number == 9 and den(d.state).turn == "sam"
    values = d.values()
    assert {"move", "run", "reveal", "lair", "escape", "end", "peek"} <= set(values)
    assert not [v for v in values if v.startswith("attack:")]  # nothing on the board yet


def test_a_typed_chit_that_is_not_in_the_cup_is_asked_again():
    d = set_up("7")
    d.send(9)
    d.send(9)  # 9 is the dragon: not in the cup any more
    assert isinstance(d.request, Number) and d.request.prompt.startswith("✗ 9 is not in the cup")
    d.send(1)
    d.send(2)
    assert d.request.key == "dd.menu"


def test_virtual_setup_draws_in_secret_then_shows_the_dragon_player_the_dragon():
    d = set_up("7", chits="virtual")
    assert isinstance(d.request, RollRequest) and d.request.secret and d.request.virtual
    d.send(12)  # the 12th chit: the yearling red dragon
    d.send(1)
    d.send(1)
    assert d.request.key == "dd.peek"
    assert d.request.options[0].label == "Hide it"  # the answer shown once Enter is pressed
    assert "Yearling Red Dragon" in d.request.options[1].label
    assert "Yearling Red" not in log_text(d.state)
    d.send("hide")
    assert d.request.key == "dd.menu"


def test_an_attack_from_the_menu_shows_its_odds_and_resolves():
    d = set_up("2", "4")
    for n in (9, 1, 2):
        d.send(n)
    d.send("end")  # Ren (#4) first; pass to Jared
    d.send("reveal")
    assert isinstance(d.request, Number) and d.request.key == "dd.room"
    d.send(5)
    assert isinstance(d.request, Text)
    d.send("m9")
    d.send("t1")
    opt = d.option("attack:troglodyte-warrior")
    assert "hits on 1-6: 100%" in opt.hint and "fighting to the end: 100%" in opt.hint
    d.send("attack:troglodyte-warrior")  # health 12: automatic, no roll
    assert d.request.key == "dd.menu"
    assert den(d.state).figure("troglodyte-warrior").health == 2
    assert "attack:troglodyte-warrior" not in d.values()  # one attack a turn


def test_a_roll_asked_by_the_menu_carries_the_exchange_odds():
    d = set_up("7")
    for n in (9, 1, 2):
        d.send(n)
    d.send("reveal")
    d.send(1)
    d.send("m18")
    d.send("t1")
    den(d.state).figure("sam").health = 3
    d.send("attack:hill-giant")
    r = d.request
    assert isinstance(r, RollRequest) and str(r.expr) == "1d6<=3"
    assert any("Trading blows until one falls (3 vs 8" in line for line in r.info)
    d.send(4)
    assert den(d.state).figure("hill-giant").health == 8


def test_the_breath_menu_picks_the_heroes_in_the_room():
    d = set_up("7", "6")
    for n in (5, 1, 2):  # an aged green dragon: greater breath
        d.send(n)
    d.send("end")
    d.send("end")
    assert d.request.prompt.startswith("Round 1 · the dragon player's turn")
    d.send("breath")
    assert d.request.key == "dd.breath"
    d.send("sam")
    assert "done" in d.values()
    d.send("done")
    # Sam (8) saves automatically: loses 1; the dragon pays 1 and is revealed
    assert den(d.state).figure("sam").health == 7 and den(d.state).dragon.health == 23
    assert "breath" not in d.values()


def test_a_menu_answered_after_a_one_shot_changed_the_table_is_shown_again():
    d = set_up("7", "6")
    for n in (9, 1, 2):
        d.send(n)
    assert d.request.prompt.startswith("Round 1 · Sam")
    actions.drive(d.state, "end-turn", {}, lambda request: None)  # a one-shot: Sam's turn ends
    d.send("move")  # chosen from the stale menu
    assert d.request.key == "dd.menu" and d.request.prompt.startswith("Round 1 · Cara")
    assert any("table changed" in line for line in d.request.info)
    assert "sam" not in den(d.state).moved


def test_the_engine_ends_with_the_game():
    d = set_up("7")
    for n in (9, 1, 2):
        d.send(n)
    d.send("escape")
    d.send("yes")
    assert d.request is None
    assert d.state.finished and "Heroes slain!" not in d.state.finished


@pytest.mark.parametrize("revision", [0, 1])
def test_replay_with_one_shots_between_answers_gives_the_same_den(tmp_path, monkeypatch, revision):
    """A session made before the contract (revision 0) replays as it was played: the menu a one-shot
    command made stale is shown again at the next answer. Since (revision 1) the menu is built again
    from the table at once, and the next answer is to the fresh one."""
    monkeypatch.setattr("companion.session.service.REVISION", revision)
    store = Store(tmp_path / "home")
    session = Session.create(store, "g", "dragons-den", seed=11, physical=False, variants=[], logs_dir=tmp_path)
    assert session.meta.revision == revision
    with session.files.locked():
        _replay(session, stale=revision == 0)


def _replay(session: Session, stale: bool = True) -> None:
    fold = session.fold
    fold.start()
    dice = session.dice()

    def answer(value: Any) -> None:
        request = session.fold.pending
        if isinstance(request, RollRequest):
            value = session.dice().roll(request.expr, request.mod, request.parts)
        session.record(answer_event(request, value))

    for v in ("7", "5", "done", "virtual", None, None, None, "hide", "reveal", 3, None, None):
        answer(v)
    # a one-shot between two answers: Sam's turn ends
    live = actions.LiveAnswers(roll_virtual=lambda r: dice.roll(r.expr, r.mod, r.parts), physical=False)
    actions.drive(__import__("copy").deepcopy(session.state), "end-turn", {}, live)
    session.record({"t": "dragon", "do": "end-turn", "args": {}, "rolls": live.rolls, "picks": live.picks})
    if stale:
        answer("move")  # the stale menu: shown again
    answer("move")  # Talina advances
    answer(None)
    before = (log_text(session.state), repr(den(session.state)))
    again = Session.open(session.files, engine=True)
    assert (log_text(again.state), repr(den(again.state))) == before
    assert again.fold.draws == session.fold.draws
    assert "Talina advances up to" in before[0]
