"""Rules audit, turn 3 (#28), Тёмная Башня: items 1, 2 and 9, each through the commands the player types.

1. A hero who falls on their own turn plays no more of it: the turn passes to the next standing hero.
2. One item of each class, checked when an item is taken (not only at the end of the turn).
9. A fallen hero takes no item; ``dark start`` needs every player's random starting item.
"""

from __future__ import annotations

from companion.games.dark_tower.rules import draw as rules_draw
from companion.games.dark_tower.rules import events as rules_events
from companion.games.dark_tower.rules import fights as rules_fights
from companion.games.dark_tower.rules import lookup
from companion.games.dark_tower.rules.fights import Plan
from tests.audit_support import js, refused, run
from tests.dark_tower_helpers import Script, dt, fight_with, table


def _two_heroes(*, items: bool = True) -> None:
    """The issue's table: Anna the Clan Champion and Vera the Archer, physical dice, no quest."""
    run("new", "dark-tower", "--physical", "--name", "rC2", "--seed", "32", "--lang", "en")
    run("dark", "card", "hero", "Archer", "--health", "8", "--bonus", "0,1,2")
    run("dark", "join", "Anna", "Clan Champion")
    run("dark", "join", "Vera", "Archer")
    if items:
        run("dark", "card", "item", "Rope", "--bonus", "0")
        run("dark", "card", "item", "Lamp", "--bonus", "0")
        run("dark", "item", "Anna", "Rope")
        run("dark", "item", "Vera", "Lamp")
    run("dark", "quest", "--none")


# ---- item 1: a hero who falls on their own turn -----------------------------------------------------


def test_a_hero_felled_on_their_own_turn_passes_it_and_their_commands_are_refused():
    _two_heroes()
    run("dark", "start")
    out = run("dark", "hp", "Anna", "=0").stdout
    assert "Anna has fallen." in out and "Turn 2 · Vera" in out
    status = js("dark", "status")
    assert status["current"] == "Vera" and status["phase"] == "draw"
    # the repro: the fallen Anna no longer draws and fights; the card is Vera's
    out = run("dark", "draw", "monster", "Gelatinous Cube").stdout
    assert "Turn 2 · Vera: Monster Gelatinous Cube" in out
    out = run("dark", "fight", "--got", "3,3,3,3").stdout
    assert "Turn 2 · Vera: Fight Gelatinous Cube (4) — beaten" in out
    refused("dark", "item", "Anna", "Lamp", says="Anna has fallen: a fallen hero takes no items")
    refused("dark", "discard", "Anna", "Rope", says="Anna has fallen: their cards stay with them")
    refused("dark", "hp", "Anna", "+1", says="Anna has fallen")


def test_a_hero_who_falls_in_their_own_fight_passes_the_turn_at_once():
    _two_heroes()
    run("dark", "start")
    run("dark", "hp", "Anna", "=1")
    run("dark", "draw", "monster", "Gelatinous Cube")
    out = run("dark", "fight", "--got", "1,1,1,1").stdout  # 4 + 2 Battle Cry = 6 > 4: beaten; no fall
    run("dark", "end")  # Vera's turn
    run("dark", "end", code=2)  # Vera must draw first
    run("dark", "card", "monster", "Ogre", "--floor", "1", "--strength", "9")
    run("dark", "draw", "monster", "Ogre")
    run("dark", "fight", "--got", "1,1,1,1")  # 4 + 2 = 6 vs 9: 3 damage, Vera at 5/8
    run("dark", "end")  # Anna at 1/10 must fight the Ogre
    out = run("dark", "fight", "--got", "1,1,1,1").stdout  # 6 vs 9: 3 damage, Anna falls
    assert "Anna has fallen." in out and "The turn passes: a fallen hero plays no more of it." in out
    status = js("dark", "status")
    assert status["current"] == "Vera" and status["phase"] == "fight"  # Vera fights the surviving Ogre next


def test_guided_play_goes_on_with_the_next_standing_hero_after_a_fall():
    state = table([("Ann", "clan-champion", []), ("Bo", "rogue", [])], floor=2)
    g = lookup.game(state)
    g.heroes[0].health = 2
    fight_with(state, "troll")  # 9
    rules_fights.resolve_fight(state, Plan(), dt(1, 1, 1, 1), [])  # 4 + 2 = 6: 3 damage, Ann falls
    assert g.heroes[0].fallen and g.current().player == "Bo" and g.phase == "fight" and g.group == ["troll"]
    script = Script(state)
    assert script.request.key in ("fight.help", "fight.roll")  # Bo's fight, not Ann's end of turn


def test_a_helper_who_owes_an_item_discards_it_before_a_fallen_leaders_turn_passes():
    state = table([("Ann", "clan-champion", []), ("Bo", "rogue", ["sword", "lucky-coin"])], floor=2)
    g = lookup.game(state)
    g.heroes[0].health = 1
    fight_with(state, "troll")  # 9
    rules_draw.join_group(state, "gelatinous-cube", from_deck=False)  # + 4 = 13, and it takes an item
    # Battle Cry +2 for each, Bo's level 2 +2 and the Sword +2: 8, and no numbers on the dice: 5 damage each
    result = rules_fights.resolve_fight(state, Plan(helper=1), dt("★", "★", "★", "★"), [])
    assert not result.won and result.damage == 5 and result.fallen == ["Ann"]
    assert g.owed == [1] and g.phase == "end" and g.current().player == "Ann"  # Bo's random item first
    rules_events.reduce(state, {"op": "lose", "hero": 1, "index": 0})
    assert g.current().player == "Bo" and g.phase == "fight" and g.turns == 2  # then Bo fights the survivors


