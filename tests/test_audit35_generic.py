"""Rules audit, turn 4 (#35): the generic tracker commands ask the game first, as the player types them.

1. ``floor N`` in the Inverted Tower is the stairs: the next floor, from the stairs room, or nothing;
2. ``talisman --left`` cannot override the Adventure's map;
3. the Paladin's cure never comes back, and a character's hits come from the book;
4. nothing after the end, a hero's maximum only by a level; ``xp -N`` below 0 refused as ``gold`` is;
and a correction is not a move: ``--correct`` fixes the sheet and says so in the log.
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.audit_support import js, refused, run


def log_text() -> str:
    return next(Path(os.environ["COMPANION_LOGS"]).glob("*.md")).read_text(encoding="utf-8")


def _tower(name: str = "t") -> None:
    run("new", "inverted-tower", "--physical", "--name", name)
    run("tower", "hero", "STR")


# ---- 1. the stairs ----------------------------------------------------------------------------------


def test_floor_n_in_the_middle_of_a_fight_is_refused_and_the_log_keeps_floor_1():
    _tower()
    run("tower", "room", "mobs", "2")
    refused("floor", "5", says="the stairs lead one floor down, from the stairs room: floor 5 is not the next")
    refused("floor", "2", says="a fight is going on")
    refused("floor", "11", says="the tower has 10 floors, not 11")
    run("tower", "kill")
    run("tower", "kill")
    assert js("status")["state"]["game"]["floor"] == 1
    assert "Floor 5" not in log_text() and "Room 0" not in log_text()


def test_floor_n_is_the_stairs_from_the_stairs_room_and_nothing_else():
    _tower()
    refused("floor", "2", says="the stairs of floor 1 are not found yet")
    run("tower", "room", "stairs")
    run("tower", "room", "empty")
    refused("floor", "2", says="you stand in room 2 (Empty); the stairs are in room 1: go back there first")
    run("tower", "back", "1")
    assert run("floor", "2").stdout.strip() == "Floor 2."
    state = js("status")["state"]
    assert state["game"]["floor"] == 2 and state["trackers"]["floor"] == 2 and state["game"]["rooms"] == []
    assert "Down the stairs to floor 2." in log_text()
    refused("floor", "1", says="floor 1 is not the next (you are on floor 2)")  # the stairs lead one way


def test_a_floor_corrected_by_hand_says_so_in_the_log():
    _tower()
    run("floor", "3", "--correct")
    assert js("status")["state"]["game"]["floor"] == 3
    assert "corrected: floor 1 → 3" in log_text()
    refused("floor", "12", "--correct", says="the tower has 10 floors, not 12")  # no correction makes floor 12


# ---- 2. the Talisman from the map --------------------------------------------------------------------


def test_talisman_left_cannot_override_the_map():
    run("new", "talisman", "--physical", "--name", "ad")
    run("tally", "hit", "xorn", "5")
    assert "not found (1 kill so far)" in run("talisman", "--got", "2,3").stdout
    run("tally", "hit", "ogre mage", "4")
    refused(
        "talisman",
        "--got",
        "2,3",
        "--left",
        "0",
        says="the map leaves more than one monster alive after this kill, not 0",
    )
    out = run("talisman", "--got", "2,3").stdout
    assert "not found (2 kills so far)" in out and "found after" not in out
    assert js("status")["state"]["trackers"]["talisman"]["found"] is False


# ---- 3. the Paladin's cure and the book's hits --------------------------------------------------------


def _party() -> None:
    run("new", "talisman", "--physical", "--name", "cure")
    run("dungeon", "data", "rangeress.hits=7", "--session")


def test_a_slain_paladin_cannot_come_back_with_his_cure():
    _party()
    run("tally", "hit", "Krylla")
    run("tally", "hit", "Adelhardt", "9")
    refused("tally", "remove", "Adelhardt", says="the four heroes keep their tallies for the whole adventure")
    refused("tally", "add", "Adelhardt", "20", "--replace", says="Adelhardt withstands 9 hits (the rule text), not 20")
    refused("tally", "add", "Adelhardt", "9", "--replace", says="a slain hero stays slain")
    refused("tally", "heal", "Krylla", says="Adelhardt has fallen: his cure is lost with him")
    assert "Cure ready" not in run("status").stdout
    tallies = js("status")["state"]["trackers"]["tallies"]
    assert tallies["Adelhardt"]["hits"] == 9 and tallies["Krylla"]["hits"] == 1


def test_a_characters_hits_come_from_the_book():
    run("new", "talisman", "--physical", "--name", "book")
    refused("tally", "add", "Krylla", "7", says="the hits Krylla withstands are your book's number")
    refused("tally", "add", "Ogre Mage", "5", "--monster", says="the Ogre Mage withstands 4 hits (Area 4), not 5")


def test_a_hit_fixed_by_hand_is_a_correction_not_the_cure():
    _party()
    run("tally", "hit", "Krylla", "2")
    run("tally", "heal", "Krylla", "--correct")
    assert "corrected: hits on Krylla 2 → 1" in log_text()
    assert js("status")["state"]["game"]["cure"] is False  # the Paladin's cure is still his to give
    run("tally", "heal", "Krylla")  # and it is the cure
    assert js("status")["state"]["game"]["cure"] is True
    refused("tally", "heal", "Krylla", says="the Paladin's cure is spent")


# ---- 4. nothing after the end; a maximum only by a level ---------------------------------------------


def _dead_hero() -> None:
    _tower("dead")
    run("tower", "room", "mobs", "1")
    for _ in range(5):
        run("tower", "fail")
    assert js("status")["state"]["finished"] == "lost"


def test_trackers_refuse_a_change_after_the_end():
    _dead_hero()
    refused("hp", "+5", says="the game is over (lost): nothing more happens in it")
    refused("xp", "+3", says="the game is over (lost)")
    refused("hp", "--max", "9", says="the game is over (lost)")
    refused("item", "potion", "+1", says="the game is over (lost)")
    hp = js("hp")
    assert (hp["value"], hp["max"]) == (0, 5)


def test_the_sheet_corrected_after_the_end_says_so():
    _dead_hero()
    run("hp", "=5", "--correct", "--why", "misread the last roll")
    assert "corrected: HP 0 → 5 (misread the last roll)" in log_text()
    assert js("status")["state"]["finished"] == "lost"  # a correction is not a move: the game stays over


def test_max_hp_rises_only_by_a_level_and_no_blow_to_0_hp_but_tower_fail():
    _tower("alive")
    refused("hp", "--max", "9", says="Max HP rises only by a level")
    refused("hp", "-5", says="the hero dies at 0 HP, and the game ends there: record the blow with companion tower")
    run("hp", "-2")  # a hurt hero's sheet, still alive
    run("hp", "--max", "6", "--correct")
    assert "corrected: Max HP 5 → 6" in log_text()
    out = run("xp", "+11").stdout  # a level: Max HP 7
    assert "Level 2! Max HP 7" in out


def test_xp_below_zero_is_refused_as_gold_is():
    run("new", "freeform", "--name", "ff")
    run("xp", "+3")
    refused("xp", "-5", says="you have 3 XP, not 5: nothing was taken")
    refused("gold", "-100", says="you have 0 gold, not 100: nothing was spent")
    assert js("xp")["xp"] == 3


# ---- the table games send every generic tracker to their own commands ---------------------------------

#: A generic command in each table game, and the words of the game's own command its refusal names.
TABLE_GAMES = {
    "haunted-tower": {
        "floor 2": "companion haunted climb HERO",
        "room 1 hall": "companion haunted fight HERO MONSTER",
        "item rope": "companion haunted item HERO NAME",
        "tally add Bob 4": "companion haunted hp HERO -1",
        "talisman --got 6,6": "has no Talisman",
        "hp -1": "companion haunted hp HERO -1",
        "xp +1": "companion haunted score",
        "gold +1": "companion haunted score",
    },
    "dragons-den": {
        "floor 2": "companion dragon reveal ROOM",
        "room 1 hall": "companion dragon reveal ROOM",
        "item rope": "companion dragon take CHIT",
        "tally add Bob 4": "companion dragon health",
        "talisman --got 6,6": "has no Talisman",
        "hp -1": "companion dragon attack",
        "xp +1": "companion dragon score",
        "gold +1": "companion dragon take CHIT",
    },
    "dark-tower": {
        "floor 2": "companion dark floor",
        "room 1 hall": "companion dark draw KIND NAME",
        "item rope": "companion dark item PLAYER NAME",
        "tally add Bob 4": "companion dark hp PLAYER -1",
        "talisman --got 6,6": "has no Talisman",
        "hp -1": "companion dark hp PLAYER -1",
        "xp +1": "companion dark floor",
        "gold +1": "companion dark item PLAYER NAME",
    },
}


def test_the_table_games_refuse_every_generic_tracker_with_their_own_command():
    for game, commands in TABLE_GAMES.items():
        run("new", game, "--physical", "--name", game[:4])
        for typed, says in commands.items():
            refused(*typed.split(), says=says)
            if typed.split()[0] in ("floor", "item", "hp"):  # no correction makes them this game's trackers
                refused(*typed.split(), "--correct", says=says)


def test_the_adventure_records_nothing_by_hand_after_its_end():
    run("new", "talisman", "--name", "over")
    run("next", "suggested")  # companion's suggested house numbers
    run("next", "abandon")
    assert js("status")["state"]["finished"].startswith("abandoned")
    refused("item", "rope", says="the adventure is over (abandoned")
    refused("talisman", says="the adventure is over (abandoned")
    run("item", "rope", "--correct")
    assert "corrected: rope 0 → 1" in log_text()
