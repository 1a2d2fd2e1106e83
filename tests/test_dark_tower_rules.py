"""The Dark Tower's rules with fixed dice: decks, checks, fights, groups, help, energy, levels, items."""

from __future__ import annotations

import pytest

from companion.dice.expr import parse
from companion.dice.render import dice_text
from companion.dice.source import read_physical
from companion.errors import InputError
from companion.games.dark_tower.rules import checks as rules_checks
from companion.games.dark_tower.rules import draw as rules_draw
from companion.games.dark_tower.rules import fights as rules_fights
from companion.games.dark_tower.rules import items as rules_items
from companion.games.dark_tower.rules import lookup
from companion.games.dark_tower.rules import setup as rules_setup
from companion.games.dark_tower.rules import turns as rules_turns
from companion.games.dark_tower.rules.decks import deck_counts
from companion.games.dark_tower.rules.fights import Plan
from tests.dark_tower_helpers import dt, fight_with, new, table

# ---- the deck calculator -------------------------------------------------------------------------

# (monsters, obstacles, items) on floors 1, 2, 3, worked out by hand from the recipe:
#   floor 1: 4 monsters and 1 obstacle per player, 1 item per two players (rounded up)
#   floor 2: 3 monsters, 1 obstacle and 1 item per player
#   floor 3: 3 monsters, 1 obstacle and 1 item per two players (rounded up)
PER_PLAYER = {
    1: [(4, 1, 1), (3, 1, 1), (3, 1, 1)],
    2: [(8, 2, 1), (6, 2, 2), (3, 1, 1)],
    3: [(12, 3, 2), (9, 3, 3), (6, 2, 2)],
    4: [(16, 4, 2), (12, 4, 4), (6, 2, 2)],
}
# The fixed-monsters variant: 4, 3 and 3 monsters whatever the number of players.
FIXED = {
    1: [(4, 1, 1), (3, 1, 1), (3, 1, 1)],
    2: [(4, 2, 1), (3, 2, 2), (3, 1, 1)],
    3: [(4, 3, 2), (3, 3, 3), (3, 2, 2)],
    4: [(4, 4, 2), (3, 4, 4), (3, 2, 2)],
}


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_deck_counts_monsters_per_player(players):
    assert [d.counts() for d in deck_counts(players)] == PER_PLAYER[players]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_deck_counts_fixed_monsters_variant(players):
    assert [d.counts() for d in deck_counts(players, fixed_monsters=True)] == FIXED[players]


def test_deck_counts_add_the_quests_cards_and_refuse_five_players():
    decks = deck_counts(2, quest=[[0, 0, 0], [1, 0, 1], [2, 1, 0]])
    assert [d.counts() for d in decks] == [(8, 2, 1), (7, 2, 3), (5, 2, 1)]
    with pytest.raises(InputError, match="1 to 4 players"):
        deck_counts(5)


def test_a_started_game_builds_its_decks_from_the_session_variant():
    state = table([("Ann", "clan-champion", []), ("Bo", "rogue", [])], variants=("fixed-monsters",))
    g = lookup.game(state)
    assert [(d.monsters, d.obstacles, d.items) for d in g.decks] == FIXED[2]
    assert g.phase == "draw" and g.current().player == "Ann"


# ---- obstacle checks -----------------------------------------------------------------------------


def _at_obstacle(health: int):
    state = table([("Ann", "clan-champion", [])])
    lookup.game(state).heroes[0].health = health
    rules_draw.draw(state, "obstacle", "pit")
    return state


def test_an_obstacle_passed_when_the_numbers_exceed_the_check_and_a_heart_heals():
    state = _at_obstacle(7)
    result = rules_checks.resolve_check(state, dt(3, 3, "♥", check=5), [])
    hero = lookup.game(state).heroes[0]
    assert result.passed and result.total == 6
    assert result.healed == 1 and hero.health == 8
    assert hero.penalty == 0 and lookup.game(state).phase == "end"


def test_an_obstacle_failed_on_an_equal_sum_hearts_heal_first_then_the_card_applies():
    state = _at_obstacle(7)
    result = rules_checks.resolve_check(state, dt(2, 3, "♥", check=5), [])  # 5 is not more than 5
    hero = lookup.game(state).heroes[0]
    assert not result.passed and result.total == 5
    assert (result.healed, result.damage, result.penalty) == (1, 2, 1)
    assert hero.health == 7 - 2 + 1 and hero.penalty == 1
    assert any("A bat swarm" in e.get("t", "") for e in state.log.entries)


