"""Layer 1: the rules through the action steps, with chosen dice and chits.

Every test names the faces rolled and the chits drawn, so each checks one rule of the text.
"""

from __future__ import annotations

import pytest

from companion.engine.requests import RollRequest
from companion.errors import InputError
from companion.games.dragons_den import rules, view
from tests.dragons_den.helpers import act, den, fresh, hp, log_text, next_round, room, table, to_dragon_turn

# ---- setup, secrecy, cups ----------------------------------------------------------------------------


def test_setup_orders_heroes_from_seven_down_and_keeps_the_dragon_secret():
    state = table((2, 7, 4), dragon=9)
    d = den(state)
    assert [h.key for h in d.heroes] == ["sam", "ren", "jared"]
    assert d.turn == "sam" and d.round == 1 and d.phase == "heroes"
    assert d.dragon is not None and d.dragon.number == 9 and d.dragon.status == "hidden"
    assert len(d.cup) == 9 and 9 not in d.cup and d.discards == [1, 2]
    text = log_text(state)
    assert "Aged Red" not in text and "Aged Red" not in repr(view.status_rows(state))
    assert "face down in the lair (secret)" in repr(view.status_rows(state))
    assert "figures" in view.den_json(state) and "Aged" not in repr(view.den_json(state))


def test_the_longer_game_sets_no_chits_aside():
    state = fresh("long")
    act(state, "setup", {"heroes": [7], "chits": "physical"}, 4)
    assert len(den(state).cup) == 11 and den(state).discards == []


def test_virtual_draws_read_the_nth_chit_left_in_the_cup_and_are_secret_for_the_dragon():
    state = fresh()
    script = act(state, "setup", {"heroes": [7], "chits": "virtual"}, 5, 1, 10)
    dragon_roll, first, second = script.asked
    assert isinstance(dragon_roll, RollRequest) and str(dragon_roll.expr) == "1d12" and dragon_roll.secret
    assert str(first.expr) == "1d11" and str(second.expr) == "1d10" and first.virtual
    d = den(state)
    # 5 of 1..12 is chit 5; then 1 of the 11 left is chit 1; then 10th of the 10 left is chit 12.
    assert d.dragon.number == 5 and d.discards == [1, 12]
    assert d.cup == [2, 3, 4, 6, 7, 8, 9, 10, 11]
    assert "1d12" not in log_text(state)  # the secret draw is not in the log


def test_room_chits_are_drawn_without_replacement():
    state = fresh()
    act(state, "setup", {"heroes": [7], "chits": "virtual"}, 1, 1, 1)
    act(state, "reveal", {"room": 3}, 40, 1)  # the 40th chit (T20), then the 1st (M1)
    d = den(state)
    assert d.rooms[3] == ["T20", "M1"]
    assert len(d.room_cup) == 38 and "T20" not in d.room_cup and "M1" not in d.room_cup
    assert [m.name for m in d.monsters] == ["Fire Beetle"] and d.loose == {"T20": 3}
    with pytest.raises(InputError, match="already revealed"):
        act(state, "reveal", {"room": 3})


def test_one_monster_and_one_treasure_per_room_variant():
    state = fresh("one-each")
    act(state, "setup", {"heroes": [7], "chits": "virtual"}, 1, 1, 1)
    script = act(state, "reveal", {"room": 1}, 20, 20)
    assert [str(r.expr) for r in script.asked] == ["1d20", "1d20"]
    assert den(state).rooms[1] == ["M20", "T20"]


def test_typed_chits_must_be_in_the_cup():
    state = table((7,))
    room(state, 1, "m15", "t9")
    with pytest.raises(InputError, match="not in the cup"):
        act(state, "reveal", {"room": 2}, "troll")
    with pytest.raises(InputError, match="not a room chit"):
        act(state, "reveal", {"room": 2}, "dragon")
    assert 2 not in den(state).rooms  # a refused draw changes nothing


# ---- attacks ------------------------------------------------------------------------------------


def test_an_attack_succeeds_at_or_under_current_health():
    state = table((7,))
    room(state, 1, "m18", "t1")  # a hill giant, health 8
    sam = den(state).figure("sam")
    sam.health = 3
    act(state, "attack", {"attacker": "sam", "target": "hill-giant"}, 3)
    assert hp(state, "hill-giant") == 7
    state = table((7,))
    room(state, 1, "m18", "t1")
    den(state).figure("sam").health = 3
    act(state, "attack", {"attacker": "sam", "target": "hill-giant"}, 4)
    assert hp(state, "hill-giant") == 8


