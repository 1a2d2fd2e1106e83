"""``companion odds fight GAME ...`` and ``companion simulate GAME ...`` from the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.games.dark_tower import odds as dt_odds
from companion.games.inverted_tower.odds import fight_odds
from companion.sim.runner import run_seed

runner = CliRunner()


def run(*args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (args, result.exit_code, result.stdout, result.stderr)
    return result.stdout if code == 0 else result.stderr


def js(*args: str) -> dict:
    return json.loads(run(*args, "--json"))


# ---- companion odds fight --------------------------------------------------------------------------
def test_odds_of_a_roll_still_take_free_words_beside_odds_fight():
    assert run("odds", "DC", "--mod", "2").startswith("DC +2: passes on 3+ → 2/3")
    assert js("odds", "DC", "--mod", "2")["success"] == "2/3"
    assert js("odds", "2d6>=9")["success"] == "5/18"
    assert "companion odds fight --help" in run("odds", "--help")


def test_odds_fight_lists_the_games_that_give_fight_odds():
    out = run("odds", "fight")
    assert "inverted-tower" in out and "dark-tower" in out and "Examples:" in out
    assert run("odds", "fight", "--help") == out


def test_inverted_tower_fight_odds_are_exact_with_a_chart():
    data = js("odds", "fight", "inverted-tower", "--mobs", "2", "--elite", "--attr", "1", "--hp", "5", "--floor", "2")
    exact = fight_odds(5, 1, 2, 2, elite=True)
    assert data["game"] == "inverted-tower"
    assert Fraction(data["win"]) == exact.win and Fraction(data["lose"]) == exact.death
    assert Fraction(data["hp_left"]) == exact.hp_left and data["flee"] is None
    rows = data["charts"][0]["rows"]
    assert [r["label"] for r in rows] == ["dead", "1", "2", "3", "4", "5"]
    assert sum(Fraction(r["chance"]) for r in rows) == 1
    out = run("odds", "fight", "it", "--mobs", "2", "--elite", "--attr", "1", "--hp", "5", "--floor", "2")
    assert out.startswith("2 Skeleton Warriors + a Lich on floor 2, HP 5, attribute +1:")
    assert f"win  {exact.win.numerator}/{exact.win.denominator}" in out
    assert "HP at the end of the fight" in out and "█" in out and "No potion counted" in out


def test_the_tower_odds_command_is_the_same_command():
    a = js("odds", "fight", "inverted-tower", "--mobs", "3", "--boss", "--attr", "2", "--hp", "9", "--floor", "4")
    b = js("tower", "odds", "--mobs", "3", "--boss", "--attr", "2", "--hp", "9", "--floor", "4")
    assert a == b
    assert b["hp_distribution"]["0"] == b["death"]  # the keys it printed before stay


def test_inverted_tower_fight_odds_read_the_session():
    run("new", "inverted-tower", "--seed", "5", "--variant", "elites-deal-2")
    run("tower", "hero", "DEX")
    run("floor", "3", "--correct")  # the sheet on floor 3 (a move there takes the stairs: #35)
    data = js("odds", "fight", "it", "--mobs", "1", "--elite", "--attr", "DEX")
    exact = fight_odds(5, 1, 3, 1, elite=True, variants=("elites-deal-2",))
    assert Fraction(data["win"]) == exact.win and data["inputs"]["variants"] == ["elites-deal-2"]


def test_dark_tower_fight_odds_for_a_group_with_spells_and_health():
    data = js(
        "odds", "fight", "dark-tower", "--bonus", "3", "--strength", "5", "--strength", "4", "--boost", "2:1",
        "--health", "4/6", "--helper", "2/5",
    )  # fmt: skip
    fo = dt_odds.fight_odds(3, 9, 4, [(2, 1)])
    assert Fraction(data["win"]) == fo.win and Fraction(data["draw"]) == fo.tie
    assert Fraction(data["lose"]) == fo.loss - fo.tie
    assert Fraction(data["death"]) == dt_odds.fall_chance(fo, 4, 6)
    assert Fraction(data["more"]["the helper (2/5) falls"]) == dt_odds.fall_chance(fo, 2, 5, heals=False)
    assert data["inputs"]["strength"] == [5, 4]
    out = run("odds", "fight", "dark-tower", "--bonus", "3", "--strength", "9")
    assert "beaten" in out and "tie, no damage" in out and "The outcome" in out


def test_dark_tower_fight_odds_default_to_the_fight_on_the_table():
    run("new", "dark-tower", "--seed", "11")
    run("dark", "card", "item", "Sword", "--class", "weapon", "--bonus", "2")
    run("dark", "join", "Ann", "Чемпион Клана")
    run("dark", "item", "Ann", "sword")
    run("dark", "quest", "--none")
    run("dark", "start")
    run("dark", "draw", "монстр", "желатиновый куб")
    data = js("odds", "fight", "dark-tower")
    assert data["win"] == "15/16"  # what companion dark fight shows for the same fight
    assert data["inputs"]["strength"] == [4] and data["inputs"]["health"] is not None


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("odds", "fight", "freeform"), 2, "has no fight odds; games with fight odds: inverted-tower, dark-tower"),
        (("odds", "fight", "chess"), 2, "unknown game 'chess'"),
        (("odds", "fight", "it", "--elite", "--boss"), 2, "one strong foe at most"),
        (("odds", "fight", "dark-tower"), 2, "give --bonus and --strength"),
        (
            ("odds", "fight", "dark-tower", "--bonus", "1", "--strength", "3", "--health", "7/5"),
            2,
            "health is 0 to MAX",
        ),
        (("odds", "fight", "dark-tower", "--bonus", "1", "--strength", "3", "--boost", "x"), 2, "BONUS[:COST]"),
    ],
)
def test_bad_fight_odds_input_is_one_line(args, code, message):
    err = run(*args, code=code)
    assert message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) <= 2


# ---- companion simulate ---------------------------------------------------------------------------
def test_simulate_reports_every_figure_with_an_interval():
    doc = js("simulate", "inverted-tower", "--runs", "100", "--seed", "4")
    assert doc["runs"] == 100 and doc["seed"] == 4 and doc["policy"] == "steady" and doc["variants"] == []
    f = doc["figures"]
    for key in ("won", "death_floor", "floor", "rooms", "rolls", "choices", "kills", "xp", "level"):
        assert key in f
        lo, hi = f[key]["ci95"]
        value = f[key].get("rate", f[key].get("mean"))
        assert lo <= value <= hi
    assert f["death_floor"]["n"] == 100 - f["won"]["count"]
    assert sum(v["count"] for v in f["level"]["values"].values()) == 100
    example = f["won"]["examples"]["no"]
    assert example["seed"] == run_seed(4, example["run"])


def test_simulate_is_reproducible_and_the_same_on_every_core():
    # 300 runs: two chunks of runs, so --jobs 0 shares them between two processes on two cores.
    one = run("simulate", "it", "--runs", "300", "--seed", "8", "--policy", "eager", "--json")
    again = run("simulate", "it", "--runs", "300", "--seed", "8", "--policy", "eager", "--json")
    every = run("simulate", "it", "--runs", "300", "--seed", "8", "--policy", "eager", "--json", "--jobs", "0")
    assert one == again == every


def test_simulate_with_the_drafts_open_questions_as_variants():
    base = js("simulate", "it", "--runs", "100", "--seed", "3")
    harder = js("simulate", "it", "--runs", "100", "--seed", "3", "--variant", "elites-deal-2")
    assert harder["variants"] == ["elites-deal-2"]
    assert harder["figures"] != base["figures"]


def test_simulate_prints_a_report_for_a_person():
    out = run("simulate", "it", "--runs", "100", "--seed", "2", "--policy", "thrifty")
    assert out.startswith("The Inverted Tower: 100 runs, seed 2, policy thrifty")
    assert "Win rate" in out and "95% interval" in out and "Floor of death" in out and "█" in out
    assert "runs/s on 1 process" in out and "companion new inverted-tower --seed" in out


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("simulate", "it", "--variant", "nope"), 2, "has no variant 'nope'"),
        (("simulate", "it", "--policy", "nope"), 2, "has no policy 'nope'; its policies: steady"),
        (("simulate", "dark-tower"), 2, "cannot be simulated yet; games the simulator plays: inverted-tower"),
        (("simulate", "it", "--runs", "0"), 2, "--runs"),
        (("simulate", "it", "--jobs", "-1"), 2, "--jobs"),
    ],
)
def test_bad_simulate_input_is_one_line(args, code, message):
    err = run(*args, code=code)
    assert message in err and "Traceback" not in err


def test_new_commands_keep_start_up_light():
    """The command modules import only typer; simulate's help loads no game, rich or multiprocessing."""
    code = (
        "import sys, companion.cli.sim_cmds, companion.cli.fight_cmds, companion.sim.fights; "
        "heavy = ('rich', 'multiprocessing', 'questionary', 'tinydb', 'companion.games.inverted_tower', "
        "'companion.games.dark_tower', 'companion.sim.runner'); "
        "print(sorted(m for m in heavy if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    env = dict(os.environ)
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "companion", "odds", "DC"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    loaded = {line.rsplit("|", 1)[1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")}
    assert not {m for m in loaded if m.startswith(("companion.sim", "companion.games.", "multiprocessing"))}


def test_simulate_help_names_its_argument_and_offers_no_shell_completion():
    out = run("simulate", "--help")
    assert "Usage: companion simulate [OPTIONS] {game}" in out  # as companion new shows its game
    assert "--install-completion" not in out and "--jobs" in out and "every core" in out


# ---- The Haunted Tower --------------------------------------------------------------------------------
def test_haunted_tower_fight_odds_without_a_game_take_the_heros_numbers():
    from companion.games.haunted_tower import odds as ht_odds
    from companion.games.haunted_tower.data.monsters import MONSTERS

    data = js(
        "odds", "fight", "haunted-tower", "black widow", "--hp", "4", "--attack", "2", "--ac", "4", "--run-at", "1"
    )
    exact = ht_odds.duel(MONSTERS["black-widow-spider"], hero_hp=4, hero_attack=2, hero_ac=4, hero_damage=1, run_at=1)
    assert data["game"] == "haunted-tower" and data["inputs"]["monster"] == "black-widow-spider"
    assert (Fraction(data["win"]), Fraction(data["lose"]), Fraction(data["flee"])) == (
        exact.win,
        exact.fall,
        exact.escape,
    )
    ends = ht_odds.duel_ends(
        MONSTERS["black-widow-spider"], hero_hp=4, hero_attack=2, hero_ac=4, hero_damage=1, run_at=1
    )
    hps = sorted({h for (_, h), _ in ends})
    assert [r["label"] for r in data["charts"][0]["rows"]] == ["fallen" if h == 0 else str(h) for h in hps]
    assert hps[0] == 0 and len(hps) > 2
    out = run("odds", "fight", "ht", "ghoul", "--hp", "6", "--attack", "3", "--ac", "5")
    assert out.startswith("The hero (HP 6, Att 3, AC 5) against the Ghoul (HP 2):")
    assert "HP at the end of the fight" in out and "running away succeeds (each try)" in out


def test_haunted_tower_fight_odds_read_the_fight_in_progress():
    from companion.games.haunted_tower import odds as ht_odds
    from companion.games.haunted_tower.data.monsters import MONSTERS

    run("new", "haunted-tower", "--seed", "5")
    for name in ("Aria", "Bram", "Cael"):  # made-up cards: 3 to 6 heroes play
        run("haunted", "hero", name, "--speed", "6", "--hp", "6", "--attack", "3", "--ac", "5", "--ability", "test")
    run("haunted", "first", "--got", "9,2,3")
    assert js("odds", "fight", "ht", "wight", "--hero", "Aria")["win"] == "0/1"  # only silver, magic or holy water
    run("haunted", "fight", "Aria", "ghoul")
    run("haunted", "init", "--got", "5,2")
    run("haunted", "attack", "--got", "6")  # the Ghoul is down to 1 HP; its turn next
    data = js("odds", "fight", "haunted-tower")
    exact = ht_odds.duel(
        MONSTERS["ghoul"],
        hero_hp=6,
        hero_attack=3,
        hero_ac=5,
        hero_damage=1,
        monster_hp=1,
        items=0,
        turn="monster-last",
    )
    assert Fraction(data["win"]) == exact.win and data["inputs"]["turn"] == "monster-last"
    assert data["fight"].startswith("Aria (HP 6, Att 3, AC 5) against the Ghoul (HP 1 of 2)")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("odds", "fight", "haunted-tower"), "name the monster and give the hero's numbers"),
        (("odds", "fight", "haunted-tower", "ghoul", "--hp", "6"), "give the hero's --attack, --ac"),
        (("odds", "fight", "haunted-tower", "ghoul", "--hero", "Aria"), "--hero and --with need a Haunted Tower game"),
        (("odds", "fight", "haunted-tower", "dragon", "--hp", "6"), "no monster 'dragon' in the listing"),
    ],
)
def test_bad_haunted_tower_fight_odds_input_is_one_line(args, message):
    err = run(*args, code=2)
    assert message in err and "Traceback" not in err


