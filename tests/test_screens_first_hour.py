"""A new user's first hour (#12), on the screen: prompts in a pseudo-terminal rendered by pyte.

- a wrong entry shows its whole message next to the prompt, and the next try starts empty;
- one number for several dice is taken as their total, and the prompt says so;
- ``?``, ``u`` and ``q`` work at menus;
- Enter does not walk a hero into a likely death without one more key;
- every game's guided screens at 80 columns (and the two guided games at 120) break no word across
  two lines and cut no message at the edge, and the status panel keeps one width.
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("pexpect")
pytest.importorskip("pyte")

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from companion.engine.requests import Option, choice
from companion.shell import prompts
from tests.terminal import (
    DOWN,
    ENTER,
    TRACEBACK,
    Terminal,
    broken_words,
    edge_problems,
    prepare,
    terminal_env,
)

pytestmark = pytest.mark.e2e


def cursor_line(term: Terminal) -> str:
    return term.screen.display[term.screen.cursor.y].rstrip()


def assert_fits(term: Terminal) -> None:
    lines = term.all_lines()
    screen = "\n".join(line.rstrip() for line in lines)
    assert not TRACEBACK.search(term.raw), term.raw[-3000:]
    assert not broken_words(lines, term.columns), screen
    assert not edge_problems(lines, term.columns), "\n\n".join(edge_problems(lines, term.columns))


def test_a_wrong_entry_at_a_2d6_prompt_shows_the_whole_message_under_it_and_clears_the_box(tmp_path):
    env = terminal_env(tmp_path)
    prepare(env, "new", "freeform", "--physical", "--seed", "1")
    term = Terminal(env, "roll", "2d6")
    try:
        assert term.ready()
        term.wait_for("Roll 2d6 and type what the dice show")
        assert term.key("3 4 5" + ENTER)
        screen = term.display()
        rows = [row.rstrip() for row in term.screen.display]
        assert "  › 3 4 5" in rows, screen
        typed = rows.index("  › 3 4 5")
        # The message, whole, on the lines right under the wrong entry.
        message = " ".join(row.strip() for row in rows[typed + 1 : term.screen.cursor.y])
        assert message == (
            "✗ 2d6 needs 2 values, got 3; type 2 faces separated by commas or spaces (a whole "
            "number from 1 to 6), or one number for the total (7 or =7)"
        ), screen
        assert cursor_line(term) == "  ›", screen  # the next try starts empty
        assert_fits(term)
        # One number: taken as the total, and said so.
        term.key("7" + ENTER)
        assert term.finish() == 0
        assert "took 7 as the total of 2d6" in term.display()
        assert_fits(term)
    finally:
        term.kill()


def test_a_wrong_entry_at_a_guided_roll_and_keys_at_a_menu(tmp_path):
    env = terminal_env(tmp_path)
    prepare(env, "new", "inverted-tower", "--hero", "Aria", "--seed", "3")
    term = Terminal(env, "play")
    try:
        term.ready()
        term.wait_for("put 1 point in which attribute?")
        term.key("?")  # help at a menu
        term.seen("Keys at every prompt:")
        term.wait_for("put 1 point in which attribute?")
        term.key("u")  # undo at a menu, with nothing to undo
        term.seen("Nothing to undo yet.")
        term.key(ENTER)  # STR
        term.wait_for("New room: an event on a pass, an encounter on a fail")
        term.key("3 4" + ENTER)
        rows = [row.rstrip() for row in term.screen.display]
        assert "✗ DC (1d6) needs 1 value, got 2; type the face: a whole number from 1 to 6" in rows
        assert cursor_line(term) == "  ›"
        term.key("u" + ENTER)  # undo at a roll: back to the attribute menu
        term.wait_for("Undone: ")
        term.key("q")  # quit at a menu
        assert term.finish() == 0
        assert "Saved. Resume with: companion play" in term.display()
        assert_fits(term)
    finally:
        term.kill()


def ask(keys: str, request, **kwargs) -> str:
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        inp.send_text(keys)
        return prompts.ask_choice(request, **kwargs)


DEADLY = choice("combat.daggers", "Roll, or drink a potion first?", ("0", "Roll"), Option("potion", "Drink a potion"))
RISK = {"0": 0.889, "potion": 0.2}


def test_enter_on_a_likely_death_asks_once_more(monkeypatch):
    said: list[str] = []
    monkeypatch.setattr(prompts, "say", lambda lines, style="": said.append(str(lines)))
    # Enter on "Roll" (88.9% to die, a potion would make it 20%): asked again; Enter alone goes back
    # to the menu, where the safer choice is taken.
    assert ask(ENTER + ENTER + DOWN + ENTER, DEADLY, risk=RISK) == "potion"
    out = "\n".join(said)
    assert "⚠ Roll: the hero dies 88.9% of the time; Drink a potion: 20.0%." in out
    # One more key, y, goes on.
    assert ask(ENTER + "y" + ENTER, DEADLY, risk=RISK) == "0"
    # Below 50%, or with nothing safer, Enter takes it at once.
    assert ask(ENTER, DEADLY, risk={"0": 0.49, "potion": 0.1}) == "0"
    assert ask(ENTER, DEADLY, risk={"0": 0.9, "potion": 0.9}) == "0"
    assert ask(ENTER, DEADLY) == "0"


def test_menus_take_u_q_and_help_keys():
    menu = choice("turn", "What now?", ("new", "Explore a new room"), ("back", "Go back"))
    assert ask("u", menu) == "__undo__"
    assert ask("q", menu) == "__quit__"
    assert ask("?" + DOWN + ENTER, menu) == "back"


def test_every_prompt_shares_one_set_of_default_key_bindings_and_each_still_takes_its_keys():
    from prompt_toolkit.application import Application, application

    from companion.dice.expr import parse
    from companion.dice.source import read_physical

    assert Application()._default_bindings is Application()._default_bindings
    menu = choice("turn", "What now?", ("new", "Explore a new room"), ("back", "Go back"))
    for _ in range(3):  # Ctrl-A (an Emacs binding of the defaults) at a roll, then a menu
        with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
            inp.send_text("4\x013 " + ENTER)
            assert prompts.ask_faces(parse("2d6"), 0, "", reader=read_physical).faces == (3, 4)
        assert ask(DOWN + ENTER, menu) == "back"
    assert application.load_key_bindings.cache_info().currsize == 1


def test_prompts_share_their_merged_style_and_it_styles_as_prompt_toolkits_own_merge():
    import questionary
    from prompt_toolkit.styles import DynamicStyle, Style, merge_styles

    def merged(question):  # what the application's renderer reads its colours from
        return question.application._merged_style

    strings = ["", "class:qmark", "class:question", "class:answer", "class:qmark class:question", "bold fg:red"]
    menu = merged(questionary.select("?", choices=["a", "b"], style=prompts.STYLE))
    again = merged(questionary.text("?", style=prompts.STYLE))
    wrong = merged(questionary.text("?", qmark="✗", style=prompts.ERROR_STYLE))
    # One parsed style for the same rules, another for other rules.
    assert menu._merged_style is again._merged_style
    assert wrong._merged_style is not menu._merged_style
    for style in (menu, wrong):
        fresh = Style(list(style.style_rules))  # prompt_toolkit's own merge, parsed anew
        for text in strings:
            assert style.get_attrs_for_style_str(text) == fresh.get_attrs_for_style_str(text), text
    assert wrong.get_attrs_for_style_str("class:qmark").color != menu.get_attrs_for_style_str("class:qmark").color
    # A style whose rules change is merged again.
    current = [Style([("x", "fg:#ff0000")])]
    dynamic = merge_styles([DynamicStyle(lambda: current[0])])
    assert dynamic.get_attrs_for_style_str("class:x").color == "ff0000"
    current[0] = Style([("x", "fg:#00ff00")])
    assert dynamic.get_attrs_for_style_str("class:x").color == "00ff00"


# ---- every game's guided screens ------------------------------------------------------------------
GUIDED = [(g, 80) for g in ("inverted-tower", "talisman", "haunted-tower", "dragons-den", "dark-tower")] + [
    ("inverted-tower", 120),
    ("talisman", 120),
]
PANEL_TOP = re.compile(r"^╭─ .*╮$")


@pytest.mark.parametrize(("game", "columns"), GUIDED)
def test_guided_screens_fit_the_terminal(game, columns, tmp_path):
    """Play on with Enter (the first choice, a virtual roll), typing a number where one is asked, and
    read every screen: no word broken across lines, no message cut, one panel width."""
    env = terminal_env(tmp_path, columns)
    prepare(env, "new", game, "--seed", "4", "--hero", "Aria")
    term = Terminal(env, "play", columns=columns)
    try:
        assert term.ready()
        for _ in range(40):
            line = cursor_line(term)
            keys = ENTER
            if line.startswith("  ›") and any("✗" in row for row in term.screen.display[-4:]):
                keys = "3" + ENTER  # a number or a name is needed
            if not term.key(keys):
                break
        assert_fits(term)
        widths = {len(line.rstrip()) for line in term.all_lines() if PANEL_TOP.match(line.rstrip())}
        assert len(widths) == 1, widths
        assert max(widths) <= columns - 1
    finally:
        term.kill()


def test_a_prompting_process_settles_its_memory_once():
    """companion play and companion shell freeze what they imported and let the cycle collector run
    less often (benchmarks/play_terminal.py); a second call changes nothing."""
    import subprocess
    import sys

    code = (
        "import gc\n"
        "from companion.shell.prompts import GC_THRESHOLDS, settle_memory\n"
        "before = gc.get_threshold(), gc.get_freeze_count()\n"
        "settle_memory()\n"
        "after = gc.get_threshold(), gc.get_freeze_count()\n"
        "settle_memory()\n"
        "print(before[0] != GC_THRESHOLDS, before[1] == 0, after[0] == GC_THRESHOLDS, after[1] > 1000,\n"
        "      (gc.get_threshold(), gc.get_freeze_count()) == after)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.split() == ["True"] * 5, out
