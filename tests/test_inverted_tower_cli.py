"""The Inverted Tower from the command line: table-top ``companion tower`` commands, XP, next, odds."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.games.inverted_tower.odds import fight_odds

runner = CliRunner()


def run(*args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (args, result.exit_code, result.stdout, result.stderr)
    return result.stdout if code == 0 else result.stderr


def js(*args: str) -> dict:
    return json.loads(run(*args, "--json"))


def log_text() -> str:
    return next(Path(__import__("os").environ["COMPANION_LOGS"]).glob("*.md")).read_text(encoding="utf-8")


@pytest.fixture
def table():
    """A table-top session with a hero (STR), no guided play."""
    run("new", "inverted-tower", "--seed", "5", "--name", "paper")
    run("tower", "hero", "STR", "--name", "Aria")


def test_the_hero_and_a_failed_trap_at_the_table(table):
    state = js("tower", "room", "trap", "INT", "failed")
    assert state["hp"] == 4 and state["max_hp"] == 5
    assert state["room"] == "Room 1: Trap (INT) (Failed)"
    assert state["attributes"] == {"STR": 1, "DEX": 0, "INT": 0}
    assert state["dagger"] == 1 and state["potion"] == 1
    out = run("tower", "room", "stairs")
    assert "Floor 1, Room 2: Stairs" in out
    assert "HP 4/5" in out


def test_a_floor_has_one_event_room_of_each_kind(table):
    run("tower", "room", "bonfire")
    err = run("tower", "room", "bonfire", code=2)
    assert err == "companion: floor 1 already has a Bonfire room; record this one as empty\n"
    assert js("tower", "room", "empty")["rooms_used"] == 2  # the refused room changed nothing


def test_an_encounter_kills_xp_fails_and_treasure(table):
    run("tower", "room", "mobs", "2", "--elite")
    assert js("tower", "kill")["xp"] == 1
    state = js("tower", "fail")
    assert state["hp"] == 4 and state["fight"] == {"normal": 1, "strong": "elite", "killed": 1}
    err = run("tower", "room", "stairs", code=2)
    assert "a fight is going on" in err
    state = js("tower", "kill")
    assert state["xp"] == 3 and state["fight"] is None
    assert state["room"] == "Room 1: Mob 1 (killed) Mob 2 (elite) (killed)"
    assert js("tower", "treasure", "5")["dagger"] == 2
    err = run("tower", "treasure", "gp", code=2)  # one DR per won encounter (#13 item 7)
    assert "room 1's treasure is already taken" in err
    run("tower", "treasure", "7", code=2)


def test_elites_deal_2_at_the_table():
    run("new", "it", "--variant", "elites-deal-2")
    run("tower", "hero", "dex")
    run("tower", "room", "mobs", "1", "--elite")
    assert js("tower", "fail")["hp"] == 3


def test_going_back_with_and_without_wandering_monsters(table):
    run("tower", "room", "mobs", "1")
    run("tower", "kill")
    run("tower", "room", "merchant")
    assert js("tower", "back", "1")["room"] == "Room 1: Mob 1 (killed) ⟶ Wandering: No"
    run("tower", "back", "2", "--mobs", "2")
    run("tower", "kill")
    state = js("tower", "kill")
    assert state["room"] == "Room 2: Merchant ⟶ Wandering: Yes. Mob 1 (killed), Mob 2 (killed)"
    run("tower", "back", "9", code=2)
    run("tower", "back", "1", "--elite", code=2)


def test_xp_levels_up_by_the_games_reading_through_the_generic_xp_command(table):
    out = run("xp", "+12")
    assert out.endswith("XP: 1/12 to level 3 (level 2)\n")  # 11 for level 2, 1 carried over
    assert "Level 2! Max HP 6; 1 attribute point to place." in out  # said at once (#13 item 9)
    state = js("tower", "level", "dex")
    assert state["max_hp"] == 6 and state["hp"] == 5 and state["attributes"]["DEX"] == 1
    assert state["points"] == 0
    run("tower", "level", "int", code=2)  # no point left
    assert "Level 2! Max HP 6" in log_text()


def test_the_merchant_at_the_table(table):
    run("tower", "buy", "potion", code=2)  # no merchant found yet
    run("tower", "room", "merchant")
    run("gold", "+7")
    assert js("tower", "buy", "potions")["potion"] == 2
    err = run("tower", "buy", "dagger", code=2)
    assert err == "companion: 1 dagger costs 5 gp; you have 2 gp\n"
    err = run("tower", "sell", "dagger", code=2)
    assert "merchant-buys" in err


def test_the_12th_room_without_stairs_is_the_boss_lair_and_no_floor_has_13_rooms(table):
    for _ in range(11):
        run("tower", "room", "empty")
    err = run("tower", "room", "mobs", "2", code=2)
    assert "is the stairs and the boss's lair" in err
    run("tower", "room", "boss", "3", code=2)  # 2 or 4 minions
    run("tower", "room", "boss", "2")
    for _ in range(2):
        run("tower", "kill")
    state = js("tower", "kill")
    assert state["xp"] == 4 and state["gold"] == 1 and state["dagger"] == 2 and state["potion"] == 2
    err = run("tower", "room", "empty", code=2)
    assert err == "companion: floor 1 already has 12 rooms, the most a floor can have\n"
    assert js("tower", "down")["floor"] == 2


def test_down_needs_the_stairs_and_floor_10_ends_with_the_necromancer(table):
    run("tower", "down", code=2)
    for _ in range(9):
        run("tower", "room", "stairs")
        run("tower", "down")
    err = run("tower", "room", "stairs", code=2)
    assert "floor 10 has no stairs" in err
    for _ in range(11):
        run("tower", "room", "empty")
    run("tower", "room", "boss", "2")
    run("tower", "kill")
    run("tower", "kill")
    out = run("tower", "kill")
    assert "Victory!" in out
    assert js("status")["meta"]["finished"] == "won"
    assert "Room 12: Necromancer's lair: Mob 1 (killed) Mob 2 (killed) Necromancer (killed)" in log_text()
    run("tower", "room", "empty", code=2)  # the game is over


def test_death_at_the_table(table):
    run("hp", "=1")
    out = run("tower", "room", "trap", "dex", "failed")
    assert "The hero is dead." in out
    err = run("tower", "room", "empty", code=2)
    assert "the game is over (lost)" in err


def test_undo_takes_back_a_table_top_room(table):
    run("tower", "room", "trap", "str", "failed")
    run("undo")
    state = js("tower", "room", "bonfire")
    assert state["rooms_used"] == 1 and state["hp"] == 5


def test_bad_input_is_one_line_and_exit_2(table):
    assert run("tower", "room", "trap", "LUCK", "failed", code=2) == (
        "companion: 'luck' is not an attribute; the attributes are STR, DEX, INT\n"
    )
    assert run("tower", "room", "cellar", code=2).startswith("companion: 'cellar' is not a room kind")
    assert run("tower", "room", "mobs", "4", code=2).startswith("companion: an encounter has 1 to 3")
    assert run("tower", "room", "trap", "str", "maybe", code=2).startswith("companion: 'maybe' is not a trap result")
    assert run("tower", "kill", code=2).startswith("companion: no fight is going on")
    assert run("tower", "potion", code=2) == "companion: HP is full (5/5): a potion would heal nothing\n"


def test_tower_commands_need_an_inverted_tower_session():
    run("new", "freeform")
    err = run("tower", "room", "stairs", code=2)
    assert "the tower commands need an Inverted Tower session" in err


def test_tower_odds_are_the_exact_fight_odds(table):
    data = js("tower", "odds", "--mobs", "2", "--elite", "--daggers", "1")
    o = fight_odds(5, 1, 1, 2, elite=True, daggers=1)
    assert data["win"] == f"{o.win.numerator}/{o.win.denominator}"
    assert Fraction(data["win"]) + Fraction(data["death"]) == 1
    out = run("tower", "odds", "--mobs", "3", "--boss", "--attr", "2", "--hp", "9", "--floor", "4")
    assert out.startswith("3 Skeleton Warriors + a Necromancer Acolyte on floor 4, HP 9, attribute +2:")
    run("tower", "odds", "--elite", "--boss", code=2)


def test_guided_play_one_step_at_a_time_with_next():
    run("new", "it", "--seed", "42")
    first = js("next")["request"]
    assert first["key"] == "hero.name"
    assert js("next", "Aria")["request"]["key"] == "hero.attribute"
    step = js("next", "3")  # INT, by its number in the list
    assert step["request"]["key"] == "room.dc"
    assert step["request"]["odds"] == "1/3" and step["request"]["why"].startswith("New room")
    step = js("next", "5")  # a physical 5: an event
    assert step["request"]["key"] == "room.event"
    # A one-shot command is refused while guided play resolves the room.
    assert "guided play is resolving a room" in run("tower", "room", "stairs", code=2)
    step = js("next", "6")
    assert "- Room 1: Stairs" in log_text()
    assert step["request"]["options"][0]["value"] == "new"


def test_the_generic_floor_command_moves_the_table_top_hero_too(table):
    run("tower", "room", "trap", "dex", "passed")
    assert "floor 3 is not the next" in run("floor", "3", code=2)  # the stairs lead to the next floor (#35)
    run("floor", "3", "--correct")  # the sheet fixed, said so in the log
    assert "corrected: floor 1 → 3" in log_text()
    state = js("tower", "room", "stairs")
    assert state["floor"] == 3 and state["rooms_used"] == 1 and state["room"] == "Room 1: Stairs"
    out = run("tower", "odds", "--mobs", "1")
    assert "on floor 3" in out
