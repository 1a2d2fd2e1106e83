"""The Adventure in the Dungeon, played through the engine with chosen dice: every area's special rule,
the Paladin's cure, the Wizard's condition, fleeing and returning, the Talisman and the score."""

from __future__ import annotations

import pytest

from companion.engine.requests import Choice, Number, Text
from companion.games.adventure_in_the_dungeon import data as D
from companion.games.adventure_in_the_dungeon import rules as R
from tests.aitd_support import AREA12, DATA, Driver, make_state, started


def kill(state, name: str) -> None:
    """Put a hero out of the fight before it starts (all hits taken)."""
    t = state.trackers.tallies[name]
    t.hits = t.max_hits


def wound(state, name: str, hits: int) -> None:
    state.trackers.tallies[name].hits = hits


# ---- the player's numbers -------------------------------------------------------------------------


def test_the_numbers_the_text_leaves_out_are_asked_once_in_order_with_where_to_find_them():
    state = make_state(data={})
    d = Driver(state)
    source = d.expect("data.source")
    assert isinstance(source, Choice) and source.values() == ("book", "house", "suggested")
    d.number("book")
    asked = []
    for hero, values in (("rangeress", (7, 6, 9)), ("fighter", (8, 5, 10)), ("wizard", (5, 9, 8))):
        for field, value in zip(("hits", "to_hit", "be_hit"), values, strict=True):
            req = d.expect(f"data.{hero}.{field}")
            assert isinstance(req, Number) and "table of the four characters" in req.where
            asked.append(req.key)
            d.number(value)
    kind = d.expect("data.area12.kind")
    assert "Area 12" in kind.prompt
    d.number("empty")
    d.expect("area.enter")
    assert "paladin" not in " ".join(asked)  # the text gives the Paladin's numbers
    assert state.data["rangeress.be_hit"] == 9 and state.data["source"] == "book"
    assert "from the player's copy of the book" in d.log_text()


def test_area_12_as_a_monster_asks_its_numbers_and_joins_the_dungeon():
    state = make_state(data={k: v for k, v in DATA.items() if not k.startswith("area12")})
    d = Driver(state)
    d.number("monster", "data.area12.kind")
    assert isinstance(d.expect("data.area12.name"), Text)
    d.number("Gelatinous Thing")
    for key, value in (("hits", 3), ("attacks", 2), ("bonus", 1), ("penalty", 1), ("damage", 1)):
        d.number(value, f"data.area12.{key}")
    d.choose("poison", "data.area12.form")
    assert "12" in d.expect("area.enter").values()
    d.enter(12)
    d.choose("wait", "round.first")
    paladin = d.expect("monster.paladin")
    assert paladin.mod == 1
    d.miss()
    d.miss("monster.rangeress")  # it attacks two heroes
    d.choose("fight", "round.action")
    assert d.expect("attack.paladin").mod == -1


def test_a_bad_value_in_the_catalogue_is_asked_again_not_used():
    state = make_state(data={**DATA, "rangeress.hits": "seven", "fighter.to_hit": 40})
    d = Driver(state)
    d.number(7, "data.rangeress.hits")
    d.number(5, "data.fighter.to_hit")
    d.expect("area.enter")


def test_house_numbers_are_said_in_the_log():
    d = Driver(make_state())
    assert "house numbers, not the book's" in d.log_text()
    assert "Krylla – RANGERESS: 7" in d.log_text()


# ---- each area's special rules --------------------------------------------------------------------


def test_ocular_terror_attacks_every_hero_at_plus_3_and_its_magic_is_resisted_by_the_dwarf():
    d = Driver(make_state())
    d.enter(1).choose("wait", "round.first")
    for hero in ("paladin", "rangeress", "fighter", "wizard"):
        req = d.expect(f"monster.{hero}")
        assert req.mod == (2 if hero == "fighter" else 3)
        if hero == "fighter":
            assert ("dwarf resists magic", -1) in req.parts
        d.miss()
    d.expect("round.action")


