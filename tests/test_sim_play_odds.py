"""The fight odds appear in play before the choice or the roll they inform."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from typer.testing import CliRunner

from companion.cli.app import app
from companion.cli.env import Env
from companion.cli.kit import opened
from companion.games.inverted_tower.odds import fight_odds
from companion.shell.play import play
from companion.sim.chart import spark

DOWN, ENTER = "\x1b[B", "\r"
runner = CliRunner()


def _env() -> Env:
    return Env(
        stdin=io.StringIO(),
        stdout=io.StringIO(),
        stderr=io.StringIO(),
        stdin_isatty=True,
        stdout_isatty=True,
        no_color=True,
        data_dir=Path(os.environ["COMPANION_HOME"]),
        logs_dir=Path(os.environ["COMPANION_LOGS"]),
    )


def nxt(*answer: str) -> dict:
    result = runner.invoke(app, ["next", *answer, "--json"])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_inverted_tower_play_shows_the_fight_odds_and_their_chart_before_the_attribute():
    assert runner.invoke(app, ["new", "it", "--seed", "42", "--hero", "Aria"]).exit_code == 0
    nxt()
    nxt("STR")
    nxt("2")  # room DC failed: an encounter
    nxt("3")  # SR 3-4: two Skeleton Warriors
    step = nxt("1")  # EC failed: no elite
    request = step["request"]
    assert request["key"] == "combat.attribute"
    info = request["info"]
    exact = fight_odds(5, 1, 1, 2)
    assert info[0] == "Fight odds vs 2 Skeleton Warriors (HP 5, floor 1, counting no further potions):"
    assert any(line.startswith(f"  STR +1: win {float(exact.win) * 100:.1f}%") for line in info)
    chart = spark([exact.hp.get(h, 0) for h in range(6)])
    assert f"  HP at the end with STR: dead {chart} 5" in info


def test_dark_tower_play_shows_the_fight_odds_before_the_fight_roll():
    assert runner.invoke(app, ["new", "dark-tower", "--seed", "3"]).exit_code == 0
    assert runner.invoke(app, ["dark", "card", "item", "Sword", "--class", "weapon", "--bonus", "2"]).exit_code == 0
    keys = [
        ENTER,  # terms: English
        ENTER,  # your own cards
        "Ann" + ENTER,
        ENTER,  # hero: the Clan Champion
        DOWN + ENTER,  # everyone is here
        ENTER,  # the random item drawn: Sword
        ENTER,  # no quest
        ENTER,  # the decks are built
        ENTER,  # the top card is a monster
        ENTER,  # the Gelatinous Cube
        "1 2 4 6" + ENTER,  # the fight roll
        ENTER,  # end the turn
        ENTER,  # a monster
        ENTER,  # the Cube again
        "q" + ENTER,  # save and quit at the roll
    ]
    env = _env()
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        inp.send_text("".join(keys))
        with opened(env, engine=True) as session:
            play(env, session)
    out = env.stdout.getvalue()
    odds_at = out.index("Win 15/16 (93.8%)")
    rolled_at = out.index("[1] [2] [♥] [★] → 7")
    assert odds_at < rolled_at
    assert "4 dice +4 vs 4" in out[:rolled_at]


def test_adventure_in_the_dungeon_play_shows_who_stands_at_the_end_before_fight_or_flee():
    from fractions import Fraction

    from companion.games.adventure_in_the_dungeon import data as D
    from companion.games.adventure_in_the_dungeon import odds as O
    from companion.games.adventure_in_the_dungeon import rules as R
    from companion.games.adventure_in_the_dungeon.view import pct, standing_lines
    from tests.aitd_support import DATA

    assert runner.invoke(app, ["gamedata", "talisman", *(f"{k}={v}" for k, v in DATA.items())]).exit_code == 0
    assert runner.invoke(app, ["new", "talisman", "--seed", "7"]).exit_code == 0
    nxt()
    nxt("8")  # the Cadaver Creeper
    nxt("wait")  # Krylla does not strike first
    step = nxt("6 5")  # the Creeper hits Adelhardt: paralysed until the cure
    request = step["request"]
    assert request["key"] == "round.action"
    model = R.compile_model(next(a for a in D.AREAS if a.number == 8), R.numbers(DATA))
    s = R.Fight(0, (1, 0, 0, 0), para=0b0001, struck=0b0001)
    exact = O.fight_odds(model, s, at="choice", detail=True)
    assert exact.standing[0] < 1  # the paralysed Paladin may die
    info = request["info"]
    line = f"Heroes standing at the end: none {spark(exact.survivors)} 4 · "
    line += f"the party's hits left {float(exact.hits_left):.1f} on average"
    assert line in info
    assert 0 < 1 - exact.standing[0] < Fraction(1, 1000)  # every risk here rounds below 0.1%
    assert info[info.index(line) + 1] == "Chance to fall: under 0.1% for every hero"
    assert sum(exact.survivors) == 1 and exact.survivors[4] < Fraction(1)
    # a party in danger: the heroes at risk are named, the others summed up
    xorn = R.compile_model(next(a for a in D.AREAS if a.number == 9), R.numbers(DATA))
    hurt = R.Fight(0, (8, 6, 7, 4))
    risky = O.fight_odds(xorn, hurt, at="choice", detail=True)
    lines = standing_lines(xorn, hurt, O.fight_odds(xorn, hurt, at="choice", detail=True, exact=False))
    named = [D.HEROES[h].name for h in range(4) if 1 - risky.standing[h] >= Fraction(1, 1000)]
    assert named and lines[1].startswith("Chance to fall: ")
    for h in range(4):
        if D.HEROES[h].name in named:
            assert f"{D.HEROES[h].name} {pct(1 - risky.standing[h])}" in lines[1]


def test_haunted_tower_play_shows_the_hps_chart_with_the_duel_odds_before_the_heros_turn():
    from fractions import Fraction

    from companion.engine.requests import Choice, Option
    from companion.games.haunted_tower import GAME as HT
    from companion.games.haunted_tower import odds as ht_odds
    from companion.games.haunted_tower.data.monsters import MONSTERS
    from companion.games.haunted_tower.rules import fights as R
    from tests.haunted_helpers import fight, make_state

    state = make_state()
    fight(state, "dire-wolf", first="monster")
    assert R.monster_attack(state, 6)  # a hit: Aria is down to 5 HP; her turn, last in the round
    advice = HT.advise(state, Choice("fight.turn", "Aria's turn", (Option("attack:", "Attack"),)))
    wolf = MONSTERS["dire-wolf"]
    ends = ht_odds.duel_ends(wolf, hero_hp=5, hero_attack=3, hero_ac=5, hero_damage=1, turn="hero-last")
    shares = [sum((p for (_, h), p in ends if h == hp), Fraction(0)) for hp in range(6)]
    mean = sum(h * p for h, p in enumerate(shares))
    assert advice[0].startswith("Fight on to the end: win ")
    assert advice[1] == f"Aria's HP at the end: fallen {spark(shares)} 5 · {float(mean):.1f} on average"
    assert shares[0] > 0 and sum(1 for p in shares if p) >= 3  # a chart, not one bar


def test_dragons_den_play_shows_the_health_chart_with_the_exchange_before_the_attack_roll():
    from companion.engine.requests import RollRequest
    from companion.games.dragons_den import odds as dd_odds
    from tests.dragons_den.test_engine import den, set_up

    d = set_up("7")
    for n in (9, 1, 2):
        d.send(n)
    d.send("reveal")
    d.send(1)
    d.send("m18")  # a hill giant, health 8
    d.send("t1")
    den(d.state).figure("sam").health = 3
    d.send("attack:hill-giant")
    r = d.request
    assert isinstance(r, RollRequest)
    ex = dd_odds.exchange(3, 8)
    shares = [ex.lose, ex.first_left.get(1, 0), ex.first_left.get(2, 0), ex.first_left.get(3, 0)]
    mean = sum(h * p for h, p in enumerate(shares))
    sam = den(d.state).figure("sam").name
    assert f"{sam}'s health at the end: slain {spark(shares)} 3 · {float(mean):.1f} on average" in r.info


def test_the_table_shows_who_stands_for_every_fight_at_once():
    from companion.games.adventure_in_the_dungeon import data as D
    from companion.games.adventure_in_the_dungeon import odds as O
    from companion.games.adventure_in_the_dungeon import rules as R
    from companion.games.adventure_in_the_dungeon.view import standing_lines
    from tests.aitd_support import DATA

    O._CHAINS.clear()
    model = R.compile_model(next(a for a in D.AREAS if a.number == 9), R.numbers(DATA))
    for s in (R.Fight(0, (8, 6, 7, 4)), R.Fight(0, (0, 0, 0, 0))):  # a hurt party, and a fresh one
        odds = O.fight_odds(model, s, at="choice", detail=True, exact=False)
        lines = standing_lines(model, s, odds)
        assert lines and lines[0].startswith("Heroes standing at the end: none ")