def test_an_attack_at_six_or_more_health_needs_no_roll():
    state = table((7,))
    room(state, 1, "m3", "t1")
    script = act(state, "attack", {"attacker": "sam", "target": "goblin"})
    assert script.asked == []
    assert den(state).figure("goblin").status == "slain"


def test_one_attack_per_turn_and_no_running_after_it():
    state = table((7,))
    room(state, 1, "m18", "t1")
    act(state, "attack", {"attacker": "sam", "target": "hill-giant"})
    with pytest.raises(InputError, match="already attacked"):
        act(state, "attack", {"attacker": "sam", "target": "hill-giant"})
    with pytest.raises(InputError, match="may not run"):
        act(state, "move", {"who": "sam", "run": True})


def test_a_hero_who_ran_may_not_attack():
    state = table((7,))
    room(state, 1, "m18", "t1")
    script = act(state, "move", {"who": "sam", "run": True}, (3, 10))
    assert str(script.asked[0].expr) == "1d6+1d10"
    assert "up to 15 squares" in log_text(state)  # 3 + 10 + speed 2
    with pytest.raises(InputError, match="ran this turn"):
        act(state, "attack", {"attacker": "sam", "target": "hill-giant"})


def test_turn_order_runs_from_seven_down_then_the_dragon_player():
    state = table((1, 5, 7))
    assert den(state).turn == "sam"
    with pytest.raises(InputError, match="Sam Barleyman's turn"):
        act(state, "move", {"who": "talina"}, 1)
    act(state, "end-turn", {})
    assert den(state).turn == "talina"
    act(state, "end-turn", {})
    assert den(state).turn == "grochek"
    act(state, "end-turn", {})
    assert den(state).phase == "dragon"
    act(state, "end-turn", {})
    assert (den(state).round, den(state).turn) == (2, "sam")


def test_monsters_attack_heroes_in_the_dragon_turn():
    state = table((7,))
    room(state, 1, "m9", "t1")  # troglodyte warrior, health 3
    with pytest.raises(InputError, match="turn"):
        act(state, "attack", {"attacker": "troglodyte-warrior", "target": "sam"}, 1)
    to_dragon_turn(state)
    act(state, "attack", {"attacker": "troglodyte-warrior", "target": "sam"}, 3)
    assert hp(state, "sam") == 7
    with pytest.raises(InputError, match="already attacked"):
        act(state, "attack", {"attacker": "troglodyte-warrior", "target": "sam"}, 1)


def test_a_hero_slain_loses_his_treasure_to_the_heroes():
    state = table((7,))
    room(state, 1, "m20", "t8")
    act(state, "take", {"hero": "sam", "chit": "T8"})
    sam = den(state).figure("sam")
    sam.health = 1
    to_dragon_turn(state)
    act(state, "attack", {"attacker": "wraith", "target": "sam"})  # the wraith's health 8: no roll
    assert sam.status == "slain" and sam.treasure == ["T8"]
    assert "lost to the heroes" in log_text(state)
    assert den(state).phase == "over"  # no hero left in the den


# ---- hero abilities -----------------------------------------------------------------------------


def test_deathblow_costs_one_health_and_works_four_times_only():
    state = table((2,))
    room(state, 1, "m18", "m19")
    for n in range(4):
        target = "hill-giant" if n < 2 else "lizard-man-chieftain"
        act(state, "ability", {"hero": "jared", "ability": "deathblow", "target": target})
        assert hp(state, "jared") == 11 - n
        next_round(state)
    assert den(state).figure("hill-giant").status == "slain"
    assert den(state).figure("jared").uses["deathblow"] == 4
    with pytest.raises(InputError, match="4 times"):
        act(state, "ability", {"hero": "jared", "ability": "deathblow", "target": "lizard-man-chieftain"})


def test_magic_missile_rolls_damage_and_is_limited_to_four():
    state = table((4,))
    room(state, 1, "m18", "m19")
    for n, (face, target) in enumerate(
        ((6, "lizard-man-chieftain"), (1, "lizard-man-chieftain"), (2, "lizard-man-chieftain"), (3, "hill-giant"))
    ):
        script = act(state, "ability", {"hero": "ren", "ability": "missile", "target": target}, face)
        assert str(script.asked[0].expr) == "1d6"
        assert hp(state, "ren") == 6 - n
        next_round(state)
    assert den(state).figure("lizard-man-chieftain").status == "slain"  # 6 + 1 + 2 = 9 ≥ 8
    assert hp(state, "hill-giant") == 5
    with pytest.raises(InputError, match="4 times"):
        act(state, "ability", {"hero": "ren", "ability": "missile", "target": "hill-giant"}, 1)