def test_only_the_paladin_and_wizard_can_hit_the_demon_and_it_fights_only_them():
    state = make_state()
    d = Driver(state)
    d.enter(2)
    d.expect("monster.paladin")  # no first strike: the Rangeress cannot hurt it
    d.miss()
    d.choose("fight", "round.action")
    d.miss("attack.paladin")
    assert "spell" in d.expect("attack.wizard").why
    d.miss()
    d.miss("monster.paladin")  # one attack a round, on the top of its list
    kill(state, "Adelhardt")  # (companion tally hit Adelhardt 9, say)
    d.choose("fight", "round.action")
    d.miss("attack.wizard")
    d.expect("monster.wizard")  # it fights the Wizard, the one left who can hurt it


def test_with_no_one_left_who_can_hurt_the_demon_the_party_can_only_flee():
    state = make_state()
    d = Driver(state)
    kill(state, "Adelhardt")
    kill(state, "Regalan")
    d.enter(2)
    d.miss("monster.rangeress")  # it then works down the list of the rest
    action = d.expect("round.action")
    assert [v for v in action.values() if not v.startswith("cure")] == ["flee"]
    assert "must flee" in action.prompt


def test_rats_attack_everyone_nobody_can_leave_and_spells_do_not_work():
    d = Driver(make_state())
    d.enter(3).choose("wait", "round.first")
    assert d.expect("monster.paladin").why == "The Giant Rats attack Adelhardt"
    for hero in ("paladin", "rangeress", "fighter", "wizard"):
        d.miss(f"monster.{hero}")
    action = d.expect("round.action")
    assert "flee" not in action.values()
    assert "no one can leave" in action.prompt
    d.choose("fight")
    for hero in ("paladin", "rangeress", "fighter"):
        d.miss(f"attack.{hero}")
    wizard = d.expect("attack.wizard")
    assert wizard.expr.target == 9 and "spell" not in wizard.why  # his weapon, not his magic
    d.hit()
    assert d.tally("Giant Rats").hits == 1


def test_ogre_mage_scores_two_hits_but_one_on_the_dwarf_and_heroes_take_minus_1():
    state = make_state()
    d = Driver(state)
    d.enter(4).choose("wait", "round.first")
    d.hit("monster.paladin")
    assert d.tally("Adelhardt").hits == 2
    assert d.expect("round.action")
    d.choose("fight")
    assert d.expect("attack.paladin").mod == -1
    state2 = make_state()
    d2 = Driver(state2)
    kill(state2, "Adelhardt")
    kill(state2, "Krylla")
    d2.enter(4)
    req = d2.expect("monster.fighter")
    assert req.mod == 0  # its magic halves the blow on the dwarf instead of taking 1 off the dice
    d2.hit()
    assert d2.tally("Ibli").hits == 1


def test_ochre_jelly_attacks_the_dwarf_and_the_wizard_who_alone_can_attack_it():
    d = Driver(make_state())
    d.enter(5)
    d.miss("monster.fighter")  # no first strike: Krylla cannot attack it
    d.miss("monster.wizard")
    d.choose("fight", "round.action")
    d.miss("attack.fighter")
    d.miss("attack.wizard")
    d.expect("monster.fighter")


@pytest.mark.parametrize(
    ("first", "variants", "expected"),
    [
        ("wait", (), ["monster.paladin", "monster.rangeress", "monster.fighter", "monster.wizard"]),
        ("hit", (), ["monster.rangeress"]),
        ("miss", (), ["monster.rangeress", "monster.paladin", "monster.fighter", "monster.wizard"]),
        ("hit", (R.GORGON_EACH,), ["monster.rangeress", "monster.paladin", "monster.fighter", "monster.wizard"]),
    ],
)
def test_the_gorgon_scores_two_hits_on_everyone_unless_struck_first(first, variants, expected):
    state = make_state(variants=variants)
    d = Driver(state)
    d.enter(6)
    if first == "wait":
        d.choose("wait", "round.first")
    else:
        d.choose("strike", "round.first")
        d.hit() if first == "hit" else d.miss()
    for key in expected:
        d.hit(key)
    d.expect("round.action")
    struck_first = first == "hit"
    per_hit = 1 if struck_first else 2
    assert d.tally("Krylla").hits == per_hit
    if len(expected) == 4:
        assert d.tally("Adelhardt").hits == per_hit and d.tally("Regalan").hits == per_hit


