"""A whole Тёмная Башня session through the command line: in English word for word as before the
translation, and in Russian with no English left (see tests/dark_tower_session.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.dark_tower_session import play, transcript
from tests.russian_words import decimal_points, latin_words, russian_form, wrong_plurals

DATA = Path(__file__).parent / "data"


@pytest.mark.slow
def test_the_english_session_is_word_for_word_what_it_was(tmp_path):
    """tests/data/dark_tower_en.txt was captured from main before the catalogues (the same script)."""
    expected = (DATA / "dark_tower_en.txt").read_text(encoding="utf-8")
    got = transcript("en", tmp_path)
    assert got.splitlines() == expected.splitlines()


# ---- Russian: no English left --------------------------------------------------------------------


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
    assert "Bo помогает Ане" in text and "вступает в группу из стопки" in text
    assert "Аня получает уровень 2: Героическая Отвага" in text
    assert "Аня применяет заклинание «Героическая Отвага»" in text
    assert "Аня и Bo меняются предметами: Меч ↔ Кольчуга" in text
    assert "Конец игры: победа." in text and 'итог: "победа"' in log
    assert 'кубики: "виртуальные"' in log and "# Тёмная Башня: " in log


# ---- every surface a player of a Russian session meets -------------------------------------------

DARK_COMMANDS = (
    "card", "cards", "join", "item", "quest", "start", "decks", "draw", "group", "check", "fight", "lose",
    "discard", "trade", "end", "floor", "hp", "deck", "lang", "status", "odds",
)  # fmt: skip
SHARED_COMMANDS = (
    "next", "play", "undo", "redo", "status", "log", "export", "sessions", "use", "mode", "amend", "shell", "note",
    "new", "roll", "odds",
)  # fmt: skip
#: After the game: the shared commands and their answers; each is (args, 0 when it succeeds).
SURFACES: list[tuple[list[str], bool]] = [
    *((["--help"], True), (["sessions", "rm", "--help"], True), (["sessions", "rename", "--help"], True)),
    *(([command, "--help"], True) for command in SHARED_COMMANDS),
    *((["dark", command, "--help"], True) for command in DARK_COMMANDS),
    (["status"], True),
    (["sessions"], True),
    (["log", "--rolls"], True),
    (["amend"], True),
    (["undo"], True),
    (["redo"], True),
    (["note", "Отличная", "партия"], True),
    (["mode", "physical"], True),
    (["mode", "виртуальные"], True),
    (["use", "dark-tower-1"], True),
    (["roll", "2d6", "--got", "3,4"], True),
    (["odds", "4dt"], True),
    (["odds", "2d6>=9"], True),
    (["dark", "odds", "check", "5"], True),
    (["dark", "odds", "fight", "4", "9"], True),
    (["dark", "cards"], True),
    (["dark", "decks", "--players", "3"], True),
    (["export"], True),
    (["export", "-", "--format", "md"], True),
    # mistakes: one line each, in Russian
    (["fihgt"], False),
    (["--wiht"], False),
    (["undo", "--wiht"], False),
    (["dark", "fihgt"], False),
    (["dark", "draw"], False),
    (["dark", "draw", "monster", "Никто"], False),
    (["dark", "deck", "5", "1,1,1"], False),
    (["dark", "deck", "abc", "1,1,1"], False),
    (["dark", "deck", "1", "1,1"], False),
    (["dark", "fight", "--wiht", "Bo"], False),
    (["dark", "fight", "--got"], False),
    (["dark", "fight", "1", "2"], False),
    (["dark", "hp", "Аня", "abc"], False),
    (["dark", "hp", "Никто", "+1"], False),
    (["dark", "lang", "fr"], False),
    (["dark", "card", "foo", "X"], False),
    (["dark", "card", "monster", "X"], False),
    (["dark", "card", "hero", "X", "--spell", "плохо"], False),
    (["dark", "trade", "Аня", "Щит", "Bo", "1"], False),
    (["dark", "discard", "Bo", "Щит"], False),
    (["dark", "odds", "foo"], False),
    (["dark", "odds", "fight", "4"], False),
    (["dark", "check"], False),
    (["dark", "end"], False),
    (["next", "99"], False),
    (["play"], False),
    (["use", "никакая"], False),
    (["mode", "вдвойне"], False),
    (["amend", "--roll", "999", "--got", "3", "--reason", "опечатка"], False),
    (["note"], False),
    (["roll", "2d6", "--got", "9,9"], False),
    (["roll", "кубик"], False),
    (["export", "--format", "pdf"], False),
    (["new", "нет-такой-игры"], False),
    (["sessions", "rm", "dark-tower-1"], False),
]


@pytest.mark.slow
def test_every_surface_of_a_russian_session_is_russian(tmp_path):
    """The whole session, then every shared command, every --help, and the mistakes a player makes:
    no Latin word outside the exceptions, no decimal point, the right plural forms."""
    from tests.dark_tower_session import run_steps

    runs, log = play("ru", tmp_path)
    runs += run_steps([args for args, _ok in SURFACES], tmp_path)
    for (args, ok), (_args, printed) in zip(SURFACES, runs[-len(SURFACES) :], strict=True):
        code = int(printed.split("]", 1)[0].removeprefix("[exit "))
        assert (code == 0) == ok, (args, printed)
        if not ok:  # one line, and no traceback
            assert len(printed.strip().splitlines()) <= 3 and "Traceback" not in printed, (args, printed)
    exported = next((tmp_path / "logs").glob("*.md")).read_text(encoding="utf-8")
    text = "\n".join(printed.split("\n", 1)[1] for _args, printed in runs) + "\n" + log + "\n" + exported
    english = latin_words(text)
    assert not english, sorted(set(english))
    assert not decimal_points(text), decimal_points(text)
    assert not wrong_plurals(text), wrong_plurals(text)


# ---- a session started with no --lang, answered «русский» at the setup question ---------------------


def answered_steps() -> list[list[str]]:
    """The whole session as in :func:`play`, but started without ``--lang``: the language is the answer
    to the setup's first question («Русский»), given before anything else."""
    from tests.dark_tower_session import steps

    commands = steps("ru")
    commands[0] = ["new", "dark-tower", "--seed", "5"]
    commands.remove(["next"])
    return [commands[0], ["next"], ["next", "2"], *commands[1:]]


