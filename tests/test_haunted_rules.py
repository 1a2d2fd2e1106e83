"""The Haunted Tower's rules with fixed dice: every monster special, deaths, running, climbing, score."""

from __future__ import annotations

import pytest

from companion.errors import InputError
from companion.games.haunted_tower import data as D
from companion.games.haunted_tower.data.monsters import MONSTERS, find
from companion.games.haunted_tower.model import Bonus, Card
from companion.games.haunted_tower.rules import climb as rules_climb
from companion.games.haunted_tower.rules import fights as rules_fights
from companion.games.haunted_tower.rules import heroes as rules_heroes
from companion.games.haunted_tower.rules import items as rules_items
from companion.games.haunted_tower.rules import lookup
from companion.games.haunted_tower.rules import numbers as rules_numbers
from companion.games.haunted_tower.rules import rolls as rules_rolls
from companion.games.haunted_tower.rules import score as rules_score
from tests.haunted_helpers import fight, give, hero, item, make_state, texts

# ---- the listing -------------------------------------------------------------------------------


def test_the_listing_is_copied_faithfully():
    expected = {
        "basilisk": (5, 6, 8, False),
        "black-widow-spider": (2, 3, 6, False),
        "bone-golem": (4, 6, 10, False),
        "carrion-crawler": (3, 4, 5, False),
        "dire-wolf": (4, 5, 6, False),
        "displacer-beast": (4, 5, 9, False),
        "gargoyle": (4, 5, 7, False),
        "ghoul": (2, 3, 6, True),
        "giant-bat": (2, 2, 6, False),
        "giant-rat": (1, 1, 5, False),
        "giant-vampire-bat": (2, 3, 6, False),
        "mummy": (5, 6, 8, True),
        "pit-viper": (2, 2, 6, False),
        "robber-fly": (2, 2, 6, False),
        "rust-monster": (3, 5, 8, False),
        "skeleton": (1, 1, 5, True),
        "specter": (8, 6, 10, False),
        "tiger-beetle": (3, 5, 9, False),
        "vampire": (6, 5, 8, True),
        "werewolf": (4, 4, 7, False),
        "wight": (4, 3, 6, True),
        "wolf": (2, 3, 5, False),
        "wraith": (4, 4, 7, True),
        "zombie": (2, 2, 4, True),
    }
    assert {k: (m.hp, m.att, m.ac, m.undead) for k, m in MONSTERS.items()} == expected
    # the listing numbers its first eleven entries, then uses bullets
    assert [m.listed for m in MONSTERS.values()][:11] == list(range(1, 12))
    assert all(m.listed is None for m in list(MONSTERS.values())[11:])
    # the stand-up sheet: 42 figures, no wolf
    assert sum(m.standups for m in MONSTERS.values()) == 42
    assert MONSTERS["wolf"].standups == 0
    assert MONSTERS["skeleton"].standups == 6 and MONSTERS["ghoul"].standups == 4


@pytest.mark.parametrize(
    ("text", "key"),
    [("ghoul", "ghoul"), ("Giant Vamp", "giant-vampire-bat"), ("giant rat", "giant-rat"), ("sir", "specter")],
)
def test_monsters_are_found_by_name(text, key):
    assert find(text).key == key


def test_an_ambiguous_or_unknown_monster_is_one_clear_error():
    with pytest.raises(InputError, match="could be"):
        find("giant")
    with pytest.raises(InputError, match="no monster"):
        find("dragon")


# ---- setup and order ---------------------------------------------------------------------------


def test_blue_chits_per_player_count():
    assert D.BLUE_CHITS == {3: 17, 4: 13, 5: 10, 6: 8}
    assert "17" in D.setup_lines(3)[0]
    assert any("Specter of Sir Jameson" in line and "Tower 3" in line for line in D.setup_lines())


