"""Rules audit, turn 3 (#28): The Adventure in the Dungeon as a table assistant, as the player types it.

A player with the 1979 book, a pencil and real dice who wants only the tallies, the Talisman roll and the
log: the party's tallies at once, the book's numbers asked only where a command needs them, hand-kept
tallies that agree with the area map (and with guided play afterwards), and ``new talisman`` saying both
ways to play.
"""

from __future__ import annotations

import json

from tests.audit_support import js, refused, run

#: The example's house numbers (tests/test_aitd_audit.py), every one the book leaves out.
DATA = {
    "source": "house",
    "rangeress.hits": 7,
    "rangeress.to_hit": 6,
    "rangeress.be_hit": 9,
    "fighter.hits": 8,
    "fighter.to_hit": 5,
    "fighter.be_hit": 10,
    "wizard.hits": 5,
    "wizard.to_hit": 9,
    "wizard.be_hit": 8,
    "area12.kind": "empty",
}


def _tallies() -> dict[str, dict]:
    return {t["name"]: t for t in js("tally")}


def test_new_talisman_says_both_ways_to_play():
    out = run("new", "talisman", "--physical", "--name", "ta").stdout
    assert "Next: companion play" in out
    assert "companion tally hit Krylla (or Xorn)" in out and "with companion talisman;" in out
    assert max(len(line) for line in out.splitlines() if "companion tally" in line) < 80


def test_the_paladins_tally_exists_at_once_and_takes_a_hit():
    run("new", "talisman", "--physical", "--name", "ta")
    assert run("tally", "hit", "Adelhardt").stdout.strip() == "Adelhardt – PALADIN: 9 8"
    assert "Adelhardt – PALADIN: 9 8" in run("status").stdout


def test_a_heros_hits_are_asked_only_at_their_first_hit():
    run("new", "talisman", "--physical", "--name", "ta")
    refused(
        "tally",
        "hit",
        "Krylla",
        says="the hits Krylla withstands are your book's number (the characters' table, after RANGERESS): "
        "give it once with companion dungeon data rangeress.hits=N --session",
    )
    run("dungeon", "data", "rangeress.hits=7", "--session")
    assert run("tally", "hit", "krylla").stdout.strip() == "Krylla – RANGERESS: 7 6"
    run("new", "talisman", "--physical", "--name", "tb")  # kept for the next game: her tally exists at once
    assert _tallies()["Krylla"]["book"] == "Krylla – RANGERESS: 7"


def test_a_monster_tallied_to_its_last_hit_clears_its_area():
    run("new", "talisman", "--physical", "--name", "ta")
    assert run("tally", "hit", "xorn", "4").stdout.strip() == "Xorn: IIII (4 of 5 hits)"
    out = run("dungeon", "areas").stdout
    assert "Xorn, 5 hits to slay" in out and "It has taken IIII (4 of 5)." in out
    run("tally", "hit", "Xorn")
    assert "Xorn's Burrow — Xorn, 5 hits to slay: attacks three heroes at +1; heroes take −2 to hit it. Slain." in (
        run("dungeon", "areas").stdout
    )
    assert "Cleared   1 of 12 areas (9)" in run("status").stdout
    refused("tally", "hit", "Xorn", says="Xorn is slain already (5 of 5 hits): no more hits")


def test_the_talisman_roll_waits_for_a_kill_and_counts_the_map():
    run("new", "talisman", "--physical", "--name", "ta")
    refused("talisman", "--got", "6,6", says="no kill waits for its Talisman roll (0 monsters slain, 0 rolls made)")
    run("tally", "hit", "Giant Spider", "3")
    assert "Rolled 7: not found (1 kill so far)." in run("talisman", "--got", "3,4").stdout
    refused("talisman", "--got", "6,6", says="no kill waits for its Talisman roll (1 monster slain, 1 roll made)")


def test_area_12_is_asked_only_when_the_count_turns_on_it():
    run("new", "talisman", "--physical", "--name", "ta")
    monsters = [
        ("Ocular Terror", 8),
        ("Demon", 5),
        ("Giant Rats", 8),
        ("Ogre Mage", 4),
        ("Ochre Jelly", 5),
        ("Gorgon", 6),
        ("Giant Octopus", 8),
        ("Cadaver Creeper", 2),
        ("Xorn", 5),
        ("Remorhaz", 7),
    ]
    for name, hits in monsters:
        run("tally", "hit", name, str(hits))
        run("talisman", "--got", "1,1")
    run("tally", "hit", "Giant Spider", "3")  # the 11th kill: one or two monsters left, as Area 12 goes
    refused("talisman", "--got", "1,1", says="the monsters left turn on Area 12, which only your book shows")
    run("dungeon", "data", "area12.kind=empty", "--session")
    out = run("talisman", "--got", "1,1").stdout
    assert "One monster is left: it holds the Talisman." in out
    run("tally", "hit", "Iron Skeletons", "4")
    assert "The Talisman is found after 12 kills! Leave the dungeon." in run("talisman").stdout


def test_a_hit_taken_off_by_hand_is_the_paladins_one_cure_and_the_sheet_shows_it():
    run("dungeon", "data", *(f"{k}={v}" for k, v in DATA.items()))
    run("new", "talisman", "--physical", "--name", "ta")
    run("tally", "hit", "Krylla", "2")
    assert run("tally", "heal", "Krylla").stdout.strip() == "Krylla – RANGERESS: 7 6 5 6"
    refused("tally", "heal", "Ibli", says="the Paladin's cure is spent: he removes a hit only once in the adventure")


def test_guided_play_after_the_table_goes_on_from_the_sheet_and_the_map():
    run("dungeon", "data", *(f"{k}={v}" for k, v in DATA.items()))
    run("new", "talisman", "--physical", "--name", "ta")
    run("tally", "hit", "Krylla", "2")
    run("tally", "hit", "Ogre Mage", "1")
    run("tally", "hit", "Xorn", "5")  # slain at the table; its Talisman roll not made yet
    request = json.loads(run("next", "--json").stdout)["request"]
    assert request["key"] == "talisman"  # guided play first rolls for the kill made by hand
    run("next", "3,4")
    request = json.loads(run("next", "--json").stdout)["request"]
    assert request["key"] == "area.enter"
    options = {o["value"]: o for o in request["options"]}
    assert "9" not in options  # the Xorn is slain: not offered again as alive
    assert "it has 1 hit already" in options["4"]["hint"]
    assert _tallies()["Krylla"]["book"] == "Krylla – RANGERESS: 7 6 5"
    # Guided play begun, the hand commands still work beside it (issue 33): a hit marked from the book
    # is on the sheet, and the step is built again from the table.
    run("tally", "hit", "Krylla")
    assert _tallies()["Krylla"]["book"] == "Krylla – RANGERESS: 7 6 5 4"
    refused("talisman", "--got", "6,6", says="no kill waits for its Talisman roll")
    run("tally", "hit", "ogre", "3")  # the Ogre Mage, by the start of its name: slain at the table
    request = json.loads(run("next", "--json").stdout)["request"]
    assert request["key"] == "talisman"  # its Talisman roll is the table's next step
    run("talisman", "--got", "2,5")  # made by hand: the step moves on
    request = json.loads(run("next", "--json").stdout)["request"]
    assert request["key"] == "area.enter" and not any("Ogre" in o["label"] for o in request["options"])