#: What a player meets after the game besides SURFACES: undo of a game's command, the exports, the dice
#: audit, the game data, serve's help, a game's odds typed in Russian.
ANSWERED: list[tuple[list[str], bool]] = [
    (["dark", "hp", "Аня", "-1"], True),
    (["undo"], True),
    (["redo"], True),
    (["undo"], True),
    (["sessions"], True),
    (["use", "dark-tower-1"], True),
    (["export", "-", "--format", "lonelog"], True),
    (["dice", "audit"], True),
    (["gamedata"], True),
    (["gamedata", "скелет.сила=6"], True),
    (["gamedata", "кольчуга.разовый=нет"], True),  # да/нет read as true/false
    (["gamedata", "скелет.рост=6"], False),
    (["gamedata", "--help"], True),
    (["serve", "--help"], True),
    (["next", "--help"], True),
    (["dark", "odds", "бой", "3"], False),
]


@pytest.mark.slow
def test_a_session_answered_russian_at_setup_prints_no_english_anywhere(tmp_path):
    """The language chosen at the setup question governs every command from its first line: help,
    errors, sessions, undo, the Lonelog export, the dice audit, the game data; names declined."""
    from tests.dark_tower_session import run_steps

    commands = answered_steps()
    played = run_steps(commands[:-3], tmp_path)  # the session, without its last three (help and a mistake)
    after = SURFACES + ANSWERED
    runs = run_steps([args for args, _ok in after], tmp_path)
    assert all(printed.startswith("[exit 0]") for _args, printed in played), [
        (a, p) for a, p in played if not p.startswith("[exit 0]")
    ]
    for (args, ok), (_args, printed) in zip(after, runs, strict=True):
        code = int(printed.split("]", 1)[0].removeprefix("[exit "))
        assert (code == 0) == ok, (args, printed)
    # the new session and the question of its language are said before there is a language; the answer
    # is said back in the language it chose («Язык игры → Русский: …»)
    assert played[2][1].split("\n")[1].startswith("Язык игры → Русский"), played[2][1]
    said = played[2:] + runs
    text = "\n".join(printed.split("\n", 1)[1] for _args, printed in said)
    text += "\n" + next((tmp_path / "logs").glob("*.md")).read_text(encoding="utf-8")
    english = latin_words(text)
    assert not english, sorted(set(english))
    assert not decimal_points(text), decimal_points(text)
    assert not wrong_plurals(text), wrong_plurals(text)
    # names in the case the sentence needs
    for declined in (
        "Персонаж Ани", "Случайный предмет Ани", "Аня берёт Меч", "Bo берёт Кольчугу", "у Ани и так полное здоровье",
        "Bo помогает Ане", "Аня и Bo в бою", "+2 Боевой Клич от Ани", "Bo сражается со Скелетом (5)",
        "За столом двое: Аня, Bo",
    ):  # fmt: skip
        assert declined in text, declined
    # undo names the step in the game's words; the exports and the audit in Russian
    assert re.search(r"Отменено действие №\d+: Аня: здоровье [−-]1\. Вернуть: companion redo\.", text), text
    assert "## Сессия 1" in text and "(настоящие)" in text and "[PC:Аня|здоровье" in text
    assert "Кубик Тёмной Башни, настоящий" in text and "бросков Кубика Тёмной Башни" in text
    assert "Монстр Скелет: 1 Этаж, Сила 6" in text  # gamedata: the card's strength changed by its name
    single = next(p for a, p in runs if a == ["gamedata", "кольчуга.разовый=нет"])  # ...and a no typed in Russian
    assert "Предмет Кольчуга (Броня, +1)\n" in single and "Разовый" not in single, single
    assert "Тёмная Башня" in next(p for a, p in runs if a == ["sessions"])


@pytest.mark.slow
def test_serve_speaks_the_language_answered_at_setup_until_sigterm(tmp_path):
    """``companion serve`` in a session whose language was the setup's answer: its page, its lines, folded
    between words, and its SIGTERM line in Russian."""
    import html
    import signal

    from tests.serve_support import companion, serve

    for args in (["new", "dark-tower", "--seed", "5"], ["next"], ["next", "2"], ["next", "=table"], ["next", "Оля"]):
        assert companion(tmp_path, *args).returncode == 0
    served = serve(tmp_path)
    status, _headers, body = served.request("GET", "/")
    assert status == 200
    page = re.sub(r"<script.*?</script>|<style.*?</style>|<[^>]+>", "\n", body.decode(), flags=re.S)
    assert "Персонаж Оли" in page and not latin_words(html.unescape(page)), latin_words(html.unescape(page))
    code, printed = served.stop(signal.SIGTERM)
    assert code == 143
    said = [line for line in printed.splitlines()[1:] if line.strip() and not set(line) <= set("█▀▄ ")]
    assert any(line.startswith("Сессия dark-tower-1 (Тёмная Башня) доступна на 127.0.0.1:") for line in said), said
    assert said[-1] == "companion: остановлено сигналом SIGTERM; всё сделанное сохранено.", said
    assert not latin_words("\n".join(said)), said