def test_rune_axe_hits_only_the_dragon_and_takes_a_chit_from_the_hoard():
    state = table((1,), dragon=12)  # a yearling red dragon, health 16
    room(state, 1, "m18", "t1")
    with pytest.raises(InputError, match="only on the dragon"):
        act(state, "ability", {"hero": "grochek", "ability": "axe", "target": "hill-giant"})
    act(state, "lair", {})
    act(state, "ability", {"hero": "grochek", "ability": "axe", "target": "dragon"}, 5, 3)
    d = den(state)
    assert hp(state, "dragon") == 11 and hp(state, "grochek") == 13
    assert d.figure("grochek").treasure == ["D3"] and 3 not in d.hoard
    assert d.alarm  # the first treasure sounds the alarm


def test_slaying_the_dragon_takes_the_whole_hoard():
    state = table((2,), dragon=12)
    act(state, "lair", {})
    den(state).dragon.health = 3
    act(state, "ability", {"hero": "jared", "ability": "deathblow", "target": "dragon"})
    d = den(state)
    assert d.dragon.status == "slain" and d.slayer == "jared"
    assert sorted(d.figure("jared").treasure) == sorted(f"D{n}" for n in range(1, 11)) and d.hoard == []


def test_a_successful_attack_on_the_dragon_takes_one_chit():
    state = table((7,), dragon=12)
    act(state, "lair", {})
    act(state, "attack", {"attacker": "sam", "target": "dragon"}, 10)  # automatic hit; hoard chit 10
    assert den(state).figure("sam").treasure == ["D10"] and hp(state, "dragon") == 15


def test_heal_spell_pays_first_and_never_heals_above_the_health_score():
    state = table((3, 2))
    elin, jared = den(state).figure("elin"), den(state).figure("jared")
    assert den(state).turn == "elin"  # #3 before #2
    jared.health = 11
    act(state, "ability", {"hero": "elin", "ability": "heal", "target": "jared"})
    assert (elin.health, jared.health) == (9, 12)  # never above Jared's 12
    next_round(state)
    act(state, "ability", {"hero": "elin", "ability": "heal", "target": "elin"})
    assert elin.health == 10  # 9 - 1 + 2, capped at her health score of 10
    next_round(state)
    elin.health = 1
    act(state, "ability", {"hero": "elin", "ability": "heal", "target": "elin"})
    assert elin.health == 2 and elin.status == "in"  # pays to 0, heals to 2: alive
    next_round(state)
    room(state, 1, "m3", "t1")
    with pytest.raises(InputError, match="not a hero"):
        act(state, "ability", {"hero": "elin", "ability": "heal", "target": "goblin"})


def test_cause_wounds_spell_takes_two():
    state = table((3,))
    room(state, 1, "m18", "t1")
    act(state, "ability", {"hero": "elin", "ability": "wounds", "target": "hill-giant"})
    assert hp(state, "hill-giant") == 6 and hp(state, "elin") == 9


def test_shield_spell_saves_on_one_to_five_and_costs_one_either_way():
    state = table((4,))
    room(state, 1, "m9", "t1")
    to_dragon_turn(state)
    act(state, "attack", {"attacker": "troglodyte-warrior", "target": "ren"}, 2, "yes", 5)
    assert hp(state, "ren") == 6  # the shield held: only its cost
    act(state, "end-turn", {})
    to_dragon_turn(state)
    act(state, "attack", {"attacker": "troglodyte-warrior", "target": "ren"}, 2, "yes", 6)
    assert hp(state, "ren") == 4  # it failed: the hit and the cost
    act(state, "end-turn", {})
    to_dragon_turn(state)
    act(state, "attack", {"attacker": "troglodyte-warrior", "target": "ren"}, 2, "no")
    assert hp(state, "ren") == 3


