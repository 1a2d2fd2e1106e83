"""``companion shell`` of a Тёмная Башня session in Russian, in a real pseudo-terminal at 80x30 (#24).

The banner, the pending step and its ``?``, the shell's ``help``, a command's output and a mistake,
Tab's menu of options, and the bottom bar with both heroes: every screen read as the player sees it
(pyte), with no Latin word outside the exceptions (tests/russian_words.py), no decimal point, no help
cut mid-word in the Tab menu, and nothing in the terminal's last column.
"""

from __future__ import annotations

import os

import pytest

from tests.russian_words import decimal_points, latin_words
from tests.shell_term import CTRL_D, ENTER, TAB, Term
from tests.terminal import edge_problems, prepare

pytestmark = pytest.mark.e2e

COLS, ROWS = 80, 30
CTRL_U = "\x15"


def a_fight_for_two() -> None:
    """Аня and Bo at the table, Аня fighting the Skeleton on floor 1 (virtual dice)."""
    env = dict(os.environ)
    prepare(env, "new", "dark-tower", "--lang", "ru", "--seed", "5", "--name", "башня")
    prepare(env, "dark", "card", "hero", "Разбойник", "--health", "8", "--bonus", "1,1,2")
    prepare(env, "dark", "card", "item", "Меч", "--class", "weapon", "--bonus", "2")
    prepare(env, "dark", "card", "item", "Кольчуга", "--class", "armor", "--bonus", "1")
    prepare(env, "dark", "card", "monster", "Скелет", "--floor", "1", "--strength", "5")
    for answer in ("1", "Аня", "=clan-champion", "=add", "Bo", "=разбойник", "=done", "=меч", "=кольчуга"):
        prepare(env, "next", answer)
    for answer in ("+none", "ready", "1", "=monster", "=скелет"):
        prepare(env, "next", answer)


def test_the_shell_in_russian_at_80x30():
    a_fight_for_two()
    t = Term("shell", cols=COLS, rows=ROWS, cpr=True)
    seen: list[str] = []

    def look() -> None:
        seen.extend(t.display().split("\n"))

    t.wait_for("Оболочка companion")
    t.wait_for("Bo ♥8/8", bottom=6)  # the bar: the step, the fight, both heroes, the rest
    look()
    assert "Аня в бою: Скелет (5)" in t.display() and "1 Этаж" in t.display()
    t.line("?" + ENTER, "Ответы на этот шаг:")
    look()
    t.line("help" + ENTER, "Сокращения:")
    look()
    t.line("status" + ENTER, "Чемпион Клана")
    look()
    t.line("dark fihgt" + ENTER, "Нет такой команды")
    look()
    t.send("dark fight --" + TAB)
    t.wait_for("--condition")
    menu = [line for line in t.display().split("\n") if line.strip().startswith("--")]
    look()
    assert len(menu) >= 6, t.display()
    for line in menu:  # each help whole, or cut between words with "…"
        text = line.split(None, 1)[1].rstrip() if len(line.split(None, 1)) > 1 else ""
        assert text.endswith(("…", ".", ")")), line
    t.send(CTRL_U)
    t.line("dark fight --odds" + ENTER, "Победа")
    look()
    t.send(CTRL_D)
    assert t.close() == 0
    # A panel's border may take the last column (status draws at the terminal's width); no text may.
    text_lines = [line for line in seen if not line.rstrip().endswith(("│", "╮", "╯"))]
    assert not edge_problems(text_lines, COLS), "\n".join(edge_problems(text_lines, COLS))
    text = "\n".join(line for line in seen if not line.startswith("башня> "))  # not what was typed
    assert not latin_words(text), sorted(set(latin_words(text)))
    assert not decimal_points(text), decimal_points(text)


def answered_session() -> None:
    """A Тёмная Башня session started without --lang, «Русский» answered at setup: Оля and Дмитрий at the
    table, Оля's Амулет удачи, the Желатиновый Куб (it takes an item) in the catalogue, the first turn."""
    env = dict(os.environ)
    prepare(env, "new", "dark-tower", "--seed", "5", "--name", "башня")
    prepare(env, "next", "2")
    prepare(env, "dark", "card", "hero", "Разбойник", "--health", "8", "--bonus", "1,1,2")
    prepare(env, "dark", "card", "item", "Амулет удачи", "--class", "weapon", "--bonus", "2")
    prepare(env, "dark", "card", "item", "Кольчуга", "--class", "armor", "--bonus", "1")
    prepare(env, "dark", "card", "monster", "Желатиновый Куб", "--floor", "1", "--strength", "4", "--takes-item")
    for answer in ("=table", "Оля", "=clan-champion", "=add", "Дмитрий", "=разбойник", "=done", "=амулет-удачи"):
        prepare(env, "next", answer)
    for answer in ("=кольчуга", "+none", "ready", "1"):
        prepare(env, "next", answer)


@pytest.mark.parametrize("cols", [80, 120])
def test_a_session_answered_russian_reads_whole_in_the_shell(cols):
    """At 80 and 120 columns: the bar names the game and never cuts the menu, a wrapped question or log
    line goes on indented (never at column 0, never a lone «—»), the faces of a roll stay together,
    names are declined, and no English word is left."""
    answered_session()
    t = Term("shell", cols=cols, rows=ROWS, cpr=True)
    seen: list[str] = []

    def look() -> None:
        seen.extend(t.display().split("\n"))

    t.wait_for("Побеждено", bottom=6)
    look()
    bar = t.display().split("\n")[-6:]
    assert any("башня (Тёмная Башня)" in line for line in bar), bar
    assert not any(line.rstrip().endswith("…") for line in bar if line.startswith(("▶ ", "  1 "))), bar
    t.line("?" + ENTER, "Ответы на этот шаг:")
    look()
    t.line("=monster" + ENTER, "Какой монстр")
    look()
    t.line("1" + ENTER, "Enter бросает")
    look()
    t.line("♥ ♥ ♥ ★" + ENTER, "Конец хода Оли")
    look()
    t.send(CTRL_D)
    assert t.close() == 0
    text_lines = [line for line in seen if not line.rstrip().endswith(("│", "╮", "╯"))]
    assert not edge_problems(text_lines, cols), "\n".join(edge_problems(text_lines, cols))
    screen = "\n".join(seen).replace("\u00a0", " ")  # a no-break space holds the faces together
    assert "Желатиновый Куб забирает у Оли случайный предмет: Амулет удачи." in screen
    assert "у Оли и так полное здоровье" in screen and "у Оли 1 ресурс энергии на этот ход" in screen
    assert "[♥] [♥] [♥] [★]" in screen  # the faces never split
    assert not [line for line in seen if line.startswith(("— ", "help", "препятствия", "случайный", "звезда"))], [
        line for line in seen if line.startswith(("— ", "help", "препятствия", "случайный", "звезда"))
    ]
    text = "\n".join(line for line in seen if not line.startswith("башня> "))
    assert not latin_words(text), sorted(set(latin_words(text)))
    assert not decimal_points(text), decimal_points(text)
