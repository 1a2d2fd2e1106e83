"""End to end in a real pseudo-terminal: ``companion play`` of Тёмная Башня in Russian at 80x30.

The screen is rendered with pyte (what the player sees, scrolled lines included) and read: Russian
words only (tests/russian_words.py: no Latin word outside the exceptions, no decimal point), the
keys' Russian twins (г for u), the ? help, and no word broken across two lines.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import sys
from pathlib import Path

import pexpect
import pyte
import pytest

from tests.russian_words import decimal_points, latin_words
from tests.terminal import prepare, pty_spawn

COMPANION = str(Path(sys.executable).parent / "companion")
ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]|\x1b[()][0-9A-Za-z]|\r")
DOWN, UP, ENTER = "\x1b[B", "\x1b[A", "\r"
COLUMNS, LINES = 80, 30


def broken_words(lines: list[str], width: int = COLUMNS) -> list[str]:
    """Pairs of lines where a word runs over the edge: a full line ending in a letter, the next
    starting with one (rich and the prompts wrap at spaces, so a full line never ends mid-word).
    A file path longer than the line cannot wrap at a space: it is not a word."""
    out = []
    for a, b in itertools.pairwise(lines):
        if "/" in a.rstrip().rsplit(" ", 1)[-1]:
            continue
        if len(a.rstrip()) >= width and a.rstrip()[-1].isalnum() and b[:1].isalnum():
            out.append(f"{a.rstrip()!r} / {b.rstrip()!r}")
    return out


def test_broken_words_are_found():
    assert broken_words(["x" * 78 + "ab", "cd efg"]) and not broken_words(["x" * 78 + "a ", "bc"])
    assert not broken_words(["short line", "next"])
    assert not broken_words(["(log: /tmp/" + "x" * 70 + "/lo", "gs.md)"])


@pytest.mark.e2e
def test_a_guided_session_in_russian_in_a_real_terminal_at_80x30(tmp_path):
    env = dict(
        os.environ,
        COMPANION_HOME=str(tmp_path / "home"),
        COMPANION_LOGS=str(tmp_path / "logs"),
        PROMPT_TOOLKIT_NO_CPR="1",
        TERM="xterm",
        LANG="C.UTF-8",
        COLUMNS=str(COLUMNS),
        LINES=str(LINES),
    )
    env.pop("NO_COLOR", None)
    env.pop("COMPANION_LANG", None)
    prepare(env, "new", "dark-tower", "--seed", "7", "--lang", "ru")  # in this process: the pty is for play
    child = pty_spawn(COMPANION, ["play"], env=env, dimensions=(LINES, COLUMNS), encoding="utf-8", timeout=30)
    screen = pyte.HistoryScreen(COLUMNS, LINES, history=2000)
    stream = pyte.Stream(screen)
    seen: list[str] = []

    def lines() -> list[str]:
        history = ["".join(ch.data for ch in line.values()) for line in screen.history.top]
        return history + list(screen.display)

    def answer(prompt: str, keys: str) -> None:
        child.expect(prompt)
        stream.feed(child.before + child.after)
        seen.append(child.before + child.after)
        child.send(keys)

    answer("Откуда берутся карты", ENTER)  # your own cards
    answer("Имя игрока 1", "Аня" + ENTER)
    answer("Персонаж Ани", ENTER)  # Чемпион Клана
    answer("За столом один игрок", "?")  # the keys, in Russian
    answer("За столом один игрок", DOWN + ENTER)
    answer("Случайный предмет Ани", ENTER)  # a new card
    answer("Название", "Меч" + ENTER)
    answer("Меч: класс", ENTER)  # Оружие
    answer("Меч: боевой бонус", "2" + ENTER)  # after the default 0: "02" reads 2
    answer("отметьте нужное", DOWN + DOWN + ENTER)
    answer("что ещё написано на карте", ENTER)
    answer("Случайный квест", ENTER)
    answer("Соберите три стопки", ENTER)
    answer("что это", ENTER)  # Монстр
    answer("Какой монстр", DOWN + ENTER)  # a new card
    answer("Название", "Скелет" + ENTER)
    answer("Скелет: Этаж", ENTER)
    answer("Скелет: сила", "г" + ENTER)  # г, on the key of u: back to the floor
    answer("Скелет: Этаж", ENTER)
    answer("Скелет: сила", "5" + ENTER)
    answer("Скелет: свойства", DOWN * 4 + ENTER)
    answer("что ещё написано на карте", ENTER)
    answer("введите, что выпало", "?" + ENTER)  # the keys at a roll
    answer("введите, что выпало", ENTER)  # a virtual roll from the session's seed
    answer("Конец хода Ани", ENTER)
    answer("что это", DOWN + ENTER)  # Препятствие
    answer("Какое препятствие", ENTER)  # a new card
    answer("Название", "Яма" + ENTER)
    answer("Яма: значение проверки", "5" + ENTER)
    answer("потеря здоровья при провале", "2" + ENTER)
    answer("штраф в следующем бою", "1" + ENTER)
    answer("событие при провале", ENTER)
    answer("введите, что выпало", "♥ ★ 3" + ENTER)  # the symbols, as a d6 table would type 4 6 3
    answer("Конец хода Ани", UP + ENTER)  # ✕ Сохранить и выйти
    child.expect(pexpect.EOF)
    stream.feed(child.before)
    seen.append(child.before)
    shown = lines()
    assert not broken_words(shown), "\n".join(broken_words(shown))
    screen_text = " ".join(" ".join(line.split()) for line in shown)  # wrapped lines read as one
    assert not latin_words(screen_text), sorted(set(latin_words(screen_text)))
    assert not decimal_points(screen_text), decimal_points(screen_text)
    assert "u/г отмена" in screen_text and "Клавиши в любом вопросе:" in screen_text
    assert "1 Этаж" in screen_text and "Чемпион Клана" in screen_text
    assert "4 кубика +4 против 5: победа, если итог больше 5" in screen_text
    assert "Победа " in screen_text and "· виртуальные — Аня в бою: Скелет (5)" in screen_text
    assert "Успех 13/108 (12,0 %)" in screen_text
    assert "3 не больше 5: препятствие «Яма» срабатывает." in screen_text
    assert "Сохранено. Продолжить: companion play" in screen_text
    raw = ANSI.sub("", "".join(seen))
    assert "3dt>5 → [♥] [★] [3] (нужно больше 5) → 3, ♥1 ★1 → провал · настоящие" in raw.replace("\n", " ")
    status = json.loads(prepare(env, "dark", "status", "--json"))
    assert status["heroes"][0]["penalty"] == 1 and status["turn"] == 2 and status["lang"] == "ru"
    catalogue = json.loads((tmp_path / "home" / "gamedata" / "dark-tower.json").read_text(encoding="utf-8"))
    assert {"cards.item.меч", "cards.monster.скелет", "cards.obstacle.яма"} <= set(catalogue["values"])
    log = next((tmp_path / "logs").glob("*.md")).read_text(encoding="utf-8")
    assert "Яма" in log and "🎲 `3dt>5`" in log and "игра: " in log