def test_stars_count_for_nothing_in_a_check_and_hearts_never_heal_above_the_card():
    state = _at_obstacle(10)
    result = rules_checks.resolve_check(state, dt("★", "★", "♥", check=0), [])
    assert not result.passed and result.total == 0
    hero = lookup.game(state).heroes[0]
    assert hero.health == 10 - 2 and hero.energy == 0


def test_a_plus_one_die_item_adds_a_die_to_the_check():
    state = table([("Ann", "clan-champion", ["lucky-coin"])])
    rules_draw.draw(state, "obstacle", "pit")
    assert rules_checks.check_dice(state, []) == 4
    with pytest.raises(InputError, match="4 Dark Tower dice"):
        rules_checks.resolve_check(state, dt(3, 3, 3, check=5), [])
    assert rules_checks.resolve_check(state, dt(1, 1, 1, 3, check=5), []).passed


# ---- fights --------------------------------------------------------------------------------------


def test_a_fight_won_beats_the_monster():
    state = table([("Ann", "clan-champion", ["sword"])])
    fight_with(state, "golem")  # 6, ignores weapon and armor: the Sword does not count
    bonus = rules_fights.fight_bonus(state, Plan())
    assert bonus.parts == [("Battle Cry", 2)] and bonus.strength == 6
    result = rules_fights.resolve_fight(state, Plan(), dt(3, 1, 1, "★"), [])
    assert result.won and result.total == 7 and result.damage == 0
    g = lookup.game(state)
    assert g.beaten == 1 and g.group == [] and g.heroes[0].energy == 1


def test_a_fight_lost_deals_the_exact_difference_after_the_hearts_heal():
    state = table([("Ann", "clan-champion", ["sword"])], floor=2)
    g = lookup.game(state)
    g.heroes[0].health = 5
    fight_with(state, "troll")  # 9
    result = rules_fights.resolve_fight(state, Plan(), dt(1, 1, "♥", "♥"), [])
    # 2 on the dice + 2 Battle Cry + 2 Sword = 6 against 9: 3 damage; the 2 hearts healed first
    assert not result.won and result.total == 6 and result.damage == 3
    assert result.healed == 2 and g.heroes[0].health == 5 + 2 - 3
    assert g.group == ["troll"]


def test_a_tie_does_not_beat_the_monster_deals_nothing_and_the_next_player_fights_it():
    state = table([("Ann", "clan-champion", []), ("Bo", "rogue", [])])
    fight_with(state, "golem")  # 6; Ann has +2
    result = rules_fights.resolve_fight(state, Plan(), dt(3, 1, "♥", "★"), [])
    assert not result.won and result.total == 6 and result.damage == 0
    g = lookup.game(state)
    assert g.heroes[0].health == 10 and g.group == ["golem"]
    rules_turns.end_turn(state)
    assert g.current().player == "Bo" and g.phase == "fight"


def test_a_penalty_counts_in_the_next_fight_only():
    state = table([("Ann", "clan-champion", [])])
    lookup.game(state).heroes[0].penalty = 2
    fight_with(state, "rat")
    assert rules_fights.fight_bonus(state, Plan()).total == 0
    rules_fights.resolve_fight(state, Plan(), dt(1, 1, 1, 1), [])
    assert lookup.game(state).heroes[0].penalty == 0


def test_a_group_fights_with_the_sum_of_its_strengths_and_falls_together():
    state = table([("Ann", "clan-champion", ["sword"])])
    g = lookup.game(state)
    fight_with(state, "shaman")  # 3, summons
    monsters_left = g.deck().monsters
    rules_draw.join_group(state, "rat", from_deck=True)  # 2
    rules_draw.join_group(state, "golem", from_deck=False)  # 6, ignores weapons: the whole group does
    assert g.deck().monsters == monsters_left - 1
    bonus = rules_fights.fight_bonus(state, Plan())
    assert bonus.strength == 11 and bonus.total == 2
    lost = rules_fights.resolve_fight(state, Plan(), dt(3, 3, 2, 1), [])
    assert lost.total == 11 and lost.damage == 0 and len(g.group) == 3  # a tie: all three stay
    rules_turns.end_turn(state)
    won = rules_fights.resolve_fight(state, Plan(), dt(3, 3, 3, 1), [])
    assert won.won and g.beaten == 3 and g.group == []