def test_who_goes_first_rerolls_ties_among_the_tied_only():
    state = make_state()
    rules_heroes.start_rolloff(state, "round")
    assert rules_heroes.order_roll(state, [7, 7, 3]) is None
    assert state.game.rolloff == ["Aria", "Bram"]
    assert rules_heroes.order_roll(state, [2, 9]) == "Bram"
    assert state.game.order == ["Bram", "Cael", "Aria"]  # clockwise from the winner
    assert state.game.round == 1 and state.game.phase == "play"
    with pytest.raises(InputError, match="nobody is rolling"):
        rules_heroes.order_roll(state, [1])


def test_placement_roll_does_not_start_a_round():
    state = make_state()
    rules_heroes.start_rolloff(state, "placement")
    assert rules_heroes.order_roll(state, [1, 10, 2]) == "Bram"
    assert state.game.round == 0 and state.game.phase == "setup"
    rules_heroes.start_rolloff(state, "round")
    rules_heroes.order_roll(state, [1, 10, 2])
    # the blue chits are told once, with the number of players at the first roll
    assert texts(state).count("3 players: each draws 17 blue chits.") == 1


def test_three_to_six_heroes():
    state = make_state(heroes=(Card("A", 1, 1, 1, 1), Card("B", 1, 1, 1, 1)))
    with pytest.raises(InputError, match="3 to 6"):
        rules_fights.start_fight(state, "A", "ghoul", "blue")
    for n in "CDEF":
        rules_heroes.add_hero(state, Card(n, 1, 1, 1, 1))
    with pytest.raises(InputError, match="no more"):
        rules_heroes.add_hero(state, Card("G", 1, 1, 1, 1))


# ---- attacks and initiative --------------------------------------------------------------------


def test_a_hit_is_d6_plus_attack_at_or_above_armor_class():
    state = make_state()
    fight(state, "dire-wolf")  # AC 6; Aria Att 3
    assert not rules_fights.hero_attack(state, "", 2)  # 5 < 6
    rules_fights.monster_attack(state, 1)  # 1 + 5 = 6 >= AC 5: a normal hit
    assert hero(state).hp == 5
    rules_fights.initiative(state, 6, 1)
    assert rules_fights.hero_attack(state, "", 3)  # 6 >= 6
    assert state.game.fight.hp == 3


def test_initiative_is_rolled_every_round_and_ties_roll_again():
    state = make_state()
    fight(state, "dire-wolf", first=None)
    assert rules_fights.initiative(state, 3, 3) is None
    assert state.game.fight.phase == "initiative"
    assert rules_fights.initiative(state, 2, 5) == "monster"
    rules_fights.monster_attack(state, 1)
    assert state.game.fight.phase == "hero"
    rules_fights.hero_attack(state, "", 1)
    assert state.game.fight.phase == "initiative" and state.game.fight.round == 2


def test_the_pit_viper_adds_one_to_its_initiative():
    state = make_state()
    fight(state, "pit-viper", first=None)
    assert rules_fights.initiative(state, 4, 3) is None  # 4 against 3 + 1: a tie
    assert rules_fights.initiative(state, 4, 2) == "hero"
    spec = rules_rolls.initiative_specs(state)[1]
    assert spec.mod == 1


def test_the_zombie_always_loses_the_initiative_without_a_roll():
    state = make_state()
    fight(state, "zombie", first=None)
    f = state.game.fight
    assert f.phase == "hero"
    with pytest.raises(InputError, match="cannot roll initiative"):
        rules_fights.initiative(state, 6, 1)
    rules_fights.hero_attack(state, "", 1)  # 1 + 3 = 4 >= AC 4: hit
    rules_fights.monster_attack(state, 1)
    assert f.phase == "hero" and f.round == 2


def test_steps_out_of_turn_are_refused_with_what_comes_next():
    state = make_state()
    fight(state, "ghoul", first=None)
    with pytest.raises(InputError, match="initiative is to be rolled"):
        rules_fights.hero_attack(state, "", 6)
    rules_fights.initiative(state, 6, 1)
    with pytest.raises(InputError, match="Aria's turn"):
        rules_fights.monster_attack(state, 6)


