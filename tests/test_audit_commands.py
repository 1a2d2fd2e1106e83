"""The rules audit's items that live in the commands (#13 items 9, 12, 14, 15, 16, 17): each as a player
types it, one line and exit 2 for what is refused."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from typer.testing import CliRunner

from companion.cli.app import app
from companion.games.dark_tower.rules import cards as C
from companion.session import catalogue

runner = CliRunner()


def run(*args: str, code: int = 0):
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (args, result.exit_code, result.stdout, result.stderr)
    return result


def js(*args: str) -> dict:
    return json.loads(run(*args, "--json").stdout)


# ---- Тёмная Башня ----------------------------------------------------------------------------------


def _dark_on_floor_2() -> None:
    values = {
        C.key("item", "sword"): C.to_json(C.ItemCard("Sword", "weapon", 2)),
        C.key("monster", "rat"): C.to_json(C.MonsterCard("Rat", 1, 2)),
        C.key("monster", "shaman"): C.to_json(C.MonsterCard("Shaman", 2, 3, summons=True)),
    }
    catalogue.save(Path(os.environ["COMPANION_HOME"]), "dark-tower", values)
    run("new", "dark-tower")
    run("dark", "join", "Ann", "clan-champion")
    run("dark", "item", "Ann", "sword")
    run("dark", "quest", "--none")
    run("dark", "start")
    run("dark", "floor", "--force")


def test_a_monster_from_another_floor_is_drawn_when_confirmed():
    _dark_on_floor_2()
    err = run("dark", "draw", "monster", "Rat", code=2).stderr
    assert "Rat lives on floor 1" in err and "--any-floor" in err
    out = run("dark", "draw", "monster", "Shaman").stdout
    assert "Shaman" in out
    err = run("dark", "group", "Rat", "--from-deck", code=2).stderr
    assert "Rat lives on floor 1" in err
    run("dark", "group", "Rat", "--from-deck", "--any-floor")
    assert [m["card"] for m in js("dark", "status")["group"]] == ["shaman", "rat"]


def test_the_deck_table_lines_its_totals_up():
    out = run("dark", "decks", "--players", "2").stdout
    rows = [line for line in out.splitlines() if "=" in line]
    assert len(rows) == 3
    assert len({line.index("=") for line in rows}) == 1  # the "=" column is one column
    assert len({len(line.rstrip()) for line in rows}) == 1  # and so are the totals


def test_dark_odds_never_print_a_possible_outcome_as_zero():
    out = run("dark", "odds", "fight", "3", "9", "--dice", "12").stdout
    assert "0.0%" not in out and "<0.1%" in out


# ---- The Inverted Tower ----------------------------------------------------------------------------


def test_xp_announces_the_level_up_and_the_point_to_place():
    run("new", "it")
    run("tower", "hero", "STR")
    out = run("xp", "+11").stdout
    assert "Level 2!" in out and "1 attribute point to place" in out
    data = js("xp", "+12")
    assert data["level"] == 3 and "Level 3! Max HP 7; 1 attribute point to place." in data["log"]


# ---- The Haunted Tower -----------------------------------------------------------------------------

CARDS = {
    "Aria": ["--speed", "6", "--hp", "6", "--attack", "3", "--ac", "5", "--ability", "test fighter"],
    "Bram": ["--speed", "5", "--hp", "5", "--attack", "2", "--ac", "4", "--ability", "test cleric"],
    "Cael": ["--speed", "7", "--hp", "4", "--attack", "2", "--ac", "3", "--ability", "test elf"],
}


def _haunted() -> None:
    run("new", "ht", "--seed", "5")
    for name, card in CARDS.items():
        run("haunted", "hero", name, *card)
    run("haunted", "first", "--got", "9,2,3")


def test_a_hit_that_needs_the_1d10_asks_for_table_not_got():
    _haunted()
    run("mode", "physical")
    run("haunted", "fight", "Aria", "basilisk")
    run("haunted", "init", "--got", "1,6")  # the basilisk attacks first
    err = run("haunted", "attack", "--got", "6", code=2).stderr
    assert "--table" in err and err.count("\n") == 1
    out = run("haunted", "attack", "--got", "6", "--table", "2").stdout
    assert "Basilisk" in out


def test_a_one_shot_monster_attack_names_who_rolls():
    _haunted()
    run("haunted", "fight", "Aria", "ghoul")
    run("haunted", "init", "--got", "1,6")
    out = run("haunted", "attack", "--got", "1").stdout
    # "Any monster attacks against a hero are handled by the player to his or her right."
    assert re.search(r"Cael's player \(on Aria's right\) rolls? for the Ghoul", out), out


# ---- The Dragon's Den ------------------------------------------------------------------------------


def test_a_heros_hit_on_the_dragon_takes_its_chit_from_the_command_line():
    run("new", "dd", "--seed", "7")
    run("dragon", "setup", "sam", "jared", "--chits", "physical", "--dragon", "9", "--discard", "1", "--discard", "2")
    run("dragon", "lair")
    out = js("dragon", "attack", "dragon", "--chit", "4")  # Sam at 8 health hits automatically
    sam = next(f for f in out["den"]["figures"] if f["key"] == "sam")
    assert sam["treasure"] == ["D4"]