def test_help_from_a_second_player_adds_the_bonuses_the_leader_rolls_and_both_take_the_damage():
    state = table([("Ann", "clan-champion", ["sword"]), ("Bo", "rogue", ["mail"])], floor=2)
    g = lookup.game(state)
    g.heroes[0].health = 6
    fight_with(state, "troll")  # 9
    plan = Plan(helper=1)
    bonus = rules_fights.fight_bonus(state, plan)
    # Ann: Battle Cry 2, Sword 2; Bo: level-2 bonus 2, Battle Cry from Ann 2, Mail 1
    assert bonus.total == 9
    assert ("Battle Cry from Ann (Bo)", 2) in bonus.parts and ("Mail (Bo)", 1) in bonus.parts
    result = rules_fights.resolve_fight(state, plan, dt("♥", "★", "★", "★"), [])
    assert not result.won and result.damage == 0  # 9 ties 9
    assert g.heroes[0].health == 7 and g.heroes[0].energy == 3 and g.heroes[1].energy == 0
    rules_turns.end_turn(state)
    assert g.current().player == "Bo" and g.phase == "fight"  # the Troll is still there
    result = rules_fights.resolve_fight(state, Plan(helper=0), dt(1, "♥", "♥", "★"), [])
    # Bo leads: 2 + 2 + 1, Ann helps: 2 + 2 -> 9, +1 on the dice = 10 > 9
    assert result.won and result.total == 10
    assert g.heroes[1].health == 8 and g.heroes[0].health == 7


def test_help_damage_falls_on_both_and_hearts_heal_only_the_leader():
    state = table([("Ann", "clan-champion", []), ("Bo", "rogue", [])], floor=2)
    g = lookup.game(state)
    g.heroes[0].health, g.heroes[1].health = 5, 5
    fight_with(state, "troll")
    result = rules_fights.resolve_fight(state, Plan(helper=1), dt(1, "♥", "★", "★"), [])
    # Ann 2, Bo 2 + 2 = 6, +1 = 7 against 9: 2 damage each; Ann healed 1 first
    assert result.damage == 2
    assert (g.heroes[0].health, g.heroes[1].health) == (4, 3)


def test_no_help_on_the_first_floor():
    state = table([("Ann", "clan-champion", []), ("Bo", "rogue", [])])
    fight_with(state, "rat")
    assert rules_fights.can_help(state) == []
    with pytest.raises(InputError, match="from floor 2"):
        rules_fights.fight_bonus(state, Plan(helper=1))


def test_energy_from_a_star_is_spent_on_an_activated_spell_in_the_same_fight():
    state = table([("Ann", "clan-champion", [])], floor=2)
    g = lookup.game(state)
    fight_with(state, "troll")  # 9
    bonus = rules_fights.fight_bonus(state, Plan())
    assert [(c.spell.name, c.value) for c in bonus.castable] == [("Heroic Valor", 4)]
    with pytest.raises(InputError, match="0 energy"):
        rules_fights.resolve_fight(state, Plan(), dt(3, 3, 1, 1), [(0, "heroic-valor")])
    result = rules_fights.resolve_fight(state, Plan(), dt(3, 1, 1, "★"), [(0, "heroic-valor")])
    # 5 on the dice + 2 Battle Cry + 4 Heroic Valor = 11 > 9
    assert result.won and result.total == 11 and result.cast == ["Heroic Valor"]
    assert g.heroes[0].energy == 0


def test_energy_left_over_fades_at_the_end_of_the_turn():
    state = table([("Ann", "clan-champion", [])], floor=2)
    fight_with(state, "troll")
    rules_fights.resolve_fight(state, Plan(), dt(3, 3, 3, "★"), [])
    assert lookup.game(state).heroes[0].energy == 1
    rules_turns.end_turn(state)
    assert lookup.game(state).heroes[0].energy == 0


def test_a_monster_immune_to_spells_stops_activated_spells_not_permanent_ones():
    state = table([("Ann", "clan-champion", [])], floor=2)
    fight_with(state, "wisp")
    bonus = rules_fights.fight_bonus(state, Plan())
    assert bonus.immune and bonus.castable == [] and bonus.total == 2
    with pytest.raises(InputError, match="immune"):
        rules_fights.resolve_fight(state, Plan(), dt(1, 1, 1, "★"), [(0, "heroic-valor")])


def test_best_castings_picks_what_adds_most_within_the_energy():
    state = table([("Ann", "rogue", [])], floor=2)
    fight_with(state, "troll")
    bonus = rules_fights.fight_bonus(state, Plan())
    assert rules_fights.best_castings(state, bonus, 1) == []  # Backstab costs 2
    assert rules_fights.best_castings(state, bonus, 2) == [(0, "backstab")]


