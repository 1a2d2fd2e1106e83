"""End to end in a real pseudo-terminal: make a hero, play rooms with typed dice, Ctrl-C, crash, resume."""

from __future__ import annotations

import os
import re
import signal
import sys
import time
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from tests.terminal import close, prepare, pty_spawn  # noqa: E402

pytestmark = pytest.mark.e2e

COMPANION = str(Path(sys.executable).with_name("companion"))
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]|\r")
UP, ENTER = "\x1b[A", "\r"


class Screen:
    """A companion process in a pty, and everything it printed, ANSI codes stripped."""

    def __init__(self, env: dict[str, str], *args: str) -> None:
        self.child = pty_spawn(COMPANION, list(args), env=env, dimensions=(24, 100), encoding="utf-8", timeout=15)
        self.text = ""

    def _pump(self) -> None:
        try:
            chunk = self.child.read_nonblocking(65536, timeout=0.1)
        except pexpect.TIMEOUT:
            return
        except pexpect.EOF:
            raise
        self.text += ANSI.sub("", chunk)

    def wait(self, needle: str, timeout: float = 15) -> None:
        """Wait until ``needle`` has been printed since the last wait (then forget what came before)."""
        deadline = time.monotonic() + timeout
        while needle not in self.text:
            if time.monotonic() > deadline:
                raise AssertionError(f"{needle!r} never appeared; the screen ends with:\n{self.text[-1500:]}")
            try:
                self._pump()
            except pexpect.EOF:
                if needle in self.text:
                    break
                raise AssertionError(f"companion exited before {needle!r}:\n{self.text[-1500:]}") from None
        self.seen = self.text
        self.text = self.text[self.text.index(needle) + len(needle) :]

    def send(self, keys: str) -> None:
        self.child.send(keys)  # after a wait for the prompt: it reads keys as soon as it shows

    def roll(self, face: int) -> None:
        self.wait("type your dice")
        self.send(f"{face}{ENTER}")

    def finish(self) -> int:
        self.child.expect(pexpect.EOF, timeout=15)
        self.text += ANSI.sub("", self.child.before or "")
        close(self.child)
        return self.child.exitstatus if self.child.exitstatus is not None else -self.child.signalstatus


@pytest.fixture
def env(tmp_path):
    env = dict(os.environ)
    env.update(
        COMPANION_HOME=str(tmp_path / "home"),
        COMPANION_LOGS=str(tmp_path / "logs"),
        PROMPT_TOOLKIT_NO_CPR="1",
        TERM="xterm-256color",
        COLUMNS="100",
        LINES="24",
    )
    env.pop("NO_COLOR", None)
    return env


def test_a_hero_plays_rooms_with_typed_dice_is_interrupted_crashes_and_resumes(env, tmp_path):
    prepare(env, "new", "inverted-tower", "--seed", "4", "--physical", "--hero", "Aria", "--name", "e2e")
    s = Screen(env, "play")
    s.wait("put 1 point in which attribute?")
    s.send(ENTER)  # STR
    s.roll(6)  # room 1: an event
    s.roll(5)  # the bonfire
    s.roll(2)  # room 2: an encounter
    s.roll(3)  # SR: two Skeleton Warriors
    s.roll(1)  # EC: no elite
    s.wait("Fight with which attribute?")
    assert "STR +1: win 89.1%" in s.seen  # the fight odds are on screen before the choice
    s.send(ENTER)  # STR: the menu starts on the best odds
    s.wait("Spend daggers on this roll?")
    s.send("1")  # no dagger: the first option, by its number
    s.roll(5)
    s.wait("Spend daggers on this roll?")
    s.send("1")
    s.roll(4)  # 4 +1 STR: the second one dies too
    s.roll(5)  # treasure: a dagger
    s.wait("What now?")
    s.child.sendcontrol("c")
    assert s.finish() == 130
    assert "interrupted; every completed action is saved" in s.text

    s = Screen(env, "play")
    s.wait("Resuming e2e after")
    s.wait("What now?")
    screen = s.seen
    assert "Room 2: Mob 1 (killed) Mob 2 (killed)" in screen
    assert "DR treasure → [5] → 5: Dagger · physical" in screen
    assert "2 daggers · 1 potion · 0 gp" in screen  # the status panel
    assert "XP          ▰" in screen and "2/11 to level 2" in screen
    s.send(ENTER)  # explore a new room
    s.roll(6)
    s.wait("Event: which one?")
    s.child.kill(signal.SIGKILL)  # a crash: every answer so far is saved
    close(s.child)

    s = Screen(env, "play")
    s.wait("Resuming e2e after")
    s.roll(6)  # the event roll is asked again: the stairs
    s.wait("What now?")
    s.wait("Take the stairs down to floor 2")  # the menu's lines may come a moment after its question
    s.send(UP + ENTER)  # the last entry: save and quit
    s.wait("Saved. Resume with: companion play")
    assert s.finish() == 0

    log = next((tmp_path / "logs").glob("*.md")).read_text(encoding="utf-8")
    assert "## Floor 1\n\n- Room 1: Bonfire\n" in log
    assert "- Room 2: Mob 1 (killed) Mob 2 (killed)\n" in log
    assert "- Room 3: Stairs\n" in log
    assert "  - d: `DC` +1 STR → `[4]` vs 4+ → **pass** · physical — Fight: Skeleton Warrior 2 of 2\n" in log
    assert 'hero: "Aria (level 1; STR 1 DEX 0 INT 0)"' in log
