"""The timeline's screens as a player meets them (issue 39), in a pseudo-terminal rendered by pyte at 80
and 120 columns: ``history`` of a Haunted Tower fight (long lines of dice and odds, wrapped under their
number), ``undo --to N`` asking once at a terminal and answered, ``redo``, a sealed session's
``status`` and ``dice verify``: the whole message is there, nothing reaches the last column (no word
broken by the terminal, nothing cut at the edge), no traceback."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

pytest.importorskip("pexpect")
pytest.importorskip("pyte")

from tests.terminal import TRACEBACK, Terminal, broken_words, edge_problems, run_cli, terminal_env

pytestmark = pytest.mark.e2e


def _read(term: Terminal) -> str:
    lines = term.all_lines()
    assert edge_problems(lines, term.columns) == [], "\n".join(lines)
    assert broken_words(lines, term.columns) == [], "\n".join(lines)
    said = "\n".join(line.rstrip() for line in lines)
    assert not re.search(TRACEBACK, said), said
    return " ".join(said.split())  # what it says, read across the lines it was wrapped on


def _fight(env: dict[str, str]) -> None:
    """A Haunted Tower game set up and played to a fight's first rolls, through next."""
    import json

    assert run_cli(env, "new", "haunted-tower", "--name", "ht", "--seed", "5").returncode == 0
    for name in ("Aria", "Bram", "Cael"):
        args = ("haunted", "hero", name, "--speed", "6", "--hp", "6", "--attack", "3", "--ac", "5", "--ability", "-")
        assert run_cli(env, *args).returncode == 0
    for typed in ("start", *["roll"] * 5, "fight", "Aria", "=numbered", "gargoyle", "blue", "roll", "roll"):
        assert run_cli(env, "next", typed).returncode == 0, typed
    for _ in range(4):  # the turn's choice and the attacks that follow
        step = json.loads(run_cli(env, "next", "--json").stdout)["pending"]
        assert run_cli(env, "next", "roll" if step["kind"] == "roll" else "1").returncode == 0


@pytest.mark.parametrize("columns", [80, 120])
def test_history_undo_to_and_redo_fit_the_screen(columns: int) -> None:
    with tempfile.TemporaryDirectory(prefix="tl", dir="/tmp") as tmp:
        env = terminal_env(Path(tmp), columns, 60)
        _fight(env)
        term = Terminal(env, "history", columns=columns, lines=60)
        assert term.finish() == 0
        said = _read(term)
        assert "ht: 20 actions" in said and "#16 Round 1 initiative: Gargoyle: 1d6" in said, said
        assert "Aria attacks the Gargoyle: 1d6>=7 +3 Att" in said and "odds 1/2 (50.0%)" in said, said
        assert "fight.hero-attack" not in said and "haunted" not in said.replace("haunted-tower", ""), said

        term = Terminal(env, "undo", "--to", "10", columns=columns, lines=60)
        term.wait_for("[y/N]")
        question = _read(term)
        assert "Take back 10 actions, #11 (Which hero meets a monster → Aria) to #20 (" in question, question
        term.send("y\r")
        assert term.finish() == 0
        said = _read(term)
        assert "Took back 10 actions: #11 Which hero meets a monster → Aria … #20" in said, said
        assert "Now after #10. companion redo brings them back one at a time" in said, said

        term = Terminal(env, "redo", columns=columns, lines=60)
        assert term.finish() == 0
        said = _read(term)
        assert "Redone: Which hero meets a monster → Aria (#11). 9 more actions can be redone" in said, said

        term = Terminal(env, "history", "--last", "3", columns=columns, lines=60)
        assert term.finish() == 0
        said = _read(term)
        assert "Taken back after #10" in said and "companion redo brings them back, the first first" in said, said


@pytest.mark.parametrize("columns", [80, 120])
def test_a_sealed_sessions_status_and_dice_verify_fit_the_screen(columns: int) -> None:
    with tempfile.TemporaryDirectory(prefix="tl", dir="/tmp") as tmp:
        env = terminal_env(Path(tmp), columns, 40)
        term = Terminal(env, "new", "freeform", "--name", "sealed", "--sealed", columns=columns, lines=40)
        assert term.finish() == 0
        said = _read(term)
        assert "Sealed dice (SHA-256):" in said and "Share that line now" in said, said
        for args in (("roll", "2d6"), ("roll", "1d20"), ("undo",), ("roll", "1d20"), ("roll", "d6", "--got", "4")):
            assert run_cli(env, *args).returncode == 0
        term = Terminal(env, "status", columns=columns, lines=40)
        assert term.finish() == 0
        said = _read(term)
        assert "seed sealed: SHA-256 " in said, said
        assert run_cli(env, "dice", "reveal").returncode == 0
        path = Path(tmp) / "s.json"
        assert run_cli(env, "export", str(path), "-f", "json").returncode == 0
        term = Terminal(env, "dice", "verify", str(path), columns=columns, lines=40)
        assert term.finish() == 0
        said = _read(term)
        assert "Every virtual roll matches the seed: 3 dice in 2 rolls (#1 to #2), in order." in said, said
        assert "1 roll was undone" in said and "drawn again as #2, the same dice" in said, said
        assert "1 physical roll: the player's own dice (#3)" in said and said.endswith("Verified."), said
