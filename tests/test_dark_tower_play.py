"""``companion play`` on a Dark Tower session, with questionary answered through prompt_toolkit's pipe input."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from typer.testing import CliRunner

from companion.cli.app import app
from companion.cli.env import Env
from companion.cli.kit import opened
from companion.shell.play import play

DOWN, ENTER = "\x1b[B", "\r"


def _env() -> Env:
    return Env(
        stdin=io.StringIO(),
        stdout=io.StringIO(),
        stderr=io.StringIO(),
        stdin_isatty=True,
        stdout_isatty=True,
        no_color=True,
        data_dir=Path(os.environ["COMPANION_HOME"]),
        logs_dir=Path(os.environ["COMPANION_LOGS"]),
    )


def test_a_guided_turn_through_the_prompts_then_save_and_quit():
    runner = CliRunner()
    assert runner.invoke(app, ["new", "dark-tower", "--seed", "3"]).exit_code == 0
    assert runner.invoke(app, ["dark", "card", "item", "Sword", "--class", "weapon", "--bonus", "2"]).exit_code == 0
    keys = [
        ENTER,  # terms: English
        ENTER,  # your own cards
        "Ann" + ENTER,
        ENTER,  # hero: the Clan Champion
        DOWN + ENTER,  # everyone is here
        ENTER,  # the random item drawn: Sword
        ENTER,  # no quest
        ENTER,  # the decks are built
        ENTER,  # the top card is a monster
        ENTER,  # the Gelatinous Cube
        "1 2 4 6" + ENTER,  # 3 + 4 = 7 beats 4
        ENTER,  # end the turn
        ENTER,  # a monster
        ENTER,  # the Cube (a second copy: the players' deck decides)
        "q" + ENTER,  # save and quit at the roll
    ]
    env = _env()
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        inp.send_text("".join(keys))
        with opened(env, engine=True) as session:
            play(env, session)
    out = env.stdout.getvalue()
    assert "Win 15/16 (93.8%)" in out
    assert "[1] [2] [♥] [★] → 7, ♥1 ★1" in out and "7 beats 4: Gelatinous Cube (4) is beaten." in out
    assert "Saved. Resume with: companion play" in out
    status = json.loads(runner.invoke(app, ["dark", "status", "--json"]).stdout)
    assert status["beaten"] == 1 and status["turn"] == 2 and status["phase"] == "fight"
    assert status["heroes"][0]["items"][0]["name"] == "Sword"
    nxt = json.loads(runner.invoke(app, ["next", "--json"]).stdout)
    assert nxt["request"]["key"] == "fight.roll" and nxt["request"]["expr"] == "4dt"