# ---- every monster special ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "hp", "deaths"),
    [(1, 5, 0), (4, 5, 0), (5, 4, 0), (9, 4, 0), (10, 6, 1)],
)
def test_basilisk_table(face, hp, deaths):
    state = make_state()
    fight(state, "basilisk", first="monster")
    assert rules_fights.monster_attack(state, 1)  # 1 + 6 >= 5
    assert state.game.fight.phase == "table"
    rules_fights.table_roll(state, face)
    assert hero(state).hp == hp and hero(state).deaths == deaths
    if face == 10:  # turned to stone: HP to zero, a death, the basilisk's stand-up removed
        assert state.game.fight is None
        assert hero(state).minus == ["death"]


@pytest.mark.parametrize("monster", ["black-widow-spider", "pit-viper"])
@pytest.mark.parametrize(("face", "hp"), [(7, 5), (8, 4), (10, 4)])
def test_black_widow_and_pit_viper_tables(monster, face, hp):
    state = make_state()
    fight(state, monster, first="monster")
    rules_fights.monster_attack(state, 6)
    rules_fights.table_roll(state, face)
    assert hero(state).hp == hp


@pytest.mark.parametrize("monster", ["bone-golem", "giant-vampire-bat"])
def test_double_damage(monster):
    state = make_state()
    fight(state, monster, first="monster")
    rules_fights.monster_attack(state, 6)
    assert hero(state).hp == 4


def test_carrion_crawler_venom_is_minus_two_on_the_next_attack_roll_only():
    state = make_state()
    fight(state, "carrion-crawler", first="monster")
    rules_fights.monster_attack(state, 6)
    rules_fights.table_roll(state, 6)  # 1-6: normal damage only
    assert not state.game.fight.slowed
    rules_fights.hero_attack(state, "", 1)  # 1 + 3 = 4 < 5
    rules_fights.initiative(state, 1, 6)
    rules_fights.monster_attack(state, 6)
    rules_fights.table_roll(state, 7)  # 7-10: normal damage and -2
    f = state.game.fight
    assert f.slowed and hero(state).hp == 4
    assert ("venom", -2) in rules_rolls.attack_spec(state).parts
    assert not rules_fights.hero_attack(state, "", 3)  # 3 + 3 - 2 = 4 < AC 5: would hit without the venom
    assert not f.slowed  # back to normal for the following roll
    rules_fights.initiative(state, 6, 1)
    assert rules_fights.hero_attack(state, "", 3)


def test_ghoul_takes_the_next_move_and_it_clears():
    state = make_state()
    rules_heroes.start_rolloff(state, "round")
    rules_heroes.order_roll(state, [9, 2, 1])
    fight(state, "ghoul", first="monster")
    rules_fights.monster_attack(state, 6)
    rules_fights.table_roll(state, 8)
    assert hero(state).held_round == 1 and hero(state).hp == 5
    assert state.game.fight is not None  # the fight goes on as usual
    assert rules_fights.hero_attack(state, "", 6)  # 9 >= 6: 1 damage
    rules_fights.initiative(state, 6, 1)
    rules_fights.hero_attack(state, "", 6)  # kills it
    rules_heroes.start_rolloff(state, "round")
    rules_heroes.order_roll(state, [9, 2, 1])  # round 2: this is the lost move
    assert hero(state).held_round == 1
    rules_heroes.start_rolloff(state, "round")
    rules_heroes.order_roll(state, [9, 2, 1])  # round 3: the lost move is behind
    assert hero(state).held_round is None


def test_ghoul_lost_move_can_be_cleared_by_hand():
    state = make_state()
    fight(state, "ghoul", first="monster")
    rules_fights.monster_attack(state, 6)
    rules_fights.table_roll(state, 10)
    rules_heroes.moved(state, "Aria")
    assert hero(state).held_round is None
    with pytest.raises(InputError, match="no move to sit out"):
        rules_heroes.moved(state, "Aria")


