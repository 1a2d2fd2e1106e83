"""``companion play`` for the Haunted Tower, answered with keystrokes through prompt_toolkit's pipe input."""

from __future__ import annotations

import json

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from typer.testing import CliRunner

from companion.cli.app import app
from tests.test_haunted_cli import CARDS

runner = CliRunner()
DOWN, UP, ENTER = "\x1b[B", "\x1b[A", "\r"


@pytest.fixture
def terminal(monkeypatch):
    """Make the command believe it talks to a person at a terminal."""
    monkeypatch.setattr("companion.cli.env._isatty", lambda stream: True)


def ok(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return result.stdout


def play(keys: str):
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        inp.send_text(keys)
        inp.close()  # when the keys run out the prompt meets the end of input, so a test cannot hang
        return runner.invoke(app, ["play"])


def test_play_runs_a_fight_from_the_menu(terminal):
    ok("new", "ht", "--seed", "3")
    for name, card in CARDS.items():
        ok("haunted", "hero", name, *card)
    keys = (
        DOWN
        + DOWN
        + ENTER  # setup menu: start play
        + "9"
        + ENTER
        + "2"
        + ENTER
        + "3"
        + ENTER  # who goes first: Aria
        + ENTER  # A hero meets a monster
        + ENTER  # Aria
        + ENTER  # Basilisk … Giant Vampire Bat
        + DOWN * 7
        + ENTER  # the Ghoul
        + ENTER  # blue chit
        + "6"
        + ENTER
        + "1"
        + ENTER  # initiative: Aria first
        + ENTER  # attack
        + "6"
        + ENTER  # 6 + 3 >= AC 6: one damage
        + "q"
        + ENTER  # quit at the Ghoul's attack roll
    )
    result = play(keys)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "Fight 1: Aria vs the Ghoul (blue chit)" in out
    assert "Aria attacks first: 1/2 (50.0%), ties rolled again." in out
    assert "Fight on to the end: win " in out
    assert "1d6>=5 +3 Att: passes on 2+ → 5/6 (83.3%)" in out  # the odds before the Ghoul's roll
    assert "Aria hits for 1: the Ghoul HP 1/2." in out
    assert "\n  1d6\n" not in out and "\n  1d10\n" not in out  # no bare expression before plain rolls
    assert "Saved. Resume with: companion play" in out
    status = json.loads(ok("status", "--json"))
    fight = status["state"]["game"]["fight"]
    assert fight["hp"] == 1 and fight["phase"] == "monster"


def test_play_resumes_where_one_shot_commands_left_the_fight(terminal):
    ok("new", "ht", "--seed", "3")
    for name, card in CARDS.items():
        ok("haunted", "hero", name, *card)
    ok("haunted", "fight", "Bram", "zombie")
    keys = (
        ENTER  # attack (the zombie always loses the initiative)
        + "2"
        + ENTER  # 2 + 2 >= AC 4: hit
        + "1"
        + ENTER  # the zombie misses
        + ENTER
        + "6"
        + ENTER  # attack again: the zombie dies
        + UP
        + ENTER  # up from the top wraps to the last entry of the menu: save and quit
    )
    result = play(keys)
    assert result.exit_code == 0, result.stderr
    assert "Bram kills the Zombie" in result.stdout
    log = ok("log", "--raw")
    assert "Fight 1: Bram vs the Zombie (blue chit): Bram kills it in round 2" in log
