"""Regression tests for the rules audit of The Adventure in the Dungeon (issue 13, items 1-6)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from companion.cli.app import app
from companion.games.adventure_in_the_dungeon import rules as R
from companion.games.adventure_in_the_dungeon import view
from companion.games.adventure_in_the_dungeon.sim import record
from companion.sim.runner import RunInfo
from tests.aitd_support import DATA, Driver, make_state, started

runner = CliRunner()


def run(*args: str, code: int = 0):
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    return result


def kill(state, name: str) -> None:
    t = state.trackers.tallies[name]
    t.hits = t.max_hits


# ---- 1. one survivor is not a victory ---------------------------------------------------------------


def test_one_survivor_out_with_the_talisman_is_not_a_victory():
    state = started(make_state())
    for name in ("Krylla", "Ibli", "Regalan"):
        kill(state, name)
    state.trackers.talisman.found = True
    d = Driver(state)
    d.choose("leave", "area.enter")
    assert d.done and state.finished == "pyrrhic: out with the Talisman, but not a victory, 25 to 30"
    log = d.log_text()
    assert "Adelhardt carries the Holy Talisman" in log
    assert "Not a victory: three of the four heroes are lost, and the monsters outscore the heroes 30 to 25" in log
    assert "Verdict: a Pyrrhic victory" not in log
    assert not R.victory(1) and R.victory(2)


def test_the_simulator_does_not_count_one_survivor_as_won():
    state = started(make_state())
    for name in ("Krylla", "Ibli", "Regalan"):
        kill(state, name)
    state.trackers.talisman.found = True
    Driver(state).choose("leave", "area.enter")
    figures = record(state, RunInfo(seed=1, rolls=0, choices=1))
    assert figures["won"] is False and figures["points"] == 25 and figures["survivors"] == 1


def test_dungeon_score_for_one_survivor_says_not_a_victory():
    text = run("dungeon", "score", "1").stdout
    assert "Heroes 25 (1 × 25), monsters 30 (3 × 10): not a victory" in text
    assert "Pyrrhic victory" not in text
    data = json.loads(run("dungeon", "score", "1", "--json").stdout)
    assert data["victory"] is False and data["verdict"] == "Pyrrhic"
    assert json.loads(run("dungeon", "score", "2", "--json").stdout)["victory"] is True


# ---- 2. the cause of death in the webs ----------------------------------------------------------------


def test_every_hero_caught_in_the_webs_is_eaten_not_poisoned():
    state = make_state()
    d = Driver(state).enter(11)
    for key in ("web.paladin", "web.rangeress", "web.fighter", "web.wizard"):
        d.miss(key)
    fates = state.game.fates
    assert set(fates) == {"paladin", "rangeress", "fighter", "wizard"}
    assert all("eaten" in f for f in fates.values()), fates
    assert "the Paladin's cure is spent" not in d.log_text()
    assert "Regalan is eaten by the Giant Spider: no one is left to cut the webs." in d.log_text()


# ---- 3. the odds' labels follow the fight -------------------------------------------------------------


def test_the_odds_labels_drop_the_cure_once_it_is_spent():
    state = make_state()
    d = Driver(state)
    d.enter(9).choose("wait", "round.first")
    d.hit("monster.paladin").miss("monster.rangeress").miss("monster.fighter")
    before = " ".join(view.fight_lines(state))
    assert "the cure kept" in before
    d.choose("cure:paladin", "round.action")
    after = " ".join(view.fight_lines(state))
    assert "the cure kept" not in after and "Krylla striking first" in after


def test_the_odds_labels_do_not_have_a_trapped_krylla_strike_first():
    state = make_state()
    d = Driver(state).enter(11)
    d.hit("web.paladin").miss("web.rangeress").hit("web.fighter").hit("web.wizard")
    d.miss("monster.paladin")
    d.expect("round.action")
    lines = " ".join(view.fight_lines(state))
    assert "Fighting on to the end" in lines and "Krylla striking first" not in lines


# ---- 4. the status at the start ---------------------------------------------------------------------


def test_status_and_tally_work_right_after_new_with_the_numbers_stored():
    run("dungeon", "data", *(f"{k}={v}" for k, v in DATA.items()))
    run("new", "talisman", "--seed", "3")
    status = run("status").stdout
    assert "enter the heroes' numbers" not in status
    assert "Adelhardt – PALADIN: 9" in status and "Krylla – RANGERESS: 7" in status
    run("tally", "hit", "Adelhardt", "9")
    step = json.loads(run("next", "--json").stdout)
    assert step["request"]["key"] == "area.enter"
    assert "Adelhardt – PALADIN: 9 8 7 6 5 4 3 2 1 0 (slain)" in run("status").stdout


# ---- 5. the log's end and front -----------------------------------------------------------------------


def test_the_closing_sheet_marks_a_drowned_hero():
    state = make_state()
    d = Driver(state)
    d.enter(7).choose("strike", "round.first")
    d.miss("attack.rangeress")
    d.miss("monster.rangeress")
    d.hit("monster.paladin")
    d.choose("fight", "round.action")
    d.miss("attack.paladin")
    sheet = d.log_text().split("## Sheet")[1]
    assert "Adelhardt – PALADIN: 9 8 († drowned)" in sheet


def test_the_front_lists_no_monster_fields_for_an_empty_area_12():
    leftover = {**DATA, "area12.kind": "empty", "area12.name": "Gelatinous Thing", "area12.hits": 3}
    run("dungeon", "data", *(f"{k}={v}" for k, v in leftover.items()))
    run("new", "talisman", "--seed", "3", "--name", "front")
    run("next")
    status = json.loads(run("status", "--json").stdout)
    text = Path(status["meta"]["log"]).read_text(encoding="utf-8")
    assert "area12.kind = empty" in text
    assert "area12.name" not in text and "area12.hits" not in text


def test_hits_marked_by_hand_say_so_in_the_log():
    run("dungeon", "data", *(f"{k}={v}" for k, v in DATA.items()))
    run("new", "talisman", "--seed", "3", "--name", "hand")
    run("next")
    run("tally", "hit", "Krylla", "2")
    run("tally", "heal", "Krylla", "1")
    status = json.loads(run("status", "--json").stdout)
    text = Path(status["meta"]["log"]).read_text(encoding="utf-8")
    assert "Krylla – RANGERESS: 7 6 5 — 2 hits marked by hand" in text
    assert "Adelhardt cures one hit from Krylla." in text  # a hit taken off by hand is the Paladin's cure
    assert "Krylla – RANGERESS: 7 6 5 6 — 1 hit removed by hand" in text  # the book writes the count going up


# ---- 6. words ---------------------------------------------------------------------------------------


def test_the_paladin_cures_one_of_his_own_hits():
    state = make_state()
    d = Driver(state)
    d.enter(9).choose("wait", "round.first")
    d.hit("monster.paladin").miss("monster.rangeress").miss("monster.fighter")
    option = d.expect("round.action").option("cure:paladin")
    assert option.label == "Adelhardt cures one of his own hits"
    d.choose("cure:paladin")
    assert "Adelhardt cures one of his own hits." in d.log_text()
    assert "Adelhardt cures one hit from Adelhardt" not in d.log_text()


def test_the_rats_take_hits_in_the_plural():
    state = make_state()
    d = Driver(state)
    d.enter(3).choose("wait", "round.first")
    for hero in ("paladin", "rangeress", "fighter", "wizard"):
        d.miss(f"monster.{hero}")
    d.choose("fight", "round.action")
    d.hit("attack.paladin").hit("attack.rangeress").miss("attack.fighter").miss("attack.wizard")
    log = d.log_text()
    assert "the Giant Rats take 2" in log and "Giant Rats takes" not in log


def test_no_giving_up_once_the_talisman_is_found_and_no_leave_after_the_end():
    state = started(make_state())
    state.trackers.talisman.found = True
    state.trackers.talisman.found_on_kill = 1
    d = Driver(state)
    assert "abandon" not in d.expect("area.enter").values()
    d.choose("leave")
    row = dict(view.status(state))["Talisman"]
    assert "leave the dungeon" not in row and "carried out" in row


def test_the_first_strike_hint_reads_as_the_roll_line_does():
    state = make_state()
    d = Driver(state)
    d.enter(4)
    hint = d.expect("round.first").option("strike").hint
    assert hint == "2d6>=6 −1 Ogre Mage: passes on 7+ → 7/12 (58.3%)"
    assert "on the dice" not in hint


# ---- issue 12: a suggested set of house numbers -----------------------------------------------------


def test_the_suggested_house_numbers_are_taken_with_one_answer_and_stored_as_house_numbers():
    from companion.games.adventure_in_the_dungeon import data as D

    state = make_state(data={})
    d = Driver(state)
    source = d.expect("data.source")
    option = source.option(D.SUGGESTED)
    assert "not the book's" in option.label and len(option.label) < 70
    d.choose(D.SUGGESTED)
    d.expect("area.enter")  # nothing more to type
    assert state.data["source"] == "house"
    assert {k: state.data[k] for k in D.SUGGESTED_HOUSE} == D.SUGGESTED_HOUSE
    assert R.numbers(state.data) == R.Numbers((9, 7, 8, 6), (4, 6, 5, 7), (11, 9, 10, 8))
    log = d.log_text()
    assert "companion's suggested house numbers, not the book's: Krylla 7 hits, hits on 6+, is hit on 9+" in log
    assert "The heroes' numbers and Area 12: house numbers, not the book's." in log


def test_the_suggestion_goes_to_the_catalogue_and_the_player_may_type_their_own_instead():
    run("new", "talisman", "--seed", "3", "--name", "suggest")
    step = json.loads(run("next", "--json").stdout)
    assert step["request"]["key"] == "data.source"
    step = json.loads(run("next", "suggested", "--json").stdout)
    assert step["request"]["key"] == "area.enter"
    shown = json.loads(run("dungeon", "data", "--json").stdout)
    values = shown.get("values", shown)
    assert values["source"] == "house" and values["wizard.hits"] == 6
    run("new", "talisman", "--seed", "3", "--name", "own")
    step = json.loads(run("next", "--json").stdout)
    assert step["request"]["key"] == "area.enter"  # the catalogue's numbers are kept for the next game


# ---- the table's floats never read as a certainty, a sure impossibility or below zero -------------


def test_the_tables_float_odds_read_as_the_exact_ones_for_every_area():
    """`odds fight talisman N` prints floats (a fraction of the time); each chance must still read as
    the exact one does: no row lost (a flight of 1e-20 is still a flight), no "1/1" where the fight
    can still be lost, no "-0.00%". The house numbers make areas 2 and 8 all but certain wins; the
    others here bring the Remorhaz and the spider's webs (areas 1, 3 and 13 take
    seconds in fractions: tests/test_aitd_chain.py checks their floats)."""
    from companion.games.adventure_in_the_dungeon.odds import fight_outcome
    from companion.sim.fights import chance_text, share_text

    for area in (2, 8, 10, 11):
        fast = fight_outcome(area, DATA, exact=False)
        exact = fight_outcome(area, DATA, exact=True)
        rows = [("win", fast.win, exact.win), ("lose", fast.lose, exact.lose), ("flee", fast.flee, exact.flee)]
        assert [label for label, _ in fast.more] == [label for label, _ in exact.more], area
        rows += [(a[0], a[1], b[1]) for a, b in zip(fast.more, exact.more, strict=True)]
        for chart_f, chart_e in zip(fast.charts, exact.charts, strict=True):
            rows += [(a[0], a[1], b[1]) for a, b in zip(chart_f.rows, chart_e.rows, strict=True)]
        for label, f, e in rows:
            assert (f is None) == (e is None), (area, label)
            if e is None:
                continue
            assert f >= 0 and abs(float(f) - float(e)) < 1e-9, (area, label, float(f), e)
            assert (f == 0) == (e == 0) and (f == 1) == (e == 1), (area, label, float(f), e)
            for text in (chance_text, share_text):
                if e.denominator > 10**6:  # a long fraction: both show the same percentage
                    assert text(f) == text(e), (area, label, text(f), text(e))
