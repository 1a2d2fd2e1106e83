"""The shell's completion (from the command tree and the session), its short forms and its toolbar."""

from __future__ import annotations

import pytest

from companion.cli.env import Env
from companion.cli.main import main
from companion.shell.completer import CommandCompleter, split
from companion.shell.repl import Shell
from companion.shell.toolbar import fit


@pytest.fixture
def shell_on(tmp_path):
    opened: list[Shell] = []

    def make(game: str, *setup: list[str]) -> CommandCompleter:
        assert main(["--data-dir", str(tmp_path), "new", game, "--seed", "5", "--name", "t"]) == 0
        for args in setup:
            assert main(["--data-dir", str(tmp_path), *args]) == 0
        shell = Shell(Env.from_process(data_dir=tmp_path), ["--data-dir", str(tmp_path)])
        shell.hold("t")
        opened.append(shell)
        return CommandCompleter(shell)

    yield make
    for shell in opened:
        shell.release()


def values(completer: CommandCompleter, text: str) -> list[str]:
    words, incomplete = split(text)
    return [v for v, _ in completer.candidates(words, incomplete)]


def test_commands_subcommands_and_options_come_from_the_tree(shell_on):
    c = shell_on("freeform")
    first = values(c, "")
    assert {"roll", "tally", "status", "dark", "haunted", "help", "exit"} <= set(first)
    assert "shell" not in first
    assert values(c, "rol") == ["roll"]
    assert set(values(c, "tally ")) == {"add", "hit", "heal", "remove"}
    assert "--got" in values(c, "roll 2d6 --")
    assert set(values(c, "h")) == {"hp", "haunted", "help", "history"}  # "h" itself is already a short form


def test_live_names_tallies_sessions_games(shell_on):
    c = shell_on("freeform", ["tally", "add", "Adelhardt", "9"], ["tally", "add", "Goblin", "3", "--monster"])
    assert values(c, "tally hit Ad") == ["Adelhardt"]
    assert set(values(c, "tally hit ")) == {"Adelhardt", "Goblin"}
    assert values(c, "h Gob") == ["Goblin"]  # the short form expands first
    assert values(c, "use ") == ["t"]
    assert values(c, "new dr") == ["dragons-den"]
    assert "long" not in values(c, "new inverted-tower --variant ")  # not the freeform's


def test_the_pending_next_question_and_the_game_tables(shell_on):
    c = shell_on("inverted-tower", ["next", "Aria"])
    assert values(c, "next ") == ["st", "de", "in"]  # the options' keys (issue 33), never their values
    assert values(c, "n D") == ["de"]
    tables = values(c, "roll DR ")
    assert tables and all(isinstance(t, str) for t in tables)


def test_dark_tower_cards_and_players(shell_on):
    c = shell_on("dark-tower")
    heroes = values(c, "dark join Ann ")
    assert heroes, "the rule text's example heroes"
    monsters = values(c, "dark draw monster ")
    assert monsters and not set(monsters) & set(heroes)


def test_haunted_tower_heroes_and_monsters(shell_on):
    c = shell_on(
        "haunted-tower",
        ["haunted", "hero", "Aria", "--speed", "4", "--hp", "6", "--attack", "3", "--ac", "5", "--ability", "none"],
    )
    assert values(c, "haunted fight A") == ["Aria"]
    assert "ghoul" in values(c, "haunted fight Aria g")


def test_short_forms_and_dice_alone(shell_on):
    shell = shell_on("freeform").shell
    assert shell.expand(["r", "2d6"]) == ["roll", "2d6"]
    assert shell.expand(["h", "Adelhardt"]) == ["tally", "hit", "Adelhardt"]
    assert shell.expand(["2d6", "--got", "3,4"]) == ["roll", "2d6", "--got", "3,4"]
    assert shell.expand(["DC+1"]) == ["roll", "DC+1"]
    assert shell.expand(["4dt"]) == ["roll", "4dt"]
    assert shell.expand(["talisman"]) == ["talisman"]  # a command before a dice keyword
    assert shell.expand(["rool"]) == ["rool"]  # left for the did-you-mean
    assert shell.expand(["companion", "status"]) == ["status"]


