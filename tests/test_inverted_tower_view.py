"""What the shell shows for The Inverted Tower: the status rows and the odds before each choice."""

from __future__ import annotations

from companion.games.inverted_tower import data as d
from companion.games.inverted_tower import view
from companion.games.inverted_tower.odds import fight_odds, percent
from tests.it_helpers import at_floor, start


def rows(game) -> dict[str, str]:
    return {label: str(value) for label, value in view.status(game.state)}


def test_the_status_panel_shows_hp_xp_floor_rooms_attributes_and_kit():
    g = start("DEX")
    g.play(("room.dc", 4), ("encounter.count", 3), ("encounter.elite", 6), ("combat.attribute", "DEX"))
    r = rows(g)
    assert r["Hero"] == "Aria"
    assert r["HP"].endswith(" 5/5") and "█" in r["HP"]
    assert r["XP"].endswith("0/11 to level 2 (level 1)")
    assert r["Floor"] == "1 of 10 · room 1 · 1/12 rooms used"
    assert r["Room"] == "Room 1: Mob 1 Mob 2 (elite)"
    assert r["Attributes"] == "STR 0 · DEX 1 · INT 0"
    assert r["Kit"] == "1 dagger · 1 potion · 0 gp"
    assert r["Fight"] == "Skeleton Warrior 1 of 1 · 0/2 killed · with DEX"
    g = at_floor(3, rooms=["trap", "stairs"], variants=(d.ELITES_DEAL_2,))
    g.g.points = 1
    r = rows(g)
    assert r["Found"] == "Trap (room 1), Stairs (room 2)"
    assert r["Attributes"].endswith("1 point to place")
    assert r["Variants"] == "elites-deal-2"


def test_fight_odds_are_shown_before_the_attribute_and_dagger_choices():
    g = start("STR")
    g.play(("room.dc", 4), ("encounter.count", 3), ("encounter.elite", 6))
    lines = view.advise(g.state, g.request)
    assert lines[0] == "Fight odds vs 1 Skeleton Warrior + a Lich (HP 5, floor 1, counting no further potions):"
    o = fight_odds(5, 1, 1, 1, elite=True)
    spent = fight_odds(5, 1, 1, 1, elite=True, daggers=1)
    assert lines[1] == (
        f"  STR +1: win {percent(o.win)} · die {percent(o.death)} · HP left {float(o.hp_if_win):.1f} on a win; "
        f"a dagger on the first roll: win {percent(spent.win)}"
    )
    assert lines[2].startswith("  DEX +0: win")
    g.play(("combat.attribute", "STR"))
    lines = view.advise(g.state, g.request)
    now = fight_odds(5, 1, 1, 1, elite=True, daggers=(1,))
    assert lines[1].startswith("  Roll without a dagger: this roll 50.0% · fight win")
    assert lines[2].startswith(f"  Spend 1 dagger (+1): this roll 66.7% · fight win {percent(now.win)}")
    g.play(("combat.daggers", "0"), ("combat.roll", 6))  # the warrior dies: the Lich is left
    lines = view.advise(g.state, g.request)
    assert lines[0] == "Fight odds vs a Lich (HP 5, floor 1, counting no further potions):"


def test_the_event_roll_says_which_events_the_floor_has():
    g = at_floor(2, rooms=["bonfire"])
    g.play(("room.dc", 6))
    assert g.request.info == ("Events: 1-3 Trap · 4 Merchant · 5 Bonfire · 6 Stairs",)
    assert view.advise(g.state, g.request) == ["This floor already has: Bonfire (a second one leaves the room empty)."]
    g = at_floor(10, variants=(d.REROLL_DUPLICATES,))
    g.play(("room.dc", 6))
    assert view.advise(g.state, g.request) == ["Floor 10 has no stairs: a 6 finds nothing; its last room is the lair."]


def test_the_hero_line_for_the_logs_front_matter():
    g = start("INT")
    assert view.hero(g.state) == "Aria (level 1; STR 0 DEX 0 INT 1)"
