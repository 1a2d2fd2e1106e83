"""Trackers and guided games do not fight each other (#12): each refusal is one line and exit 2, and
changes nothing."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from companion.cli.app import app

runner = CliRunner()

#: The Adventure in the Dungeon's first questions, as tests/test_aitd_cli.py answers them.
ANSWERS = ["house", 7, 6, 9, 8, 5, 10, 5, 9, 8, "empty"]


def run(*args: str, code: int = 0):
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (args, result.exit_code, result.stdout, result.stderr)
    return result


def refused(*args: str) -> str:
    result = run(*args, code=2)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


def tallies() -> dict:
    return json.loads(run("status", "--json").stdout)["state"]["trackers"]["tallies"]


def counters() -> dict:
    return json.loads(run("status", "--json").stdout)["state"]["trackers"]["counters"]


def guided_dungeon() -> None:
    run("new", "talisman", "--seed", "3")
    run("next")
    for answer in ANSWERS:
        run("next", str(answer))


def test_tally_add_on_an_existing_name_needs_replace():
    run("new", "freeform")
    run("tally", "add", "Bob", "5", "--role", "thief")
    run("tally", "hit", "Bob", "2")
    line = refused("tally", "add", "Bob", "7")
    assert "Bob already has a tally" in line and "--replace" in line
    assert tallies()["Bob"]["max_hits"] == 5 and tallies()["Bob"]["hits"] == 2
    out = run("tally", "add", "Bob", "7", "--replace").stdout
    assert "Bob: 7" in out
    assert tallies()["Bob"]["max_hits"] == 7 and tallies()["Bob"]["hits"] == 0


def test_spending_more_gold_than_you_have_is_refused_not_clamped():
    run("new", "freeform")
    run("gold", "+7")
    line = refused("gold", "-10")
    assert "you have 7 gold" in line
    assert counters()["gold"]["value"] == 7
    assert "Gold: 0" in run("gold", "-7").stdout


def test_a_tracker_the_game_does_not_have_is_refused_with_what_to_use_instead():
    run("new", "talisman")
    line = refused("hp", "-1")
    assert line.endswith(
        "The Adventure in the Dungeon has no HP: heroes take hits on their tallies (companion tally hit NAME)"
    )
    assert "has no XP" in refused("xp", "+1")
    assert "has no Gold" in refused("gold", "+3")
    assert "hp" not in counters() and "gold" not in counters()


def test_freeform_accepts_every_tracker():
    run("new", "freeform")
    assert "HP: 5/5" in run("hp", "=5", "--max", "5").stdout
    assert "Gold: 3" in run("gold", "+3").stdout
    assert "XP: 2" in run("xp", "+2").stdout


def test_in_a_session_made_before_revision_2_guided_play_keeps_the_tallies(monkeypatch):
    """Made before the hand commands went beside guided play (issue 33), a session replays as it was
    played: there guided play, once begun, keeps the tallies."""
    monkeypatch.setattr("companion.session.service.REVISION", 1)
    guided_dungeon()
    before = tallies()
    assert before["Adelhardt"]["role"].upper() == "PALADIN"
    for args in (
        ("tally", "add", "Adelhardt", "9"),
        ("tally", "add", "Adelhardt", "9", "--replace"),
        ("tally", "hit", "Adelhardt"),
        ("tally", "heal", "Adelhardt"),
        ("tally", "remove", "Adelhardt"),
        ("tally", "add", "Bob", "5"),
    ):
        line = refused(*args)
        assert "guided play" in line and "companion next" in line, line
    assert tallies() == before
    # The guided way still plays on.
    assert json.loads(run("next", "--json").stdout)["request"]


def test_guided_play_and_the_hand_tallies_go_side_by_side():
    """Issue 33: a player who plays from the book marks hits by hand while guided play waits; the
    step is then built again from the table (a monster slain by hand: its Talisman roll)."""
    guided_dungeon()
    step = json.loads(run("next", "--json").stdout)["request"]
    assert step["key"] == "area.enter" and "which area" in step["prompt"]
    run("tally", "hit", "Adelhardt")
    assert tallies()["Adelhardt"]["hits"] == 1
    run("tally", "hit", "xorn", "2")  # fought from the book: the step says so, the bar has its fight
    step = json.loads(run("next", "--json").stdout)["request"]
    assert step["key"] == "area.enter" and "fights the Xorn" in step["prompt"] and "at the table" in step["prompt"]
    run("tally", "hit", "xorn", "3")  # its last hit: slain, and the Talisman roll is next
    assert json.loads(run("next", "--json").stdout)["request"]["key"] == "talisman"
    run("next", "3", "4")
    step = json.loads(run("next", "--json").stdout)["request"]
    assert step["key"] == "area.enter" and not any("Xorn" in o["label"] for o in step["options"])


def test_freeform_xp_says_no_levels_are_tracked():
    run("new", "freeform")
    lines = run("xp", "+3").stdout.strip().splitlines()
    assert lines[-2:] == ["XP: 3", "XP is a plain count here: this game has no levels."]
    # A game with levels shows them instead.
    run("new", "it")
    assert "No levels" not in run("xp", "+1").stdout
