"""One whole Haunted Tower session in a real pseudo-terminal: heroes, a fight to the end, the final score."""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from tests.terminal import prepare, pty_spawn  # noqa: E402

BIN = Path(sys.executable).parent / "companion"
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][AB012]|\x1b[=>]")
DOWN, UP, ENTER = "\x1b[B", "\x1b[A", "\r"


class Screen:
    """A running ``companion play`` and everything it has printed, without ANSI codes."""

    def __init__(self, child: pexpect.spawn) -> None:
        self.child = child
        self.seen = ""
        self.mark = 0

    def wait(self, text: str, timeout: float = 10) -> None:
        """Read until ``text`` appears after the last thing waited for."""
        end = time.monotonic() + timeout
        while text not in self.seen[self.mark :]:
            if time.monotonic() > end:
                raise AssertionError(f"{text!r} never appeared; the screen ends with:\n{self.seen[-1500:]}")
            try:
                self.seen += ANSI.sub("", self.child.read_nonblocking(65536, timeout=0.2)).replace("\r", "")
            except pexpect.TIMEOUT:
                continue
        self.mark = self.seen.index(text, self.mark) + len(text)

    def send(self, keys: str) -> None:
        self.child.send(keys)


@pytest.mark.e2e
def test_a_session_at_a_real_terminal(tmp_path):
    env = dict(
        os.environ,
        PROMPT_TOOLKIT_NO_CPR="1",
        COMPANION_HOME=str(tmp_path / "home"),
        COMPANION_LOGS=str(tmp_path / "logs"),
        TERM="xterm-256color",
    )
    env.pop("COMPANION_SESSION", None)

    def cli(*args: str) -> str:  # the steps around the terminal: in this process
        return prepare(env, *args)

    cli("new", "haunted-tower", "--seed", "11")
    cli("haunted", "hero", "Aria", "--speed", "6", "--hp", "6", "--attack", "3", "--ac", "5", "--ability", "fighter")
    cli("haunted", "hero", "Bram", "--speed", "5", "--hp", "5", "--attack", "2", "--ac", "4", "--ability", "cleric")
    cli("haunted", "hero", "Cael", "--speed", "7", "--hp", "4", "--attack", "2", "--ac", "3", "--ability", "elf")

    child = pty_spawn(str(BIN), ["play"], env=env, dimensions=(24, 100), encoding="utf-8", timeout=10)
    screen = Screen(child)
    try:
        screen.wait("Setting up the Haunted Tower")
        screen.wait("Start play")
        screen.send(DOWN + DOWN + ENTER)
        for face in ("8", "3", "5"):
            screen.wait("type your dice")
            screen.send(face + ENTER)
        screen.wait("Aria rolled highest (8) and goes first")
        screen.wait("what happens now?")
        screen.send(ENTER)  # a hero meets a monster
        screen.wait("Which hero meets a monster?")
        screen.send(ENTER)  # Aria
        screen.wait("What does Aria reveal?")
        screen.send(DOWN + ENTER)  # Mummy … Zombie
        screen.wait("Skeleton")
        screen.send(DOWN * 4 + ENTER)  # Mummy, Pit Viper, Robber Fly, Rust Monster, Skeleton
        screen.wait("The chit's back?")
        screen.send(DOWN + ENTER)  # purple
        screen.wait("Fight 1: Aria vs the Skeleton (purple chit)")
        screen.wait("Aria attacks first: 1/2 (50.0%)")
        screen.wait("type your dice")
        screen.send("2" + ENTER)
        screen.wait("type your dice")
        screen.send("4" + ENTER)  # the skeleton first
        screen.wait("The Skeleton attacks first (4 to 2).")
        screen.wait("A hit does 1 HP.")
        screen.wait("1d6>=5 +1 Att: passes on 4+ → 1/2 (50.0%)")  # the odds before the roll
        screen.wait("type your dice")
        screen.send("6" + ENTER)  # 7 >= AC 5: a hit
        screen.wait("Aria loses 1 HP: HP 5/6.")
        screen.wait("Fight on to the end: win ")
        screen.wait("Round 1: Aria's turn against the Skeleton")
        screen.send(ENTER)  # attack
        screen.wait("1d6>=5 +3 Att: passes on 2+ → 5/6 (83.3%)")
        screen.wait("type your dice")
        screen.send("4" + ENTER)
        screen.wait("Aria kills the Skeleton and keeps its stand-up and its purple chit.")
        screen.wait("what happens now?")
        screen.send(UP + ENTER)  # up from the top wraps to the last entry: save and quit
        screen.wait("Saved. Resume with: companion play")
    finally:
        child.close(force=True)

    health = cli("haunted", "health")
    assert "Aria" in health and "5/6" in health
    assert "Aria wins with 3 points" in cli("haunted", "end")
    log = (tmp_path / "logs" / "haunted-tower-1.md").read_text(encoding="utf-8")
    assert "Fight 1: Aria vs the Skeleton (purple chit): Aria kills it in round 1" in log
    assert "`1d6>=5` +1 Att → `[6]` vs 4+ → **pass**" in log
    assert "## Final score" in log and "Aria: 3 points (stand-ups 1×1; purple chits 1×2)" in log
