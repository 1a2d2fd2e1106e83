"""In a real pseudo-terminal: Ctrl-D exits 1 and Ctrl-C exits 130 at any prompt, and every answer
given before is kept; the next ``companion play`` resumes there."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from tests.terminal import close, pty_spawn  # noqa: E402

pytestmark = pytest.mark.e2e

LAUNCHER = str(Path(__file__).with_name("toy_companion.py"))
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def spawn(*args: str, env: dict[str, str]):
    return pty_spawn(sys.executable, [LAUNCHER, *args], env=env, dimensions=(24, 100), timeout=30, encoding="utf-8")


def test_ctrl_d_and_ctrl_c_keep_every_answer(tmp_path: Path) -> None:
    env = dict(
        os.environ,
        COMPANION_HOME=str(tmp_path / "home"),
        COMPANION_LOGS=str(tmp_path / "logs"),
        PROMPT_TOOLKIT_NO_CPR="1",
        TERM="xterm",
    )
    env.pop("COMPANION_SESSION", None)
    env.pop("NO_COLOR", None)
    made = subprocess.run(
        [sys.executable, LAUNCHER, "new", "toy", "--seed", "3"], env=env, capture_output=True, text=True
    )
    assert made.returncode == 0, made.stderr

    child = spawn("play", env=env)
    child.expect("Your hero's name")
    child.send("Aria\r")
    child.expect("Pick an attribute")
    child.sendeof()  # Ctrl-D at a menu
    child.expect(pexpect.EOF)
    close(child)
    assert child.exitstatus == 1
    assert "end of input; every completed action is saved" in ANSI.sub("", child.before)

    child = spawn("play", env=env)
    child.expect("Resuming toy-1 after 1 action")
    child.expect("Pick an attribute")  # the name was kept: it is not asked again
    child.send("\x1b[B\r")  # down to Dexterity, Enter
    child.expect("Bonus from your book")
    child.sendintr()  # Ctrl-C at a text prompt
    child.expect(pexpect.EOF)
    close(child)
    assert child.exitstatus == 130
    assert "interrupted; every completed action is saved" in ANSI.sub("", child.before)

    status = subprocess.run([sys.executable, LAUNCHER, "next", "--json"], env=env, capture_output=True, text=True)
    assert status.returncode == 0, status.stderr
    assert '"key": "toy.bonus"' in status.stdout and '"events": 2' in status.stdout
    log = (tmp_path / "logs" / "toy-1.md").read_text()
    assert 'hero: "Aria"' in log