def test_haste_adds_one_to_five_squares_and_a_six_fails_but_still_costs():
    state = table((6,))
    act(state, "move", {"who": "cara"}, 2, "yes", 4)
    assert "up to 9 squares (Haste +4)" in log_text(state) and hp(state, "cara") == 7
    with pytest.raises(InputError, match="already attacked"):  # haste was instead of her attack
        act(state, "take", {"hero": "cara", "chit": "T1"})
    act(state, "end-turn", {})
    act(state, "end-turn", {})
    act(state, "move", {"who": "cara", "run": True}, (2, 3), "yes", 6)
    assert "up to 8 squares (Haste failed)" in log_text(state) and hp(state, "cara") == 6


def test_trickster_takes_a_monsters_treasure_or_two_from_the_dragon():
    state = table((5,), dragon=12)
    room(state, 1, "m3", "t7")
    act(state, "ability", {"hero": "talina", "ability": "trickster", "target": "goblin"})
    assert den(state).figure("talina").treasure == ["T7"] and den(state).loose == {}
    next_round(state)
    act(state, "lair", {})
    act(state, "ability", {"hero": "talina", "ability": "trickster", "target": "dragon"}, 1, 2)
    assert den(state).figure("talina").treasure == ["T7", "D1", "D2"] and hp(state, "talina") == 6
    assert den(state).figure("dragon").health == 16  # unharmed


def test_a_monster_without_treasure_in_its_room_has_nothing_to_give():
    state = table((5,))
    room(state, 1, "m3", "m4")
    with pytest.raises(InputError, match="no treasure"):
        act(state, "ability", {"hero": "talina", "ability": "trickster", "target": "goblin"})
    assert hp(state, "talina") == 8  # refused before paying


def test_charm_takes_one_treasure_unharmed():
    state = table((6,), dragon=12)
    act(state, "lair", {})
    act(state, "ability", {"hero": "cara", "ability": "charm", "target": "dragon"}, 7)
    assert den(state).figure("cara").treasure == ["D7"] and hp(state, "dragon") == 16 and hp(state, "cara") == 7


def test_sneak_takes_a_chit_and_the_breath_cannot_touch_sam_this_turn():
    state = table((7, 6), dragon=1)
    act(state, "lair", {})
    room(state, 1, "m3", "t1")
    with pytest.raises(InputError, match="only on the dragon"):
        act(state, "ability", {"hero": "sam", "ability": "sneak", "target": "goblin"})
    act(state, "ability", {"hero": "sam", "ability": "sneak", "target": "dragon"}, 4)
    assert den(state).figure("sam").treasure == ["D4"]
    to_dragon_turn(state)
    with pytest.raises(InputError, match=r"Sam Barleyman is cowering under the dragon \(Sneak\): its breath reaches"):
        act(state, "breath", {"targets": ["sam"]})
    # #13 item 17: a breath that names the sneaking hero leaves him out and reaches the others
    act(state, "breath", {"targets": ["sam", "cara"]})  # Cara at 8: saves automatically
    assert hp(state, "sam") == 7 and hp(state, "cara") == 7
    log = "\n".join(e.get("t", "") for e in state.log.entries)
    assert "Sam Barleyman cowers under the dragon (Sneak): the breath passes over him." in log
    act(state, "end-turn", {})
    assert den(state).sneaking == []


def test_abilities_are_instead_of_an_attack():
    state = table((2,))
    room(state, 1, "m18", "t1")
    act(state, "attack", {"attacker": "jared", "target": "hill-giant"})
    with pytest.raises(InputError, match="already attacked"):
        act(state, "ability", {"hero": "jared", "ability": "deathblow", "target": "hill-giant"})


def test_an_ability_at_one_health_kills_its_user_after_its_effect():
    state = table((2, 7))
    room(state, 1, "m18", "t1")
    act(state, "end-turn", {})
    den(state).figure("jared").health = 1
    act(state, "ability", {"hero": "jared", "ability": "deathblow", "target": "hill-giant"})
    assert hp(state, "hill-giant") == 4 and den(state).figure("jared").status == "slain"
    assert den(state).phase == "dragon"  # his turn passed on


# ---- monsters' specials ---------------------------------------------------------------------------


def test_troll_regenerates_three_up_to_four_even_from_one_health():
    state = table((7,))
    room(state, 1, "m15", "t1")
    troll = den(state).figure("troll")
    troll.health = 1
    to_dragon_turn(state)
    act(state, "special", {"monster": "troll"})
    assert troll.health == 3  # pays 1 (to 0), regains 3: 3
    act(state, "end-turn", {})
    to_dragon_turn(state)
    act(state, "special", {"monster": "troll"})
    assert troll.health == 4  # 3 - 1 + 3 = 5, never above 4