def test_the_octopus_attacks_twice_and_a_hero_it_entwines_drowns_on_a_miss():
    state = make_state()
    d = Driver(state)
    d.enter(7).choose("strike", "round.first")
    d.miss("attack.rangeress")
    d.miss("monster.rangeress")  # it attacks the one who attacked it first, then the top of the list
    d.hit("monster.paladin")
    assert state.game.twine == 1
    d.choose("fight", "round.action")
    d.miss("attack.paladin")
    assert "drowned" in state.game.fates["paladin"] and "Adelhardt misses while entwined" in d.log_text()
    assert d.tally("Adelhardt").hits == 1  # drowned, not slain by hits: the tally stays as it was


def test_an_entwined_hero_who_hits_is_freed_and_one_alone_is_attacked_twice():
    state = make_state()
    d = Driver(state)
    for name in ("Adelhardt", "Ibli", "Regalan"):
        kill(state, name)
    d.enter(7).choose("wait", "round.first")
    d.hit("monster.rangeress")
    d.miss("monster.rangeress")  # both attacks fall on the Rangeress, alone in the pool
    d.choose("fight", "round.action")
    d.hit("attack.rangeress")
    assert state.game.twine == 0 and "Krylla" not in state.game.fates


@pytest.mark.parametrize("variants", [(), (R.FLEE_WITH_ALL,)])
def test_fleeing_the_octopus_drowns_the_entwined(variants):
    state = make_state(variants=variants)
    d = Driver(state)
    d.enter(7).choose("wait", "round.first")
    d.hit("monster.paladin")
    d.miss("monster.rangeress")
    flee = d.expect("round.action").option("flee")
    d.choose("flee")
    drowned = "rangeress" not in state.game.fates and "paladin" in state.game.fates
    if variants:
        assert not drowned and "drowns" not in flee.hint
    else:
        assert drowned and "Adelhardt, entwined, drowns" in flee.hint


def test_the_cadaver_creeper_paralyses_until_the_paladin_cures_the_hit():
    state = make_state()
    d = Driver(state)
    d.enter(8).choose("wait", "round.first")
    d.hit("monster.paladin")
    assert state.game.para == 1
    action = d.expect("round.action")
    assert "cure:paladin" in action.values()
    assert action.option("cure:paladin").hint == "ends the paralysis"
    d.choose("fight")
    d.miss("attack.rangeress")  # the paralysed Paladin does not attack
    d.miss("attack.fighter").miss("attack.wizard")
    d.choose("wait", "round.first")
    d.miss("monster.paladin")
    d.choose("cure:paladin", "round.action")
    assert state.game.para == 0 and state.game.cure and d.tally("Adelhardt").hits == 0
    assert not [v for v in d.expect("round.action").values() if v.startswith("cure")]
    d.choose("fight")
    d.miss("attack.paladin")


def test_the_creeper_kills_when_the_cure_is_spent_and_the_paralysed_die_when_it_goes_elsewhere():
    state = started(make_state())
    wound(state, "Ibli", 2)
    d = Driver(state)
    d.choose("cure:fighter", "area.enter")  # the cure spent between areas
    assert state.game.cure and d.tally("Ibli").hits == 1
    d.enter(8).choose("wait", "round.first")
    d.hit("monster.paladin")
    assert "paladin" in state.game.fates and "poison" in state.game.fates["paladin"]
    state2 = make_state()
    d2 = Driver(state2)
    d2.enter(8).choose("strike", "round.first")
    d2.miss("attack.rangeress")
    d2.hit("monster.rangeress")
    assert state2.game.para == 2
    d2.choose("fight", "round.action")
    d2.miss("attack.paladin").miss("attack.fighter").miss("attack.wizard")
    d2.choose("wait", "round.first") if d2.req.key == "round.first" else None
    d2.hit("monster.paladin")  # Krylla is paralysed, so the Creeper goes for the top of the list
    option = d2.expect("round.action").option("cure:paladin")
    assert "Krylla, still paralysed, then dies" in option.hint
    d2.choose("cure:paladin")
    assert "rangeress" in state2.game.fates and "can no longer come" in state2.game.fates["rangeress"]