def test_gargoyle_is_only_damaged_by_magical_weapons_or_magic():
    state = make_state()
    fight(state, "gargoyle")
    assert rules_fights.hero_attack(state, "", 6)  # 9 >= 7: a hit...
    assert state.game.fight.hp == 4  # ...with no damage
    assert "only a magical weapon or magic can damage the Gargoyle" in texts(state)
    state = make_state()
    give(state, "Aria", item("Sword +1", attack=1))
    fight(state, "gargoyle")
    rules_fights.hero_attack(state, "Sword +1", 6)
    assert state.game.fight.hp == 3
    state = make_state()
    fight(state, "gargoyle", hero="Bram")  # Bram's own attacks count as magic
    rules_fights.hero_attack(state, "", 6)
    assert state.game.fight.hp == 3


@pytest.mark.parametrize("monster", ["mummy", "vampire", "specter"])
def test_holy_water_damages_the_mummy_vampire_and_specter(monster):
    state = make_state()
    give(state, "Aria", item("Holy water", kind="other", use="attack", hits=["holy"], attack=4, uses=2))
    fight(state, monster, back="purple")
    rules_fights.hero_attack(state, "Holy water", 6)  # 6 + 3 + 4 >= every AC here
    assert state.game.fight.hp == MONSTERS[monster].hp - 1
    assert hero(state).items[0].left == 1


def test_a_limited_item_is_removed_after_its_last_use():
    state = make_state()
    give(state, "Aria", item("Holy water", kind="other", use="attack", hits=["holy"], uses=1))
    fight(state, "mummy")
    rules_fights.hero_attack(state, "Holy water", 1)
    assert hero(state).items == []
    assert "used for the last time" in texts(state)


def test_silver_damages_the_werewolf_wight_and_wraith_but_not_the_mummy():
    dagger = item("Silver dagger", hits=["silver"], attack=3)
    for monster, damaged in (("werewolf", True), ("wight", True), ("wraith", True), ("mummy", False)):
        state = make_state()
        give(state, "Aria", dagger)
        fight(state, monster)
        rules_fights.hero_attack(state, "Silver dagger", 6)
        assert (state.game.fight.hp < MONSTERS[monster].hp) is damaged, monster
        state = make_state()
        fight(state, monster)
        rules_fights.hero_attack(state, "", 6)
        assert state.game.fight.hp == MONSTERS[monster].hp, f"{monster} hurt by a plain attack"


@pytest.mark.parametrize("monster", ["wight", "wraith"])
def test_energy_drain_gives_at_most_one_minus_one_chit(monster):
    state = make_state()
    fight(state, monster, first="monster")
    rules_fights.monster_attack(state, 6)
    aria = hero(state)
    assert aria.hp == 5 and aria.minus == [f"energy drain: {MONSTERS[monster].name}"]
    assert rules_numbers.attack_number(aria) == 2
    rules_fights.hero_attack(state, "", 1)
    rules_fights.initiative(state, 1, 6)
    rules_fights.monster_attack(state, 6)
    assert aria.hp == 4 and len(aria.minus) == 1


@pytest.mark.parametrize("monster", ["vampire", "specter"])
def test_double_energy_drain(monster):
    state = make_state()
    fight(state, monster, back="purple", first="monster")
    rules_fights.monster_attack(state, 6)
    aria = hero(state)
    assert aria.hp == 4 and len(aria.minus) == 1


def test_robber_fly_steals_items_then_goes_away():
    state = make_state()
    give(state, "Aria", item("Ring", kind="other", ac=1))
    fight(state, "robber-fly", first="monster")
    rules_fights.monster_attack(state, 6)
    f = state.game.fight
    assert f.phase == "pick" and hero(state).hp == 6  # no damage
    assert rules_rolls.need(state).items == ("Ring",)
    rules_fights.pick(state, "Ring")
    assert hero(state).items == [] and "Cael's player moves it 10 squares away" in texts(state)
    rules_fights.hero_attack(state, "", 1)  # miss
    rules_fights.initiative(state, 1, 6)
    rules_fights.monster_attack(state, 6)  # hits a hero with no items left
    assert state.game.fight is None
    assert hero(state).standups == [] and state.game.kills == {}
    assert "goes away" in texts(state)