def test_wraith_wounds_every_figure_next_to_it():
    state = table((7, 2))
    room(state, 1, "m20", "m3")
    to_dragon_turn(state)
    act(state, "special", {"monster": "wraith", "targets": ["sam", "jared", "goblin"]})
    assert (hp(state, "sam"), hp(state, "jared"), hp(state, "wraith")) == (6, 10, 7)
    assert den(state).figure("goblin").status == "slain"


def test_carrion_crawler_paralyses_a_hero_for_his_next_turn():
    state = table((7,))
    room(state, 1, "m11", "t1")
    to_dragon_turn(state)
    act(state, "special", {"monster": "carrion-crawler", "target": "sam"})
    assert hp(state, "carrion-crawler") == 3
    act(state, "end-turn", {})
    for do, args in (
        ("move", {"who": "sam"}),
        ("attack", {"attacker": "sam", "target": "carrion-crawler"}),
        ("take", {"hero": "sam", "chit": "T1"}),
    ):
        with pytest.raises(InputError, match="paralysed"):
            act(state, do, args)
    act(state, "end-turn", {})
    act(state, "end-turn", {})
    act(state, "move", {"who": "sam"}, 1)  # free again the turn after


def test_only_three_monsters_have_specials():
    state = table((7,))
    room(state, 1, "m3", "t1")
    to_dragon_turn(state)
    with pytest.raises(InputError, match="no special"):
        act(state, "special", {"monster": "goblin"})


# ---- breath ---------------------------------------------------------------------------------------


def test_greater_breath_takes_two_or_one_on_a_save_and_costs_the_dragon_one():
    state = table((7, 4, 2), dragon=2)  # adult black: greater acid
    den(state).figure("sam").health = 4
    to_dragon_turn(state)
    script = act(state, "breath", {"targets": ["sam", "ren", "jared"]}, 4, "no")
    # Sam (4) rolls a 4: saved, loses 1. Ren (7) and Jared (12) save automatically; Ren declines his Shield.
    assert [r.key for r in script.asked] == ["dd.save.sam", "dd.shield"]
    assert (hp(state, "sam"), hp(state, "ren"), hp(state, "jared"), hp(state, "dragon")) == (3, 6, 11, 19)
    assert den(state).dragon.status == "in"  # breathing reveals it
    with pytest.raises(InputError, match="already breathed"):
        act(state, "breath", {"targets": ["sam"]})


def test_a_failed_save_against_greater_breath_takes_two():
    state = table((7,), dragon=5)
    den(state).figure("sam").health = 3
    to_dragon_turn(state)
    act(state, "breath", {"targets": ["sam"]}, 4)
    assert hp(state, "sam") == 1


def test_lesser_breath_takes_one_with_no_save():
    state = table((7,), dragon=11)
    den(state).figure("sam").health = 3
    to_dragon_turn(state)
    script = act(state, "breath", {"targets": ["sam"]})
    assert script.asked == [] and hp(state, "sam") == 2 and hp(state, "dragon") == 17


def test_shield_against_the_breath():
    state = table((4,), dragon=1)
    den(state).figure("ren").health = 5
    to_dragon_turn(state)
    act(state, "breath", {"targets": ["ren"]}, 6, "yes", 1)
    assert hp(state, "ren") == 4  # failed save (2) blocked by the Shield; the spell's cost only


# ---- the alarm, the countdown, the end ------------------------------------------------------------


def test_the_alarm_and_a_countdown_of_nine():
    state = table((7,))
    room(state, 1, "t5", "m3")
    assert not den(state).alarm
    act(state, "take", {"hero": "sam", "chit": "T5"})
    assert den(state).alarm and "alarm sounds" in log_text(state)
    left = list(den(state).cup)
    for n in range(9):
        act(state, "end-turn", {}, left[n])  # the dragon turn begins with a countdown chit
        assert len(den(state).cup) == 8 - n
        if n < 8:
            act(state, "end-turn", {})
    d = den(state)
    assert d.phase == "over" and d.figure("sam").status == "trapped"
    assert "gates slam shut" in log_text(state)
    assert state.finished is not None and "Heroes slain!" in state.finished


