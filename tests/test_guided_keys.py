"""Fewer keys in guided play (#21 part 3): a menu starts on the best odds, number and first-letter keys,
"Go on anyway?" once per decision and never swallowing a typed die, v/p for the dice."""

from __future__ import annotations

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
    assert ask("12", twelve) == "12"  # 1 waits for a second digit in a menu of twelve; 12 picks at once
    assert ask("1" + ENTER, twelve) == "1"
    assert ask("9", twelve) == "9"


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
