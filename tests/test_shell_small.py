"""The shell's small things (#21 part 5): ``use NAME`` for a session made in another terminal, ``clear``,
piped input's exit code, hints in the shell's own forms."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests.shell_term import COMPANION, CTRL_D, ENTER, Term
from tests.terminal import run_cli

pytestmark = pytest.mark.e2e


def companion(*args: str) -> subprocess.CompletedProcess:
    result = run_cli(dict(os.environ), *args)
    assert result.returncode == 0, (args, result.stdout, result.stderr)
    return result


def test_use_moves_the_shell_to_a_session_made_in_another_terminal():
    companion("new", "freeform", "--name", "s1")
    t = Term("shell")
    t.wait_for("s1>")
    # Another terminal starts s2: it becomes the current session there.
    other = subprocess.run([COMPANION, "new", "freeform", "--name", "s2"], capture_output=True, text=True,
                           env=dict(os.environ), timeout=120)  # fmt: skip
    assert other.returncode == 0, other.stderr
    t.line("use s2" + ENTER, "The shell is now on s2.")
    t.line("tally add Goblin 3 --monster" + ENTER, "Goblin")
    t.send(CTRL_D)
    assert t.close() == 0
    s2 = json.loads(companion("--session", "s2", "status", "--json").stdout)
    s1 = json.loads(companion("--session", "s1", "status", "--json").stdout)
    assert "Goblin" in s2["state"]["trackers"]["tallies"]  # the command landed in the game it was meant for
    assert "Goblin" not in s1["state"]["trackers"]["tallies"]


def test_clear_clears_the_screen():
    companion("new", "freeform", "--name", "s1")
    t = Term("shell")
    t.wait_for("s1>")
    t.line("note before the clear" + ENTER, "Noted")
    t.line("clear" + ENTER, "s1>")
    t.ready()
    assert "before the clear" not in t.display()
    t.send(CTRL_D)
    assert t.close() == 0


def test_piped_input_exits_non_zero_when_a_line_failed():
    companion("new", "freeform", "--name", "s1")
    good = subprocess.run([COMPANION, "shell"], input="roll 2d6 --got 3,4\nnote fine\n", capture_output=True,
                          text=True, env=dict(os.environ), timeout=120)  # fmt: skip
    assert good.returncode == 0, good.stderr
    bad = subprocess.run([COMPANION, "shell"], input="roll 2d6 --got 9,9\nnote after the mistake\n",
                         capture_output=True, text=True, env=dict(os.environ), timeout=120)  # fmt: skip
    assert bad.returncode == 2, (bad.stdout, bad.stderr)
    assert "Noted" in bad.stdout  # the lines after the failed one still ran
    assert "Traceback" not in bad.stderr


def test_hints_inside_the_shell_use_the_shells_forms():
    companion("new", "freeform", "--name", "s1")
    out = subprocess.run([COMPANION, "shell"], input="note one\nundo\n", capture_output=True, text=True,
                         env=dict(os.environ), timeout=120)  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "redo brings it back" in out.stdout
    assert "companion redo" not in out.stdout


def test_a_hint_in_colour_is_said_in_the_shells_forms_too():
    from companion.shell.forms import prefix_pattern, shell_forms

    forms = prefix_pattern(["redo", "undo"])
    styled = "Undone: a note (#1). \x1b[2mcompanion redo\x1b[0m brings it back."
    assert shell_forms(styled, forms) == "Undone: a note (#1). \x1b[2mredo\x1b[0m brings it back."
    assert shell_forms("see /usr/bin/companion redo", forms) == "see /usr/bin/companion redo"


def history() -> dict:
    return json.loads(companion("history", "--json").stdout)


def test_undo_in_the_shell_goes_back_over_the_draws_it_made_at_once_and_redo_brings_them_back():
    companion("new", "dragons-den", "--name", "den", "--seed", "4")
    shell = [COMPANION, "shell"]
    # three chits drawn at once after the answer "companion draws them": u takes them back with it
    out = subprocess.run(shell, input="7\nst\nco\nu\n", capture_output=True, text=True, env=dict(os.environ),
                         timeout=120)  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "(#3). redo brings it back." in out.stdout  # the answer that led to the draws, said last
    taken = history()
    assert [a["n"] for a in taken["actions"]] == [1, 2]  # not drawn again at once: the undo holds
    assert all(t["redo"] for t in taken["undone"]) and len(taken["undone"]) == 4
    out = subprocess.run(shell, input="redo\n", capture_output=True, text=True, env=dict(os.environ),
                         timeout=120)  # fmt: skip
    assert out.returncode == 0, out.stderr
    back = history()
    assert [a["n"] for a in back["actions"]] == [1, 2, 3, 4, 5, 6]
    assert back["undone"] == []  # the same draws, redone: nothing left apart, nothing drawn anew
    assert "Redone: draw a dragon chit to set aside (10 in the cup) → drawn in secret (#6)." in out.stdout


def test_draws_are_made_at_once_and_a_private_menu_leaves_no_trace():
    companion("new", "dragons-den", "--name", "den", "--seed", "4")
    t = Term("shell", cols=100, rows=30)
    t.wait_for("den>")
    t.line("7" + ENTER, "Another hero, or start?")
    t.line("st" + ENTER, "How are the chits drawn")
    # companion draws the chits: the draws from its cups are made at once, no Enter for each
    t.line("co" + ENTER, "heroes look away")
    t.ready()
    assert "Young Black Dragon" in t.display()  # the dragon player's own look
    t.line("1" + ENTER, "den>")
    t.ready()
    assert "Young Black Dragon" not in t.display()  # cleared once answered
    assert "Sam Barleyman's turn" in t.display()
    t.send(CTRL_D)
    assert t.close() == 0
    log = companion("log", "--raw").stdout
    assert "Young Black Dragon" not in log


def test_a_dash_answers_a_text_step_and_a_mistyped_command_points_to_help_in_the_shell():
    companion("new", "haunted-tower", "--name", "h", "--physical")
    lines = ["1", "Thorvald", "6", "7", "3", "5", "-", "--nope", "haunted atack"]
    result = subprocess.run([COMPANION, "shell"], input="\n".join(lines) + "\n", capture_output=True, text=True,
                            env=dict(os.environ), timeout=120)  # fmt: skip
    assert "Special ability, as the card words it → -" in result.stdout  # "-": none, as --ability - takes it
    assert "Does the ability change fights" in result.stdout
    assert "No such command '-'" not in result.stderr
    assert "(see 'help')" in result.stderr  # the shell's own form, not 'companion --help'
    assert "(see 'haunted --help')" in result.stderr
    assert "companion --help" not in result.stderr and "Traceback" not in result.stderr