# ---- item 2: one item of each class, when it is taken -----------------------------------------------


def _knuckles() -> None:
    run("new", "dark-tower", "--physical", "--name", "r4")
    run("dark", "join", "Ann", "Чемпион Клана")
    run("dark", "card", "item", "Obsidian Knuckles", "--class", "оружие", "--bonus", "2")
    run("dark", "card", "item", "Axe", "--class", "weapon", "--bonus", "3")
    run("dark", "item", "Ann", "Obsidian Knuckles")


def test_the_same_card_is_not_taken_twice():
    _knuckles()
    refused(
        "dark",
        "item",
        "Ann",
        "Obsidian Knuckles",
        says="Ann already holds Obsidian Knuckles: each card is in the game once",
    )


def test_a_second_weapon_is_refused_with_the_one_held_and_how_to_discard_it():
    _knuckles()
    run("dark", "quest", "--none")
    run("dark", "start")  # one a card gives, in play (before the start: one random item each, #35)
    err = refused(
        "dark", "item", "Ann", "Axe", says="Ann already holds Obsidian Knuckles (weapon): one item of each class"
    )
    assert 'companion dark discard Ann "Obsidian Knuckles"' in err
    run("dark", "card", "monster", "Zombie", "--floor", "1", "--strength", "6")
    run("dark", "draw", "monster", "Zombie")
    out = run("dark", "fight", "--got", "1,1,1,1").stdout
    assert "+2 Battle Cry +2 Obsidian Knuckles →" in out and "[1] [1] [1] [1] → 8" in out  # +4, not +6


def test_the_discard_the_refusal_names_makes_room_for_the_new_weapon():
    _knuckles()
    run("dark", "discard", "Ann", "Obsidian Knuckles")
    assert "Ann takes Axe (Weapon, +3)." in run("dark", "item", "Ann", "Axe").stdout


def test_a_pick_up_over_the_class_limit_is_refused():
    _knuckles()
    run("dark", "card", "hero", "Archer", "--health", "8", "--bonus", "0,1,2")
    run("dark", "join", "Vera", "Archer")
    run("dark", "item", "Vera", "Axe")
    run("dark", "quest", "--none")
    run("dark", "start")
    refused(
        "dark", "discard", "Vera", "Axe", "--to", "Ann", says="Ann already holds Obsidian Knuckles (weapon): one item"
    )
    run("dark", "discard", "Vera", "Axe")  # to the pile: allowed


def test_a_drawn_weapon_is_taken_and_the_extra_goes_before_the_turn_passes():
    _knuckles()
    run("dark", "quest", "--none")
    run("dark", "start")
    assert "Ann takes Axe" in run("dark", "draw", "item", "Axe").stdout  # "если это Предмет – возьмите себе!"
    refused("dark", "end", says="discard down to 1 first")
    run("dark", "discard", "Ann", "Obsidian Knuckles")
    run("dark", "end")


def test_a_card_another_hero_holds_is_not_drawn_again():
    _knuckles()
    run("dark", "card", "hero", "Archer", "--health", "8", "--bonus", "0,1,2")
    run("dark", "join", "Vera", "Archer")
    refused(
        "dark", "item", "Vera", "Obsidian Knuckles", says="Ann holds Obsidian Knuckles: each card is in the game once"
    )
    run("dark", "item", "Vera", "Axe")
    run("dark", "quest", "--none")
    run("dark", "start")
    refused("dark", "draw", "item", "Axe", says="Vera holds Axe: each card is in the game once")


# ---- item 9: the fallen take no item; the start needs every player's item ---------------------------


def test_start_is_refused_until_every_player_holds_their_random_item():
    _two_heroes(items=False)
    refused("dark", "start", says="Anna, Vera have no item yet: each player takes 1 random item before the start")
    run("dark", "card", "item", "Rope", "--bonus", "0")
    run("dark", "item", "Anna", "Rope")
    refused("dark", "start", says="Vera has no item yet: each player takes 1 random item before the start")
    run("dark", "card", "item", "Lamp", "--bonus", "0")
    run("dark", "item", "Vera", "Lamp")
    assert "Turn 1 · Anna" in run("dark", "start").stdout


def test_a_fallen_hero_takes_no_item_on_another_players_turn():
    _two_heroes()
    run("dark", "card", "item", "Shield", "--class", "armor", "--bonus", "1")
    run("dark", "start")
    run("dark", "hp", "Vera", "=0")  # Vera falls on Anna's turn: skipped later, out now
    refused("dark", "item", "Vera", "Shield", says="Vera has fallen: a fallen hero takes no items")
    assert js("dark", "status")["current"] == "Anna"
