"""Layer 3: one game of the Dragon's Den in a real pseudo-terminal, from ``companion new`` to the score."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from tests.terminal import close, prepare, pty_spawn  # noqa: E402

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-B]|\r")
DOWN, UP, ENTER = "\x1b[B", "\x1b[A", "\r"
COMPANION = str(Path(sys.executable).with_name("companion"))


@pytest.mark.e2e
def test_a_whole_game_in_a_terminal(tmp_path):
    env = dict(
        os.environ,
        COMPANION_HOME=str(tmp_path / "home"),
        COMPANION_LOGS=str(tmp_path / "logs"),
        PROMPT_TOOLKIT_NO_CPR="1",
        TERM="xterm",
        NO_COLOR="1",
    )
    prepare(env, "new", "dd", "--seed", "8", "--name", "pty")  # in this process: the pty is for play
    child = pty_spawn(COMPANION, ["play"], env=env, dimensions=(24, 100), encoding="utf-8", timeout=15)
    seen: list[str] = []

    def step(pattern: str, keys: str) -> None:
        child.expect(pattern)
        seen.append(ANSI.sub("", child.before + child.after))
        child.send(keys)

    step("Which heroes are played", DOWN * 6 + ENTER)  # #7 Sam Barleyman
    step("Another hero, or start", ENTER)
    step("How are the chits drawn", ENTER)  # companion draws them: the dragon is drawn in secret
    step("Dragon player only", ENTER)  # Enter on "Hide it"
    step("Sam Barleyman's turn", DOWN * 3 + ENTER)  # Entered the lair: reveal the dragon
    step("Sam Barleyman's turn", DOWN * 4 + ENTER)  # Sneak: a chit from the hoard, and the alarm
    step("Sam Barleyman's turn", UP * 3 + ENTER)  # End Sam's turn: the dragon turn draws a countdown chit
    for _ in range(2):
        step("the dragon player's turn", UP * 3 + ENTER)  # end the dragon player's turn
        step("Sam Barleyman's turn", UP * 3 + ENTER)  # end Sam's turn
    step("the dragon player's turn", UP * 3 + ENTER)
    step("Sam Barleyman's turn", UP * 4 + ENTER)  # Leave the den (for good)
    step("Leave the den for good", ENTER)  # Yes
    child.expect("The game is over")
    seen.append(ANSI.sub("", child.before + child.after))
    child.expect(pexpect.EOF)
    seen.append(ANSI.sub("", child.before))
    close(child)
    screen = "".join(seen)
    assert child.exitstatus == 0, screen[-2000:]
    assert "The dragon is revealed" in screen
    assert "The alarm sounds!" in screen
    assert re.search(r"Dragon chit \d+ is set aside: 6 left in the cup", screen), screen[-3000:]
    assert "leaves the den with 1 treasure chit worth" in screen
    assert "Heroes' Victory Chart" in screen and "Dragon's Victory Chart" in screen
    log = (tmp_path / "logs" / "pty.md").read_text(encoding="utf-8")
    assert "## The end" in log and "Dragon happiness: 0 heroes slain or trapped + 9 chits" in log
    # the secret was kept until the lair was entered: the dragon's name follows the reveal line only
    name = re.search(r"The dragon is revealed: chit \d+, the ([A-Za-z ]+Dragon)", log)
    assert name and log.index(name.group(1)) == name.start(1)


@pytest.mark.e2e
def test_the_dragon_chit_is_typed_unseen(tmp_path):
    env = dict(
        os.environ,
        COMPANION_HOME=str(tmp_path / "home"),
        COMPANION_LOGS=str(tmp_path / "logs"),
        PROMPT_TOOLKIT_NO_CPR="1",
        TERM="xterm",
        NO_COLOR="1",
    )
    prepare(env, "new", "dd", "--name", "secret")
    child = pty_spawn(COMPANION, ["play"], env=env, dimensions=(24, 100), encoding="utf-8", timeout=15)
    seen: list[str] = []

    def step(pattern: str, keys: str) -> None:
        child.expect(pattern)
        seen.append(ANSI.sub("", child.before + child.after))
        child.send(keys)

    step("Which heroes are played", DOWN * 6 + ENTER)
    step("Another hero, or start", ENTER)
    step("How are the chits drawn", DOWN + ENTER)  # we draw real chits and type them
    step("Which dragon chit was drawn", "11" + ENTER)  # the young red dragon, typed unseen
    step("Which dragon chit to set aside was drawn", "3" + ENTER)
    step("Which dragon chit to set aside was drawn", "4" + ENTER)
    step("Sam Barleyman's turn", UP + ENTER)  # save and quit
    child.expect(pexpect.EOF)
    screen = "".join(seen) + ANSI.sub("", child.before)
    assert "Which dragon chit was drawn" in screen and "Saved" in screen
    answered = [line for line in screen.splitlines() if "Which dragon chit was drawn?" in line]
    assert answered and not any("11" in line.split("drawn?", 1)[1] for line in answered)  # the answer is not echoed
    assert "Young Red" not in screen
    peek = prepare(env, "dragon", "peek", "--json")
    assert '"chit": 11' in peek
