"""Rules audit, turn 4 (#35): items 5-10, as the player types them.

5. the Dark Tower's one random starting item; 6. the Haunted Tower's best weapon; 7. a check's modifier
shown and recorded; 8. ``--mark locked:NAME`` at the start of a round; 9. the Dragon's Den's chit
messages; 10. the smaller ones, plurals and possessives by the language.
"""

from __future__ import annotations

import json
import os
from fractions import Fraction
from pathlib import Path

from tests.audit_support import js, refused, run

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "tables"


def log_text() -> str:
    return next(Path(os.environ["COMPANION_LOGS"]).glob("*.md")).read_text(encoding="utf-8")


# ---- 5. one random starting item ---------------------------------------------------------------------


def _dark(name: str = "dt") -> None:
    run("new", "dark-tower", "--physical", "--name", name)
    run("dark", "join", "Ann", "Чемпион Клана")
    run("dark", "card", "item", "Obsidian Knuckles", "--class", "оружие", "--bonus", "2")
    run("dark", "card", "item", "Shield", "--class", "armor", "--bonus", "1")
    run("dark", "item", "Ann", "Obsidian Knuckles")


def test_a_second_starting_item_is_refused_with_the_discard_that_swaps_it():
    _dark()
    err = refused("dark", "item", "Ann", "Shield", says="each player receives 1 random item before the start")
    assert 'companion dark discard Ann "Obsidian Knuckles"' in err
    run("dark", "discard", "Ann", "Obsidian Knuckles")
    run("dark", "item", "Ann", "Shield")
    heroes = js("status")["state"]["game"]["heroes"]
    assert [i["card"] for i in heroes[0]["items"]] == ["shield"]


# ---- 6. the best weapon -------------------------------------------------------------------------------


def _haunted(name: str, attack: int = 3) -> None:
    run("new", "haunted-tower", "--physical", "--name", name)
    for hero in ("Aria", "Bram", "Cael"):
        run(
            "haunted", "hero", hero, "--speed", "5", "--hp", "5", "--attack", str(attack), "--ac", "5", "--ability", "-"
        )


def _items(hero: str) -> dict[str, object]:
    heroes = js("status")["state"]["game"]["heroes"]
    return {i["name"]: i.get("left") for h in heroes if h["name"] == hero for i in h["items"]}


def test_equal_odds_keep_the_one_use_holy_water():
    _haunted("hw")
    run("haunted", "item", "Cael", "Holy water", "--kind", "other", "--use", "attack", "--hits", "holy", "--uses", "1")
    run("haunted", "item", "Cael", "Silver Dagger", "--kind", "weapon", "--hits", "silver,magical")
    run("haunted", "fight", "Cael", "mummy")
    run("haunted", "init", "--got", "6,1")
    assert "Att 3 with Silver Dagger" in run("haunted", "odds").stdout
    assert "with Silver Dagger" in run("haunted", "attack", "--got", "5").stdout
    assert _items("Cael")["Holy water"] == 1  # kept for later


def test_the_weapon_that_can_hit_the_specter_and_score_is_chosen():
    _haunted("hs", attack=2)
    run("haunted", "item", "Cael", "Silver Dagger", "--kind", "weapon", "--hits", "silver,magical")
    run(
        "haunted",
        "item",
        "Cael",
        "Flame Blade",
        "--kind",
        "other",
        "--use",
        "attack",
        "--attack",
        "5",
        "--hits",
        "magical",
    )
    run("haunted", "climb", "Cael", "--cleared")
    run("haunted", "climb", "Cael", "--cleared")
    run("haunted", "fight", "Cael", "specter")
    run("haunted", "init", "--got", "6,1")
    odds = run("haunted", "odds").stdout
    assert "Att 7 with Flame Blade" in odds  # the dagger's 8 can never reach AC 10
    out = run("haunted", "attack", "--got", "6").stdout
    assert "with Flame Blade" in out and "Cael hits for 1" in out


def test_a_non_metal_staff_that_can_hit_the_rust_monster_before_bare_hands():
    _haunted("hr", attack=1)
    run("haunted", "item", "Cael", "Oak Staff", "--kind", "weapon", "--attack", "2", "--not-metal")
    run("haunted", "fight", "Cael", "rust monster")
    run("haunted", "init", "--got", "6,1")
    assert "with Oak Staff" in run("haunted", "odds").stdout
    assert "with Oak Staff" in run("haunted", "attack", "--got", "5").stdout