# ---- The Dragon's Den -------------------------------------------------------------------------------
def test_dragons_den_fight_odds_from_two_healths():
    from companion.games.dragons_den import odds as dd_odds

    data = js("odds", "fight", "dragons-den", "--health", "5", "--against", "3")
    ex = dd_odds.exchange(5, 3)
    assert data["game"] == "dragons-den" and Fraction(data["win"]) == ex.win and Fraction(data["lose"]) == ex.lose
    assert Fraction(data["hp_left"]) == sum(h * p for h, p in ex.first_left.items())
    second = js("odds", "fight", "dd", "--health", "5", "--against", "3", "--second")
    assert Fraction(second["win"]) == dd_odds.exchange(3, 5).lose
    out = run("odds", "fight", "dragons-den", "--health", "5", "--against", "3")
    assert out.startswith("The striker (health 5) against the other side (health 3), the striker striking first:")
    assert "The striker's health at the end" in out


def test_dragons_den_fight_odds_on_the_board():
    from companion.games.dragons_den import odds as dd_odds

    run("new", "dd", "--seed", "7")
    run("dragon", "setup", "sam", "jared", "--chits", "physical", "--dragon", "9", "--discard", "1", "--discard", "2")
    run("dragon", "reveal", "4", "--chit", "m18", "--chit", "t1")  # a hill giant (health 8)
    data = js("odds", "fight", "dragons-den", "sam", "hill-giant")
    assert Fraction(data["win"]) == dd_odds.exchange(8, 8).win and data["inputs"]["name"] == "Sam Barleyman"
    assert js("odds", "fight", "dragons-den")["inputs"]["other"] == "the Hill Giant"  # the hero whose turn it is
    assert js("odds", "fight", "dd", "hill", "sam")["inputs"]["name"] == "the Hill Giant"
    assert "its only attack is its breath" in run("odds", "fight", "dd", "sam", "dragon", code=2)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("odds", "fight", "dragons-den"), "give --health and --against"),
        (("odds", "fight", "dragons-den", "--health", "3"), "give --health and --against"),
        (("odds", "fight", "dragons-den", "sam", "troll"), "naming figures needs a Dragon's Den game"),
        (("odds", "fight", "dragons-den", "--health", "0", "--against", "3"), "--health"),
    ],
)
def test_bad_dragons_den_fight_odds_input_is_one_line(args, message):
    err = run(*args, code=2)
    assert message in err and "Traceback" not in err
