"""``companion shell`` in a real pseudo-terminal, as a player at the table types into it."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests.shell_term import COMPANION, CTRL_C, CTRL_D, ENTER, TAB, Term
from tests.terminal import run_cli

pytestmark = pytest.mark.e2e


def companion(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """The steps around the shell (setting up, reading what it kept), in this process."""
    result = run_cli(dict(os.environ), *args)
    if check:
        assert result.returncode == 0, (args, result.stdout, result.stderr)
    return result


def process(*args: str) -> subprocess.CompletedProcess:
    """``companion ARGS`` as a second process beside the shell (waiting 0.5 s for the lock, not 3 s: the
    shell holds it throughout)."""
    env = dict(os.environ, COMPANION_LOCK_WAIT="0.5")
    return subprocess.run([COMPANION, *args], capture_output=True, text=True, timeout=120, env=env)


@pytest.fixture
def state_dir(tmp_path):
    return tmp_path / "state"  # COMPANION_STATE, set for every test in conftest.py


def test_twenty_commands_on_a_freeform_session_then_status_holds_exactly_that(state_dir):
    companion("new", "freeform")
    t = Term("shell")
    t.wait_for("freeform-1>")
    t.line("tally add Adelhardt 9" + ENTER, "Adelhardt: 9")  # 1
    t.line("tally add Goblin 3 --monster" + ENTER, "Goblin: – (0 of 3 hits)")  # 2
    t.line("roll 2d6 --got 3,4" + ENTER, "= 7")  # 3
    t.line("r DC --got 5" + ENTER, "→ pass")  # 4: a short form
    t.typed("rol" + TAB, "> roll")  # 5: Tab completes the command
    t.line(" 1d6 --got 2" + ENTER, "1d6  [2]")
    t.typed("h Ad" + TAB, "> h Adelhardt")  # 6: Tab completes the tally name
    t.line(ENTER, "Adelhardt: 9 8")
    t.line("tally hit Goblin 2" + ENTER, "Goblin: II (2 of 3 hits)")  # 7
    t.line("hp =10 --max 12" + ENTER, "HP: 10/12")  # 8
    t.line("hp -3" + ENTER, "HP: 7/12")  # 9
    t.line("u" + ENTER, "Undone")  # 10: undo the -3
    t.line("xp +4" + ENTER, "XP: 4")  # 11
    out = t.line("rool 2d6" + ENTER, "'roll'")  # 12: a typo, one line
    assert "Traceback" not in out
    t.typed("tally hit Gob", "> tally hit Gob")  # 13: Ctrl-C on a half-typed line clears it
    t.line(CTRL_C + "status --json" + ENTER, '"events"')
    out = t.line("2d6 --got 6,6" + ENTER, "= 12")  # 14: a dice expression alone is a roll
    out = t.line("roll 2d6 --got 7,1" + ENTER, "companion:")  # 15: a bad die: the usual refusal
    t.line('note "a door to the north"' + ENTER, "Noted (#")  # 16
    t.line("t --left 2 --got 6,6" + ENTER, "found")  # 17: the Talisman
    t.line("floor 2" + ENTER, "2")  # 18
    t.line("gold +5" + ENTER, "5")  # 19
    t.line("s" + ENTER, "actions")  # 20: status
    t.send(CTRL_D)
    assert t.close() == 0
    assert "Traceback" not in t.plain()

    status = json.loads(companion("status", "--json").stdout)
    trackers = status["state"]["trackers"]
    assert trackers["tallies"]["Adelhardt"]["hits"] == 1
    assert trackers["tallies"]["Goblin"]["hits"] == 2
    hp = trackers["counters"]["hp"]
    assert (hp["value"], hp["max"]) == (10, 12)
    assert trackers["counters"]["xp"]["value"] == 4
    assert trackers["counters"]["gold"]["value"] == 5
    assert trackers["floor"] == 2
    assert trackers["talisman"]["found"] is True
    # 2d6, DC, 1d6, the bare 2d6 and the Talisman's 2d6 (the refused roll is not kept)
    assert status["state"]["rolls"] == 5
    # Exactly the actions above: 2 tallies, 4 rolls, 2 hits, hp once (the -3 undone), xp, note,
    # the Talisman, floor, gold.
    assert status["events"] == 14
    log = companion("log").stdout
    assert "a door to the north" in log
    assert state_dir.joinpath("shell-history").read_text().count("tally add") == 2


def test_guided_play_from_the_shell_next_play_quit_back_then_status(state_dir):
    companion("new", "inverted-tower", "--seed", "3")
    t = Term("shell", cols=100)
    t.wait_for("inverted-tower-1>")
    t.line("next Aria" + ENTER, "put 1 point in which attribute?")
    t.typed("next ST" + TAB, "> next st")  # Tab completes the pending question's options to their keys (#33)
    t.line(ENTER, "Aria: +1 STR")
    out = t.line("n roll" + ENTER, "inverted-tower-1>")  # the short form of next; virtual dice
    assert "DC" in out
    # play from inside the shell; quitting play comes back to the shell, the session still held
    out = t.line("play" + ENTER, "quit")
    if "Save and quit" in out:
        t.line("\x1b[A" + ENTER, "inverted-tower-1>")  # the last entry of a choice
    else:
        t.line("q" + ENTER, "inverted-tower-1>")
    assert "Saved. Resume with: play" in t.plain()  # in the shell's own form
    t.line("status --json" + ENTER, '"events"')
    t.send("exit" + ENTER)
    assert t.close() == 0
    status = json.loads(companion("status", "--json").stdout)
    assert status["state"]["hero"] == "Aria"
    assert status["state"]["game"]["attributes"]["STR"] >= 1
    assert status["events"] == 3  # the name, the attribute, the room's DC roll
    pending = json.loads(companion("next", "--json").stdout)
    assert pending["events"] == 3 and pending["request"] is not None


def test_the_shell_holds_the_lock_a_second_process_is_refused(state_dir):
    companion("new", "freeform")
    t = Term("shell")
    t.wait_for("freeform-1>")
    other = process("tally", "add", "Bob", "5")
    assert other.returncode == 1
    assert "in use by another companion process" in other.stderr and "shell" in other.stderr
    second = process("shell")
    assert second.returncode == 1 and "in use" in second.stderr
    t.send("exit" + ENTER)
    assert t.close() == 0
    assert companion("tally", "add", "Bob", "5").returncode == 0


@pytest.mark.parametrize("cols", [80, 120])
def test_the_screen_at_80_and_120_columns_nothing_cut(state_dir, cols):
    companion("new", "freeform")
    for args in (
        ("tally", "add", "Adelhardt", "9", "--role", "fighter"),
        ("tally", "add", "Brunhilde the Bold", "8"),
        ("tally", "add", "Goblin chieftain", "4", "--monster"),
        ("hp", "=9", "--max", "12"),
        ("xp", "+12"),
    ):
        companion(*args)
    t = Term("shell", cols=cols, cpr=True)
    t.wait_for("freeform-1>")
    t.wait_for("HP 9/12")  # the toolbar, drawn once the terminal answered where the cursor is
    t.line('tally hit "Goblin chieftain"' + ENTER, "Goblin chieftain: I")
    t.ready()  # the next prompt; its bar comes once the terminal has said where the cursor is
    t.wait_for("HP 9/12", bottom=3)
    screen = t.display().split("\n")
    toolbar = [line for line in screen if "freeform-1 (freeform)" in line or "Goblin chieftain:" in line]
    assert toolbar, t.display()
    bottom = "\n".join(screen[-3:])
    assert "freeform-1 (freeform)" in bottom and "HP 9/12" in bottom
    assert "XP 12" in bottom and "level" not in bottom  # freeform tracks no levels: no "(level 1)" (#28)
    for line in screen:
        assert len(line) <= cols
    # Figures are whole: each tally's book form is on one line, never broken across two.
    for name in ("Adelhardt – FIGHTER:", "Brunhilde the Bold:", "Goblin chieftain:"):
        assert any(name in line for line in screen[-3:]) or "…" in bottom
    t.send(CTRL_D)
    assert t.close() == 0
