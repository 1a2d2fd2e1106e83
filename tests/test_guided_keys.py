"""Fewer keys in guided play (#21 part 3): a menu starts on the best odds, number and first-letter keys,
"Go on anyway?" once per decision and never swallowing a typed die, v/p for the dice."""

from __future__ import annotations

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from companion.engine.requests import Option, choice
from companion.shell import prompts
from tests.terminal import DOWN, ENTER

FIGHT = choice(
    "combat.attribute",
    "Fight with which attribute?",
    ("STR", "STR +0"),
    ("DEX", "DEX +1"),
    ("INT", "INT +0"),
)
DEADLY = choice("combat.daggers", "Roll, or drink a potion first?", ("0", "Roll"), Option("potion", "Drink a potion"))
RISK = {"0": 0.889, "potion": 0.2}


def ask(keys: str, request, **kwargs) -> str:
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        inp.send_text(keys)
        return prompts.ask_choice(request, **kwargs)


def test_a_menu_starts_on_the_best_option():
    assert ask(ENTER, FIGHT, best="DEX") == "DEX"  # DEX +1 at 89% win, not STR +0 at 65%
    assert ask(ENTER, FIGHT) == "STR"  # no odds known: the first option
    assert ask(DOWN + ENTER, FIGHT, best="DEX") == "INT"
    assert ask(ENTER, FIGHT, best="nothing of the menu") == "STR"


def test_number_keys_pick_at_once_and_letters_move_to_an_option():
    assert ask("3", FIGHT) == "INT"  # no Enter
    assert ask("i" + ENTER, FIGHT) == "INT"
    assert ask("d" + ENTER, FIGHT, best="STR") == "DEX"
    twelve = choice("fight.monster", "Which?", *((str(i), f"Monster {i}") for i in range(1, 13)))
    # Issue 33: 1 picks at once in a menu of twelve too (a digit never waits for a second one: the key
    # typed next, often a die's face, is never swallowed); options past nine by ↑/↓ or a letter.
    assert ask("1", twelve) == "1"
    assert ask("9", twelve) == "9"
    assert ask("0" + "1", twelve) == "1"  # 0 picks nothing
    assert ask("m" * 10 + ENTER, twelve) == "11"  # from the first, M ten times: the eleventh monster


def test_switching_the_dice_is_on_v_and_p_not_a_menu_entry():
    assert ask("v", FIGHT) == "__switch__"
    assert ask("p", FIGHT) == "__switch__"
    # The menu's own entries after the options: undo and quit (Up from the top: the last one).
    assert ask("\x1b[A" + ENTER, FIGHT) == "__quit__"
    assert ask("\x1b[A\x1b[A" + ENTER, FIGHT) == "__undo__"


def test_go_on_anyway_comes_once_per_decision(monkeypatch):
    said: list[str] = []
    monkeypatch.setattr(prompts, "say", lambda lines, style="": said.append(str(lines)))
    confirmed: set[str] = set()
    assert ask(ENTER + "y" + ENTER, DEADLY, risk=RISK, confirmed=confirmed) == "0"
    assert confirmed == {"combat.daggers"}
    said.clear()
    assert ask(ENTER, DEADLY, risk=RISK, confirmed=confirmed) == "0"  # the next roll of the same fight
    assert not said  # not asked again


def test_a_die_typed_at_go_on_anyway_is_the_roll(monkeypatch):
    monkeypatch.setattr(prompts, "say", lambda lines, style="": None)
    ahead: list[str] = []
    assert ask(ENTER + "5" + ENTER, DEADLY, risk=RISK, ahead=ahead) == "0"
    assert ahead == ["5"]
    ahead.clear()
    assert ask(ENTER + ENTER + "2", DEADLY, risk=RISK, ahead=ahead) == "potion"  # Enter: choose again
    assert ahead == []


def test_in_companion_play_a_die_typed_at_go_on_anyway_is_the_next_roll(tmp_path):
    from tests.terminal import Terminal, prepare, terminal_env

    env = terminal_env(tmp_path, 80, 30)
    prepare(env, "new", "inverted-tower", "--name", "g", "--seed", "4", "--physical", "--hero", "Aria")
    for answer in ("=STR", "1", "6", "1"):  # room 1 fails its DC: three Skeleton Warriors, no elite
        prepare(env, "next", answer)
    prepare(env, "hp", "=1")
    term = Terminal(env, "play", columns=80, lines=30)
    try:
        term.ready()
        assert "Fight with which attribute?" in term.display()
        term.key("2")  # DEX +0: the hero dies more often than with STR
        assert "Go on anyway?" in term.display()
        term.key("4" + ENTER)  # a die typed at the question: going on, and it is the roll
        screen = term.display()
        while "Go on anyway?" in screen or "Spend daggers" in screen:  # the dagger menu, before the roll
            term.key("1" if "Spend daggers" in screen and "Go on anyway?" not in screen else "y" + ENTER)
            screen = term.display()
        term.key("q")
    finally:
        term.kill()
    import json

    log = prepare(env, "log", "--raw")
    status = json.loads(prepare(env, "status", "--json"))
    assert status["state"]["game"]["fight"]["attribute"] == "DEX"  # went on with the deadly choice
    fight_rolls = [line for line in log.splitlines() if "Fight: Skeleton Warrior 1 of 3" in line]
    assert len(fight_rolls) == 1 and "→ `[4]`" in fight_rolls[0]  # the die typed at "Go on anyway?"