def test_rust_monster_ignores_metal_bonuses_and_eats_metal():
    state = make_state()
    sword = item("Sword", attack=2, damage=1, metal=True)
    mail = item("Chain mail", kind="armor", ac=2, metal=True)
    staff = item("Staff", attack=1, metal=False)
    give(state, "Aria", sword, mail, staff)
    rust = MONSTERS["rust-monster"]
    ghoul = MONSTERS["ghoul"]
    aria = hero(state)
    assert rules_numbers.armor_class(aria, ghoul) == 7 and rules_numbers.armor_class(aria, rust) == 5
    assert rules_numbers.total(rules_numbers.attack_parts(aria, rust, aria.items[0], [])) == 3
    assert rules_numbers.total(rules_numbers.attack_parts(aria, rust, aria.items[2], [])) == 4  # the staff is not metal
    assert rules_numbers.damage_of(aria, rust, aria.items[0], [])[0] == 1
    assert rules_numbers.damage_of(aria, ghoul, aria.items[0], [])[0] == 2
    fight(state, "rust-monster", first="monster")
    rules_fights.monster_attack(state, 1)  # 1 + 5 = 6 >= AC 5 (the mail does not count)
    assert state.game.fight.phase == "pick" and aria.hp == 6
    assert rules_rolls.need(state).items == ("Sword", "Chain mail")
    with pytest.raises(InputError, match="not metal"):
        rules_fights.pick(state, "Staff")
    rules_fights.pick(state, "Chain mail")
    assert [i.name for i in aria.items] == ["Sword", "Staff"]
    assert "removed from the game" in texts(state)


def test_rust_monster_hit_without_metal_does_nothing():
    state = make_state()
    fight(state, "rust-monster", first="monster")
    assert rules_fights.monster_attack(state, 6)
    assert hero(state).hp == 6 and state.game.fight.phase == "hero"


def test_the_stake_kills_the_vampire_for_the_bonus():
    state = make_state()
    give(state, "Aria", item("Stake", hits=["stake"], damage=5))
    fight(state, "vampire")
    rules_fights.hero_attack(state, "Stake", 5)  # 8 >= AC 8; 1 + 5 = 6 damage
    aria = hero(state)
    assert state.game.fight is None and aria.stake
    assert rules_score.score_line(aria, []).points["stake"] == D.POINTS["stake"] == 4


def test_killing_the_vampire_otherwise_gives_no_stake_bonus():
    state = make_state()
    give(state, "Aria", item("Sword", damage=5))
    fight(state, "vampire")
    rules_fights.hero_attack(state, "Sword", 5)
    assert state.game.fight is None and not hero(state).stake


# ---- the specter -------------------------------------------------------------------------------


def test_the_specter_is_at_full_hp_at_every_encounter_and_stays_when_run_from():
    state = make_state()
    give(state, "Aria", item("Great sword", attack=4))
    fight(state, "specter", back="purple")
    rules_fights.hero_attack(state, "Great sword", 3)  # 3 + 3 + 4 = 10 >= AC 10
    assert state.game.fight.hp == 7 and hero(state).specter_damaged
    rules_fights.monster_attack(state, 1)
    rules_fights.initiative(state, 6, 1)
    assert rules_fights.run_away(state, 6)  # 1d10 >= Att 6
    assert state.game.fight is None and state.game.specter_seen and not state.game.specter_dead
    assert "backs up 2 spaces" in texts(state)
    fight(state, "specter", hero="Bram", back="purple")
    assert state.game.fight.hp == 8


def test_the_specters_chit_is_purple():
    state = make_state()
    with pytest.raises(InputError, match="purple"):
        rules_fights.start_fight(state, "Aria", "specter", "blue")


