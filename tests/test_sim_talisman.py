"""The Adventure in the Dungeon in the simulator: the same games as ``companion play``, reproducible on
any number of processes, with the player's numbers (never invented), and the Talisman's exact odds.

The heroes' numbers are ``tests.aitd_support.DATA``: house numbers standing in for what a player enters
from the book (the rule text prints only the Paladin's).
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.dice.source import VirtualDice
from companion.engine.requests import Choice, RollRequest
from companion.errors import InputError
from companion.games import load
from companion.games.adventure_in_the_dungeon import odds as O
from companion.games.adventure_in_the_dungeon import rules as R
from companion.session import catalogue, codec
from companion.session.fold import Fold, answer_event
from companion.session.service import Session, new_state
from companion.session.state import Meta
from companion.sim import runner
from companion.sim.report import build
from companion.sim.runner import play_run, run_seed, simulate, simulator
from companion.sim.stats import wilson
from companion.store.sessions import Store
from tests.aitd_support import AREA12, DATA

SIM = simulator("talisman")
STEADY = SIM.policy("steady").answer
SIM_POLICIES = ("steady", "cautious", "waiting")
Z999 = 3.2905  # two-sided 99.9%: several checks in this file, each must not fail one time in twenty by design
cli = CliRunner()


def game_of(state) -> dict:
    return {
        "trackers": codec.dump(state.trackers),
        "game": codec.dump(state.game),
        "finished": state.finished,
        "variants": list(state.meta.variants),
    }


def first_run(predicate, policy: str = "steady", data=DATA) -> tuple[int, list]:
    answer = SIM.policy(policy).answer
    for i in range(400):
        trace: list = []
        state, _ = play_run(SIM, answer, run_seed(1, i), (), data, trace=trace)
        if predicate(state, trace):
            return run_seed(1, i), trace
    raise AssertionError("no run fits")


# ---- the policies -----------------------------------------------------------------------------------


@pytest.mark.parametrize("policy", ["steady", "cautious", "waiting"])
@pytest.mark.parametrize(
    ("variants", "data"),
    [((), DATA), (("gorgon-one-hit-each", "magic-two-skeletons", "flee-with-all"), {**DATA, **AREA12})],
)
def test_policies_only_answer_what_is_offered_and_games_end(policy, variants, data):
    answer = SIM.policy(policy).answer
    for i in range(25):
        trace: list = []
        state, info = play_run(SIM, answer, run_seed(2, i), variants, data, trace=trace)
        assert state.finished and state.finished.split(":")[0].split(",")[0] in ("won", "pyrrhic", "lost", "abandoned")
        for request, given in trace:
            if isinstance(request, Choice):
                assert given in request.values(), (request.key, given)
        figures = SIM.record(state, info)
        assert figures["won"] == state.finished.startswith("won")
        assert (
            figures["pyrrhic"]
            == state.finished.startswith("pyrrhic")
            == (figures["won"] is False and figures["points"] == 25)
        )
        assert (figures["death_area"] is None) != state.finished.startswith("lost")
        assert figures["kills"] <= len(R.areas(data)) and figures["flights"] >= 0
        if figures["won"]:
            assert figures["points"] == 25 * figures["survivors"] and figures["talisman"]


def test_the_policies_differ_where_they_say():
    steady, cautious, waiting = (simulate("talisman", 60, 9, policy=p, data=DATA) for p in SIM_POLICIES)
    assert len({repr(t.sums) for t in (steady, cautious, waiting)}) == 3
    assert steady.sums["flights"][1] == 0 < cautious.sums["flights"][1]  # only cautious flees a winnable fight


@pytest.mark.parametrize("policy", SIM_POLICIES)
def test_the_cure_goes_to_the_paralysed_at_once_else_to_a_hero_at_the_last_hit(policy):
    """Read off the offered options alone: a cure that "ends the paralysis" is taken at the first
    choice that offers one; else a cure that takes a hero from 1 to 2 hits left."""
    answer = SIM.policy(policy).answer
    cured = {"paralysis": 0, "last hit": 0}
    for i in range(200):
        trace: list = []
        play_run(SIM, answer, run_seed(8, i), (), DATA, trace=trace)
        for request, given in trace:
            if not isinstance(request, Choice) or request.key not in ("area.enter", "round.action"):
                continue
            if "leave" in request.values():
                assert given == "leave"
                continue
            para = [o.value for o in request.options if o.hint.startswith("ends the paralysis")]
            last = [o.value for o in request.options if o.hint.startswith("1 → 2 hits left")]
            if para:
                assert given == para[0]
                cured["paralysis"] += 1
            elif last:
                assert given == last[0]
                cured["last hit"] += 1
            else:
                assert not given.startswith("cure:")
    assert cured["paralysis"] and cured["last hit"]  # both happen in these runs


# ---- reproducible, and the same on every core ------------------------------------------------------


def test_a_seeded_simulation_is_reproducible_and_seeds_matter():
    a = simulate("talisman", 50, 11, data=DATA)
    b = simulate("talisman", 50, 11, data=DATA)
    c = simulate("talisman", 50, 12, data=DATA)
    assert a == b and a.runs == 50 and a != c


def test_the_report_is_the_same_on_any_number_of_processes():
    """60 runs: in one process; in four tasks of 15 shared by two processes; in tasks of 7 (and 4)."""
    variants = ("flee-with-all",)
    one = simulate("talisman", 60, 5, policy="cautious", variants=variants, data=DATA)
    two = simulate("talisman", 60, 5, policy="cautious", variants=variants, data=DATA, jobs=2, chunk=15)
    chunks = runner.Tally()
    for task in runner.tasks("talisman", 60, 5, variants, "cautious", DATA, chunk=7):
        chunks.merge(runner.run_task(task))
    assert one == two == chunks
    doc = build(SIM, one, title="T", seed=5, variants=variants, policy="cautious")
    assert json.dumps(doc) == json.dumps(build(SIM, two, title="T", seed=5, variants=variants, policy="cautious"))


# ---- the simulator and play agree -------------------------------------------------------------------


def test_the_simulator_and_a_real_session_play_the_same_game(tmp_path):
    """A session made as companion new makes it (the catalogue copied in), answered with its own dice
    and the policy's choices, plays the simulator's game: the same requests, answers and end."""
    seed, trace = first_run(lambda s, t: s.finished.startswith("lost") and len(t) < 400)
    state, _ = play_run(SIM, STEADY, seed, (), DATA)
    store = Store(tmp_path / "data")
    catalogue.merge(store.data, "talisman", DATA)
    session = Session.create(
        store, "agree", "talisman", seed=seed, physical=False, variants=[], logs_dir=tmp_path / "logs"
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
    assert "Every hero has fallen" in session.log_text()


def test_a_won_game_is_the_same_game_through_the_fold():
    seed, trace = first_run(lambda s, t: s.finished.startswith("won"), policy="cautious")
    cautious = SIM.policy("cautious").answer
    spec = load("talisman")
    meta = Meta(name="w", slug="w", game="talisman", seed=seed, dice="virtual")
    state = new_state(spec, meta)
    state.data.update(DATA)
    fold = Fold(spec, state)
    fold.start()
    played = []
    while not fold.done:
        request = fold.pending
        if isinstance(request, RollRequest):
            dice = VirtualDice(seed)
            dice.skip(fold.draws)  # Session.dice(): the stream resumed where the events left it
            answer = dice.roll(request.expr, request.mod, request.parts)
        else:
            answer = cautious(fold.state, request)
        played.append((request, answer))
        fold.apply(answer_event(request, answer))
    assert played == trace
    simulated, _ = play_run(SIM, cautious, seed, (), DATA)
    assert game_of(fold.state) == game_of(simulated) and simulated.finished.startswith("won")


def test_the_same_seed_and_answers_through_companion_next_give_the_same_game():
    seed, trace = first_run(lambda s, t: s.finished.startswith("won") and len(t) <= 60)
    state, _ = play_run(SIM, STEADY, seed, (), DATA)
    assert cli.invoke(app, ["gamedata", "talisman", *(f"{k}={v}" for k, v in DATA.items())]).exit_code == 0
    assert cli.invoke(app, ["new", "talisman", "--seed", str(seed)]).exit_code == 0
    for request, answer in trace:
        shown = json.loads(cli.invoke(app, ["next", "--json"]).stdout)["request"]
        assert shown["key"] == request.key
        typed = "roll" if isinstance(request, RollRequest) else "=" + answer  # =VALUE: the value itself
        result = cli.invoke(app, ["next", typed, "--json"])
        assert result.exit_code == 0, result.stderr
    done = json.loads(cli.invoke(app, ["next", "--json"]).stdout)
    assert done["done"] and done["finished"] == state.finished
    status = json.loads(cli.invoke(app, ["status", "--json"]).stdout)
    assert status["state"]["trackers"] == game_of(state)["trackers"]


# ---- the player's numbers: copied in, never invented ------------------------------------------------


def test_a_missing_number_stops_the_simulation_with_one_line():
    partial = {k: v for k, v in DATA.items() if k != "wizard.be_hit"}
    with pytest.raises(InputError, match=r"needs a number from your book: What 2d6 total does a monster need to hit"):
        simulate("talisman", 3, 1, data=partial)
    result = cli.invoke(app, ["simulate", "talisman", "--runs", "10", "--seed", "1"])
    assert result.exit_code == 2 and "needs a number from your book" in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) <= 2


def test_simulate_talisman_uses_the_numbers_in_the_catalogue():
    assert cli.invoke(app, ["gamedata", "talisman", *(f"{k}={v}" for k, v in DATA.items())]).exit_code == 0
    result = cli.invoke(app, ["simulate", "talisman", "--runs", "60", "--seed", "4", "--json"])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["game"] == "talisman" and doc["policy"] == "steady" and doc["runs"] == 60
    f = doc["figures"]
    assert sum(v["count"] for v in f["survivors"]["values"].values()) == 60
    assert f["death_area"]["n"] + f["won"]["count"] + f["pyrrhic"]["count"] + f["gave_up"]["count"] == 60
    assert f["kills_before_talisman"]["values"] and set(f["kills_before_talisman"]["values"]) <= {
        str(k) for k in range(1, 13)
    }
    assert doc == json.loads(runner_json(simulate("talisman", 60, 4, data=DATA), 4))
    out = cli.invoke(app, ["simulate", "talisman", "--runs", "60", "--seed", "4"]).stdout
    assert out.startswith("The Adventure in the Dungeon: 60 runs, seed 4, policy steady")
    assert "Kills until the Talisman" in out and "companion new talisman --seed" in out


def runner_json(tally, seed: int) -> str:
    return json.dumps(build(SIM, tally, title="The Adventure in the Dungeon", seed=seed, variants=(), policy="steady"))


# ---- the Talisman: the simulator against the exact odds --------------------------------------------


def test_each_kill_finds_the_talisman_one_time_in_36_until_the_last_monster_holds_it():
    """With the house numbers, parties die: the runs that find the Talisman late are the ones that
    live long enough, so their kills-until-the-Talisman is not the exact schedule's (survivors are a
    biased sample). Kill by kill it is: a kill made while the Talisman is not found yet finds it with
    chance 1/36 (its 2d6 roll), whatever came before, except the kill of the last monster, which
    always does. Pooled over every such kill of 400 runs (about 3,600 kills), the share of finds
    lies in the 99.9% Wilson interval around 1/36: it fails one time in 1,000 when the rule is kept,
    and (exact binomial sums) catches a chance of 1/18 or 1/72 a kill at least 99 times in 100."""
    monsters = len(R.areas(DATA))
    at_risk = finds = last = last_finds = 0
    for i in range(400):
        state, _ = play_run(SIM, STEADY, run_seed(21, i), (), DATA)
        ts = state.trackers.talisman
        made = ts.found_on_kill if ts.found else ts.kills
        for kill in range(1, made + 1):
            if kill == monsters:
                last += 1
                last_finds += ts.found_on_kill == kill
            else:
                at_risk += 1
                finds += ts.found_on_kill == kill
    lo, hi = wilson(finds, at_risk, z=Z999)
    assert lo <= float(O.TALISMAN_ROLL) <= hi, (finds, at_risk)
    assert last > 0 and last_finds == last


def test_with_a_party_that_cannot_fall_the_kills_until_the_talisman_follow_the_exact_schedule():
    """With test numbers that no monster can beat (every run finds the Talisman), the simulator's mean
    kills-until-the-Talisman lies in the 99.9% t interval of its own report's sums around the exact
    mean of ``talisman_found_on(0, monsters)``, and so does the share of each kill. With 400 runs the
    mean alone catches a chance of 1/18 or 1/72 a kill at least 99.9 times in 100 (normal
    approximation: the exact mean 10.33 kills, 8.93 or 11.12 under those, standard errors of 0.12-0.20)."""
    giants = {**DATA, "rangeress.hits": 20, "fighter.hits": 20, "wizard.hits": 20}
    giants |= {"rangeress.to_hit": 2, "fighter.to_hit": 2, "wizard.to_hit": 2}
    giants |= {"rangeress.be_hit": 12, "fighter.be_hit": 12, "wizard.be_hit": 12}
    n = 400
    tally = simulate("talisman", n, 33, data=giants)
    assert tally.sums["talisman"][1] == n  # every run found it
    count, total, squares = tally.sums["kills_before_talisman"]
    exact = O.talisman_found_on(0, len(R.areas(giants)))
    mean = sum(k * p for k, p in exact.items())
    sd = math.sqrt((count * squares - total * total) / (count * (count - 1)))
    assert abs(total / count - float(mean)) <= Z999 * sd / math.sqrt(count)
    counts = tally.hist["kills_before_talisman"]
    for k, p in exact.items():
        lo, hi = wilson(counts.get(k, 0), count, z=Z999)
        assert lo <= float(p) <= hi, k
    assert sum(exact.values()) == 1 and exact[12] == Fraction(35, 36) ** 11