def test_the_paralysed_die_when_the_paladin_falls():
    state = started(make_state())
    wound(state, "Adelhardt", 8)
    d = Driver(state)
    d.enter(8).choose("strike", "round.first")
    d.miss("attack.rangeress")
    d.hit("monster.rangeress")  # Krylla paralysed, waiting on the cure
    d.choose("fight", "round.action")
    d.miss("attack.paladin")
    d.miss("attack.fighter")
    d.miss("attack.wizard")
    d.choose("wait", "round.first") if d.req.key == "round.first" else None
    d.hit("monster.paladin")  # Adelhardt's ninth hit: slain, and his cure with him
    assert {"paladin", "rangeress"} <= set(state.game.fates)


def test_the_xorn_attacks_three_heroes_at_plus_1_and_heroes_take_minus_2():
    d = Driver(make_state())
    d.enter(9).choose("wait", "round.first")
    assert d.expect("monster.paladin").mod == 1
    d.miss().miss("monster.rangeress").miss("monster.fighter")
    d.choose("fight", "round.action")  # the Wizard, fourth on the list, was not attacked
    assert d.expect("attack.paladin").mod == -2


def test_the_remorhaz_scores_two_hits_at_plus_2_and_a_miss_costs_the_next_attack():
    state = make_state()
    d = Driver(state)
    d.enter(10).choose("strike", "round.first")
    d.miss("attack.rangeress")
    assert d.expect("monster.rangeress").mod == 2
    d.hit()
    assert d.tally("Krylla").hits == 2
    d.choose("fight", "round.action")
    d.miss("attack.paladin")
    d.hit("attack.fighter")
    d.miss("attack.wizard")  # a spell that misses costs nothing
    # Round 2: Krylla and Adelhardt missed, so neither attacks; no first strike either.
    d.miss("monster.paladin")
    d.choose("fight", "round.action")
    d.expect("attack.fighter")
    d.miss()
    d.expect("attack.wizard")
    d.miss()
    d.choose("strike", "round.first")  # round 3: Krylla may attack again


def test_the_spiders_webs_trap_heroes_who_miss_and_it_scores_two_hits_on_a_12():
    state = make_state()
    d = Driver(state)
    d.enter(11)
    d.hit("web.paladin")
    d.miss("web.rangeress")
    d.hit("web.fighter")
    assert "spell" in d.expect("web.wizard").why
    d.hit()
    assert state.game.trap == 2
    d.roll(6, 6, key="monster.paladin")  # no first strike: Krylla is in the webs
    assert d.tally("Adelhardt").hits == 2
    d.choose("fight", "round.action")
    d.miss("attack.paladin")
    d.expect("attack.fighter")  # the trapped Rangeress cannot attack


def test_the_dwarf_never_takes_the_spiders_double_hit():
    state = make_state()
    d = Driver(state)
    kill(state, "Adelhardt")
    kill(state, "Krylla")
    d.enter(11).hit("web.fighter").hit("web.wizard")
    d.roll(6, 6, key="monster.fighter")  # 12 − 1 for poison: one hit
    assert d.tally("Ibli").hits == 1


def test_when_every_hero_is_caught_in_the_webs_the_spider_eats_them():
    state = make_state()
    d = Driver(state).enter(11)
    for key in ("web.paladin", "web.rangeress", "web.fighter", "web.wizard"):
        d.miss(key)
    assert d.done and state.finished.startswith("lost")
    assert "eaten" in d.log_text()


def test_fleeing_the_spider_leaves_the_trapped_behind():
    state = make_state()
    d = Driver(state)
    d.enter(11).hit("web.paladin").miss("web.rangeress").hit("web.fighter").hit("web.wizard")
    d.miss("monster.paladin")
    assert "Krylla is left in the webs" in d.expect("round.action").option("flee").hint
    d.choose("flee")
    assert "rangeress" in state.game.fates and state.game.trap == 0


def test_iron_skeletons_attack_four_times_at_plus_1_and_each_falls_to_one_hit():
    state = make_state()
    d = Driver(state)
    d.enter(13).choose("wait", "round.first")
    for hero in ("paladin", "rangeress", "fighter", "wizard"):
        assert d.expect(f"monster.{hero}").mod == 1
        d.miss()
    d.choose("fight", "round.action")
    assert d.expect("attack.paladin").mod == -4
    d.hit()
    d.miss("attack.rangeress").miss("attack.fighter")
    d.hit("attack.wizard")  # a spell: one skeleton, whose one hit destroys it
    assert d.tally("Iron Skeletons").hits == 2
    d.choose("wait", "round.first")
    d.miss("monster.paladin").miss("monster.rangeress")
    d.expect("round.action")  # two skeletons left: two attacks


