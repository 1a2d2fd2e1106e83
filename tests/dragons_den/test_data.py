"""The numbers in the data module, checked against the rule text's own lists."""

from __future__ import annotations

import pytest

from companion.games.dragons_den import data, rules


def test_heroes_as_printed():
    cards = {(h.number, h.name, h.kind, h.health, h.speed) for h in data.HEROES}
    assert cards == {
        (1, "Grochek Hammerfist", "Dwarf", 14, 1),
        (2, "Jared O'loria", "Fighter", 12, 1),
        (3, "Reverend Elin", "Cleric", 10, 2),
        (4, "Ren Wardo", "Magic-User", 7, 4),
        (5, "Talina", "Thief", 8, 3),
        (6, "Cara Windwright", "Elf", 8, 3),
        (7, "Sam Barleyman", "Halfling", 8, 2),
    }


def test_every_ability_costs_one_and_only_two_are_limited_to_four():
    assert all(a.cost == 1 for a in data.ABILITIES.values())
    limited = {k: a.max_uses for k, a in data.ABILITIES.items() if a.max_uses is not None}
    assert limited == {"deathblow": 4, "missile": 4}
    assert {k for k, a in data.ABILITIES.items() if a.counts_as_attack} == {"axe", "deathblow", "wounds", "missile"}
    assert [k for k, a in data.ABILITIES.items() if not a.instead] == ["shield"]


@pytest.mark.parametrize(
    ("chit", "name", "health", "speed", "breath"),
    [
        (1, "Aged Black Dragon", 24, 10, "greater"),
        (4, "Yearling Black Dragon", 16, 4, "lesser"),
        (6, "Adult Green Dragon", 20, 8, "greater"),
        (7, "Young Green Dragon", 18, 6, "lesser"),
        (9, "Aged Red Dragon", 24, 10, "greater"),
        (12, "Yearling Red Dragon", 16, 4, "lesser"),
    ],
)
def test_dragons(chit, name, health, speed, breath):
    d = data.DRAGON_BY_CHIT[chit]
    assert (d.name, d.health, d.speed, d.breath) == (name, health, speed, breath)


def test_twelve_dragons_four_ages_three_colours():
    assert [d.chit for d in data.DRAGONS] == list(range(1, 13))
    assert [d.breath_name for d in data.DRAGONS[::4]] == ["Acid", "Chlorine Gas", "Fire"]


def test_monsters_as_printed():
    printed = [
        (1, 1), (1, 4), (1, 6), (1, 2), (2, 1), (2, 2), (2, 3), (2, 4), (3, 2), (3, 6),
        (4, 4), (4, 2), (6, 1), (5, 2), (4, 1), (5, 3), (6, 4), (8, 2), (8, 3), (8, 2),
    ]  # fmt: skip
    assert [(m.health, m.speed) for m in data.MONSTERS] == printed
    assert {m.name: m.special for m in data.MONSTERS if m.special} == {
        "Carrion Crawler": "paralysis",
        "Troll": "regenerate",
        "Wraith": "wounds",
    }


def test_treasure_tables_mark_the_garbled_rows_as_readings():
    dragon = {r.number: (r.name, r.gp, r.reading) for r in data.DRAGON_TREASURE}
    assert dragon[8] == ("Sack of diamonds", 1500, False)
    assert dragon[9] == ("Jeweled scepter", 1750, True)
    assert dragon[10] == ("Crown of glory", 2000, True)
    monster = {r.number: (r.name, r.gp, r.reading) for r in data.MONSTER_TREASURE}
    assert monster[1] == ("Small bag of coins", 200, False)
    assert monster[9] == ("Jade amulet", 1750, True)
    assert monster[10] == ("Small bag of gemstones", 2000, True)
    assert all(monster[n][:2] == ("Blank", 0) for n in range(11, 21))
    assert len(data.DRAGON_TREASURE) == data.HOARD_CHITS == 10
    assert len(data.MONSTER_TREASURE) == data.TREASURE_CHITS == 20


def test_a_player_corrects_a_treasure_row():
    values = {"treasure.dragon.9.name": "Jewelled sceptre", "treasure.dragon.9.gp": 1800}
    row = rules.treasure_row(values, "dragon", 9)
    assert (row.name, row.gp, row.reading) == ("Jewelled sceptre", 1800, False)
    confirmed = rules.treasure_row({"treasure.monster.9.gp": 1750}, "monster", 9)
    assert confirmed.reading  # the same value as the reading: still shown as a reading
    assert rules.chit_value(values, "D9") == 1800


def test_countdown_sizes():
    assert data.COUNTDOWN == 9
    assert data.LONG_COUNTDOWN == 11


@pytest.mark.parametrize("haul", [-5000, -1, 0, 249, 250, 499, 500, 1999, 2000, 4999, 5000, 9999, 10_000, 99_999])
def test_heroes_chart_bands_cover_every_haul(haul):
    row = rules.heroes_row(haul, dragon_slain=False, all_lost=False)
    assert row.lo is not None
    assert row.lo <= max(haul, 0) and (row.hi is None or max(haul, 0) <= row.hi)


@pytest.mark.parametrize("points", range(0, 18))
def test_dragon_chart_bands_cover_every_score(points):
    row = rules.dragon_row(points, dragon_slain=False, all_lost=False)
    assert row.lo is not None and row.lo <= points and (row.hi is None or points <= row.hi)
