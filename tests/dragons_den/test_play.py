"""Layer 2: ``companion play`` at a (simulated) terminal, driven through prompt_toolkit's pipe input."""

from __future__ import annotations

import io
import os
import signal
import sys
from pathlib import Path

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from typer.testing import CliRunner

from companion.cli.app import app
from companion.cli.env import Env
from companion.cli.kit import opened
from companion.shell.play import play

DOWN, UP, ENTER = "\x1b[B", "\x1b[A", "\r"


def interactive_env() -> Env:
    return Env(
        stdin=sys.stdin,
        stdout=io.StringIO(),
        stderr=io.StringIO(),
        stdin_isatty=True,
        stdout_isatty=True,
        no_color=True,
        data_dir=Path(os.environ["COMPANION_HOME"]),
        logs_dir=Path(os.environ["COMPANION_LOGS"]),
    )


def _stuck(signum, frame):
    raise TimeoutError("companion play waited for a key the test did not send")


def play_keys(keys: list[str]) -> tuple[Env, str]:
    """Play with these keys; a prompt left waiting fails the test (after 20 s) instead of hanging it."""
    env = interactive_env()
    signal.signal(signal.SIGALRM, _stuck)
    signal.alarm(20)
    try:
        return _play(env, "".join(keys))
    finally:
        signal.alarm(0)


def _play(env: Env, keys: str) -> tuple[Env, str]:
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        inp.send_text(keys)
        with opened(env, engine=True) as session:
            play(env, session)
            log = session.log_text()
    return env, log


def test_play_sets_up_advances_and_quits():
    assert CliRunner().invoke(app, ["new", "dd", "--seed", "4"]).exit_code == 0
    keys = [
        DOWN * 6 + ENTER,  # hero #7, Sam
        ENTER,  # start with Sam
        ENTER,  # companion draws the chits (virtual): the dragon and two set aside are drawn at once
        ENTER,  # the dragon player's look: "Hide it"
        ENTER,  # Advance
        ENTER,  # Enter rolls the virtual die
        UP + ENTER,  # the last choice: save and quit
    ]
    env, log = play_keys(keys)
    out = env.stdout.getvalue()
    assert "Round 1" in out and "Sam Barleyman advances" in out
    assert "Sam Barleyman advances up to" in log
    assert "Saved. Resume with: companion play" in out
    result = CliRunner().invoke(app, ["dragon", "health", "--json"])
    assert '"turn": "sam"' in result.stdout


def test_play_undo_steps_back_over_draws_made_at_once():
    assert CliRunner().invoke(app, ["new", "dd", "--seed", "4"]).exit_code == 0
    keys = [
        DOWN * 6 + ENTER + ENTER + ENTER + ENTER,  # Sam, start, virtual chits, hide
        DOWN * 2 + ENTER,  # "Entered a room: reveal its chits"
        "5" + ENTER,  # room 5: two chits drawn at once
        "u",  # undo (the menu now starts on the best attack: its key, not the arrows)
        "q" + ENTER,  # back at "which room?": q saves and quits
    ]
    env, log = play_keys(keys)
    assert "Undone" in env.stdout.getvalue()
    assert "Room 5" not in log  # the draws and the room number are undone together...
    result = CliRunner().invoke(app, ["next", "--json"])
    assert '"key": "dd.room"' in result.stdout  # ...back to the question of which room
