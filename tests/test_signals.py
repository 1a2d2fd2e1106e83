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


HALF_BUILT = """
import asyncio, gc, sys
if sys.argv[1] == "companion":
    from companion.cli.group import on_signals
    on_signals()
from prompt_toolkit.application import Application
from prompt_toolkit.input import DummyInput
from prompt_toolkit.output import DummyOutput
loop = asyncio.SelectorEventLoop.__new__(asyncio.SelectorEventLoop)  # its __init__ cut short
del loop
coroutine = Application(input=DummyInput(), output=DummyOutput()).run_async()  # the prompt that never started
del coroutine
gc.collect()
print("done")
"""


def test_an_interrupted_prompts_half_built_loop_says_nothing():
    """A signal that lands while a prompt is being set up leaves a half-built event loop and a
    coroutine never awaited. Python reports both on stderr; under companion's hooks, nothing."""
    plain = subprocess.run([sys.executable, "-c", HALF_BUILT, "plain"], capture_output=True, text=True, timeout=60)
    assert "Exception ignored" in plain.stderr and "never awaited" in plain.stderr  # what the player saw
    quiet = subprocess.run([sys.executable, "-c", HALF_BUILT, "companion"], capture_output=True, text=True, timeout=60)
    assert quiet.stdout == "done\n" and quiet.stderr == ""
    debug = subprocess.run(
        [sys.executable, "-c", HALF_BUILT, "companion"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COMPANION_DEBUG": "1"},
    )
    assert "Exception ignored" in debug.stderr


def test_a_signal_while_a_prompt_is_set_up_ends_the_command_as_anywhere(monkeypatch):
    """prompt_toolkit marks a prompt running before it gives it its future: a SIGTERM that lands
    then was an AttributeError (a traceback, exit 1). It is raised there, as anywhere else."""
    import prompt_toolkit.application
    from prompt_toolkit.application import Application
    from prompt_toolkit.input import DummyInput
    from prompt_toolkit.output import DummyOutput

    from companion.cli import group

    handlers = {}
    monkeypatch.setattr(signal, "signal", lambda signum, handler: handlers.setdefault(signum, handler))
    group.on_signals()
    app = Application(input=DummyInput(), output=DummyOutput())
    app._is_running = True  # running, its future not made yet
    assert app.future is None
    monkeypatch.setattr(prompt_toolkit.application, "get_app_or_none", lambda: app)
    with pytest.raises(group.Terminated) as ended:
        handlers[signal.SIGTERM](signal.SIGTERM, None)
    assert ended.value.code == 143
