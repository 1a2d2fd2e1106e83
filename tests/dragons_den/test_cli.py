"""Layer 2: the ``companion dragon`` commands through the CLI (CliRunner), with --json and errors."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.games.dragons_den import odds

runner = CliRunner()


def run(*args: str, code: int = 0):
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    return result


def js(*args: str) -> dict:
    return json.loads(run(*args, "--json").stdout)


@pytest.fixture
def game():
    run("new", "dd", "--seed", "7")
    run("dragon", "setup", "sam", "jared", "--chits", "physical", "--dragon", "9", "--discard", "1", "--discard", "2")


def test_a_game_by_one_shot_commands(game):
    out = js("dragon", "reveal", "4", "--chit", "m15", "--chit", "t7")
    assert out["den"]["rooms"] == {"4": ["M15", "T7"]}
    assert any("Troll" in line for line in out["log"])
    out = js("dragon", "attack", "troll")  # Sam's turn; health 8: automatic
    troll = next(f for f in out["den"]["figures"] if f["key"] == "troll")
    assert troll["health"] == 3
    run("dragon", "end-turn")
    out = js("dragon", "take", "t7")  # Jared takes the treasure: the alarm
    assert out["den"]["alarm"] is True
    out = js("dragon", "end-turn", "--chit", "3")  # the dragon turn begins with a countdown chit
    assert out["den"]["countdown_left"] == 8 and out["den"]["phase"] == "dragon"
    out = js("dragon", "special", "troll")
    assert next(f for f in out["den"]["figures"] if f["key"] == "troll")["health"] == 4  # 3 - 1 + 3, cap 4
    text = run("log", "--raw").stdout
    assert "The Troll: Regenerate" in text and "Aged Red" not in text


def test_the_dragon_stays_secret_until_revealed(game):
    health = run("dragon", "health").stdout
    assert "secret" in health and "Aged Red" not in health
    status = json.loads(run("dragon", "health", "--json").stdout)
    assert {"key": "dragon", "kind": "dragon", "status": "hidden"} in status["figures"]
    assert "Aged Red Dragon" in run("dragon", "peek").stdout  # the dragon player's look
    out = js("dragon", "lair")
    assert any("Aged Red Dragon" in line for line in out["log"])


def test_physical_dice_with_got(game):
    run("mode", "physical")
    run("dragon", "reveal", "2", "--chit", "m19", "--chit", "t1")
    run("dragon", "end-turn")
    run("dragon", "end-turn")
    out = js("dragon", "attack", "lizard-man-chieftain", "sam", "--got", "3")  # health 8: automatic, no roll
    assert next(f for f in out["den"]["figures"] if f["key"] == "sam")["health"] == 7
    result = run("dragon", "attack", "lizard-man-chieftain", "jared", code=2)
    assert "already attacked" in result.stderr


def test_physical_dice_without_got_refuse_cleanly(game):
    run("mode", "physical")
    result = run("dragon", "move", code=2)
    assert "--got" in result.stderr and "Traceback" not in result.stderr
    out = js("dragon", "move", "--got", "4")
    assert any("up to 6 squares" in line for line in out["log"])  # 4 + speed 2


def test_bad_input_is_one_line_and_changes_nothing(game):
    before = run("status", "--json").stdout
    for args, message in (
        (("dragon", "attack", "nobody"), "nobody called 'nobody'"),
        (("dragon", "reveal", "3", "--chit", "m99"), "no monster chit 99"),
        (("dragon", "reveal", "3", "--chit", "t1", "--chit", "t1"), "t1 is given twice with --chit"),
        (("dragon", "ability", "fireball"), "not an ability"),
        (("dragon", "ability", "deathblow", "dragon", "--hero", "jared"), "Sam Barleyman's turn"),
        (("dragon", "breath", "sam"), "dragon player's turn"),
        (("dragon", "take", "t3"), "not a treasure lying"),
    ):
        result = run(*args, code=2)
        assert message in result.stderr, (args, result.stderr)
        assert len(result.stderr.strip().splitlines()) <= 2
    assert run("status", "--json").stdout == before


def test_undo_takes_back_a_whole_action(game):
    run("dragon", "reveal", "4", "--chit", "m3", "--chit", "t7")
    run("dragon", "attack", "goblin")
    run("undo")
    out = js("dragon", "health")
    assert next(f for f in out["figures"] if f["key"] == "goblin")["status"] == "in"


def test_virtual_draws_continue_the_seeded_stream():
    run("new", "dd", "--seed", "3")
    run("dragon", "setup", "7")
    a = js("dragon", "reveal", "1")
    b = js("dragon", "reveal", "2")
    assert a["den"]["rooms"]["1"] != b["den"]["rooms"]["2"]
    assert len(set(a["den"]["rooms"]["1"] + b["den"]["rooms"]["2"])) == 4
    run("undo")
    c = js("dragon", "reveal", "2")
    assert c["den"]["rooms"]["2"] == b["den"]["rooms"]["2"]  # after an undo the stream gives the same chits


def test_chits_typed_in_a_virtual_game_are_refused():
    run("new", "dd", "--seed", "3")
    run("dragon", "setup", "7")
    result = run("dragon", "reveal", "1", "--chit", "m1", code=2)
    assert "companion draws the chits" in result.stderr


def test_setup_refuses_typed_chits_without_a_terminal():
    run("new", "dd")
    result = run("dragon", "setup", "7", "--chits", "physical", code=2)
    assert "--dragon" in result.stderr


def test_the_long_game_variant():
    run("new", "dd", "--variant", "long", "--seed", "1")
    out = json.loads(run("dragon", "setup", "7", "--json").stdout)
    assert out["den"]["countdown"] == 11 and out["den"]["countdown_left"] == 11


def test_score_reads_both_charts(game):
    run("dragon", "reveal", "4", "--chit", "t10", "--chit", "m3")
    run("dragon", "take", "t10")
    run("dragon", "escape")
    out = js("dragon", "score")
    assert out["final"] is False and out["carried"] == 2000 and out["haul"] == 1000  # Jared counted as trapped
    run("dragon", "escape", "jared")
    out = js("dragon", "score")
    assert out["final"] is True
    assert (out["haul"], out["heroes_result"]) == (2000, "2,000-4,999 gp")
    assert (out["happiness"], out["dragon_result"]) == (10, "10-14 points")
    text = run("dragon", "score").stdout
    assert "Heroes' Victory Chart: 2,000-4,999 gp" in text


def test_correcting_a_garbled_treasure_row(game):
    out = js("dragon", "treasure", "monster", "10", "--gp", "1900")
    assert out == {
        "table": "monster",
        "row": 10,
        "name": "Small bag of gemstones",
        "gp": 1900,
        "reading": False,
        "saved": True,
        "session": "dragons-den-1",
    }
    assert js("gamedata", "dragons-den")["values"] == {"treasure.monster.10.gp": 1900}
    run("dragon", "reveal", "4", "--chit", "t10", "--chit", "m3")
    run("dragon", "take", "t10")
    run("dragon", "escape")
    assert js("dragon", "score")["carried"] == 1900
    run("new", "dd")  # a new game starts with the correction
    tables = js("dragon", "notes", "treasure")["treasure"]
    assert tables["monster"][9] == {"row": 10, "name": "Small bag of gemstones", "gp": 1900, "reading": False}
    assert tables["dragon"][8]["reading"] is True


def test_notes_and_odds_need_no_session():
    heroes = js("dragon", "notes", "heroes")["heroes"]
    assert [h["abilities"][0]["max_uses"] for h in heroes if h["key"] in ("jared", "ren")] == [4, None]
    assert "Gelatinous Cube" in run("dragon", "notes", "monsters").stdout
    out = js("dragon", "odds", "--health", "1", "--against", "1")
    assert out["win"] == "6/11"
    out = js("dragon", "odds", "--need", "10", "--speed", "2", "--run")
    assert out["chance"] == "13/20"
    run("dragon", "notes", "spells", code=2)


def test_odds_on_the_board(game):
    run("dragon", "reveal", "4", "--chit", "m18", "--chit", "t1")
    out = js("dragon", "odds", "sam", "hill-giant")
    win = odds.exchange(8, 8).win
    assert out["attack"] == "1/1" and out["win"] == f"{win.numerator}/{win.denominator}"  # Sam at 8 strikes first
    assert "Against the breath" in run("dragon", "odds").stdout


def test_a_session_of_another_game_is_refused():
    run("new", "freeform")
    result = run("dragon", "health", code=1)
    assert "not the Dragon's Den" in result.stderr


def test_guided_next_answers_the_menu():
    run("new", "dd", "--seed", "2")
    out = json.loads(run("next", "--json").stdout)
    assert out["request"]["key"] == "dd.setup.hero"
    run("next", "7")
    run("next", "done")
    out = json.loads(run("next", "virtual", "--json").stdout)
    assert out["request"]["secret"] is True and out["request"]["virtual"] is True
    out = json.loads(run("next", "roll", "--json").stdout)
    assert out["log"] == []  # the secret draw is not shown
    run("next", "roll")
    out = json.loads(run("next", "roll", "--json").stdout)
    assert out["request"]["key"] == "dd.peek"


def test_the_command_group_loads_only_typer():
    import subprocess
    import sys

    # The group is its command modules (cli/__init__.py and cli/*.py, split by topic); nothing of the rules.
    code = (
        "import sys, companion.games.dragons_den.cli\n"
        "print(sorted(m for m in sys.modules if m.startswith(('rich', 'questionary', 'tinydb', "
        "'companion.games.dragons_den.')) and not m.startswith('companion.games.dragons_den.cli.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['companion.games.dragons_den.cli']"


def test_amend_does_not_skip_over_a_physical_roll_inside_an_action(game):
    run("mode", "physical")
    run("roll", "1d6", "--got", "2")
    run("dragon", "move", "--got", "4")
    result = run("amend", "--got", "5", "--reason", "typo", code=1)
    assert "part of action" in result.stderr and "undo it" in result.stderr


def test_options_an_action_did_not_need_are_reported(game):
    result = run("dragon", "attack", "dragon", code=2)  # the dragon is still secret
    assert "hidden in the lair" in result.stderr and "Aged" not in result.stderr
    run("dragon", "reveal", "4", "--chit", "m3", "--chit", "t1")
    result = run("dragon", "attack", "goblin", "--got", "2", "--shield")
    assert "--got 2 was not needed" in result.stderr and "--shield was not needed" in result.stderr


def test_a_hidden_dragon_does_not_answer_to_its_name(game):
    result = run("dragon", "attack", "aged", code=2)  # the secret dragon is the Aged Red Dragon
    assert "nobody called 'aged'" in result.stderr
    run("dragon", "lair")
    assert "Aged Red Dragon" in run("dragon", "odds", "sam", "aged").stdout
