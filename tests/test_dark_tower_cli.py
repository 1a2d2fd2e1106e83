"""``companion dark ...`` through the real command tree: every step one-shot, JSON, bad input, undo, amend."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.dice.expr import parse
from companion.dice.source import VirtualDice
from companion.games.dark_tower import odds
from companion.games.dark_tower.rules import cards as C
from companion.session import catalogue

runner = CliRunner()


def run(*args: str, code: int = 0):
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (args, result.exit_code, result.stdout, result.stderr)
    return result


def js(*args: str) -> dict:
    return json.loads(run(*args, "--json").stdout)


def _cards() -> None:
    run("dark", "card", "item", "Sword", "--class", "weapon", "--bonus", "2")
    run("dark", "card", "предмет", "Кольчуга", "--class", "броня", "--bonus", "1")
    run("dark", "card", "item", "Axe", "--class", "оружие", "--bonus", "3")
    run("dark", "card", "obstacle", "Pit", "--check", "5", "--damage", "2", "--penalty", "1", "--event", "Bats")
    run("dark", "card", "monster", "Troll", "--floor", "2", "--strength", "9")
    run(
        "dark", "card", "hero", "Rogue", "--health", "8", "--bonus", "1,2,3", "--spell", "Backstab:2:activated:3:self:2"
    )


def _seed_catalogue() -> None:
    """The cards ``_cards`` enters, written straight into the catalogue (fewer commands: faster tests)."""
    values = {
        C.key("item", "sword"): C.to_json(C.ItemCard("Sword", "weapon", 2)),
        C.key("item", "кольчуга"): C.to_json(C.ItemCard("Кольчуга", "armor", 1)),
        C.key("item", "axe"): C.to_json(C.ItemCard("Axe", "weapon", 3)),
        C.key("obstacle", "pit"): C.to_json(C.ObstacleCard("Pit", 5, 2, 1, "Bats")),
        C.key("monster", "troll"): C.to_json(C.MonsterCard("Troll", 2, 9)),
        C.key("hero", "rogue"): C.to_json(
            C.HeroCard("Rogue", 8, [1, 2, 3], [C.Spell("Backstab", 2, "activated", 3, "self", 2)])
        ),
    }
    catalogue.save(Path(os.environ["COMPANION_HOME"]), "dark-tower", values)


def test_cards_entered_by_command_match_the_seeded_ones():
    run("new", "dark-tower")
    _cards()
    entered = catalogue.load(Path(os.environ["COMPANION_HOME"]), "dark-tower")
    _seed_catalogue()
    assert entered == catalogue.load(Path(os.environ["COMPANION_HOME"]), "dark-tower")


def _started(*players: tuple[str, str, str]) -> None:
    _seed_catalogue()
    run("new", "dark-tower", "--seed", "11")
    for player, hero, item in players:
        run("dark", "join", player, hero)
        run("dark", "item", player, item)
    run("dark", "quest", "--none")
    run("dark", "start")


def test_a_turn_by_one_shot_commands_with_russian_names_and_physical_faces():
    _started(("Ann", "Чемпион Клана", "sword"))
    out = run("dark", "draw", "монстр", "желатиновый куб").stdout
    assert "Gelatinous Cube" in out and "Now: Ann fights Gelatinous Cube (4)" in out
    data = js("dark", "fight", "--got", "1,2,♥,★")
    # 3 on the dice + 2 Battle Cry + 2 Sword = 7 > 4
    assert data["result"]["won"] and data["result"]["total"] == 7 and data["result"]["energy"] == 1
    assert data["result"]["odds"]["win"] == "15/16"
    assert data["status"]["beaten"] == 1 and data["status"]["phase"] == "end"
    run("dark", "end")
    run("dark", "draw", "obstacle", "pit")
    data = js("dark", "check", "--got", "4,5,6")
    assert data["result"] == data["result"] | {"passed": False, "total": 0, "healed": 0, "damage": 2, "penalty": 1}
    assert data["result"]["roll"]["symbols"] == ["♥", "♥", "★"]
    assert data["status"]["heroes"][0]["health"] == 8 and data["status"]["heroes"][0]["penalty"] == 1
    log = run("log", "--raw").stdout
    assert "`3dt>5` → `[♥] [♥] [★]` vs more than 5 → **0, ♥2 ★1 → fail** · physical" in log
    assert "Event: Bats" in log


def test_virtual_one_shot_rolls_come_from_the_sessions_seeded_stream_in_order():
    _started(("Ann", "clan-champion", "sword"))
    stream = VirtualDice(11)
    run("dark", "draw", "monster", "gelatinous-cube")
    first = js("dark", "fight")["result"]["roll"]["dice"]
    assert first == list(stream.faces(parse("4dt")))
    run("dark", "end")
    run("dark", "draw", "obstacle", "pit")
    second = js("dark", "check")["result"]["roll"]["dice"]
    assert second == list(stream.faces(parse("3dt")))


def test_undo_takes_back_a_fight_and_the_same_dice_come_again():
    _started(("Ann", "clan-champion", "sword"))
    run("dark", "draw", "monster", "gelatinous-cube")
    before = js("dark", "status")
    first = js("dark", "fight")
    run("undo")
    assert js("dark", "status") == before
    again = js("dark", "fight")
    assert again["result"]["roll"]["dice"] == first["result"]["roll"]["dice"]


def test_amend_corrects_a_mistyped_check():
    _started(("Ann", "clan-champion", "sword"))
    run("dark", "draw", "obstacle", "pit")
    assert not js("dark", "check", "--got", "1,1,1")["result"]["passed"]
    run("amend", "--reason", "misread the dice", "--got", "3,3,♥")
    status = js("dark", "status")
    assert status["heroes"][0]["health"] == 10 and status["heroes"][0]["penalty"] == 0
    log = run("log", "--raw").stdout
    assert "amended from `[1] [1] [1]`: misread the dice" in log and "gets past Pit" in log


def test_help_energy_and_level_by_one_shot_commands():
    _started(("Ann", "clan-champion", "sword"), ("Bo", "rogue", "кольчуга"))
    run("dark", "deck", "1", "0,0,1")
    run("dark", "draw", "item", "axe")
    run("dark", "discard", "Ann", "sword", "--to", "Bo")
    out = run("dark", "end").stdout
    assert "Floor 2" in out and "Ann rises to level 2: Heroic Valor" in out
    status = js("dark", "status")
    assert [h["level"] for h in status["heroes"]] == [2, 2]
    run("dark", "draw", "monster", "troll")  # Bo's turn now: Bo leads
    refused = run("dark", "fight", "--with", "Bo", code=2)
    assert refused.stderr == "companion: the leader cannot help themselves; call another player\n"
    refused = run("dark", "fight", "--with", "Ann", "--cast", "Fireball", "--got", "1,1,1,1", code=2)
    assert "'Fireball' is not an activated spell the heroes can cast here" in refused.stderr
    text = run("dark", "fight", "--with", "Ann", "--odds").stdout
    assert "4 dice +12 vs 9" in text and "Bo (8/8)" not in text  # nobody can fall: 12 already beats 9
    data = js("dark", "fight", "--with", "Ann", "--cast", "Backstab", "--cast", "Heroic Valor", "--got", "1,1,★,★")
    r = data["result"]
    # Bo: level 2 (+2), Battle Cry from Ann (+2), Кольчуга (+1), the Sword he picked up (+2, his turn now);
    # Ann: Battle Cry (+2), Axe (+3). Dice 2. Backstab +3 for Bo's 2★; Heroic Valor is Ann's, and she rolled no ★.
    assert data["result"]["odds"]["bonus"] == 12
    assert r["total"] == 2 + 12 + 3 and r["cast"] == ["Backstab"] and r["won"]
    assert [h["energy"] for h in data["status"]["heroes"]] == [0, 0]


def test_the_deck_calculator_for_every_table_under_both_readings():
    expected = {
        1: ([4, 3, 3], [4, 3, 3]),
        2: ([8, 6, 3], [4, 3, 3]),
        3: ([12, 9, 6], [4, 3, 3]),
        4: ([16, 12, 6], [4, 3, 3]),
    }
    for players, (per_player, fixed) in expected.items():
        a = js("dark", "decks", "--players", str(players))
        b = js("dark", "decks", "--players", str(players), "--fixed-monsters")
        assert [f["monsters"] for f in a["floors"]] == per_player
        assert [f["monsters"] for f in b["floors"]] == fixed
        assert [f["obstacles"] for f in a["floors"]] == [f["obstacles"] for f in b["floors"]]
    assert js("dark", "decks", "--players", "3")["floors"][2] == {
        "floor": 3,
        "monsters": 6,
        "obstacles": 2,
        "items": 2,
        "total": 10,
    }


def test_a_session_started_with_the_variant_builds_fixed_monster_decks():
    run("new", "dark-tower", "--variant", "fixed-monsters")
    run("dark", "join", "Ann", "clan-champion")
    run("dark", "join", "Bo", "clan-champion", code=2)
    run("dark", "card", "hero", "Rogue", "--health", "8")
    run("dark", "join", "Bo", "rogue")
    run("dark", "card", "item", "Rope", "--bonus", "0")
    run("dark", "card", "item", "Lamp", "--bonus", "0")
    run("dark", "item", "Ann", "Rope")
    run("dark", "item", "Bo", "Lamp")
    data = js("dark", "decks")
    assert data["reading"] == "fixed-monsters" and [f["monsters"] for f in data["floors"]] == [4, 3, 3]
    run("dark", "quest", "--none")
    status = js("dark", "start")["status"]
    assert [d["monsters"] for d in status["decks"]] == [4, 3, 3] and [d["obstacles"] for d in status["decks"]] == [
        2,
        2,
        1,
    ]


def test_odds_commands_are_exact():
    data = js("dark", "odds", "check", "5")
    assert Fraction(data["pass"]) == odds.check_chance(5)
    data = js("dark", "odds", "fight", "4", "9", "--boost", "4:1", "--health", "3")
    fo = odds.fight_odds(4, 9, boosts=[(4, 1)])
    assert Fraction(data["win"]) == fo.win and Fraction(data["tie"]) == fo.tie
    assert Fraction(data["fall"]) == odds.fall_chance(fo, 3, 3)
    text = run("dark", "odds", "check", "3", "--dice", "4").stdout
    assert "4 dice, numbers more than 3: pass" in text


def test_lang_ru_shows_the_rules_own_terms_without_changing_the_save():
    _started(("Ann", "clan-champion", "sword"))
    out = run("dark", "--lang", "ru", "status").stdout
    assert "Этаж" in out and "Чемпион Клана" in out and "Здоровье" not in out
    assert "Floor" in run("dark", "status").stdout
    assert js("dark", "status")["lang"] == "en"
    run("dark", "lang", "ru")
    assert "Этаж" in run("dark", "status").stdout
    cards = run("dark", "--lang", "ru", "cards", "monster").stdout
    assert "Желатиновый Куб: 1 Этаж, Сила 4; Заставляет сбросить 1 случайный предмет" in cards


def test_bad_input_gets_one_line_exit_2_and_changes_nothing():
    _started(("Ann", "clan-champion", "sword"))
    before = js("dark", "status")
    for args, words in [
        (("dark", "draw", "dragon", "x"), "not a kind of card"),
        (("dark", "draw", "monster", "Nobody"), "no monster card named 'Nobody'"),
        (("dark", "fight"), "there is no fight now"),
        (("dark", "check"), "there is no obstacle to check"),
        (("dark", "card", "monster", "Orc", "--strength", "3"), "needs --floor"),
        (("dark", "card", "monster", "Orc", "--floor", "4", "--strength", "3"), "floor 1 to 3"),
        (("dark", "trade", "Ann", "sword", "Ghost"), "no player or hero 'Ghost'"),
        (("dark", "end"), "cannot end the turn now"),
        (("dark", "--lang", "fr", "status"), "not a language"),
    ]:
        result = run(*args, code=2)
        assert words in result.stderr, (args, result.stderr)
        assert result.stderr.startswith("companion: ") and len(result.stderr.strip().splitlines()) <= 2
    run("dark", "draw", "obstacle", "pit")
    result = run("dark", "check", "--got", "1,2,7", code=2)
    assert "'7' is not a face of a dt" in result.stderr
    assert js("dark", "status")["obstacle"] == "pit"
    assert before["heroes"] == js("dark", "status")["heroes"]


def test_the_dark_commands_need_a_dark_tower_session():
    run("new", "freeform")
    result = run("dark", "status", code=1)
    assert "plays freeform, not the Dark Tower" in result.stderr


def test_cards_entered_are_kept_for_the_next_game():
    run("new", "dark-tower", "--name", "first")
    run("dark", "card", "monster", "Orc", "--ru", "Орк", "--floor", "1", "--strength", "5", "--ignores", "оружие")
    run("new", "dark-tower", "--name", "second")
    cards = js("dark", "cards", "monster")["monster"]
    assert cards["orc"] == {"name": "Orc", "floor": 1, "strength": 5, "ignores": ["weapon"], "ru": "Орк"}
    data = run("gamedata", "dark-tower").stdout
    assert "cards.monster.orc" in data
    run("dark", "join", "Ann", "clan-champion")
    run("dark", "item", "Ann", "Кольчуга", code=2)  # not entered in this store
    run("dark", "card", "item", "Rope", "--bonus", "0")
    run("dark", "item", "Ann", "Rope")
    run("dark", "quest", "--none")
    run("dark", "start")
    assert "Orc" in run("dark", "draw", "monster", "орк").stdout


def test_the_dark_command_module_imports_only_typer():
    code = (
        "import sys, companion.games.dark_tower.cli; "
        "heavy = ('rich', 'questionary', 'tinydb', 'companion.games.dark_tower.rules.lookup', "
        "'companion.games.dark_tower.rules.events', 'companion.games.dark_tower.engine'); "
        "print(sorted(m for m in heavy if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("alias", ["тёмная-башня", "Темная Башня", "dtower"])
def test_the_game_answers_to_its_other_names(alias):
    assert js("new", alias)["game"] == "dark-tower"


def test_entering_a_known_card_by_its_russian_name_corrects_it():
    run("new", "dark-tower")
    run("dark", "card", "monster", "Желатиновый Куб", "--floor", "1", "--strength", "5", "--takes-item")
    cards = js("dark", "cards", "monster")["monster"]
    assert list(cards) == ["gelatinous-cube"] and cards["gelatinous-cube"]["strength"] == 5


def test_a_card_entered_and_undone_leaves_the_catalogue_as_it_was():
    """A mistyped card taken back with undo is not offered in the next game; redo enters it again."""
    run("new", "dark-tower", "--name", "d")
    run("dark", "card", "obstacle", "Pit", "--check", "20", "--damage", "51")
    home = Path(os.environ["COMPANION_HOME"])
    assert C.key("obstacle", "pit") in catalogue.load(home, "dark-tower")
    run("undo")
    assert C.key("obstacle", "pit") not in catalogue.load(home, "dark-tower")
    run("redo")
    assert catalogue.load(home, "dark-tower")[C.key("obstacle", "pit")]["check"] == 20
    # A correction undone puts the card back as it was before it.
    run("dark", "card", "obstacle", "Pit", "--check", "5", "--damage", "2")
    assert catalogue.load(home, "dark-tower")[C.key("obstacle", "pit")]["check"] == 5
    run("undo")
    assert catalogue.load(home, "dark-tower")[C.key("obstacle", "pit")]["check"] == 20


def test_undo_to_takes_the_cards_it_takes_back_out_of_the_catalogue():
    """``undo --to`` (#39) takes back several actions at once: a card among them leaves the catalogue, a
    correction after it is put back first (newest first, as undo after undo)."""
    run("new", "dark-tower", "--name", "d")
    run("dark", "card", "obstacle", "Pit", "--check", "20", "--damage", "51")
    run("dark", "card", "obstacle", "Pit", "--check", "5", "--damage", "2")
    home = Path(os.environ["COMPANION_HOME"])
    assert catalogue.load(home, "dark-tower")[C.key("obstacle", "pit")]["check"] == 5
    run("undo", "--to", "0", "--yes")
    assert C.key("obstacle", "pit") not in catalogue.load(home, "dark-tower")