def test_a_hero_killed_by_the_specter_leaves_it_where_it_is():
    state = make_state()
    fight(state, "specter", hero="Cael", back="purple", first="monster")
    rules_fights.monster_attack(state, 1)  # 2 HP and a -1 chit
    rules_fights.hero_attack(state, "", 1)
    rules_fights.initiative(state, 1, 6)
    rules_fights.monster_attack(state, 1)  # 2 more: HP 0
    cael = hero(state, "Cael")
    assert cael.deaths == 1 and cael.hp == 4 and len(cael.minus) == 2  # the drain and the death
    assert state.game.fight is None and not state.game.specter_dead
    assert "the specter stays" in texts(state)


def test_killing_the_specter_ends_the_game_with_the_score():
    state = make_state()
    give(state, "Bram", item("Mace", attack=6, damage=7))
    fight(state, "specter", hero="Bram", back="purple")
    rules_fights.hero_attack(state, "Mace", 2)  # 2 + 2 + 6 = 10; 8 damage
    g = state.game
    bram = hero(state, "Bram")
    assert g.specter_dead and g.phase == "over" and bram.specter_killed and bram.specter_damaged
    line = rules_score.score_line(bram, [])
    # stand-up 1, the Mace chit (blue) 1, the specter's purple chit 2, damaged 5, killed 15
    assert line.total == 1 + 1 + 2 + 5 + 15
    assert state.finished == "Bram wins with 24 points"
    assert any(e.get("k") == "heading" and e["t"] == "Final score" for e in state.log.entries)
    with pytest.raises(InputError, match="game is over"):
        rules_fights.start_fight(state, "Aria", "specter", "purple")


# ---- dying -------------------------------------------------------------------------------------


def test_two_deaths():
    state = make_state()
    fight(state, "bone-golem", hero="Cael", first="monster")
    rules_fights.monster_attack(state, 1)
    rules_fights.hero_attack(state, "", 1)
    rules_fights.initiative(state, 1, 6)
    rules_fights.monster_attack(state, 1)
    cael = hero(state, "Cael")
    # first death: -1 attack, full HP, back at the doors; the golem's stand-up is removed
    assert (cael.deaths, cael.hp, cael.minus, cael.tower, cael.out) == (1, 4, ["death"], 1, False)
    assert rules_numbers.attack_number(cael) == 1
    assert state.game.fight is None and cael.standups == []
    fight(state, "bone-golem", hero="Cael", first="monster")
    rules_fights.monster_attack(state, 1)
    rules_fights.hero_attack(state, "", 1)
    rules_fights.initiative(state, 1, 6)
    rules_fights.monster_attack(state, 1)
    assert cael.deaths == 2 and cael.out
    assert "out of the game" in texts(state)
    with pytest.raises(InputError, match="out of the game"):
        rules_fights.start_fight(state, "Cael", "ghoul", "blue")


def test_hp_by_hand_never_above_the_card_and_zero_is_a_death():
    state = make_state()
    rules_items.change_hp(state, "Aria", +3)
    assert hero(state).hp == 6
    rules_items.change_hp(state, "Aria", -6)
    assert hero(state).deaths == 1 and hero(state).hp == 6


def test_every_hero_out_ends_the_game():
    state = make_state()
    for name in ("Aria", "Bram", "Cael"):
        for _ in range(2):
            rules_items.change_hp(state, name, -99)
    assert state.game.phase == "over" and state.finished == "no hero left to win"


# ---- running away ------------------------------------------------------------------------------


def test_running_away_removes_the_monster():
    state = make_state()
    fight(state, "ghoul")
    assert rules_fights.run_away(state, 3)  # 1d10 >= Att 3
    assert state.game.fight is None and "removed from the board" in texts(state)
    assert hero(state).standups == []


def test_a_failed_run_after_the_monster_attacked_gives_it_another_attack():
    state = make_state()
    fight(state, "ghoul", first="monster")
    rules_fights.monster_attack(state, 1)  # miss
    assert not rules_fights.run_away(state, 2)
    f = state.game.fight
    assert f.phase == "monster" and f.extra
    rules_fights.monster_attack(state, 1)
    assert f.phase == "initiative" and f.round == 2


