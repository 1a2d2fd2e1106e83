"""Small screens a new user met in the first hour (#40, item 8), through the command a user types:
serve's lines and the shell's help fold between words at 80 and 120 columns, a line at a step
suggests up to three commands, a first play after a setting does not say Resuming, a card's name is
no possessive, XP without levels is said plainly."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.helpers import cli
from tests.terminal import broken_words, edge_problems


def test_a_line_at_a_step_suggests_up_to_three_commands(isolated_home):
    assert cli("new", "inverted-tower", "--hero", "Aria").exit_code == 0
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "shell"],
        input="rool 2d6\nstatsu\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    said = proc.stderr.splitlines()
    assert (
        "  or did you mean one of the commands room, roll, rooms? ? shows this step's answers; help, the commands"
        in said
    )
    assert "  or did you mean the command status? ? shows this step's answers; help, the commands" in said


@pytest.mark.parametrize("columns", [80, 120])
def test_the_shells_help_folds_under_its_columns(tmp_path, columns):
    from tests.shell_term import Term

    term = Term("shell", cols=columns, rows=60, env={"COMPANION_HOME": str(tmp_path / "h")})
    term.line("help\r", "dungeon")
    screen = term.display().splitlines()
    term.send("\x04")
    term.close()
    assert not edge_problems(screen, columns) and not broken_words(screen, columns)
    enter = next(i for i, line in enumerate(screen) if line.startswith("  Enter "))
    if columns == 80:  # the long key line goes on under its own column
        assert screen[enter + 1].startswith(" " * 16) and screen[enter + 1].strip() == "virtual dice"
    else:
        assert screen[enter].endswith("roll it with the session's virtual dice")


@pytest.mark.parametrize("columns", [80, 120])
def test_serves_lines_fold_between_words(tmp_path, columns):
    from tests.terminal import Terminal, prepare, terminal_env

    env = terminal_env(tmp_path, columns, 50)
    prepare(env, "new", "dark-tower", "--name", "a long session name for the table")
    term = Terminal(env, "serve", "--port", "0", columns=columns, lines=50)
    try:
        term.seen("Ctrl-C stops it")
        lines = [line for line in term.all_lines() if line.strip()]
    finally:
        term.kill()
    said = lines[lines.index(next(x for x in lines if x.startswith("Serving "))) :]
    assert not broken_words(said, columns) and not edge_problems(said, columns), "\n".join(said)
    assert "open the address above, or scan its code (--qr)." in " ".join(x.strip() for x in said)


def test_a_first_play_after_a_setting_only_does_not_say_resuming(tmp_path):
    from tests.terminal import Terminal, prepare, terminal_env

    env = terminal_env(tmp_path, 80, 30)
    prepare(env, "new", "dark-tower", "--name", "tower")
    prepare(env, "dark", "lang", "ru")  # one event, and nothing played
    term = Terminal(env, "play", columns=80, lines=30)
    try:
        term.ready()
        shown = "\n".join(term.all_lines())
        term.key("q")
    finally:
        term.kill()
    assert "Продолжаем" not in shown and "Resuming" not in shown
    assert "Тёмная Башня · tower" in shown


def test_a_cards_name_is_not_made_a_possessive(isolated_home):
    assert cli("new", "dark-tower").exit_code == 0
    for answer in ("1", "1", "Ann", "1", "2", "1", "Obsidian Knuckles"):
        assert cli("next", answer).exit_code == 0, answer
    asked = cli("next", "4").stdout  # another class: typed as printed
    assert "Obsidian Knuckles: class, as printed" in asked and "Knuckles's" not in asked


def test_xp_without_levels_is_said_plainly(isolated_home):
    assert cli("new", "freeform").exit_code == 0
    lines = cli("xp", "+3").stdout.splitlines()
    assert lines[-1] == "XP is a plain count here: this game has no levels."
    assert json.loads(cli("xp", "--json").stdout)["xp"] == 3