# ---- 7. a check's modifier --------------------------------------------------------------------------


def test_a_checks_modifier_is_shown_logged_and_in_the_json():
    run("new", "freeform", "--tables", str(EXAMPLES / "glass-labyrinth.toml"), "--name", "pk")
    out = run("roll", "check", "skill", "--mod", "-2", "--got", "5,6").stdout
    assert "check skill (2d6<=9 −2, SKILL 9)  [5] [6] = 11 vs 11 or less  → pass" in out
    assert "- d: `2d6<=9` −2 → `[5] [6]` = 11 vs 11 or less → **pass" in log_text()
    data = json.loads(run("roll", "check", "skill", "--mod", "+1", "--got", "5,4", "--json").stdout)
    roll = data["rolls"][0]
    assert roll["modifier"] == 1 and roll["target"] == "8 or less" and roll["result"].startswith("fail")
    plain = run("roll", "check", "skill", "--got", "5,4").stdout
    assert "(2d6<=9, SKILL 9)  [5] [4] = 9  → pass" in plain  # no modifier, nothing added


# ---- 8. --mark locked at the start of a round -------------------------------------------------------

BOOK = [
    "source=house",
    "rangeress.hits=7",
    "rangeress.to_hit=6",
    "rangeress.be_hit=9",
    "fighter.hits=8",
    "fighter.to_hit=5",
    "fighter.be_hit=10",
    "wizard.hits=6",
    "wizard.to_hit=7",
    "wizard.be_hit=8",
    "area12.kind=empty",
]


def _win(*extra: str) -> Fraction:
    data = js("odds", "fight", "talisman", "10", "--hits", "0,0,0,0", "--fresh", *extra)
    return Fraction(data["win"])


def test_a_hero_locked_out_at_the_start_of_a_round_changes_the_odds():
    run("gamedata", "talisman", *BOOK)
    free = _win()
    locked = _win("--mark", "locked:Krylla")
    assert locked < free
    assert locked == _win("--mark", "locked:Krylla", "--at", "begun")  # the same position, the round begun
    result = run("odds", "fight", "talisman", "10", "--hits", "0,0,0,0", "--fresh", "--mark", "attacked:Ibli", code=2)
    assert "at the start of a round nothing has happened in it yet" in result.stderr


# ---- 9. the Dragon's Den's chit messages ------------------------------------------------------------


def _den(name: str, heroes: tuple[str, ...] = ("7", "4", "2")) -> None:
    run("new", "dragons-den", "--physical", "--name", name)
    run("dragon", "setup", *heroes, "--chits", "physical", "--dragon", "5", "--discard", "1", "--discard", "2")


def test_a_chit_typed_twice_says_so():
    _den("d9")
    refused("dragon", "reveal", "2", "--chit", "t3", "--chit", "t3", says="t3 is given twice with --chit")


def test_one_chit_of_two_says_another_is_drawn():
    _den("d9b")
    refused("dragon", "reveal", "7", "--chit", "t9", says="--chit gave 1 chit (t9), and another is drawn")
    _den("d9c", ("5", "4", "2"))  # Talina the trickster
    run("dragon", "lair")
    refused(
        "dragon", "ability", "trickster", "dragon", "--hoard", "5", says="--hoard gave 1 chit (5), and another is drawn"
    )
    out = run("dragon", "ability", "trickster", "dragon", "--hoard", "5", "--hoard", "6").stdout
    assert "the dragon gives up 2 treasures" in out


# ---- 10. the smaller ones ---------------------------------------------------------------------------


def test_a_failed_run_under_run_fail_turn_says_the_next_round_starts():
    run("new", "haunted-tower", "--physical", "--name", "rf", "--variant", "run-fail-turn")
    for hero in ("Aria", "Bram", "Doris"):
        run("haunted", "hero", hero, "--speed", "5", "--hp", "5", "--attack", "3", "--ac", "5", "--ability", "-")
    run("haunted", "fight", "Doris", "ghoul")
    run("haunted", "init", "--got", "1,6")
    run("haunted", "attack", "--got", "1")  # the ghoul misses
    out = run("haunted", "run", "--got", "1").stdout
    assert "the Ghoul has attacked this round, so the next round starts" in out
    assert "the Ghoul attacks" not in out