def test_single_use_items_count_once_when_used_then_go_and_a_die_item_adds_a_die():
    state = table([("Ann", "clan-champion", ["bomb", "lucky-coin"])])
    fight_with(state, "rat")
    assert rules_fights.fight_bonus(state, Plan()).total == 2
    plan = Plan(use=["bomb"])
    bonus = rules_fights.fight_bonus(state, plan)
    assert bonus.total == 7 and bonus.dice == 5
    rules_fights.resolve_fight(state, plan, dt(1, 1, 1, 1, 1), [])
    assert [h.card for h in lookup.game(state).heroes[0].items] == ["lucky-coin"]


# ---- levels and floors ---------------------------------------------------------------------------


def test_the_level_rises_with_the_floor_and_unlocks_that_levels_spells():
    state = table([("Ann", "clan-champion", [])])
    g = lookup.game(state)
    assert g.heroes[0].level == 1 and rules_fights.standing_bonus(state, 0) == 2
    rules_turns.set_deck(state, 1, (1, 0, 0))
    fight_with(state, "rat")
    rules_fights.resolve_fight(state, Plan(), dt(1, 1, 1, 1), [])
    assert g.deck().left == 0 and g.floor == 1
    rules_turns.end_turn(state)
    assert g.floor == 2 and g.heroes[0].level == 2
    assert any("Heroic Valor" in e.get("t", "") for e in state.log.entries)
    rules_turns.set_deck(state, 2, (0, 0, 0))
    g.phase = "end"
    rules_turns.end_turn(state)
    assert g.floor == 3 and g.heroes[0].level == 3
    assert rules_fights.standing_bonus(state, 0) == 2 + 6  # Battle Cry and Armoring


def test_the_heroes_cannot_go_up_past_monsters_or_cards_left():
    state = table([("Ann", "clan-champion", [])])
    with pytest.raises(InputError, match="still has 6 cards"):
        rules_turns.enter_next_floor(state)
    fight_with(state, "rat")
    with pytest.raises(InputError, match="must be beaten"):
        rules_turns.enter_next_floor(state, force=True)


def test_beating_the_last_monster_of_the_third_floor_wins():
    state = table([("Ann", "clan-champion", [])], floor=3)
    rules_turns.set_deck(state, 3, (1, 0, 0))
    fight_with(state, "rat")
    rules_fights.resolve_fight(state, Plan(), dt(3, 3, 3, 3), [])
    assert state.finished == "won" and lookup.game(state).phase == "over"


def test_a_hero_at_zero_health_has_fallen_and_the_last_one_loses_the_game():
    state = table([("Ann", "clan-champion", [])], floor=2)
    lookup.game(state).heroes[0].health = 2
    fight_with(state, "troll")
    result = rules_fights.resolve_fight(state, Plan(), dt(1, 1, 1, 1), [])
    assert result.damage == 3 and result.fallen == ["Ann"]
    assert state.finished == "lost"


# ---- items ---------------------------------------------------------------------------------------


def test_one_item_of_each_class_items_over_the_limit_are_discarded_at_the_end_of_the_turn():
    state = table([("Ann", "clan-champion", ["sword", "mail", "lucky-coin", "bomb"])])
    rules_draw.draw(state, "item", "axe")  # a second weapon
    assert rules_items.over_limit(state) == [(0, "weapon", ["sword", "axe"])]
    with pytest.raises(InputError, match="2 items of class Weapon"):
        rules_turns.end_turn(state)
    rules_items.discard(state, 0, lookup.held_index(state, 0, "Sword"))
    rules_turns.end_turn(state)  # items with no class have no limit
    assert [h.card for h in lookup.game(state).heroes[0].items] == ["mail", "lucky-coin", "bomb", "axe"]


def test_traded_items_are_usable_from_the_receivers_next_turn():
    state = table([("Ann", "clan-champion", ["sword"]), ("Bo", "rogue", [])])
    g = lookup.game(state)
    rules_draw.draw(state, "item", "mail")
    rules_items.trade(state, 0, 0, 1, None)  # Ann gives Bo the Sword
    assert g.heroes[1].items[0].fresh and rules_fights.standing_bonus(state, 1) == 1 + 2  # level 1 + Battle Cry only
    rules_turns.end_turn(state)
    assert g.current().player == "Bo" and not g.heroes[1].items[0].fresh
    assert rules_fights.standing_bonus(state, 1) == 1 + 2 + 2


def test_a_discarded_item_may_be_picked_up_by_another_player():
    state = table([("Ann", "clan-champion", ["sword"]), ("Bo", "rogue", [])])
    rules_draw.draw(state, "item", "axe")  # a drawn card is taken: the extra weapon goes before the turn passes
    rules_items.discard(state, 0, 1, to=1)
    assert [(h.card, h.fresh) for h in lookup.game(state).heroes[1].items] == [("axe", True)]