def test_the_longer_game_counts_down_eleven():
    state = fresh("long")
    act(state, "setup", {"heroes": [7], "chits": "physical"}, 4)
    room(state, 1, "t5", "m3")
    act(state, "take", {"hero": "sam", "chit": "T5"})
    for n, chit in enumerate(list(den(state).cup)):
        act(state, "end-turn", {}, chit)
        if n < 10:
            assert den(state).phase == "dragon"
            act(state, "end-turn", {})
    assert den(state).phase == "over" and len(den(state).drawn) == 11


def test_no_countdown_before_the_alarm():
    state = table((7,))
    script = act(state, "end-turn", {})
    assert script.asked == [] and len(den(state).cup) == 9


def test_the_game_ends_when_no_hero_is_left_inside():
    state = table((7,))
    room(state, 1, "t7", "m3")
    act(state, "take", {"hero": "sam", "chit": "T7"})
    act(state, "escape", {"hero": "sam"})
    d = den(state)
    assert d.phase == "over"
    s = d.score
    assert (s.haul, s.heroes_result) == (1000, "500-1,999 gp")
    assert (s.happiness, s.dragon_result) == (10, "10-14 points")


@pytest.mark.parametrize(
    ("carried", "lost", "result"),
    [
        (["T8", "T9", "T10", "D10", "D9", "D8"], 0, "10,000+ gp"),  # 1500+1750+2000+2000+1750+1500
        (["T10", "D10", "T9"], 0, "5,000-9,999 gp"),
        (["T10"], 0, "2,000-4,999 gp"),
        (["T7"], 0, "500-1,999 gp"),
        (["T4"], 1, "0-249 gp"),  # 500 - 1000 < 0: read as the lowest band
        (["T1", "T11"], 0, "0-249 gp"),  # a blank is worth 0 gp
        (["T2"], 0, "250-499 gp"),
    ],
)
def test_heroes_victory_chart(carried, lost, result):
    state = table((7, 6))
    d = den(state)
    d.figure("sam").status = "escaped"
    d.figure("sam").treasure = list(carried)
    d.figure("cara").status = "slain" if lost else "escaped"
    score = rules.final_score(d, state.data)
    assert score.heroes_result == result


def test_dragon_victory_chart_counts_lost_heroes_chits_left_and_chits_held_by_the_lost():
    state = table((7, 6, 5))
    d = den(state)
    d.hoard = [1, 2, 3]
    d.figure("sam").status = "slain"
    d.figure("sam").treasure = ["D4", "D5", "T1"]
    d.figure("cara").status = "escaped"
    d.figure("cara").treasure = ["D6"]
    d.figure("talina").status = "trapped"
    score = rules.final_score(d, state.data)
    assert score.happiness == 2 + 3 + 2 and score.dragon_result == "5-9 points"
    assert score.haul == rules.chit_value(state.data, "D6") - 2000


def test_all_heroes_lost_and_a_slain_dragon():
    state = table((7, 6))
    d = den(state)
    for h in d.heroes:
        h.status = "trapped"
    s = rules.final_score(d, state.data)
    assert (s.heroes_result, s.dragon_result) == ("Heroes slain!", "Dragon rules!")
    d.dragon.status = "slain"
    s = rules.final_score(d, state.data)
    assert (s.heroes_result, s.dragon_result) == ("Dragon slain!", "Dragon slain!")


@pytest.mark.parametrize(
    ("points", "result"),
    [(0, "0-4 points"), (4, "0-4 points"), (5, "5-9 points"), (14, "10-14 points"), (15, "15+ points")],
)
def test_dragon_chart_bands(points, result):
    assert rules.dragon_row(points, dragon_slain=False, all_lost=False).result == result


def test_a_corrected_treasure_row_counts_in_the_score():
    state = table((7,))
    state.data["treasure.monster.9.gp"] = 100
    room(state, 1, "t9", "m3")
    act(state, "take", {"hero": "sam", "chit": "T9"})
    act(state, "escape", {"hero": "sam"})
    assert den(state).score.haul == 100


def test_the_shield_attacks_only_variant_leaves_the_breath_unshielded():
    state = fresh("shield-attacks-only")
    act(state, "setup", {"heroes": [4], "chits": "physical"}, 1, 2, 3)
    den(state).figure("ren").health = 5
    to_dragon_turn(state)
    script = act(state, "breath", {"targets": ["ren"]}, 6)
    assert script.keys() == ["dd.save.ren"] and hp(state, "ren") == 3
