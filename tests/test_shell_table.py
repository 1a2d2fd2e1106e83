"""``companion shell`` at a crowded table, in a real pseudo-terminal rendered by pyte at 80x30 and 120x40.

Each game's most crowded table (six Haunted Tower heroes in a fight, four Dark Tower players, the
Adventure's party in Area 13, the Dragon's Den with seven heroes): the bottom bar shows the pending
step, the fight, every hero's name with its health as a number, and whose turn it is (▶), and
nothing on screen reaches the terminal's last column.
"""

from __future__ import annotations

import os

import pytest

from tests.shell_term import CTRL_D, ENTER, Term
from tests.terminal import edge_problems, prepare

pytestmark = pytest.mark.e2e

SIZES = [(80, 30), (120, 40)]
HAUNTED = ("Adelhardt", "Brunhilde", "Cassius", "Dorotheya", "Evangeline", "Fitzwilliam")
DARK = ("Anastasia", "Bogdan", "Vasilisa", "Gleb")
PARTY = ("Adelhardt", "Krylla", "Ibli", "Regalan")
DEN = ("Grochek", "Jared", "Elin", "Ren", "Talina", "Cara", "Sam")


def run(*args: str) -> str:
    return prepare(dict(os.environ), *args)


def haunted_fight() -> None:
    run("new", "haunted-tower", "--name", "table", "--seed", "5", "--physical")
    for i, name in enumerate(HAUNTED):
        run("haunted", "hero", name, "--speed", "6", "--hp", str(5 + i), "--attack", "3", "--ac", "5", "--ability", "-")
    run("next", "start")
    for face in (7, 3, 10, 2, 5, 4):  # who moves first: Cassius
        run("next", str(face))
    run("next", "=fight")
    run("next", "Cassius")
    run("next", "1")  # Basilisk … Giant Vampire Bat
    run("next", "=gargoyle")
    run("next", "=blue")


def dark_tower_players() -> None:
    run("new", "dark-tower", "--name", "table", "--seed", "5")
    for hero in ("Rogue", "Wizard", "Ranger"):
        run("dark", "card", "hero", hero, "--health", "8", "--bonus", "1,1,2")
    run("dark", "card", "item", "Sword", "--class", "weapon", "--bonus", "2")
    run("dark", "card", "item", "Mail", "--class", "armor", "--bonus", "1", "--single")
    for answer in ("1", "1", DARK[0], "1", "=add", DARK[1], "=rogue", "=add", DARK[2], "=wizard", "=add", DARK[3]):
        run("next", answer)
    run("next", "=ranger")


def adventure_area_13() -> None:
    run("new", "talisman", "--name", "table", "--seed", "2")
    run("next", "=suggested")
    run("next", "12")  # Area 13: The Crypts


def dragons_den_seven() -> None:
    run("new", "dragons-den", "--name", "table", "--seed", "7")
    run("dragon", "setup", *(h.lower() for h in DEN))


TABLES = {
    "haunted": (haunted_fight, HAUNTED, "Gargoyle"),
    "dark": (dark_tower_players, DARK, ""),
    "adventure": (adventure_area_13, PARTY, "Iron Skeletons"),
    "den": (dragons_den_seven, DEN, ""),
}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", list(TABLES))
def test_the_crowded_table_is_whole_in_the_bar(game, size):
    setup, heroes, foe = TABLES[game]
    setup()
    cols, rows = size
    t = Term("shell", cols=cols, rows=rows, cpr=True)
    t.wait_for("table>")
    t.wait_for("▶", bottom=8)  # the bar, drawn once the terminal said where the cursor is
    screen = t.display().split("\n")
    bar = screen[-9:]
    text = "\n".join(bar)
    for name in heroes:
        assert any(name in line for line in bar), f"{name} missing from the bar:\n{text}"
    if foe:
        assert foe in text, text
    assert "▶" in text  # the step, and whose turn it is
    assert any(line.startswith("▶ ") for line in bar), text  # the pending step's own line
    assert not edge_problems(screen, cols), "\n".join(edge_problems(screen, cols))
    # The step waiting is shown above the prompt too, numbered.
    assert "1." in t.display() or ": " in t.display()
    t.send(CTRL_D)
    assert t.close() == 0


def test_a_hero_named_like_another_keeps_a_prefix_no_other_shares():
    from companion.engine.board import Figure
    from companion.shell.toolbar import hero_lines, unique_prefixes

    names = ["Bartholomew the Brave", "Bartholomew the Bold", "Cassandra of the North", "Cassius", "Dorotheya"]
    assert unique_prefixes(names) == ["Bartholomew the Br", "Bartholomew the Bo", "Cassa", "Cassi", "D"]
    heroes = tuple(Figure(n, f"{i}/9", "●2 −1×1", turn=i == 2) for i, n in enumerate(names * 2))
    lines = hero_lines(heroes, 60)
    text = "\n".join(lines)
    assert all(len(line) <= 60 for line in lines)
    for shown in unique_prefixes(names):
        assert shown in text  # every hero, by a prefix no other hero shares at the least
    assert text.count("/9") == len(heroes)  # every hero's health, as a number
    assert "▶" in text
    assert "more" not in text  # never "+N more" for heroes


def test_figures_that_do_not_fit_are_said_as_more():
    from companion.shell.toolbar import pack

    items = [f"Skeleton Warrior {i} of 9" for i in range(1, 10)]
    lines = pack(items, 50, 1, more=True)
    assert lines is not None and len(lines) == 1
    assert lines[0].endswith("more") and len(lines[0]) <= 50
    shown = lines[0].count("Skeleton")
    left = int(lines[0].rsplit("+", 1)[1].split()[0])
    assert shown + left == 9


def test_enter_rolls_virtual_dice_and_question_mark_shows_the_keys_in_a_terminal():
    run("new", "inverted-tower", "--name", "table", "--seed", "3")
    t = Term("shell", cols=80, rows=30)
    t.wait_for("Your hero's name?")
    t.line("Aria" + ENTER, "put 1 point in which attribute?")
    out = t.line("de" + ENTER, "New room")  # first letters: DEX
    assert "DEX" in out
    out = t.line("?" + ENTER, "Enter rolls for you")
    out = t.line(ENTER, "virtual")  # Enter: the session's virtual dice
    t.send(CTRL_D)
    assert t.close() == 0


def test_a_menu_too_long_for_one_line_goes_on_under_its_question_whole():
    """The setup's question of where the cards come from, in Russian at 80 columns: both options whole,
    one a line, never cut with «…»; past two lines the rest is cut between words."""
    from companion.shell.toolbar import MENU_LINES, menu_lines

    two = (
        "1 Ваши карты: вы сами тасуете и тянете их и вводите, что выпало"
        "  2 Их выбирает companion из вашего каталога кубиками сессии (1dN)"
    )
    assert menu_lines(two, 80) == ["  " + two.split("  ")[0], "  " + two.split("  ")[1]]
    assert menu_lines("1 Да  2 Нет", 80) == ["  1 Да  2 Нет"]
    narrow = menu_lines(two, 40)
    assert len(narrow) == MENU_LINES and all(len(line) <= 40 for line in narrow)
    assert narrow[0] == "  1 Ваши карты: вы сами тасуете и тянете"  # a long option wrapped between words
    assert narrow[-1].endswith("…") and not narrow[-1].endswith(" …")
