"""The pending step's who-acts and best option (#21 parts 1 and 3), in every game that knows the odds:
``companion next --json`` gives them under ``pending`` (the shape docs/sessions.md shows, the one the
shell's bar and the phone page read), ``companion next`` marks the best option with ★, and the
Haunted Tower's and the Dark Tower's fight menus start on the option with the highest chance to win."""

from __future__ import annotations

import json
import os

from companion.games.dark_tower import odds
from companion.games.dark_tower.rules import fights as rules_fights
from companion.games.dark_tower.spec import GAME as DARK
from tests.dark_tower_helpers import Script, table
from tests.terminal import prepare

HEROES = ("Aria", "Bram", "Cael")


def run(*args: str) -> str:
    return prepare(dict(os.environ), *args)


def haunted_fight() -> None:
    run("new", "haunted-tower", "--name", "table", "--seed", "5", "--physical")
    for i, name in enumerate(HEROES):
        run("haunted", "hero", name, "--speed", "6", "--hp", str(6 + i), "--attack", "3", "--ac", "5", "--ability", "-")
    run("next", "start")
    for face in (2, 9, 3):  # who moves first: Bram
        run("next", str(face))
    for answer in ("=fight", "Bram", "1", "=dire-wolf", "=blue"):
        run("next", answer)


def step() -> dict:
    return json.loads(run("next", "--json"))


def test_next_json_says_who_acts_and_the_best_option_in_a_haunted_tower_fight():
    haunted_fight()
    out = step()
    for _ in range(6):  # the initiative rolls: Bram 6, the Gargoyle 1, so Bram attacks first
        if out["pending"]["key"] == "fight.turn":
            break
        assert out["pending"]["kind"] == "roll", out["pending"]
        run("next", "6" if out["pending"]["key"] == "fight.initiative.hero" else "1")
        out = step()
    pending = out["pending"]
    assert pending["actor"] == "Bram"
    assert pending["line"].startswith("▶ Round 1: Bram's turn against the Dire Wolf")
    assert pending["best"] == "attack:"  # no items: the bare attack, the whole-fight odds' attack
    best = [o for o in pending["options"] if o["best"]]
    assert [o["value"] for o in best] == ["attack:"] and best[0]["number"] == 1
    assert [o["number"] for o in pending["options"]] == list(range(1, len(pending["options"]) + 1))
    assert any(line.startswith("Fight on to the end: win") for line in pending["info"])
    assert pending["options"][0]["label"] in run("next")  # the same step, as text
    assert "1. at  Attack ★" in run("next")


def test_next_json_gives_a_roll_with_its_odds_and_keys():
    haunted_fight()
    pending = step()["pending"]
    assert pending["kind"] == "roll"
    assert pending["dice"] and pending["example"]
    assert pending["enter_rolls"] is False  # a physical session: the player types the dice
    assert pending["keys"] and "options" not in pending


def test_the_dark_tower_help_menu_favours_the_helper_who_wins_more_often():
    state = table([("Ann", "clan-champion", []), ("Bo", "rogue", [])], floor=2)
    req = Script(state).run(("turn.card", "monster"), ("card.monster", "troll"))
    assert req.key == "fight.help"
    wins = {}
    for option in req.options:
        plan = rules_fights.Plan() if option.value == "alone" else rules_fights.Plan(helper=int(option.value))
        bonus = rules_fights.fight_bonus(state, plan)
        wins[option.value] = odds.fight_odds(
            bonus.total, bonus.strength, bonus.dice, rules_fights.boosts(state, bonus)
        ).win
    assert wins["1"] > wins["alone"]
    assert DARK.best(state, req) == "1"  # Bo's help: +6
    solo = table([("Ann", "clan-champion", [])])
    menu = Script(solo).request  # the turn's card menu: no odds to favour
    assert menu.key == "turn.card" and DARK.best(solo, menu) is None


def test_a_roll_example_shows_only_faces_the_dice_have_and_a_negative_range_reads_plainly():
    from companion.dice.expr import parse
    from companion.engine.pending import Pending, describe
    from companion.engine.requests import Number, RollRequest

    assert describe(RollRequest("first", parse("1d2"), "who goes first")).example == "2"  # not 4 on a d2
    assert describe(RollRequest("k", parse("2d6"), "why")).example == "4 5 or 45"
    assert describe(RollRequest("k", parse("4dt"), "why")).example == "1 heart star 2"
    bonus = describe(Number("card.item.bonus", "Sword: combat bonus", -20, 50, where="as printed on the card"))
    assert bonus.line() == "▶ Sword: combat bonus (−20…50)"  # not (-20-50)
    assert Pending("number", "k", "Speed", lo=0, hi=30).line() == "▶ Speed (0-30)"
