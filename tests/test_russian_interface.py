"""Тёмная Башня in Russian around the game (#24): numbers as Russian writes them, the framework's own
words (click's errors, typer's help) from the catalogue, every shared command's --help, the key
letters' twins on a Russian keyboard."""

from __future__ import annotations

from fractions import Fraction

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from companion import i18n
from companion.engine.requests import RollRequest, choice
from companion.shell import prompts
from tests.helpers import cli

NBSP = "\u00a0"


def run(*args: str):
    i18n.activate(None)  # each command starts in English, as a new process does
    result = cli(*args)
    i18n.activate(None)
    return result


@pytest.fixture
def russian():
    assert run("new", "dark-tower", "--lang", "ru", "--seed", "5", "--name", "башня").exit_code == 0


# ---- numbers -------------------------------------------------------------------------------------


def test_numbers_are_written_as_the_language_writes_them():
    from companion.dice.odds import percent

    assert (i18n.number(0.2134, 2), i18n.number(12345.5, 1, group=True), percent(Fraction(15, 16))) == (
        "0.21",
        "12,345.5",
        "93.8%",
    )
    with i18n.using("ru", "dark-tower"):
        assert i18n.number(0.2134, 2) == "0,21"
        assert i18n.number(12345.5, 1, group=True) == f"12{NBSP}345,5"
        assert percent(Fraction(15, 16)) == f"93,8{NBSP}%"  # the sign never leaves its number at a line's end
        assert percent(Fraction(1, 7776)) == f"<0,1{NBSP}%" and percent(Fraction(7775, 7776)) == f">99,9{NBSP}%"


def test_the_fight_odds_of_a_russian_session_have_no_decimal_point(russian):
    out = run("dark", "odds", "fight", "3", "5").stdout
    assert f"(72,9{NBSP}%)" in out and "." not in out.replace("...", ""), out
    assert f"урон: 1:{NBSP}8,3{NBSP}%, 2:{NBSP}6,2{NBSP}%" in out, out  # a value stays with its label


# ---- the framework's own words -------------------------------------------------------------------

ERRORS = {
    ("dark", "fihgt"): "companion dark: Нет такой команды: «fihgt»; может быть, «fight»?",
    ("fihgt",): "companion: Нет такой команды: «fihgt»; может быть, «fight»?",  # the root has fight (a pack fight)
    ("dark", "fight", "--wiht", "Bo"): "companion dark fight: Нет такого параметра: «--wiht»; может быть, «--with»?",
    ("--wiht",): "companion: Нет такого параметра: «--wiht»",
    ("dark", "fight", "--got"): "companion: После параметра «--got» нужно значение.",
    ("dark", "draw"): "companion dark draw: Не хватает аргумента «вид».",
    ("dark", "deck", "5", "1,1,1"): "companion dark deck: Неверное значение «этаж»: 5 — не число от 1 до 3.",
    ("dark", "deck", "abc", "1,1,1"): "companion dark deck: Неверное значение «этаж»: «abc» — не целое число.",
    ("dark", "fight", "1", "2"): "companion dark fight: Лишнее в команде: «1 2»",
    ("mode",): "companion mode: Не хватает аргумента «кубики».",
}


@pytest.mark.parametrize("args", list(ERRORS), ids=" ".join)
def test_click_and_typer_say_their_mistakes_in_the_sessions_language(russian, args):
    result = run(*args)
    assert result.exit_code == 2
    assert result.stderr.startswith(ERRORS[args]), result.stderr
    assert f"(см.{NBSP}«companion" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_an_english_session_keeps_clicks_own_words():
    assert run("new", "dark-tower", "--lang", "en", "--seed", "5").exit_code == 0
    assert run("dark", "draw").stderr.startswith("companion dark draw: Missing argument 'kind'.")
    assert run("dark", "deck", "5", "1,1,1").stderr.startswith(
        "companion dark deck: Invalid value for 'floor': 5 is not in the range 1<=x<=3."
    )
    assert "Did you mean 'fight'?" in run("dark", "fihgt").stderr


SHARED = ["next", "play", "undo", "redo", "status", "log", "export", "sessions", "use", "mode", "amend", "shell"]


@pytest.mark.parametrize("command", SHARED)
def test_the_help_of_a_shared_command_is_russian_in_a_russian_session(russian, command):
    out = run(command, "--help").stdout
    assert out.startswith(f"Использование: companion {command} [ПАРАМЕТРЫ]"), out
    assert "Показать эту справку и выйти." in out and "Usage" not in out and "[required]" not in out


def test_the_root_help_and_the_frameworks_brackets_are_russian(russian):
    root = run("--help").stdout
    assert root.startswith("Использование: companion [ПАРАМЕТРЫ] КОМАНДА [АРГУМЕНТЫ]...")
    assert "\nКубики:\n" in root and "\nСессии:\n" in root and "[переменная окружения:" in root
    assert "Отменить последнее действие" in root
    draw = run("dark", "draw", "--help").stdout
    assert draw.startswith("Использование: companion dark draw [ПАРАМЕТРЫ] {вид} {название}")
    assert "[обязательно]" in draw and "required" not in draw
    roll = " ".join(run("roll", "--help").stdout.split())
    assert "[по умолчанию: 0]" in roll and "default" not in roll
    english = cli("undo", "--help", env={"COMPANION_SESSION": "nothing-here"}).stdout
    assert english.startswith("Usage: companion undo [OPTIONS]"), english  # no such session: English


# ---- the keys on a Russian keyboard --------------------------------------------------------------

MENU = choice("k", "Какой?", ("a", "Первый"), ("b", "Второй"))


def ask(keys: str, request, ask=prompts.ask_choice, **kwargs):
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        inp.send_text(keys)
        return ask(request, **kwargs)


@pytest.mark.parametrize(
    ("key", "answer"), [("г", "__undo__"), ("й", "__quit__"), ("м", "__switch__"), ("з", "__switch__")]
)
def test_a_menu_takes_the_russian_letter_on_the_same_key(key, answer):
    assert ask(key, MENU) == answer


@pytest.mark.parametrize(
    ("typed", "answer"), [("г", "undo"), ("й", "quit"), ("м", "switch"), ("з", "switch"), ("к", "virtual")]
)
def test_a_roll_takes_the_russian_letter_on_the_same_key(typed, answer):
    from companion.dice.expr import parse
    from companion.dice.source import read_physical

    request = RollRequest("r", parse("2d6"), "Бросок")
    got = ask(typed + "\r", request, ask=lambda r: prompts.ask_roll(r, physical=False, reader=read_physical))
    assert got == answer


def test_the_hints_name_both_letters():
    with i18n.using("ru", "dark-tower"):
        hint = i18n._(prompts.MENU_HINT)
        assert f"u/г{NBSP}отмена" in hint and f"q/й{NBSP}выход" in hint and f"v/p{NBSP}(м/з)" in hint
        assert f"u/г{NBSP}отмена" in prompts.roll_hint(physical=False)
        assert all(len(i18n._(line)) < 80 for line in prompts.HELP_LINES)
