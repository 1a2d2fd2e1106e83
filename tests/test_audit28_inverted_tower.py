"""Rules audit, turn 3 (#28), the Inverted Tower at the table: items 3, 4 and 5, as the player types them.

3. ``tower buy`` only in the merchant's room; 4. ``tower down`` only in the stairs room; 5. ``tower back N``
only to another room. Going back is a DC with wandering monsters, which these must not skip.
"""

from __future__ import annotations

from tests.audit_support import js, refused, run


def _table(name: str) -> None:
    run("new", "it", "--physical", "--name", name)
    run("tower", "hero", "STR")


def test_buying_away_from_the_merchants_room_is_refused():
    _table("tm")
    run("tower", "room", "merchant")
    run("tower", "room", "empty")
    run("gold", "+5")
    refused(
        "tower",
        "buy",
        "potion",
        says="you stand in room 2 (Empty); the merchant is in room 1: go back there first (companion tower back 1)",
    )
    run("tower", "back", "1")
    assert js("status")["state"]["trackers"]["items"].get("potion", 0) == 1
    run("tower", "buy", "potion")
    assert js("status")["state"]["trackers"]["items"]["potion"] == 2


def test_going_down_away_from_the_stairs_room_is_refused():
    _table("tm")
    run("tower", "room", "stairs")
    run("tower", "room", "empty")
    refused(
        "tower",
        "down",
        says="you stand in room 2 (Empty); the stairs are in room 1: go back there first (companion tower back 1)",
    )
    run("tower", "back", "1", "--mobs", "1")
    run("tower", "kill")
    run("tower", "down")
    assert js("status")["state"]["game"]["floor"] == 2


def test_going_back_to_the_room_the_hero_stands_in_is_refused():
    _table("tb")
    run("tower", "room", "empty")
    refused("tower", "back", "1", "--mobs", "2", says="you stand in room 1 already")
    refused("tower", "back", "1", says="you stand in room 1 already")


def test_a_bonfire_heals_no_more_by_standing_still_with_bonfire_every_visit():
    run("new", "it", "--physical", "--name", "bf", "--variant", "bonfire-every-visit")
    run("tower", "hero", "STR")
    run("tower", "room", "bonfire")
    run("hp", "-2")
    refused("tower", "back", "1", says="you stand in room 1 already")
    run("tower", "room", "empty")
    assert "HP 5/5" in run("tower", "back", "1").stdout  # a real return heals again