def test_an_exception_inside_a_command_is_one_line_and_the_shell_goes_on(shell_on, capsys, monkeypatch):
    shell = shell_on("freeform").shell

    def broken(*args, **kwargs):
        raise RuntimeError("the dice fell off the table")

    monkeypatch.setattr("companion.cli.kit.record_roll", broken)
    monkeypatch.delenv("COMPANION_DEBUG", raising=False)
    assert shell.run("roll 2d6") == 1
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [
        "companion: unexpected error (RuntimeError: the dice fell off the table); "
        "set COMPANION_DEBUG=1 to see the traceback"
    ]
    monkeypatch.setenv("COMPANION_DEBUG", "1")
    assert shell.run("roll 2d6") == 1
    assert "Traceback" in capsys.readouterr().err
    monkeypatch.undo()
    assert shell.run("roll 2d6 --got 3,4") == 0


@pytest.mark.parametrize("width", [80, 120, 40])
def test_the_toolbar_fits_and_keeps_figures_whole(width):
    segments = [
        "HP 7/12",
        "XP 14 (level 2)",
        "Adelhardt – FIGHTER: 9 8 7",
        "Brunhilde the Bold: 8 7 6 5",
        "Goblin chieftain: II (2 of 4 hits)",
        "Talisman not found after 3 kill(s)",
        "Floor 2 (3 rooms)",
    ]
    lines = fit("freeform-1 (freeform)", segments, width - 1)
    assert 1 <= len(lines) <= 3
    assert all(len(line) <= width - 1 for line in lines)
    shown = " · ".join(lines)
    for seg in segments:
        # every figure is whole on the toolbar, or left out (then the toolbar ends with "…")
        assert seg in shown or lines[-1].endswith("…")
    if width >= 120:
        assert all(seg in shown for seg in segments[:5])


def test_a_name_with_a_space_is_inserted_quoted(shell_on):
    from prompt_toolkit.document import Document

    c = shell_on("dark-tower")
    done = list(c.get_completions(Document("dark draw monster Gel"), None))
    assert [(x.text, x.start_position) for x in done] == [("'Gelatinous Cube' ", -3)]  # and the space after it
    done = list(c.get_completions(Document('dark draw monster "Gel'), None))
    assert [(x.text, x.start_position) for x in done] == [("'Gelatinous Cube' ", -4)]
    done = list(c.get_completions(Document("rol"), None))
    assert [(x.text, x.start_position) for x in done] == [("roll ", -3)]


# ---- issue 33: every name at the table, a bare answer, pack paths ---------------------------------------


def test_monsters_heroes_by_any_start_or_word_in_the_adventure(shell_on):
    c = shell_on("talisman")
    assert values(c, "h cad") == ["Cadaver Creeper"]  # a monster of the area list, not tallied yet
    assert values(c, "tally hit creep") == ["Cadaver Creeper"]  # a word of the name
    assert values(c, "h kr") == ["Krylla"]
    assert {"Xorn", "Adelhardt"} <= set(values(c, "h "))


def test_a_bare_answer_completes_to_the_menus_keys(shell_on, tmp_path):
    c = shell_on("dragons-den", *(["next", a] for a in ("2", "7", "done", "virtual", "roll", "roll", "roll", "hide")))
    c.shell.refresh()
    first = values(c, "")
    assert {"ad", "ro", "en", "lo"} <= set(first) and "roll" in first  # the keys, then the commands
    assert values(c, "en")[:1] == ["en"]
    assert not [v for v in first if ":" in v]  # never an option's value


def test_trackers_sections_and_pack_paths(shell_on, tmp_path, monkeypatch):
    from pathlib import Path

    keep = Path(__file__).resolve().parent.parent / "examples" / "tables" / "ashen-keep.toml"
    c = shell_on("freeform")
    c.shell.invoke(["new", "freeform", "--name", "p", "--tables", str(keep), "--got", "3/3,3/4"])
    c.shell.hold("p")
    assert {"SKILL", "STAMINA", "LUCK"} <= set(values(c, "tracker "))
    assert values(c, "tracker ST") == ["STAMINA"]
    c.shell.invoke(["section", "1"])
    c.shell.invoke(["section", "213"])
    assert values(c, "section ") == ["back", "1"]
    monkeypatch.chdir(keep.parent.parent)
    assert "tables/" in values(c, "new freeform --tables ")
    assert values(c, "new freeform --tables tables/ashen") == ["tables/ashen-keep.toml"]
