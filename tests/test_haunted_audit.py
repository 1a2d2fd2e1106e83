"""The rules audit's Haunted Tower items (#13 items 15 and 16) that live in the rules and the odds."""

from __future__ import annotations

import pytest

from companion.errors import InputError
from companion.games.haunted_tower import view
from companion.games.haunted_tower.data.monsters import MONSTERS
from companion.games.haunted_tower.rules import climb as rules_climb
from companion.games.haunted_tower.rules import lookup
from companion.games.haunted_tower.rules import numbers as rules_numbers
from tests.haunted_helpers import fight, give, hero, item, make_state


def test_climb_is_refused_during_a_fight_and_changes_nothing():
    state = make_state()
    fight(state, "skeleton")
    with pytest.raises(InputError, match="Aria is fighting the Skeleton: finish the fight"):
        rules_climb.climb(state, "Aria", cleared=True)
    with pytest.raises(InputError, match="finish the fight"):
        rules_climb.climb(state, "Bram", cleared=True)  # no one climbs while a fight is on the board
    assert hero(state).tower == 1 and hero(state, "Bram").tower == 1


def test_the_climb_refusal_names_the_tower():
    state = make_state()
    with pytest.raises(InputError) as err:
        rules_climb.climb(state, "Aria")
    assert err.value.message == (
        "Aria cannot leave Tower 1 yet: chits worth 0 blue of the 3 needed (if Tower 1's chits are all gone: --cleared)"
    )


def test_stake_finds_the_wooden_stake_by_a_word_of_its_name():
    state = make_state()
    stake = item("Wooden stake", "other", use="attack", hits=["stake"])
    give(state, "Aria", stake, item("Silver dagger", hits=["silver"]))
    assert lookup.find_item(hero(state), "stake").name == "Wooden stake"
    assert lookup.find_item(hero(state), "wood").name == "Wooden stake"
    assert lookup.find_item(hero(state), "dagger").name == "Silver dagger"
    with pytest.raises(InputError, match="holds no item 'axe'"):
        lookup.find_item(hero(state), "axe")


def test_the_best_weapon_here_is_the_stake_against_the_vampire():
    state = make_state()
    give(state, "Aria", item("Wooden stake", "other", use="attack", hits=["stake"]))
    aria, vampire = hero(state), MONSTERS["vampire"]
    bare = view.hero_duel(state, aria, vampire, None)
    staked = view.hero_duel(state, aria, vampire, aria.items[0])
    assert bare.win == staked.win  # hopeless either way for this hero: the tie is broken by the damage
    assert view.best_weapon(state, aria, vampire) is aria.items[0]
    assert (
        rules_numbers.damage_of(aria, vampire, None, [])[0]
        == 0
        < rules_numbers.damage_of(aria, vampire, aria.items[0], [])[0]
    )


def test_the_attack_names_the_energy_drain_once():
    state = make_state()
    hero(state).minus.append("wight")
    parts = rules_numbers.attack_parts(hero(state), MONSTERS["ghoul"], None, [])
    assert ("energy drain", -1) in parts
    assert all("chits" not in name for name, _ in parts)