def test_with_two_heroes_left_the_four_skeletons_share_them_in_turn():
    state = make_state(variants=(R.MAGIC_TWO_SKELETONS,))
    d = Driver(state)
    kill(state, "Krylla")
    kill(state, "Ibli")
    d.enter(13)
    keys = []
    for _ in range(4):
        keys.append(d.req.key)
        d.miss()
    assert keys == ["monster.paladin", "monster.wizard", "monster.paladin", "monster.wizard"]
    d.choose("fight", "round.action")
    d.miss("attack.paladin")
    d.hit("attack.wizard")
    assert d.tally("Iron Skeletons").hits == 2  # the variant: a spell destroys two


# ---- the heroes' abilities ------------------------------------------------------------------------


def test_the_wizards_spell_needs_him_not_to_be_struck_first_that_round():
    state = make_state()
    d = Driver(state)
    d.enter(1).choose("wait", "round.first")
    d.miss("monster.paladin").miss("monster.rangeress").miss("monster.fighter")
    d.hit("monster.wizard")
    d.choose("fight", "round.action")
    d.miss("attack.paladin").miss("attack.rangeress").miss("attack.fighter")
    req = d.expect("attack.wizard")
    assert req.expr.target == 9 and "spell" not in req.why
    d.hit()
    assert d.tally("Ocular Terror").hits == 1  # his weapon: one hit
    d.choose("wait", "round.first")
    for hero in ("paladin", "rangeress", "fighter", "wizard"):
        d.miss(f"monster.{hero}")
    d.choose("fight", "round.action")
    d.miss("attack.paladin").miss("attack.rangeress").miss("attack.fighter")
    req = d.expect("attack.wizard")
    assert req.expr.target == D.MAGIC_TO_HIT and "spell" in req.why
    d.hit()
    assert d.tally("Ocular Terror").hits == 3  # a spell: two hits


def test_the_rangeress_first_strike_draws_the_monster_onto_her():
    d = Driver(make_state())
    d.enter(4).choose("strike", "round.first")
    d.miss("attack.rangeress")
    d.miss("monster.rangeress")
    d.choose("fight", "round.action")
    d.expect("attack.paladin")
    d.miss().miss("attack.fighter").miss("attack.wizard")  # she attacked already this round
    d.choose("strike", "round.first")


def test_the_paladins_cure_works_once_on_anyone_between_areas_or_in_a_fight():
    state = started(make_state())
    assert not [v for v in Driver(state).expect("area.enter").values() if v.startswith("cure")]  # nobody is hurt
    wound(state, "Regalan", 3)
    d = Driver(state)
    d.choose("cure:wizard", "area.enter")
    assert d.tally("Regalan").hits == 2 and state.game.cure
    assert not [v for v in d.expect("area.enter").values() if v.startswith("cure")]
    assert "Adelhardt cures one hit from Regalan" in d.log_text()


# ---- fleeing, the Talisman, the end ---------------------------------------------------------------


def test_a_monster_keeps_its_hits_when_the_party_flees_and_returns():
    state = make_state()
    d = Driver(state)
    d.enter(9).choose("wait", "round.first")
    d.miss("monster.paladin").miss("monster.rangeress").miss("monster.fighter")
    d.choose("fight", "round.action")
    d.hit("attack.paladin").hit("attack.rangeress").miss("attack.fighter").miss("attack.wizard")
    d.choose("wait", "round.first")
    d.miss("monster.paladin").miss("monster.rangeress").miss("monster.fighter")
    d.choose("flee", "round.action")
    choice = d.expect("area.enter")
    assert "it has 2 hits already" in choice.option("9").hint
    assert state.trackers.talisman.kills == 0  # fleeing is no kill
    d.enter(9)
    assert d.tally("Xorn").hits == 2
    assert "Xorn's Burrow (again)" in d.log_text() and "The party flees. The Xorn keeps its hits" in d.log_text()


