"""The simulator plays the same games as ``companion play``, reproducibly, on any number of processes."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from companion import games
from companion.cli.app import app
from companion.dice.expr import dc
from companion.dice.source import VirtualDice
from companion.engine.requests import Choice, RollRequest, choice
from companion.errors import CompanionError, InputError, NotFoundError
from companion.games import load
from companion.session import codec
from companion.session.fold import Fold, answer_event
from companion.session.service import Session, new_state
from companion.session.state import Meta
from companion.sim import runner
from companion.sim.report import build
from companion.sim.runner import (
    RATE,
    Metric,
    PolicySpec,
    Simulator,
    Tally,
    play_run,
    run_seed,
    simulate,
    simulator,
)
from companion.store.sessions import Store
from tests.contract_support import toy_game

SIM = simulator("inverted-tower")
STEADY = SIM.policy("steady").answer


def game_of(state) -> dict:
    """Everything a game is: the trackers, the game's own state, the end.

    One thing is log text, not the game: the reason an empty room is empty ("Empty (a second Trap)")
    is only written while the log is on, and the simulator plays with it off.
    """
    trackers = codec.dump(state.trackers)
    for room in trackers["rooms"]:
        if room["state"] == "empty":
            room["content"] = "(log text)"
    return {
        "trackers": trackers,
        "game": codec.dump(state.game),
        "finished": state.finished,
        "hero": state.hero,
        "variants": list(state.meta.variants),
    }


def first_run(predicate, policy: str = "steady", variants=()) -> tuple[int, list]:
    """The first run seed (of --seed 1) whose game satisfies ``predicate(state, trace)``."""
    answer = SIM.policy(policy).answer
    for i in range(500):
        trace: list = []
        state, _ = play_run(SIM, answer, run_seed(1, i), variants, trace=trace)
        if predicate(state, trace):
            return run_seed(1, i), trace
    raise AssertionError("no run fits")


# ---- seeds, reproducibility, processes ------------------------------------------------------------
def test_run_seeds_are_session_seeds_fixed_by_the_pair_and_all_different():
    seeds = [run_seed(7, i) for i in range(20_000)]
    assert all(0 <= s < 10**9 for s in seeds)
    assert len(set(seeds)) == len(seeds)
    assert seeds[:5] == [run_seed(7, i) for i in range(5)]
    assert {run_seed(8, i) for i in range(1000)}.isdisjoint(seeds[:1000])


def test_a_seeded_simulation_is_reproducible_and_seeds_matter():
    a = simulate("inverted-tower", 60, 11)
    b = simulate("inverted-tower", 60, 11)
    c = simulate("inverted-tower", 60, 12)
    assert a == b and a.runs == 60
    assert a != c


def test_the_report_is_the_same_on_any_number_of_processes():
    """100 runs: in one process; in four tasks of 25 shared by two processes; in tasks of 13 (and 9)."""
    one = simulate("inverted-tower", 100, 5, policy="thrifty", variants=("elites-deal-2",))
    two = simulate("inverted-tower", 100, 5, policy="thrifty", variants=("elites-deal-2",), jobs=2, chunk=25)
    chunks = runner.Tally()
    for task in runner.tasks("inverted-tower", 100, 5, ("elites-deal-2",), "thrifty", {}, chunk=13):
        chunks.merge(runner.run_task(task))
    assert one == two == chunks
    doc = build(SIM, one, title="T", seed=5, variants=("elites-deal-2",), policy="thrifty")
    assert json.dumps(doc) == json.dumps(
        build(SIM, two, title="T", seed=5, variants=("elites-deal-2",), policy="thrifty")
    )


def test_a_run_replays_its_game_from_its_seed():
    seed = run_seed(3, 17)
    first, second = [], []
    a, info_a = play_run(SIM, STEADY, seed, trace=first)
    b, info_b = play_run(SIM, STEADY, seed, trace=second)
    assert first == second and info_a == info_b and game_of(a) == game_of(b)
    assert info_a.rolls == sum(isinstance(r, RollRequest) for r, _ in first)
    assert info_a.requests == len(first)


@pytest.mark.parametrize("policy", ["steady", "thrifty", "eager"])
@pytest.mark.parametrize("variants", [(), ("elites-deal-2", "no-xp-farming", "merchant-buys", "boss-guards-stairs")])
def test_policies_only_answer_what_is_offered_and_games_end(policy, variants):
    answer = SIM.policy(policy).answer
    for i in range(15):
        trace: list = []
        state, info = play_run(SIM, answer, run_seed(2, i), variants, trace=trace)
        assert state.finished in ("won", "lost")
        for request, given in trace:
            if isinstance(request, Choice):
                assert given in request.values(), (request.key, given)
        figures = SIM.record(state, info)
        assert figures["won"] == (state.finished == "won")
        assert (figures["death_floor"] is None) == figures["won"]


def test_the_policies_differ_where_the_issue_asks():
    steady, thrifty, eager = (simulate("inverted-tower", 60, 9, policy=p) for p in ("steady", "thrifty", "eager"))
    assert len({repr(t.sums) for t in (steady, thrifty, eager)}) == 3


# ---- the simulator and play agree -----------------------------------------------------------------
def test_the_simulator_and_a_real_session_play_the_same_game(tmp_path):
    """A session recorded answer by answer (virtual dice from its seed, the policy's choices) is the
    simulator's game: the same requests, the same answers, the same final state."""
    seed, trace = first_run(lambda s, t: 40 <= len(t) <= 120)
    state, _ = play_run(SIM, STEADY, seed)
    session = Session.create(
        Store(tmp_path / "data"),
        "agree",
        "inverted-tower",
        seed=seed,
        physical=False,
        variants=[],
        logs_dir=tmp_path / "logs",
        hero=SIM.hero,
    )
    played = []
    with session.files.locked():
        session.fold.start()
        while not session.fold.done:
            request = session.fold.pending
            if isinstance(request, RollRequest):
                answer = session.dice().roll(request.expr, request.mod, request.parts)  # what Enter does in play
            else:
                answer = STEADY(session.state, request)
            played.append((request, answer))
            session.record(answer_event(request, answer))
    assert played == trace
    assert game_of(session.state) == game_of(state)
    assert "The hero dies" in session.log_text() or "Victory" in session.log_text()


def test_a_won_game_is_the_same_game_through_the_fold():
    """The long way: a whole won game, folded event by event as a session records it."""
    seed, trace = first_run(lambda s, t: s.finished == "won")
    spec = load("inverted-tower")
    meta = Meta(name="w", slug="w", game="inverted-tower", seed=seed, dice="virtual", hero=SIM.hero)
    fold = Fold(spec, new_state(spec, meta))
    fold.start()
    played = []
    while not fold.done:
        request = fold.pending
        if isinstance(request, RollRequest):
            dice = VirtualDice(seed)
            dice.skip(fold.draws)  # Session.dice(): the stream resumed where the events left it
            answer = dice.roll(request.expr, request.mod, request.parts)
        else:
            answer = STEADY(fold.state, request)
        played.append((request, answer))
        fold.apply(answer_event(request, answer))
    assert played == trace
    state, _ = play_run(SIM, STEADY, seed)
    assert state.finished == fold.state.finished == "won"
    assert game_of(fold.state) == game_of(state)


def test_the_same_seed_and_answers_through_companion_next_give_the_same_game():
    seed, trace = first_run(lambda s, t: len(t) <= 45)
    state, _ = play_run(SIM, STEADY, seed)
    cli = CliRunner()
    assert cli.invoke(app, ["new", "inverted-tower", "--seed", str(seed), "--hero", SIM.hero]).exit_code == 0
    for request, answer in trace:
        shown = json.loads(cli.invoke(app, ["next", "--json"]).stdout)["request"]
        assert shown["key"] == request.key
        typed = "roll" if isinstance(request, RollRequest) else "=" + answer  # =VALUE: the value itself
        result = cli.invoke(app, ["next", typed, "--json"])
        assert result.exit_code == 0, result.stderr
    done = json.loads(cli.invoke(app, ["next", "--json"]).stdout)
    assert done["done"] and done["finished"] == state.finished
    status = json.loads(cli.invoke(app, ["status", "--json"]).stdout)
    trackers = status["state"]["trackers"]
    for room in trackers["rooms"]:
        if room["state"] == "empty":
            room["content"] = "(log text)"
    assert trackers == game_of(state)["trackers"]


# ---- errors ---------------------------------------------------------------------------------------
def test_unknown_games_and_policies_are_one_clear_error():
    with pytest.raises(NotFoundError, match="games the simulator plays: inverted-tower"):
        simulator("dark-tower")
    with pytest.raises(InputError, match=r"steady .*thrifty .*eager"):
        SIM.policy("reckless")


def _loop_play(state):
    """A game that ends only when the player says so."""
    while (yield choice("loop", "Again?", ("again", "Again"), ("stop", "Stop"))) != "stop":
        yield RollRequest("loop.roll", dc(), "a roll")
    state.finished = "won"


#: ``companion.games.load("loop")`` finds this module's GAME once the test registers it.
GAME = toy_game(name="loop", title="Loop", play=_loop_play)


def test_a_policy_that_never_ends_the_game_is_stopped(monkeypatch):
    monkeypatch.setitem(games.GAMES, "loop", __name__)
    metrics = (Metric("won", "won", RATE),)
    looping = Simulator(
        game="loop",
        policies=(PolicySpec("again", "never stops", lambda s, r: "again"),),
        metrics=metrics,
        record=lambda s, r: {"won": s.finished == "won"},
        max_requests=500,
    )
    with pytest.raises(CompanionError, match="asked 500 requests without ending: the policy loops"):
        play_run(looping, looping.policies[0].answer, 1)
    stops = PolicySpec("stop", "stops at once", lambda s, r: "stop")
    state, info = play_run(looping, stops.answer, 1)
    assert state.finished == "won" and info.requests == 1


def test_tally_of_no_runs_reports_no_figures():
    doc = build(SIM, Tally(), title="T", seed=1, variants=(), policy="steady")
    assert doc["runs"] == 0 and doc["figures"]["won"]["rate"] is None and doc["figures"]["floor"]["mean"] is None


def test_game_data_from_the_catalogue_reaches_the_state():
    state = runner.new_run_state("inverted-tower", 5, (), {"answer": 42}, "Sim")
    assert state.data == {"answer": 42} and state.log.enabled is False and state.hero == "Sim"


def test_a_policy_meeting_a_number_from_the_book_refuses_clearly():
    from companion.engine.requests import Number

    request = Number("data.tohit", "The Paladin's to-hit number", 2, 12, where="the book's table, page 12")
    with pytest.raises(InputError, match=r"needs a number from your book: The Paladin's to-hit number \(the book") as e:
        runner.need_data(request)
    assert "kept for every run" in (e.value.hint or "")


def test_the_pools_own_thread_says_nothing_while_the_pool_breaks(monkeypatch):
    """CPython 3.11's process-pool thread can raise inside terminate_broken when a worker dies; its
    traceback is dropped while companion's pool lives, and every other thread's goes on as usual."""
    import threading

    from companion.sim.runner import _quiet_pool_thread

    class PoolThread(threading.Thread):
        def run(self) -> None:
            raise RuntimeError("dictionary changed size during iteration")

    PoolThread.__module__ = "concurrent.futures.process"

    class OtherThread(PoolThread):
        pass

    OtherThread.__module__ = __name__
    reported: list[str] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: reported.append(type(args.thread).__name__))
    before = threading.excepthook
    undo = _quiet_pool_thread()
    try:
        for kind in (PoolThread, OtherThread):
            thread = kind()
            thread.start()
            thread.join()
    finally:
        undo()
    assert threading.excepthook is before
    assert reported == ["OtherThread"]
