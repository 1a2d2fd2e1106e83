"""The rules audit's Dark Tower items (#13 items 11, 12 and 14): undo and the catalogue, cards from the
wrong floor, items already held, and the words."""

from __future__ import annotations

import json
import os
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.dice.odds import percent
from companion.engine.describe import parse_choice
from companion.engine.requests import choice
from companion.errors import InputError
from companion.games.dark_tower.engine import asks as engine_asks
from companion.games.dark_tower.engine import end as engine_end
from companion.games.dark_tower.rules import cards as C
from companion.games.dark_tower.rules import draw as rules_draw
from companion.games.dark_tower.rules import lookup
from companion.games.dark_tower.rules import turns as rules_turns
from companion.session import catalogue
from tests.dark_tower_helpers import Script, new, table

runner = CliRunner()


def run(*args: str, code: int = 0):
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (args, result.exit_code, result.stdout, result.stderr)
    return result


def _seed_catalogue() -> None:
    values = {
        C.key("item", "sword"): C.to_json(C.ItemCard("Sword", "weapon", 2)),
        C.key("monster", "troll"): C.to_json(C.MonsterCard("Troll", 2, 9)),
        C.key("monster", "rat"): C.to_json(C.MonsterCard("Rat", 1, 2)),
        C.key("hero", "rogue"): C.to_json(C.HeroCard("Rogue", 8, [1, 2, 3], [])),
    }
    catalogue.save(Path(os.environ["COMPANION_HOME"]), "dark-tower", values)


def _asks() -> dict:
    return json.loads(run("next", "--json").stdout)["request"]


# ---- item 11: undo never takes back the session's copy of the catalogue -------------------------


def test_undoing_past_the_first_answer_keeps_the_card_catalogue():
    _seed_catalogue()
    run("new", "dark-tower")
    for answer in ("en", "table", "Ann"):
        run("next", answer)
    for _ in range(3):
        run("undo")
    result = run("undo", code=1)
    assert "nothing to undo" in result.stderr
    for answer in ("en", "table", "Ann"):
        run("next", answer)
    request = _asks()
    assert request["key"] == "card.hero"
    assert [o["value"] for o in request["options"]] == ["clan-champion", "rogue", "+new"]


# ---- item 12: cards from the wrong floor, items already held ---------------------------------------


def test_a_monster_from_another_floors_pile_is_refused_unless_confirmed():
    state = table([("Ann", "clan-champion", [])], floor=2)
    rules_turns.set_deck(state, 2, (2, 0, 0))
    with pytest.raises(InputError, match="Rat lives on floor 1: its card goes in floor 1's pile, not floor 2's"):
        rules_draw.draw(state, "monster", "rat")
    assert lookup.game(state).phase == "draw" and lookup.game(state).deck().monsters == 2
    rules_draw.draw(state, "monster", "rat", any_floor=True)
    assert lookup.game(state).group == ["rat"]
    with pytest.raises(InputError, match="Rat lives on floor 1"):
        rules_draw.join_group(state, "rat", from_deck=True)
    rules_draw.join_group(state, "rat", from_deck=False)  # a card that names it, from outside the deck
    assert lookup.game(state).group == ["rat", "rat"]


def test_the_one_shot_draw_refuses_a_floor_1_card_on_floor_2_with_one_line_and_exit_2():
    _seed_catalogue()
    run("new", "dark-tower")
    run("dark", "join", "Ann", "rogue")
    run("dark", "item", "Ann", "sword")
    run("dark", "quest", "--none")
    run("dark", "start")
    run("dark", "floor", "--force")
    before = run("dark", "status", "--json").stdout
    result = run("dark", "draw", "monster", "Rat", code=2)
    assert "Rat lives on floor 1" in result.stderr and "Traceback" not in result.stderr
    assert run("dark", "status", "--json").stdout == before


def test_guided_which_monster_lists_only_this_floors_monsters():
    state = table([("Ann", "clan-champion", [])], floor=2)
    script = Script(state)
    request = script.run(("turn.card", "monster"))
    assert request.key == "card.monster"
    assert request.values() == ("troll", "wisp", "+new")  # not the floor-1 Rat, Golem, Shaman or Cube


def test_a_new_monster_entered_for_another_floor_is_confirmed_before_it_is_drawn():
    state = table([("Ann", "clan-champion", [])], floor=1)
    script = Script(state)
    script.run(("turn.card", "monster"), ("card.monster", "+new"), ("card.monster.name", "Ghoul"))
    script.run(("card.monster.floor", 3), ("card.monster.strength", 7))
    while script.request.key != "draw.floor":
        script.answer(script.request.values()[-1] if hasattr(script.request, "values") else "-")
    assert script.request.prompt == "Ghoul is a floor 3 card. Drawn here anyway?"
    script.answer("no")
    assert script.request.key == "turn.card" and lookup.game(state).group == []
    script.run(("turn.card", "monster"), ("card.monster", "+new"), ("card.monster.name", "Imp"))
    script.run(("card.monster.floor", 2), ("card.monster.strength", 3))
    while script.request.key != "draw.floor":
        script.answer(script.request.values()[-1] if hasattr(script.request, "values") else "-")
    script.answer("yes")
    assert lookup.game(state).group == ["imp"]


def test_items_a_hero_holds_are_not_offered_again():
    state = new()
    script = Script(state)
    script.run("en", "table", "Ann", "clan-champion", "add", "Bo", "rogue", "done")
    assert script.request.key == "card.item" and "sword" in script.request.values()
    script.answer("sword")
    assert script.request.key == "card.item"
    assert "sword" not in script.request.values() and "axe" in script.request.values()


# ---- item 14: the words -----------------------------------------------------------------------------


def test_one_item_is_not_one_items():
    state = table([("Ann", "clan-champion", ["sword"]), ("Bo", "rogue", ["axe", "mail"])])
    lookup.game(state).phase = "end"
    request = next(engine_end.choose_hero(state, "trade.from", "Who gives an item?", need_items=True))
    assert [o.label for o in request.options] == ["Ann (1 item)", "Bo (2 items)"]


def test_a_possible_fall_never_reads_zero_percent():
    assert engine_asks.pct(Fraction(1, 7776)) == "<0.1%"
    assert percent(Fraction(1, 7776)) == "<0.1%" and percent(Fraction(7775, 7776)) == ">99.9%"
    assert percent(Fraction(0)) == "0.0%" and percent(Fraction(1, 8)) == "12.5%"
    assert engine_asks.pct(Fraction(1, 1000)) == "0.1%"


def test_next_keeps_the_tick_mark_of_a_switched_property():
    run("new", "dark-tower")
    for answer in ("en", "table", "Ann", "clan-champion", "done", "+new", "Shield", "armor", "1", "single"):
        run("next", answer)
    out = run("next").stdout
    assert "[x] Single use" in out and "[ ] +1 die" in out


# ---- item 9 (shared rule): a number on a menu is always its place in the list ----------------------


def test_a_number_is_the_options_place_in_the_list_even_when_values_are_numbers():
    menu = choice("setup.first", "Who goes first?", ("0", "Ann"), ("1", "Bo"), ("roll", "Roll for it"))
    assert parse_choice(menu, "1") == "0"
    assert parse_choice(menu, "2") == "1"
    assert parse_choice(menu, "roll") == parse_choice(menu, "3") == parse_choice(menu, "Ro") == "roll"
    with pytest.raises(InputError, match="4 is not a number in the list: give 1 to 3"):
        parse_choice(menu, "4")


def test_next_help_states_the_rule():
    out = run("next", "--help").stdout
    assert "a number always means that" in " ".join(out.split())
