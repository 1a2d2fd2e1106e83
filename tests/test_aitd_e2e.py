"""End to end in a real pseudo-terminal: enter the missing numbers once, fight two areas, quit, resume."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from tests.terminal import prepare, pty_spawn  # noqa: E402

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][AB012]")
DOWN = "\x1b[B"


def companion() -> str:
    exe = Path(sys.executable).parent / "companion"
    return str(exe) if exe.exists() else shutil.which("companion") or "companion"


@pytest.mark.e2e
def test_numbers_once_two_areas_quit_and_resume(tmp_path):
    env = dict(
        os.environ,
        COMPANION_HOME=str(tmp_path / "home"),
        COMPANION_LOGS=str(tmp_path / "logs"),
        PROMPT_TOOLKIT_NO_CPR="1",
        NO_COLOR="1",
        TERM="xterm",
    )
    prepare(env, "new", "talisman", "--seed", "5")  # in this process: the pty is for play
    seen: list[str] = []

    def spawn():
        child = pty_spawn(companion(), ["play"], env=env, dimensions=(24, 100), encoding="utf-8", timeout=15)
        child.logfile_read = _Sink(seen)
        return child

    p = spawn()
    p.expect("come from")
    p.send(DOWN + "\r")  # house numbers
    for question, answer in (
        ("Krylla the Rangeress withstand", 7),
        ("Krylla the Rangeress need to hit", 6),
        ("need to hit Krylla", 9),
        ("Ibli the Fighter withstand", 8),
        ("Ibli the Fighter need to hit", 5),
        ("need to hit Ibli", 10),
        ("Regalan the Wizard withstand", 5),
        ("Regalan the Wizard need to hit a monster without magic", 9),
        ("need to hit Regalan", 8),
    ):
        p.expect(question)
        p.send(f"{answer}\r")
    p.expect("Area 12 hold")
    p.send(DOWN + "\r")  # no monster
    # Area 8: the Cadaver Creeper, slain in one round.
    p.expect("which area does it enter")
    p.send(DOWN * 7 + "\r")
    p.expect("Krylla may strike")
    p.send("\r")
    p.expect("Krylla strikes the Cadaver Creeper first")
    p.send("3 3\r")
    p.expect("The Cadaver Creeper attacks Krylla")
    p.send("1 1\r")
    p.expect("Fighting on to the end")
    p.expect("fight the Cadaver Creeper or flee")
    p.send("\r")
    p.expect("Adelhardt attacks the Cadaver Creeper")
    p.send("3 3\r")
    p.expect("Chance to have found it within 1 kill")
    p.expect("Talisman search after kill 1")
    p.send("2 3\r")
    # Area 9: the Xorn; quit at its attack on the Paladin.
    p.expect("which area does it enter")
    p.send(DOWN * 7 + "\r")
    p.expect("Krylla may strike the Xorn")
    p.send(DOWN + "\r")  # she waits
    p.expect("The Xorn attacks Adelhardt")
    p.send("6 6\r")
    p.expect("The Xorn attacks Krylla")
    p.send("q\r")
    p.expect("Saved. Resume with: companion play")
    p.expect(pexpect.EOF)
    first = _screen(seen)
    assert "Adelhardt – PALADIN: 9 8" in first  # the Xorn's hit, kept the book's way
    assert "Cadaver Creeper: II (2 of 2 hits) (slain)" in first

    seen.clear()
    p = spawn()
    p.expect("Resuming")
    p.expect("The Xorn attacks Krylla")  # exactly where it stopped; no numbers asked
    p.send("1 1\r")
    p.expect("The Xorn attacks Ibli")
    p.send("q\r")
    p.expect(pexpect.EOF)
    second = _screen(seen)
    assert "withstand" not in second

    values = json.loads((tmp_path / "home" / "gamedata" / "talisman.json").read_text())["values"]
    assert values["rangeress.hits"] == 7 and values["source"] == "house" and values["area12.kind"] == "empty"
    log = (tmp_path / "logs" / "talisman-1.md").read_text()
    for text in (
        "house numbers, not the book's",
        "## Area 8: Corridor of the Cadaver Creeper",
        "## Area 9: Xorn's Burrow",
        "Adelhardt – PALADIN: 9 8",
        "`talisman` → `[2] [3]` = 5 vs 12 → **not found** · physical",
    ):
        assert text in log, text


class _Sink:
    """pexpect's logfile: collect what the terminal showed."""

    def __init__(self, seen: list[str]) -> None:
        self.seen = seen

    def write(self, data: str) -> None:
        self.seen.append(data)

    def flush(self) -> None:
        pass


def _screen(seen: list[str]) -> str:
    return ANSI.sub("", "".join(seen)).replace("\r", "")
