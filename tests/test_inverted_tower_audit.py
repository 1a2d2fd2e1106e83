"""The rules audit's Inverted Tower items (#13 items 7-9): treasure the rules forbid, daggers that cannot
help, the lair line, the panel after the win, the final boss's name in the odds."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.dice.odds import dc_chance
from companion.games.inverted_tower import data as d
from companion.games.inverted_tower import rules
from tests.it_helpers import at_floor

runner = CliRunner()


def run(*args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (args, result.exit_code, result.stdout, result.stderr)
    return result.stdout if code == 0 else result.stderr


def js(*args: str) -> dict:
    return json.loads(run(*args, "--json"))


@pytest.fixture
def table():
    run("new", "it", "--name", "p9", "--seed", "3")
    run("tower", "hero", "INT")


def _refused(expected: str) -> None:
    before = js("status")
    err = run("tower", "treasure", "5", code=2)
    assert err.count("\n") == 1 and expected in err and "Traceback" not in err
    assert js("status") == before  # nothing changed


# ---- item 7: table mode takes only the treasure the rules give --------------------------------------


def test_the_issues_repro_a_failed_trap_gives_no_treasure(table):
    run("tower", "room", "trap", "STR", "failed")
    _refused("room 1's trap was failed: -1 HP and no treasure")


def test_no_treasure_before_any_room(table):
    _refused("no room is explored on floor 1 yet")


def test_no_treasure_in_a_merchant_room(table):
    run("tower", "room", "merchant")
    _refused("room 1 (Merchant) holds no treasure")


def test_one_treasure_per_won_encounter(table):
    run("tower", "room", "mobs", "1")
    _refused("a fight is going on")
    run("tower", "kill")
    assert js("tower", "treasure", "5")["dagger"] == 2
    _refused("room 1's treasure is already taken")


def test_a_passed_trap_and_wandering_monsters_give_their_treasure(table):
    run("tower", "room", "trap", "DEX", "passed")
    assert js("tower", "treasure", "gp")["gold"] == 1
    run("tower", "room", "empty")
    _refused("room 2 (Empty) holds no treasure")
    run("tower", "back", "1", "--mobs", "1")
    run("tower", "kill")
    assert js("tower", "treasure", "potion")["potion"] == 2


def test_a_boss_drop_is_its_treasure(table):
    for _ in range(11):
        run("tower", "room", "empty")
    state = js("tower", "room", "boss", "2")
    # item 9: the table's lair line is the same as guided play's
    assert state["room"].startswith("Room 12: Stairs (dead end), Boss: ")
    for _ in range(3):
        run("tower", "kill")
    assert js("status")["state"]["trackers"]["items"]["dagger"] == 2  # the drop: a potion, a dagger and 1 gp
    _refused("the boss's drop is its treasure")


# ---- item 8: only daggers the hero holds, and only counts that raise the chance ---------------------


def test_dagger_counts_are_those_held_that_raise_the_chance():
    for base in range(-12, 6):
        for owned in range(0, 8):
            counts = rules.dagger_counts(base, owned)
            assert all(1 <= n <= owned for n in counts)
            assert all(dc_chance(base + n) > dc_chance(base + n - 1) for n in counts)
            missing = [n for n in range(1, owned + 1) if n not in counts]
            assert all(dc_chance(base + n) == dc_chance(base + n - 1) for n in missing)
    assert rules.dagger_counts(-6, 1) == ()  # floor 4 or 10 at +0: one dagger leaves it at a natural 6


@pytest.mark.parametrize("floor", [4, 10])
def test_guided_play_offers_no_dagger_that_cannot_help(floor):
    g = at_floor(floor, attrs={"STR": 1}, daggers=1)
    g.play(("room.dc", 1), ("encounter.count", 1), ("encounter.elite", 1), ("combat.attribute", "STR"))
    # STR 1 − floor: only a natural 6 passes, with or without the one dagger held: none is offered, and
    # with no potion either there is nothing to ask before the roll.
    assert g.request.key == "combat.roll" and g.t.items["dagger"] == 1


# ---- item 9: the panel after the win, the Necromancer in the odds ----------------------------------


def test_after_the_win_the_panel_lists_the_necromancers_lair_not_stairs(table):
    run("floor", "10", "--correct")  # the sheet put on floor 10 (a move there takes the stairs: #35)
    for _ in range(11):
        run("tower", "room", "empty")
    state = js("tower", "room", "boss", "2")
    assert state["room"].startswith("Room 12: Necromancer's lair: ")
    for _ in range(3):
        run("tower", "kill")
    status = run("status")
    assert "won" in status.lower()
    found = [line for line in status.splitlines() if "Found" in line]
    assert found and "Necromancer's lair (room 12)" in found[0] and "Stairs" not in found[0]


def test_the_panel_row_names_the_lair_by_floor():
    g = at_floor(10).g
    g.rooms = [d.EMPTY] * 11 + [d.LAIR]
    assert rules.room_title(g, d.LAIR) == "Necromancer's lair"
    g.floor = 3
    assert rules.room_title(g, d.LAIR) == "Stairs, Boss"


def test_odds_fight_on_floor_10_names_the_necromancer():
    out = run("odds", "fight", "it", "--boss", "--floor", "10")
    assert out.startswith("1 Skeleton Warrior + the Necromancer on floor 10")
    assert "Acolyte" not in out
    assert "+ a Necromancer Acolyte on floor 9" in run("odds", "fight", "it", "--boss", "--floor", "9")
