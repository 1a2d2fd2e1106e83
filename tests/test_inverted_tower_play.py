"""``companion play`` for The Inverted Tower, with questionary answered through prompt_toolkit pipe input."""

from __future__ import annotations

import io
import os
from pathlib import Path

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from companion.cli.env import Env
from companion.cli.kit import opened, store
from companion.session.service import Session
from companion.shell.play import play
from companion.store.paths import logs_dir

DOWN, UP, ENTER = "\x1b[B", "\x1b[A", "\r"


def make_env() -> Env:
    out = io.StringIO()
    return Env(
        stdin=io.StringIO(),
        stdout=out,
        stderr=io.StringIO(),
        stdin_isatty=True,
        stdout_isatty=True,
        no_color=True,
        data_dir=Path(os.environ["COMPANION_HOME"]),
        logs_dir=Path(os.environ["COMPANION_LOGS"]),
    )


def drive(env: Env, keys: list[str]) -> str:
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        inp.send_text("".join(keys))
        inp.close()  # when the keys run out the prompt gets EOF: a wrong script fails instead of hanging
        with opened(env, engine=True) as session:
            play(env, session)
    return env.stdout.getvalue()  # type: ignore[attr-defined]


def test_play_a_hero_two_rooms_undo_quit_and_resume():
    env = make_env()
    st = store(env)
    session = Session.create(
        st, "guided", "inverted-tower", seed=9, physical=False, variants=[], logs_dir=logs_dir(env.logs_dir)
    )
    st.set_current(session.files.slug)
    keys = [
        "Aria" + ENTER,  # the hero's name
        DOWN + ENTER,  # DEX
        "6" + ENTER,  # room 1: DC passed (typed, physical)
        "6" + ENTER,  # DR 6: the stairs
        ENTER,  # explore a new room (not down yet)
        "1" + ENTER,  # room 2: DC failed: an encounter
        "1" + ENTER,  # SR: one Skeleton Warrior
        "2" + ENTER,  # EC: no elite
        ENTER,  # fight with DEX: the menu starts on the best odds
        "1",  # no dagger: a number key picks its option at once
        "u" + ENTER,  # undo at the roll prompt: back to the dagger choice
        ENTER,  # spend the dagger this time: the menu starts on it (the best odds)
        "1" + ENTER,  # a natural 1: fails whatever the modifier
        "1",  # roll (no potion drunk): the first option, by its number
        "5" + ENTER,  # 5 +1 DEX: the Skeleton Warrior dies
        ENTER,  # Enter at the treasure: a virtual roll from the session's seed
        UP + ENTER,  # the last entry of the menu: save and quit
    ]
    out = drive(env, keys)
    assert "Fight odds vs 1 Skeleton Warrior (HP 5, floor 1, counting no further potions):" in out
    assert "DEX +1: win" in out
    assert "DC +1 DEX +1 dagger: passes on 3+ → 2/3 (66.7%)" in out
    assert "Undone: " in out
    assert "natural 1: always fails" in out
    assert "Saved. Resume with: companion play" in out
    with opened(env) as session:
        state = session.state
        assert state.hero == "Aria"
        assert state.game.attributes == {"STR": 0, "DEX": 1, "INT": 0}
        assert state.trackers.items["dagger"] == 0  # spent after the undo
        assert state.trackers.counters["hp"].value == 4  # one fail
        assert state.game.rooms == ["stairs", "encounter"]
        assert state.trackers.counters["xp"].value == 1
        assert session.fold.draws == 1  # one virtual die: the treasure
        count = session.count
    log = Path(session.meta.log_path).read_text(encoding="utf-8")
    assert "- Room 1: Stairs" in log
    assert "- Room 2: Mob 1 (killed)" in log
    assert "`DC` +1 DEX +1 dagger → `[1]` vs 3+ → **fail** (natural 1: always fails) · physical" in log
    # Resume: the tail of the log is shown again, and play goes on where it stopped.
    env2 = make_env()
    out2 = drive(env2, [UP + ENTER])  # at the turn menu: save and quit
    assert f"Resuming guided after {count} actions." in out2
    assert "Room 2: Mob 1 (killed)" in out2
    with opened(env2) as session:
        assert session.count == count  # quitting records nothing
