"""``companion haunted ...``: the one-shot commands, through the real command tree."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.dice.source import VirtualDice

runner = CliRunner()

CARDS = {
    "Aria": ["--speed", "6", "--hp", "6", "--attack", "3", "--ac", "5", "--ability", "test fighter"],
    "Bram": ["--speed", "5", "--hp", "5", "--attack", "2", "--ac", "4", "--ability", "test cleric", "--hits", "magic"],
    "Cael": ["--speed", "7", "--hp", "4", "--attack", "2", "--ac", "3", "--ability", "test elf"],
}


def run(*args: str):
    return runner.invoke(app, list(args))


def ok(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return result.stdout


def js(*args: str):
    return json.loads(ok(*args, "--json"))


def refused(*args: str, code: int = 2) -> str:
    result = run(*args)
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert 1 <= len(lines) <= 2 and lines[0].startswith("companion: "), result.stderr
    assert "Traceback" not in result.stderr
    return result.stderr


def events() -> int:
    return json.loads(ok("status", "--json"))["events"]


@pytest.fixture
def table():
    """A Haunted Tower session with three heroes, Aria first."""
    ok("new", "ht", "--seed", "5")
    for name, card in CARDS.items():
        ok("haunted", "hero", name, *card)
    ok("haunted", "first", "--got", "9,2,3")
    return None


def test_heroes_are_entered_once_and_kept_for_the_next_game(table):
    data = js("gamedata", "ht")["values"]
    assert data["hero.Aria"] == {"speed": 6, "hp": 6, "attack": 3, "ac": 5, "ability": "test fighter"}
    assert data["hero.Bram"]["bonus"]["hits"] == ["magic"]
    ok("new", "ht", "--name", "second")
    out = ok("haunted", "hero", "aria")
    assert "Aria joins: speed 6, HP 6, Att 3, AC 5" in out


def test_hero_errors_are_one_line(table):
    refused("haunted", "hero", "Aria")
    err = refused("haunted", "hero", "Dana", "--hp", "5")
    assert "--speed, --attack, --ac, --ability" in err
    refused("haunted", "hero", "Dana", *CARDS["Aria"][:-2], "--ability", "x", "--vs", "dragons")


def test_correcting_a_card_in_play(table):
    out = ok("haunted", "hero", "Cael", "--hp", "5")
    assert "Cael's card corrected: HP 5/5" in out
    assert js("gamedata", "ht")["values"]["hero.Cael"]["hp"] == 5


def test_who_goes_first_and_ties(table):
    data = js("haunted", "first", "--got", "4,4,1")
    assert data["next"] == "Aria and Bram roll 1d10 again: companion haunted first"
    data = js("haunted", "first", "--got", "2,7")
    assert any("Bram rolled highest (7) and goes first; order: Bram, Cael, Aria." in t for t in data["log"])
    refused("haunted", "first", "--got", "1,2")


def test_a_fight_step_by_step(table):
    out = ok("haunted", "fight", "Aria", "ghoul")
    assert "Fight 1: Aria vs the Ghoul (blue chit)" in out
    assert "Next: initiative" in out
    assert "roll initiative first" in refused("haunted", "attack")
    refused("haunted", "run")
    data = js("haunted", "init", "--got", "4,4")
    assert data["log"][-1] == "Initiative tied at 4: roll again." and data["fight"]["phase"] == "initiative"
    ok("haunted", "init", "--got", "5,2")
    refused("haunted", "attack", "--got", "7")  # not a face of 1d6
    data = js("haunted", "attack", "--got", "6")
    roll = "d: `1d6>=6` +3 Att → `[6]` vs 3+ → **pass** (natural 6) · physical — Aria attacks the Ghoul"
    assert data["log"][0] == roll
    assert data["fight"]["hp"] == 1 and data["next"] == "Next: the Ghoul attacks: companion haunted attack"
    refused("haunted", "attack", "--with", "Sword")  # --with is for the hero
    data = js("haunted", "attack", "--got", "6", "--table", "9")  # 9 >= AC 5; 9: no move next turn
    assert data["figures"][0]["hp"] == 5 and "cannot move next turn" in data["figures"][0]["notes"]
    ok("haunted", "init", "--got", "6,1")
    data = js("haunted", "attack", "--got", "3")
    assert data["fight"] is None and "Aria kills the Ghoul" in " ".join(data["log"])


def test_undo_takes_back_a_whole_command(table):
    ok("haunted", "fight", "Aria", "basilisk")
    ok("haunted", "init", "--got", "1,6")
    before = events()
    ok("haunted", "attack", "--got", "2", "--table", "10")  # turned to stone
    health = js("haunted", "health")["figures"]
    assert health[0]["deaths"] == 1 and health[0]["minus"] == 1
    assert events() == before + 1
    ok("undo")
    health = js("haunted", "health")
    assert health["figures"][0]["deaths"] == 0 and health["fight"]["phase"] == "monster"
    ok("redo")
    assert js("haunted", "health")["figures"][0]["deaths"] == 1


def test_virtual_rolls_follow_the_sessions_seeded_dice(table):
    ok("new", "ht", "--seed", "42", "--name", "seeded")
    for name in CARDS:
        ok("haunted", "hero", name)
    dice = VirtualDice(42)
    expected_first = [dice.d(10) for _ in range(3)]
    ok("haunted", "first")
    ok("haunted", "fight", "Aria", "dire wolf")
    expected_init = [dice.d(6), dice.d(6)]
    data = js("haunted", "init")
    shown = [int(line.split("`[")[1].split("]")[0]) for line in data["log"] if line.startswith("d:")]
    assert shown == expected_init
    log = ok("log", "--raw")
    for face in expected_first:
        assert f"`1d10` → `[{face}]`" in log


def test_robber_fly_needs_its_players_choice(table):
    ok("haunted", "item", "Aria", "Ring", "--kind", "other", "--use", "worn", "--ac", "1")
    ok("haunted", "fight", "Aria", "robber fly")
    ok("haunted", "init", "--got", "1,6")
    before = events()
    err = refused("haunted", "attack", "--got", "6")
    assert "picks one of Ring with --take NAME" in err
    assert events() == before  # nothing recorded
    out = ok("haunted", "attack", "--got", "6", "--take", "ring")
    assert "The Robber Fly takes Ring" in out


def test_physical_dice_without_faces_and_without_a_terminal(table):
    ok("mode", "physical")
    ok("haunted", "fight", "Aria", "ghoul")
    assert "--got" in refused("haunted", "init")


def test_items_limits_and_trades(table):
    ok("haunted", "item", "Aria", "Sword", "--kind", "weapon", "--attack", "1")
    ok("haunted", "item", "Aria", "Axe", "--kind", "weapon")
    assert "already carries 2 weapon chits" in refused("haunted", "item", "Aria", "Mace", "--kind", "weapon")
    ok("haunted", "item", "Aria", "Mace", "--kind", "weapon", "--swap", "Axe")
    data = js("haunted", "health")["figures"][0]
    assert data["items"] == ["Sword", "Mace"]
    assert js("gamedata", "ht")["values"]["item.Sword"]["hits"] == ["magical"]  # a weapon chit is magical
    ok("haunted", "give", "Aria", "Mace", "Bram")
    ok("haunted", "drop", "Bram", "Mace")
    refused("haunted", "give", "Aria", "Sword", "Aria")
    ok("haunted", "item", "Cael", "Potion", "--kind", "other", "--use", "spend", "--uses", "2", "--back", "purple")
    assert "1 use left" in ok("haunted", "use", "Cael", "Potion")
    assert "last time" in ok("haunted", "use", "Cael", "Potion")
    refused("haunted", "use", "Cael", "Potion")
    assert "say how it is used" in refused("haunted", "item", "Cael", "Wand", "--kind", "other")


def test_hp_climb_trade_and_score(table):
    out = ok("haunted", "hp", "Aria", "-6")
    assert "placed outside the tower" in out
    refused("haunted", "hp", "Aria", "=3")
    assert "cannot leave Tower 1 yet: chits worth 0 blue of the 3 needed" in ok("haunted", "climb", "Aria", "--check")
    refused("haunted", "climb", "Aria")
    assert "climbs to Tower 2" in ok("haunted", "climb", "Aria", "--cleared")
    for back in ([], ["--purple"]):
        ok("haunted", "fight", "Aria", "skeleton", *back)
        ok("haunted", "init", "--got", "6,1")
        ok("haunted", "attack", "--got", "6")
    refused("haunted", "trade", "Aria", "blue")
    ok("haunted", "trade", "Aria", "purple")
    score = js("haunted", "score")
    aria = score["scores"][0]
    assert aria["counts"]["standups"] == 2 and aria["counts"]["blue"] == 1 and aria["total"] == 3
    table_text = ok("haunted", "score")
    assert "Killing the specter of Sir Jameson" in table_text and "15" in table_text
    data = js("haunted", "end", "--reason", "time is up")
    assert data["finished"] == "Aria wins with 3 points"
    log = ok("log", "--raw")
    assert "## Final score" in log and "The game ends: time is up." in log
    refused("haunted", "fight", "Bram", "ghoul")


def test_odds_before_and_during_a_fight(table):
    data = js("haunted", "odds", "Aria", "wight")
    # Att 3 against AC 6 hits on 3+, but only silver, magic or holy water hurt a wight
    assert data["hero_hits"] == "2/3" and data["hero_damage"] == 0 and data["run_away"] == "4/5"
    assert data["duel"]["win"] == "0/1" and data["duel"]["fall"] == "1/1"
    data = js("haunted", "odds", "Bram", "wight")
    assert data["hero_damage"] == 1 and data["monster_hits"] == "1/1"
    ok("haunted", "fight", "Cael", "giant rat")
    data = js("haunted", "odds")
    assert data["monster"] == "Giant Rats" and data["hero_first"] == "1/2"
    assert sum(Fraction(v) for v in data["duel"].values()) == 1
    out = ok("haunted", "odds", "--run-at", "2")
    assert "running at 2 HP or less" in out
    refused("haunted", "odds", "Aria")


def test_lookups_work_without_a_session():
    monsters = js("haunted", "monsters")
    assert len(monsters) == 24 and monsters[0]["name"] == "Basilisk"
    assert "13 each" in ok("haunted", "setup", "--players", "4")
    assert js("haunted", "setup")["blue_chits"] == {"3": 17, "4": 13, "5": 10, "6": 8}
    refused("haunted", "fight", "Aria", "ghoul", code=1)  # no session


def test_another_games_session_is_refused():
    ok("new", "freeform")
    err = refused("haunted", "health", code=1)
    assert "plays freeform" in err


def test_bad_monster_and_hero_names(table):
    assert "could be" in refused("haunted", "fight", "Aria", "giant")
    assert "no hero 'Zed'" in refused("haunted", "fight", "Zed", "ghoul")


def test_every_haunted_command_and_option_has_help():
    import typer

    from companion.games.haunted_tower.cli import app as haunted

    group = typer.main.get_command(haunted)
    ctx = typer.Context(group, info_name="haunted")
    names = group.list_commands(ctx)
    assert {"fight", "init", "attack", "run", "health", "odds", "score", "climb", "trade"} <= set(names)
    for name in names:
        command = group.get_command(ctx, name)
        assert (command.help or "").strip(), name
        assert "Usage: companion haunted" in ok("haunted", name, "--help")
        for param in command.params:
            if param.name != "help":
                assert (getattr(param, "help", None) or "").strip(), (name, param.name)