def test_a_monster_that_takes_an_item_makes_the_loser_discard_one_at_random():
    state = table([("Ann", "clan-champion", ["sword", "mail"])])
    fight_with(state, "gelatinous-cube")  # 4
    result = rules_fights.resolve_fight(state, Plan(), dt(1, "★", "★", "★"), [])  # 1 + 2 + 2 + 1 = 6 > 4
    assert result.won and lookup.game(state).owed == []
    state = table([("Ann", "clan-champion", ["sword", "mail"])])
    fight_with(state, "gelatinous-cube")
    result = rules_fights.resolve_fight(state, Plan(), dt("★", "★", "★", "★"), [])  # 0 + 2 + 2 + 1 = 5 > 4: won
    assert result.won
    state = table([("Ann", "clan-champion", ["mail", "bomb"])])
    fight_with(state, "gelatinous-cube")
    result = rules_fights.resolve_fight(state, Plan(), dt("★", "★", "★", "★"), [])  # 0 + 2 + 1 = 3: lost by 1
    g = lookup.game(state)
    assert not result.won and result.damage == 1 and result.owed == ["Ann"]
    with pytest.raises(InputError, match="discard a random item"):
        rules_turns.end_turn(state)
    assert rules_items.lose_item(state, 0, 1) == "bomb"
    assert [h.card for h in g.heroes[0].items] == ["mail"] and g.owed == []


def test_a_random_item_needs_no_roll_when_the_hero_holds_one():
    state = table([("Ann", "clan-champion", ["mail"])])
    fight_with(state, "gelatinous-cube")
    result = rules_fights.resolve_fight(state, Plan(), dt(1, "★", "★", "★"), [])  # 1 + 2 + 1 = 4: a tie, the Cube wins
    assert not result.won and result.damage == 0
    assert lookup.game(state).heroes[0].items == [] and lookup.game(state).owed == []


# ---- dice entry ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed",
    ["4,5,6", "4 5 6", "♥,♥,★", "h,heart,*", "♥ 5 star", "сердце,4,звезда", "с С з", "р,с,э", "С 4 Ы"],
)  # a Russian player: the words' first letters, and h and s typed on a Russian keyboard (р, ы)
def test_physical_entry_reads_4_and_5_as_hearts_and_6_as_a_star(typed):
    roll = read_physical(parse("3dt>5"), typed)
    assert dice_text(roll) == "[♥] [♥] [★]"
    assert (roll.total, roll.hearts, roll.stars, roll.success) == (0, 2, 1, False)


def test_a_letter_no_face_reads_as_is_refused_in_the_sessions_language():
    from companion import i18n
    from companion.errors import InputError

    with pytest.raises(InputError, match="'x' is not a face of a dt; a dt accepts 1, 2, 3, ♥"):
        read_physical(parse("3dt>5"), "1 x 2")
    with i18n.using("ru", "dark-tower"), pytest.raises(InputError) as refused:
        read_physical(parse("3dt>5"), "1 г 2")
    assert str(refused.value).startswith("«г» — не грань Кубика Тёмной Башни; его грани: 1, 2, 3, ♥ (или 4, 5, с,")


def test_the_same_faces_typed_as_numbers_or_symbols_resolve_the_same_check():
    a, b = _at_obstacle(6), _at_obstacle(6)
    ra = rules_checks.resolve_check(a, read_physical(parse("3dt>5"), "3,4,6"), [])
    rb = rules_checks.resolve_check(b, read_physical(parse("3dt>5"), "3,♥,★"), [])
    assert (ra.passed, ra.total, ra.healed) == (rb.passed, rb.total, rb.healed) == (False, 3, 1)


def test_bad_input_changes_nothing():
    state = new()
    with pytest.raises(InputError, match="is being set up"):
        rules_draw.draw(state, "monster", "rat")
    rules_setup.add_hero(state, "Ann", "clan-champion")
    with pytest.raises(InputError, match="already taken"):
        rules_setup.add_hero(state, "Bo", "clan-champion")
    with pytest.raises(InputError, match="already at the table"):
        rules_setup.add_hero(state, "ann", "rogue")
    assert len(lookup.game(state).heroes) == 1


def test_an_emptied_top_floor_with_no_monster_left_ends_the_tower():
    state = table([("Ann", "clan-champion", [])], floor=3)
    rules_turns.set_deck(state, 3, (0, 0, 0))
    assert state.finished == "won"