def test_a_12_after_a_kill_finds_the_talisman_and_the_party_leaves_triumphant():
    state = make_state()
    d = Driver(state)
    d.enter(8).choose("wait", "round.first")
    d.miss("monster.paladin")
    d.choose("fight", "round.action")
    d.hit("attack.paladin").hit("attack.rangeress")
    d.roll(6, 6, key="talisman")
    assert state.trackers.talisman.found and state.trackers.talisman.found_on_kill == 1
    choice = d.expect("area.enter")
    assert choice.values()[0] == "leave" and "leave the dungeon" in choice.prompt
    d.choose("leave")
    assert d.done and state.finished == "won: Triumphant victory, 100 to 0"
    log = d.log_text()
    assert "the Holy Talisman of St. Cuthbert is found" in log and "Verdict: a Triumphant victory" in log


def test_the_last_monster_holds_the_talisman_without_a_roll():
    state = make_state()
    d = Driver(state)
    state.game.cleared = [n for n in range(1, 14) if n not in (2, 8, 12)]
    state.trackers.talisman.kills = 10
    d.enter(8).choose("wait", "round.first")
    d.miss("monster.paladin")
    d.choose("fight", "round.action")
    d.hit("attack.paladin").hit("attack.rangeress")
    d.roll(5, 6, key="talisman")
    assert state.trackers.talisman.held_by_last and "it holds the Talisman" in d.log_text()
    d.enter(2)
    d.miss("monster.paladin")
    d.choose("fight", "round.action")
    for _ in range(3):
        d.hit("attack.paladin").hit("attack.wizard")
        if d.req.key == "area.enter":
            break
        d.miss("monster.paladin")
        d.choose("fight", "round.action")
    assert "talisman" not in d.keys[d.keys.index("attack.wizard") :]  # no roll for the last one
    assert state.trackers.talisman.found and state.trackers.talisman.rolls == [11]
    d.choose("leave", "area.enter")
    assert state.finished.startswith("won: Triumphant")


def test_a_wiped_party_loses_and_the_monsters_score_40():
    state = make_state()
    d = Driver(state)
    for t in state.trackers.tallies.values():
        t.hits = t.max_hits - 1
    d.enter(1).choose("wait", "round.first")
    for hero in ("paladin", "rangeress", "fighter", "wizard"):
        d.hit(f"monster.{hero}")
    assert d.done and state.finished == "lost: every hero has fallen, 0 to 40"
    assert "Every hero has fallen" in d.log_text()


@pytest.mark.parametrize(
    ("survivors", "expected"),
    [(4, (100, 0, "Triumphant")), (3, (75, 10, "Resounding")), (2, (50, 20, "Costly")), (1, (25, 30, "Pyrrhic"))],
)
def test_the_score_and_the_books_chart(survivors, expected):
    assert R.score(survivors, 4 - survivors) == expected


def test_leaving_with_two_heroes_is_a_costly_victory():
    state = started(make_state())
    kill(state, "Krylla")
    kill(state, "Ibli")
    state.trackers.talisman.found = True
    d = Driver(state)
    d.choose("leave", "area.enter")
    assert state.finished == "won: Costly victory, 50 to 20"
    assert "Score: the heroes 50 (2 × 25), the monsters 20 (2 × 10)." in d.log_text()


def test_giving_up_ends_without_a_score():
    state = make_state()
    d = Driver(state)
    d.choose("abandon", "area.enter")
    assert d.done and state.finished.startswith("abandoned")


def test_a_one_shot_tally_change_between_answers_is_read_fresh():
    state = make_state()
    d = Driver(state)
    d.enter(1).choose("wait", "round.first")
    d.miss("monster.paladin")
    kill(state, "Krylla")  # companion tally hit Krylla 7, while the game waits on her roll
    d.hit("monster.rangeress")  # the roll already asked for is answered, and changes nothing
    assert d.tally("Krylla").hits == 7
    d.miss("monster.fighter").miss("monster.wizard")
    d.choose("fight", "round.action")
    d.miss("attack.paladin")
    d.expect("attack.fighter")  # the fallen Rangeress is skipped


def test_area_12_data_fixture_is_complete():
    assert R.area12({**DATA, **AREA12}) is not None
