"""An end-to-end Dark Tower session in a real pseudo-terminal: ``companion play`` with Russian terms."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

COMPANION = str(Path(sys.executable).parent / "companion")
ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]|\x1b[()][0-9A-Za-z]|\r")
DOWN, UP, ENTER = "\x1b[B", "\x1b[A", "\r"


@pytest.mark.e2e
def test_a_guided_session_in_a_real_terminal(tmp_path):
    env = dict(
        os.environ,
        COMPANION_HOME=str(tmp_path / "home"),
        COMPANION_LOGS=str(tmp_path / "logs"),
        PROMPT_TOOLKIT_NO_CPR="1",
        TERM="xterm",
        COLUMNS="100",  # the pty's width: a COLUMNS another test left in the environment must not win
        LINES="24",
    )
    env.pop("NO_COLOR", None)
    subprocess.run([COMPANION, "new", "dark-tower", "--seed", "7"], env=env, check=True, capture_output=True)
    child = pexpect.spawn(COMPANION, ["play"], env=env, dimensions=(24, 100), encoding="utf-8", timeout=15)
    seen: list[str] = []

    def answer(prompt: str, keys: str) -> None:
        child.expect(prompt)
        seen.append(child.before + child.after)
        child.send(keys)

    answer("Show the rules' terms in", DOWN + ENTER)  # Russian terms
    answer("Where do the cards come from", ENTER)
    answer("Player 1's name", "Аня" + ENTER)
    answer("Аня's hero", ENTER)  # Чемпион Клана
    answer("1 at the table", DOWN + ENTER)
    answer("Аня's random item", ENTER)  # a new card
    answer("name", "Меч" + ENTER)
    answer("Меч: class", ENTER)  # Оружие
    answer("Меч: combat bonus", "2" + ENTER)  # after the default 0: "02" reads 2
    answer("pick to switch", DOWN + DOWN + ENTER)
    answer("Anything else", ENTER)
    answer("The random quest", ENTER)
    answer("Build the three floor decks", ENTER)
    answer("what is it", ENTER)  # Монстр
    answer("Which монстр", DOWN + ENTER)  # a new card
    answer("name", "Скелет" + ENTER)
    answer("Скелет: floor", ENTER)
    answer("Скелет: strength", "5" + ENTER)
    answer("properties", DOWN * 4 + ENTER)
    answer("Anything else", ENTER)
    answer("type your dice", ENTER)  # a virtual roll from the session's seed
    answer(r"End of Аня's turn", ENTER)
    answer("what is it", DOWN + ENTER)  # Препятствие
    answer("Which препятствие", ENTER)  # a new card
    answer("name", "Яма" + ENTER)
    answer("Яма: check value", "5" + ENTER)
    answer("health lost on a fail", "2" + ENTER)
    answer("penalty in the next fight", "1" + ENTER)
    answer("its event", ENTER)
    answer("type your dice", "♥ ★ 3" + ENTER)  # the symbols, as a d6 table would type 4 6 3
    answer(r"End of Аня's turn", UP + ENTER)  # ✕ Save and quit
    child.expect(pexpect.EOF)
    seen.append(child.before)
    screen = ANSI.sub("", "".join(seen))
    flat = " ".join(screen.split())  # as read, whatever the width the lines were wrapped at
    assert "Этаж 1" in flat and "Чемпион Клана" in flat
    assert "4 dice +4 vs 5: beaten when the total is more than 5" in flat
    assert "Win " in flat and "· virtual — Аня: бой Скелет (5)" in flat
    assert "Pass 13/108 (12.0%)" in flat
    assert "3dt>5 → [♥] [★] [3] vs more than 5 → 3, ♥1 ★1 → fail · physical" in flat
    assert "3 is not more than 5: Яма takes effect." in flat
    assert "Saved. Resume with: companion play" in flat
    status = json.loads(
        subprocess.run([COMPANION, "dark", "status", "--json"], env=env, check=True, capture_output=True).stdout
    )
    assert status["heroes"][0]["penalty"] == 1 and status["turn"] == 2 and status["lang"] == "ru"
    catalogue = json.loads((tmp_path / "home" / "gamedata" / "dark-tower.json").read_text(encoding="utf-8"))
    assert {"cards.item.меч", "cards.monster.скелет", "cards.obstacle.яма"} <= set(catalogue["values"])
    log = next((tmp_path / "logs").glob("*.md")).read_text(encoding="utf-8")
    assert "Яма" in log and "d: `3dt>5`" in log
