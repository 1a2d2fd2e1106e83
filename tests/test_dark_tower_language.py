"""A whole Тёмная Башня session through the command line: in English word for word as before the
translation, and in Russian with no English left (see tests/dark_tower_session.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.dark_tower_session import play, transcript

DATA = Path(__file__).parent / "data"


@pytest.mark.slow
def test_the_english_session_is_word_for_word_what_it_was(tmp_path):
    """tests/data/dark_tower_en.txt was captured from main before the catalogues (the same script)."""
    expected = (DATA / "dark_tower_en.txt").read_text(encoding="utf-8")
    got = transcript("en", tmp_path)
    assert got.splitlines() == expected.splitlines()


# ---- Russian: no English left --------------------------------------------------------------------

#: What a player typed stays as typed: the names of the players, and a spell typed in English.
TYPED = {"Bo", "Backstab", "Skeleton", "Rogue"}
#: Notation, not words: dice (4dt, 3dt>5, 1d2, 1dN), --options, paths, the command and its
#: subcommands, the game's name, ALL-CAPS argument names and <type> placeholders in --help.
NOTATION = [
    re.compile(r"(?<![\w-])\d*d(?:t|\d+|N)\b(?:[<>]=?\d+)?"),
    re.compile(r"\S*/\S+"),
    re.compile(r"\b[Cc]ompanion(?: [a-z-]+)*"),
    re.compile(r"--lang (?:en|ru)\b"),
    re.compile(r"^(?:│ | {2})[a-z-]+(?= {2,})"),  # a command's name in the Commands list of --help
    re.compile(r"(?<![\w])--?[a-z][a-z-]*"),
    re.compile(r"\bdark-tower(?:-\d+)?\b"),
    re.compile(r"\b[A-Z][A-Z_]+\b(?:\.\.\.)?"),
    re.compile(r"<[a-z]+>"),
]
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def latin_words(text: str) -> list[str]:
    """Latin-letter words of two letters or more, once notation and typed names are taken out."""
    found = []
    for line in text.splitlines():
        for pattern in NOTATION:
            line = pattern.sub(" ", line)
        found += [w for w in re.findall(r"[\w'-]+", line) if LATIN_WORD.search(w) and w not in TYPED]
    return found


#: A number, then a noun whose form depends on it: the form Russian needs for that number.
FORMS = {
    "монстр": ("монстр", "монстра", "монстров"),
    "препятстви": ("препятствие", "препятствия", "препятствий"),
    "предмет": ("предмет", "предмета", "предметов"),
    "карт": ("карта", "карты", "карт"),
    "единиц": ("единицу", "единицы", "единиц"),
    "кубик": ("кубик", "кубика", "кубиков"),
    "действи": ("действие", "действия", "действий"),
    "игрок": ("игрок", "игрока", "игроков"),
}


def russian_form(n: int) -> int:
    if n % 10 == 1 and n % 100 != 11:
        return 0
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return 1
    return 2


def wrong_plurals(text: str) -> list[str]:
    bad = []
    for m in re.finditer(r"(?<![\d/.])(\d+) ([а-яё]+)", text):
        n, word = int(m.group(1)), m.group(2)
        for stem, forms in FORMS.items():
            known = word.startswith(stem) and word in {*forms, stem + "ы", stem + "а", stem + "и", stem + "ов"}
            if known and word != forms[russian_form(n)] and not (stem == "единиц" and word == "единица" and n == 1):
                bad.append(m.group(0))
    return bad


def test_the_checks_find_what_they_look_for():
    assert latin_words("Аня loses 2 здоровье") == ["loses"]
    assert latin_words("Ход 1 · Bo: бой, 4dt +2 Меч --got 1,h,6 companion dark fight HOME/logs/x.md") == []
    assert wrong_plurals("5 монстра, 2 монстра, 21 монстр, 11 монстров, 3 единицы, 1 единицу") == ["5 монстра"]
    assert [russian_form(n) for n in (1, 2, 5, 11, 21, 22, 25)] == [0, 1, 2, 2, 0, 1, 2]
@pytest.mark.slow
def test_a_whole_session_in_russian_has_no_english_and_right_plurals(tmp_path):
    runs, log = play("ru", tmp_path)
    text = "\n".join(printed.split("\n", 1)[1] for _args, printed in runs) + "\n" + log  # without "[exit N]"
    assert "[exit 0]" in runs[-2][1] and runs[-1][1].startswith("[exit 2]")  # the last is a mistake on purpose
    failed = [(args, printed) for args, printed in runs[:-1] if not printed.startswith("[exit 0]")]
    assert not failed, failed
    english = latin_words(text)
    assert not english, sorted(set(english))
    assert not wrong_plurals(text), wrong_plurals(text)
    # the session went where it should: help on floor 2, a group, a trade, the levels, the end
    assert "Bo помогает игроку Аня" in text and "вступает в группу из стопки" in text
    assert "Аня получает уровень 2: Героическая Отвага" in text
    assert "Аня применяет заклинание «Героическая Отвага»" in text
    assert "Аня и Bo меняются предметами: Меч ↔ Кольчуга" in text
    assert "Конец игры: победа." in text and 'итог: "победа"' in log
    assert 'кубики: "виртуальные"' in log and "# Тёмная Башня: " in log