def test_a_failed_run_when_the_hero_went_first_lets_the_monster_take_its_turn():
    state = make_state()
    fight(state, "ghoul")
    assert not rules_fights.run_away(state, 2)
    f = state.game.fight
    assert f.phase == "monster" and not f.extra
    rules_fights.monster_attack(state, 1)
    assert f.phase == "initiative"


def test_variant_a_failed_run_only_loses_the_heros_attack():
    state = make_state(lookup.RUN_FAIL_TURN)
    fight(state, "ghoul", first="monster")
    rules_fights.monster_attack(state, 1)
    rules_fights.run_away(state, 2)
    assert state.game.fight.phase == "initiative"


# ---- items -------------------------------------------------------------------------------------


def test_item_limits_one_armor_two_weapons_one_shield_any_potions():
    state = make_state()
    give(state, "Aria", item("A"), item("B"), item("Mail", kind="armor"), item("Buckler", kind="shield"))
    for i in range(5):
        give(state, "Aria", item(f"Potion {i}", kind="other", use="spend"))
    with pytest.raises(InputError, match="already carries 2 weapon"):
        give(state, "Aria", item("C"))
    with pytest.raises(InputError, match="already carries 1 armor"):
        give(state, "Aria", item("Plate", kind="armor"))
    with pytest.raises(InputError, match="already carries 1 shield"):
        give(state, "Aria", item("Tower shield", kind="shield"))
    rules_items.take_item(state, "Aria", item("C"), swap="A")
    assert [i.name for i in hero(state).items if i.kind == "weapon"] == ["B", "C"]
    with pytest.raises(InputError, match="swap out a weapon"):
        rules_items.take_item(state, "Aria", item("D"), swap="Mail")


def test_a_card_may_change_the_limits():
    card = Card("Dwarf", 4, 6, 3, 5, "carries three weapons", limits={"armor": 1, "weapon": 3, "shield": 1})
    state = make_state(heroes=(card, Card("B", 1, 1, 1, 1), Card("C", 1, 1, 1, 1)))
    give(state, "Dwarf", item("A"), item("B"), item("C"))
    assert len(hero(state, "Dwarf").items) == 3


def test_trading_items_keeps_the_limits():
    state = make_state()
    give(state, "Aria", item("A"), item("B"))
    give(state, "Bram", item("C"))
    with pytest.raises(InputError, match="already carries"):
        rules_items.give_item(state, "Bram", "C", "Aria")
    rules_items.give_item(state, "Aria", "A", "Bram")
    assert [i.name for i in hero(state, "Bram").items] == ["C", "A"]


def test_one_magical_weapon_per_attack_and_worn_bonuses_always():
    state = make_state()
    give(state, "Aria", item("Sword +1", attack=1), item("Axe +2", attack=2), item("Ring", kind="other", attack=1))
    fight(state, "ghoul")
    parts = rules_rolls.attack_spec(state, "Axe +2").parts
    assert dict(parts) == {"Att": 3, "Ring": 1, "Axe +2": 2}
    with pytest.raises(InputError, match="not used to attack"):
        rules_rolls.attack_spec(state, "Ring")


# ---- climbing and experience -------------------------------------------------------------------


def test_climbing_check_three_then_six_purple_counts_two():
    state = make_state()
    aria = hero(state)
    assert not rules_climb.climb_check(aria).ok
    with pytest.raises(InputError, match="cannot leave Tower 1"):
        rules_climb.climb(state, "Aria")
    give(state, "Aria", item("Potion", kind="other", use="spend", back="purple"))
    assert rules_climb.climb_check(aria).have == 2
    fight(state, "skeleton")
    rules_fights.hero_attack(state, "", 2)  # kills it: its blue chit
    check = rules_climb.climb(state, "Aria")
    assert (check.to, check.have, check.needs, aria.tower) == (2, 3, 3, 2)
    assert rules_climb.climb_check(aria).needs == 6 and not rules_climb.climb_check(aria).ok
    rules_climb.climb(state, "Aria", cleared=True)  # every chit of Tower 2 gone
    assert aria.tower == 3
    with pytest.raises(InputError, match="already in Tower 3"):
        rules_climb.climb_check(aria)