def test_cyrillic_first_letters_move_to_an_option_of_a_russian_menu():
    russian = choice(
        "fight.help",
        "Позвать на помощь?",
        ("alone", "Сражаться одному"),
        ("1", "Позвать Бориса"),
        ("2", "Позвать Веру"),
        ("3", "Позвать Глеба"),
    )
    assert ask("п" + ENTER, russian) == "1"
    assert ask("пп" + ENTER, russian) == "2"  # the next option starting with it
    assert ask("с" + ENTER, russian, best="2") == "alone"
    assert ask("г", russian) == "__undo__"  # г is u's twin on a Russian keyboard: still undo
    assert ask("м", russian) == "__switch__"  # and м is v's: the dice


def _menu_then_roll(keys: str, physical: bool) -> tuple[str, object]:
    """A menu, then a roll prompt, with ``keys`` typed ahead for both (as a quick typist does)."""
    from companion.dice.expr import parse
    from companion.dice.source import read_physical
    from companion.engine.requests import RollRequest

    roll = RollRequest("combat.roll", parse("DC"), "Fight: Skeleton Warrior 1 of 3")
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        inp.send_text(keys)
        return prompts.ask_choice(FIGHT), prompts.ask_roll(roll, physical, reader=read_physical)


def test_an_enter_typed_after_a_one_key_answer_does_not_answer_the_next_prompt():
    # u at a menu acts at once; the Enter typed after it out of habit is dropped, not rolled
    answer, roll = _menu_then_roll("u" + ENTER + "5" + ENTER, physical=True)
    assert answer == "__undo__" and roll.faces == (5,)
    answer, roll = _menu_then_roll("u" + ENTER + "4" + ENTER, physical=False)
    assert answer == "__undo__" and roll.faces == (4,)  # not a virtual roll for the stray Enter
    answer, roll = _menu_then_roll("2" + ENTER + "6" + ENTER, physical=False)
    assert answer == "DEX" and roll.faces == (6,)  # a number picks at once too
    answer, roll = _menu_then_roll("u" + ENTER + ENTER, physical=False)
    assert roll == "virtual"  # a second Enter is the player's: it rolls
    answer, roll = _menu_then_roll("3" + "2" + ENTER, physical=True)
    assert answer == "INT" and roll.faces == (2,)  # keys that are no Enter are left as typed
    answer, roll = _menu_then_roll(ENTER + ENTER, physical=False)
    assert answer == "STR" and roll == "virtual"  # Enter at the menu: nothing is dropped after it


def test_the_help_tells_the_truth_about_enter_with_physical_dice(monkeypatch):
    said: list[list[str]] = []
    monkeypatch.setattr(prompts, "say", lambda lines, style="": said.append(list(lines)))
    prompts.show_help(physical=False)
    prompts.show_help(physical=True)
    virtual, physical = said
    assert any("Enter rolls for you" in line for line in virtual)
    assert not any("Enter" in line and "roll" in line for line in physical)
    assert any("type what your dice show" in line for line in physical)
    assert all(len(line) < 80 for line in virtual + physical)


def _play(tmp_path, columns: int, *, physical: bool):
    from tests.terminal import Terminal, prepare, terminal_env

    env = terminal_env(tmp_path, columns, 40)
    prepare(env, "new", "inverted-tower", "--hero", "Aria", "--seed", "1", *(["--physical"] * physical))
    term = Terminal(env, "play", columns=columns, lines=40)
    term.ready()
    return term


@pytest.mark.parametrize("columns", [80, 120])
def test_guided_play_echoes_a_choice_picked_by_its_number(tmp_path, columns):
    term = _play(tmp_path, columns, physical=False)
    try:
        term.key("1")  # STR, picked at once
        lines = [line.rstrip() for line in term.all_lines()]
    finally:
        term.kill()
    asked = [i for i, line in enumerate(lines) if line.startswith("? Your hero: put 1 point in which attribute?")]
    assert len(asked) == 1, "\n".join(lines)  # asked once, and answered under it
    assert lines[asked[0] + 1] == "  STR: how strong your character is"


@pytest.mark.parametrize("columns", [80, 120])
def test_in_a_physical_game_u_then_enter_at_a_menu_is_no_error_at_the_next_roll(tmp_path, columns):
    from tests.terminal import edge_problems

    term = _play(tmp_path, columns, physical=True)
    try:
        term.key("?")
        help_text = "\n".join(term.all_lines())
        term.key("1")
        for faces in ("3", "5", "2"):  # room 1: an encounter of three, no elite: the fight's menu
            term.key(faces + ENTER)
        assert "Fight with which attribute?" in term.display()
        term.key("u" + ENTER)  # typed together
        assert "is one of them an elite" in term.display()
        term.key("2" + ENTER)
        assert "Fight with which attribute?" in term.display()
        term.key("u")  # and the Enter only once the roll prompt is open
        term.key(ENTER)
        lines = term.all_lines()
    finally:
        term.kill()
    shown = "\n".join(lines)
    assert "Enter rolls for you" not in help_text and "type what your dice show" in help_text
    assert "✗" not in shown, shown
    assert shown.count("↶ Undo the last answer (u)") == 2  # each u echoed as the menu's answer
    assert "is one of them an elite" in "\n".join(lines[-4:])  # still asked, nothing recorded for Enter
    assert not edge_problems(lines, columns)
