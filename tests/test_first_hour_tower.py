"""A new user's first hour (#12) in The Inverted Tower: what the game says, in the log and before a choice."""

from __future__ import annotations

from companion.games.inverted_tower import data as d
from companion.games.inverted_tower import view
from companion.log.markdown import body
from tests.it_helpers import Game, at_floor, encounter, start


def texts(g: Game) -> list[str]:
    return [e.get("t", "") for e in g.state.log.entries if e["k"] == "text"]


def test_a_failed_trap_says_what_it_costs_before_and_what_it_cost_after():
    g = start("INT")
    g.play(("room.dc", 5), ("room.event", 1), ("trap.kind", 5))
    assert g.request.key == "trap.dc"
    assert g.request.why == "Trap (INT): get past it (a fail costs 1 HP)"
    g.play(("trap.dc", 3))  # 3 +1 INT = 4: failed
    assert g.hp == (4, 5)
    assert "−1 HP (4/5)." in texts(g)
    assert "  - −1 HP (4/5)." in g.log()  # under the trap's room line, where it happened


def test_a_failed_fight_roll_says_the_hp_lost_each_time():
    g = start("STR")
    g.play(("room.dc", 1), *encounter(1, 1, "STR", 2, 2, 6))  # one mob: two misses, then a kill
    assert g.hp == (3, 5)
    assert [t for t in texts(g) if "HP (" in t] == ["−1 HP (4/5).", "−1 HP (3/5)."]


def test_the_merchant_with_nothing_to_trade_says_it_is_there_and_what_things_cost():
    g = at_floor(1, gold=1)
    g.play(("room.dc", 5), ("room.event", 4))  # a merchant, and 1 gp: nothing is asked
    assert g.request.key == "room.dc"
    said = "The merchant is here: daggers and potions, 5 gp each; you have 1 gp and the merchant only sells."
    assert said in texts(g)
    # Going back to the merchant later says it again, where it happens.
    g.play(("room.dc", 5), ("room.event", 5))  # a bonfire in room 2
    g.play(("turn", "back"), ("wander.dc", 1))  # back to room 1 (the lone other room), no wanderers
    assert texts(g).count(said) == 2
    assert g.lines()[-1] == "Back in Room 1, after Room 2: Wandering: No"


def test_a_return_to_a_room_is_logged_where_it_happened_in_the_rooms_form():
    g = start("STR")
    g.play(("room.dc", 1), *encounter(1, 1, "STR", 6), ("treasure", 6))  # room 1: a mob, a potion
    g.play(("room.dc", 5), ("room.event", 5))  # room 2: a bonfire
    g.play(("room.dc", 5), ("room.event", 6))  # room 3: the stairs
    g.play(("turn", "back"), ("turn.room", "1"), ("wander.dc", 6))  # back to room 1: wanderers
    g.play(*encounter(1, 1, "STR", 2, 6), ("treasure", 1))
    lines = g.lines()
    assert lines == [
        "Floor 1",
        "Room 1: Mob 1 (killed) ⟶ Wandering: Yes. Mob 1 (killed)",  # the rule text's form, kept
        "Room 2: Bonfire",
        "Room 3: Stairs",
        "Back in Room 1, after Room 3: Wandering: Yes. Mob 1 (killed)",
    ]
    log = body(g.state.log.entries)
    back = log.index("- Back in Room 1, after Room 3")
    assert log.index("- Room 3: Stairs") < back
    # The return's rolls, the HP it cost and its treasure hang under the return, not under Room 1.
    under_back = log[back:]
    assert "Going back: wandering monsters on a pass" in under_back
    assert "−1 HP (4/5)." in under_back and "Treasure" in under_back
    assert "Going back" not in log[:back]


def test_the_stairs_taken_later_do_not_file_the_descent_above_later_rooms():
    g = start("STR")
    g.play(("room.dc", 5), ("room.event", 6))  # room 1: the stairs
    g.play(("room.dc", 5), ("room.event", 5))  # room 2: a bonfire
    g.play(("turn", "stairs"), ("wander.dc", 1))  # back to the stairs, no wanderers, down
    log = body(g.state.log.entries)
    assert log.index("Room 2: Bonfire") < log.index("Back in Room 1, after Room 2") < log.index("Down the stairs")


def test_a_dice_switch_made_at_a_prompt_is_logged_between_the_rolls_around_it():
    g = start("STR")
    g.play(("room.dc", 1), ("encounter.count", 3), ("encounter.elite", 1), ("combat.attribute", "STR"))
    g.fold.apply({"t": "mode", "dice": "physical", "id": 99})  # `p` at the first fight roll
    g.play(("combat.roll", 6), ("combat.roll", 6))
    log = body(g.state.log.entries)
    switch = log.index("Dice switched to physical.")
    assert log.index("Encounter: is one of them an elite") < switch < log.index("Fight: Skeleton Warrior 1 of 2")
    assert "  - Dice switched to physical." in log  # under the room's line, among its rolls


def test_the_odds_say_what_they_count_and_each_fight_choice_its_chance_of_death():
    g = at_floor(1, hp=1, potions=1, daggers=0)
    g.play(("room.dc", 1), ("encounter.count", 5), ("encounter.elite", 1), ("combat.attribute", "STR"))
    request = g.request
    assert request.key == "combat.daggers" and request.values() == ("0", "potion")
    advice = view.advise(g.state, request)
    assert advice[0].endswith("(HP 1, floor 1, counting no further potions):")
    assert "no potion drunk" not in " ".join(advice)
    risk = view.risk(g.state, request)
    assert risk["0"] >= 0.5 > risk["potion"]
    assert abs(risk["0"] - (1 - (1 / 2) ** 3)) < 1e-9  # three mobs at 1 HP, each roll a 1/2 (STR +1, 4+)
    assert advice[0] == f"Fight odds vs 3 {d.NORMAL_NAME}s (HP 1, floor 1, counting no further potions):"
    g.play(("combat.daggers", "potion"))  # the safer choice: HP 5, and on to the roll
    assert g.hp == (5, 5) and g.request.key == "combat.roll"


def test_the_adventure_in_the_dungeon_gives_fight_or_flee_its_chance_that_every_hero_falls():
    from companion.games.adventure_in_the_dungeon import view as aitd_view
    from tests.aitd_support import Driver, make_state

    state = make_state()
    d = Driver(state)
    for name in ("Krylla", "Ibli", "Regalan"):  # the Paladin alone: a fight small enough to count at once
        tally = state.trackers.tallies[name]
        tally.hits = tally.max_hits
    d.enter(1)
    d.expect("monster.paladin")
    d.miss()
    request = d.expect("round.action")
    risk = aitd_view.risk(state, request)
    assert set(risk) == {"fight", "flee"}
    assert 0 < risk["fight"] < 0.001 and risk["flee"] == 0.0  # the Paladin can walk away
    assert aitd_view.risk(state, d.expect("round.action").__class__("x", "y", ())) == {}
