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