def test_trading_monster_chits_removes_a_minus_one_chit():
    state = make_state()
    with pytest.raises(InputError, match="no −1 chit"):
        rules_climb.trade(state, "Aria", "blue")
    fight(state, "wight", first="monster")
    rules_fights.monster_attack(state, 6)  # the drain
    rules_fights.run_away(state, 10)
    for monster, back in (("skeleton", "blue"), ("giant-rat", "blue"), ("skeleton", "purple")):
        fight(state, monster, back=back)
        rules_fights.hero_attack(state, "", 6)
    aria = hero(state)
    assert rules_numbers.attack_number(aria) == 2
    rules_climb.trade(state, "Aria", "blue")
    assert aria.minus == [] and rules_numbers.attack_number(aria) == 3
    assert [c.back for c in aria.chits] == ["purple"] and len(aria.standups) == 3  # stand-ups are kept
    with pytest.raises(InputError, match="no −1 chit"):
        rules_climb.trade(state, "Aria", "purple")  # only to win back lost attack


def test_trading_needs_enough_chits():
    state = make_state()
    rules_items.change_hp(state, "Aria", -6)  # a death: a -1 chit, removable like any other
    fight(state, "skeleton", back="purple")
    rules_fights.hero_attack(state, "", 6)
    with pytest.raises(InputError, match="0 blue monster chit"):
        rules_climb.trade(state, "Aria", "blue")
    rules_climb.trade(state, "Aria", "purple")
    assert hero(state).minus == [] and hero(state).chits == []


# ---- score -------------------------------------------------------------------------------------


def test_score_table_rows():
    state = make_state()
    give(state, "Aria", item("Sword", back="purple"), item("Potion", kind="other", use="spend"))
    fight(state, "skeleton")
    rules_fights.hero_attack(state, "", 6)
    fight(state, "zombie", back="purple")  # HP 2: two hits
    rules_fights.hero_attack(state, "", 6)
    rules_fights.monster_attack(state, 1)
    rules_fights.hero_attack(state, "", 6)
    line = rules_score.score_line(hero(state), [])
    assert line.counts == {
        "standups": 2,
        "blue": 2,  # the potion and the skeleton's chit
        "purple": 2,  # the sword and the zombie's chit
        "stake": 0,
        "specter_damaged": 0,
        "specter_killed": 0,
    }
    assert line.total == 2 * 1 + 2 * 1 + 2 * 2
    rules_score.finish(state, "the players ended it")
    assert state.finished == "Aria wins with 8 points"
    assert state.game.phase == "over"


def test_heroes_out_of_the_game_do_not_score_unless_the_variant_says_so():
    for variants, total in (((), 0), ((lookup.DEAD_SCORE,), 2)):  # a stand-up and a blue chit
        state = make_state(*variants)
        fight(state, "skeleton", hero="Cael")
        rules_fights.hero_attack(state, "", 6)
        rules_items.change_hp(state, "Cael", -9)
        rules_items.change_hp(state, "Cael", -9)
        line = rules_score.score_line(hero(state, "Cael"), state.meta.variants)
        assert line.out and line.total == total


def test_tied_scores_share_the_win():
    state = make_state()
    rules_score.finish(state, "test")
    assert state.finished == "Aria and Bram and Cael share the win with 0 points"


# ---- the specter and undead --------------------------------------------------------------------


def test_variant_specter_undead_turns_undead_bonuses_on():
    dwarf = Card("Dwarf", 4, 6, 3, 5, "+2 vs undead", bonus=Bonus(attack=2, vs="undead"))
    for variants, att in (((), 3), ((lookup.SPECTER_UNDEAD,), 5)):
        state = make_state(*variants, heroes=(dwarf, Card("B", 1, 1, 1, 1), Card("C", 1, 1, 1, 1)))
        fight(state, "specter", hero="Dwarf", back="purple")
        assert rules_rolls.attack_spec(state).mod == att
