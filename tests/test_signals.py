"""SIGTERM and SIGHUP end companion as Ctrl-C does: one line, every completed action kept, exit
143 and 129; at a one-shot command's prompt and in ``companion play``."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from tests.terminal import close, pty_spawn, run_cli  # noqa: E402

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(
        os.environ,
        COMPANION_HOME=str(tmp_path / "home"),
        COMPANION_LOGS=str(tmp_path / "logs"),
        PROMPT_TOOLKIT_NO_CPR="1",
        TERM="xterm",
    )
    env.pop("COMPANION_SESSION", None)
    return env


def _run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    """The steps around the signalled process (setting up, reading what was kept): in this process."""
    return run_cli(env, *args)


def _spawn(env: dict[str, str], *args: str):
    return pty_spawn(
        sys.executable, ["-m", "companion", *args], env=env, dimensions=(24, 100), timeout=60, encoding="utf-8"
    )


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_a_signal_at_a_one_shot_prompt(tmp_path, sig, code):
    env = _env(tmp_path)
    assert _run(env, "new", "freeform", "--physical").returncode == 0
    assert _run(env, "roll", "2d6", "--got", "3,4").returncode == 0
    child = _spawn(env, "roll", "2d6")  # physical dice at a terminal: it asks for the faces
    child.expect("2d6")
    child.kill(sig)
    child.expect(pexpect.EOF)
    close(child)
    out = ANSI.sub("", child.before)
    assert child.exitstatus == code, out
    assert f"ended by {sig.name}; every completed action is saved." in out
    assert "Traceback" not in out
    status = json.loads(_run(env, "status", "--json").stdout)
    assert status["events"] == 1  # the roll before is kept, nothing half-written


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_a_signal_in_play(tmp_path, sig, code):
    env = _env(tmp_path)
    assert _run(env, "new", "inverted-tower", "--seed", "3", "--hero", "Aria").returncode == 0
    child = _spawn(env, "play")
    child.expect("attribute")
    child.send("\r")  # STR
    child.expect("DC")
    child.kill(sig)
    child.expect(pexpect.EOF)
    close(child)
    out = ANSI.sub("", child.before)
    assert child.exitstatus == code, out
    assert f"ended by {sig.name}; every completed action is saved." in out
    assert "Traceback" not in out
    status = json.loads(_run(env, "status", "--json").stdout)
    assert status["events"] >= 1  # the attribute chosen before the signal is kept
