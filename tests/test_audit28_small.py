"""Rules audit, turn 3 (#28): the smaller things, each as the player meets it.

Guided play's silent moments (a duplicate event, a bonfire visited again or at full HP, a kill that gives
no XP, a cure's hint), a stray roll in a guided session, a roll in a finished game, and the freeform
trackers' words (item add, the bar's level, a slain monster, a room, undo, a pack's STAMINA)."""

from __future__ import annotations

from companion.games.inverted_tower import data as d
from tests.audit_support import js, refused, run
from tests.it_helpers import at_floor, encounter, start

LABYRINTH = "glass-labyrinth"


# ---- guided play: nothing happens silently -----------------------------------------------------------


def test_a_duplicate_event_says_the_room_is_empty():
    g = start()
    g.play(("room.dc", 5), ("room.event", 4))  # the merchant
    g.play(("room.dc", 6), ("room.event", 4))  # a second merchant
    texts = [e.get("t", "") for e in g.state.log.entries]
    assert "Room 2 is empty: a second Merchant on floor 1." in texts


def test_a_bonfire_visited_again_says_it_does_not_burn_again():
    g = at_floor(1, hp=2, rooms=["bonfire", "encounter"])
    g.play(("turn", "back"), ("wander.dc", 1))
    texts = [e.get("t", "") for e in g.state.log.entries]
    assert any("The bonfire does not burn again (variant bonfire-every-visit" in t for t in texts)
    assert g.hp == (2, 5)


def test_a_bonfire_at_full_hp_says_so_instead_of_healing_5_to_5():
    g = start()
    g.play(("room.dc", 5), ("room.event", 5))
    texts = [e.get("t", "") for e in g.state.log.entries]
    assert "The bonfire: HP already full (5/5)." in texts
    assert not any(t.startswith("The bonfire heals") for t in texts)


def test_no_xp_farming_says_why_a_kill_gave_nothing():
    g = at_floor(1, level=3, variants=(d.NO_XP_FARMING,))
    g.play(("room.dc", 1), *encounter(1, 1, "STR", 6))
    texts = [e.get("t", "") for e in g.state.log.entries]
    assert "No XP for this kill: level 3 on floor 1 (no-xp-farming: no XP at floor + 2 or more)." in texts


# ---- a stray roll, a finished game ---------------------------------------------------------------------


def test_a_loose_roll_of_the_roll_the_game_waits_for_points_to_next():
    run("new", "it", "--physical", "--name", "s1")
    run("next", "1")  # the hero's point: STR
    run("next", "1")  # explore: the new room's DC
    refused(
        "roll",
        "DC",
        "--got",
        "6",
        says="the game waits for this roll (New room: an event on a pass, an encounter on a fail): "
        "answer it with companion next 6 (a roll apart from the game: add --scratch)",
    )
    assert "recorded in" not in run("roll", "DC", "--got", "6", "--scratch").stdout
    assert "recorded in s1" in run("roll", "2d6", "--got", "3,4").stdout  # another roll is a loose roll


def test_a_roll_in_a_finished_game_is_not_recorded_in_it():
    from tests.test_audit28_aitd_table import DATA

    run("dungeon", "data", *(f"{k}={v}" for k, v in DATA.items()))
    run("new", "talisman", "--name", "p1")
    request = js("next")["request"]
    assert request["key"] == "area.enter"
    run("next", "=abandon")
    before = js("status")["events"]
    out = run("roll", "2d6", "--got", "3,4").stdout
    assert "not recorded: p1 is over" in out and "recorded in" not in out
    assert js("status")["events"] == before


# ---- freeform: the trackers' words -----------------------------------------------------------------------


def test_item_add_works_as_tally_add_does():
    run("new", "freeform", "--name", "f1")
    assert run("item", "add", "rope").stdout.strip() == "rope: 1"
    assert run("item", "add", "rope", "2").stdout.strip() == "rope: 3"
    assert run("item", "remove", "rope").stdout.strip() == "rope: 2"
    refused("item", "remove", "rope", "5", says="there is no rope to remove (you have 2)")


def test_the_bar_names_no_level_where_none_is_tracked():
    import os
    from pathlib import Path

    from companion.shell.toolbar import figures
    from tests.helpers import open_session

    run("new", "freeform", "--name", "f1")
    run("xp", "+2")
    shown = figures(open_session(Path(os.environ["COMPANION_HOME"]), "f1"))
    assert "XP 2" in shown and not any("level" in f for f in shown)


def test_a_hit_on_a_slain_monster_is_refused():
    run("new", "freeform", "--name", "f1")
    run("tally", "add", "Orc", "2", "--monster")
    run("tally", "hit", "Orc", "2")
    refused("tally", "hit", "Orc", says="Orc is slain already (2 of 2 hits): no more hits")


def test_one_room_is_one_room():
    run("new", "freeform", "--name", "f1")
    run("room", "1", "empty")
    assert "1 (1 room)" in run("status").stdout


def test_undo_says_what_was_undone_in_the_players_words():
    run("new", "freeform", "--name", "f1")
    run("hp", "=5", "--max", "5")
    run("hp", "-1")
    assert run("undo").stdout.startswith("Undone: HP −1 (#2).")
    run("tally", "add", "Orc", "3", "--monster")
    run("tally", "hit", "Orc", "2")
    assert run("undo").stdout.startswith("Undone: 2 hits on Orc (#3).")
    run("item", "add", "rope")
    assert run("undo").stdout.startswith("Undone: rope +1 (#3).")


def test_a_packs_stamina_is_stamina_in_status():
    from pathlib import Path

    pack = Path(__file__).parent.parent / "examples" / "tables" / f"{LABYRINTH}.toml"
    run("new", "freeform", "--name", "f1", "--tables", str(pack))
    out = run("status").stdout
    assert "STAMINA" in out and "│ HP " not in out
    assert js("status")["state"]["trackers"]["counters"]["hp"]["label"] == "STAMINA"
