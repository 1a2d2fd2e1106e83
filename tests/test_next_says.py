"""companion next ANSWER says which question it answered and with what, then what happened."""

from __future__ import annotations

import json

from tests.helpers import cli


def test_next_names_the_question_and_the_answer_first(isolated_home):
    assert cli("new", "inverted-tower", "--seed", "3").exit_code == 0  # no --hero: the game asks the name
    result = cli("next", "1")
    assert result.exit_code == 0, result.stderr
    first = result.stdout.splitlines()[0]
    assert first == "Your hero's name? → 1"
    result = cli("next", "1")
    assert result.stdout.splitlines()[0].startswith("Your hero: put 1 point in which attribute? → STR")
    data = json.loads(cli("next", "roll", "--json").stdout)
    assert data["answered"]["question"].startswith("New room")
    assert data["answered"]["answer"].startswith("[")


def test_a_negative_answer_is_an_answer_not_an_option(isolated_home):
    assert cli("new", "inverted-tower", "--seed", "3").exit_code == 0
    result = cli("next", "-2")  # a text: the hero's name; not "No such option"
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0] == "Your hero's name? → -2"
    assert "--json" not in result.stdout
    assert json.loads(cli("next", "--json").stdout)["request"]["type"] == "choice"


def test_roll_at_a_menu_is_refused_not_taken_for_an_option(isolated_home):
    """``next roll`` answers a roll; at a menu whose option reads "Roll 1d10: ..." it is refused with the
    choices, not taken for that option."""
    assert cli("new", "haunted-tower", "--seed", "5").exit_code == 0
    for name in ("Aria", "Bram", "Cael"):  # three: the setup's menu offers the roll for who places first
        args = ("haunted", "hero", name, "--speed", "6", "--hp", "6", "--attack", "3", "--ac", "5", "--ability", "-")
        assert cli(*args).exit_code == 0
    menu = json.loads(cli("next", "--json").stdout)["request"]
    assert menu["type"] == "choice" and any(o["label"].startswith("Roll 1d10") for o in menu["options"])
    result = cli("next", "roll")
    assert result.exit_code == 2
    assert "this step is a choice, not a roll" in result.stderr and "Roll 1d10" in result.stderr
    assert json.loads(cli("next", "--json").stdout)["request"] == menu, "nothing was answered"