def test_a_deaths_minus_one_is_not_an_energy_drain_and_an_unused_table_is_said():
    _haunted("dm")
    run("haunted", "hp", "Cael", "-5")  # a death: a green −1 chit
    run("haunted", "fight", "Cael", "giant rat")
    run("haunted", "init", "--got", "6,1")
    result = run("haunted", "attack", "--got", "5", "--table", "4")
    assert "+3 Att −1 death" in result.stdout and "energy drain" not in result.stdout
    assert "--table 4 was not needed" in result.stderr


def test_escape_says_when_a_hero_may_leave():
    text = run("dragon", "escape", "--help").stdout
    assert "at any time" not in text and "in his turn" in text


def test_the_example_faces_are_faces_the_dice_have():
    run("new", "freeform", "--physical", "--name", "d2")
    assert "(e.g. --got 2)" in refused("roll", "1d2", says="give the faces with --got")


def test_a_dark_tower_refusal_is_one_line_without_the_odds():
    _dark("dr")
    run("dark", "quest", "--none")
    run("dark", "start")
    run("dark", "card", "monster", "Zombie", "--floor", "1", "--strength", "6")
    run("dark", "draw", "monster", "Zombie")
    refused("dark", "fight", "--got", "1,1,1", says="4dt needs 4 values, got 3")


def test_odds_fight_dragons_den_gives_the_fraction_dragon_odds_gives():
    fight = run("odds", "fight", "dragons-den", "--health", "5", "--against", "7").stdout
    own = run("dragon", "odds", "--health", "5", "--against", "7").stdout
    assert "78923126717/1203267985920" in fight and "78923126717/1203267985920" in own


def test_dark_odds_say_no_damage_and_no_tie_in_words():
    out = run("dark", "odds", "fight", "4", "4").stdout
    assert "damage: none possible" in out and "damage: \n" not in out
    assert "tie" not in run("dark", "odds", "fight", "12", "4").stdout.splitlines()[0]


def test_the_dragons_den_reckoning_and_cause_wounds_read_as_english():
    _den("dd")
    for _ in range(3):
        run("dragon", "escape")
    text = run("dragon", "score").stdout
    assert "-0 gp" not in text and "(es)" not in text and "(s)" not in text
    assert "Treasure carried out by 3 heroes: 0 gp; the heroes' haul: 0 gp." in text
    _den("dw")
    run("dragon", "reveal", "1", "--chit", "m20", "--chit", "t1")  # the wraith
    for _ in range(3):
        run("dragon", "end-turn")
    assert "Cause Wounds: Ren Wardo loses 2" in run("dragon", "special", "wraith", "Ren Wardo").stdout


def test_counts_read_in_words_and_a_name_in_s_owns_with_an_apostrophe():
    _haunted("pl")
    assert "3 heroes" in run("status").stdout
    run("new", "inverted-tower", "--physical", "--name", "pi")
    out = run("tower", "hero", "STR").stdout
    assert "1 dagger, 1 potion" in out and "(s)" not in out
    run("new", "haunted-tower", "--physical", "--name", "po")
    for hero in ("Aria", "Bram", "Doris"):
        run("haunted", "hero", hero, "--speed", "5", "--hp", "5", "--attack", "3", "--ac", "5", "--ability", "-")
    run("haunted", "fight", "Doris", "ghoul")
    assert "Doris' attack" in run("haunted", "odds").stdout


def test_owned_writes_the_english_possessive_and_leaves_a_translation_alone():
    from companion import i18n

    assert i18n.owned("Obsidian Knuckles's spells", "Obsidian Knuckles") == "Obsidian Knuckles' spells"
    assert i18n.owned("Ann's item", "Ann") == "Ann's item"
    with i18n.using("ru", "dark-tower"):
        assert i18n.owned("Заклинания карты «Knuckles's»", "Knuckles") == "Заклинания карты «Knuckles's»"
