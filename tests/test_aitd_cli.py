"""The Adventure in the Dungeon through the CLI: companion new/next/undo/status, the numbers asked once
and reused, companion dungeon's commands, and companion play driven through prompt_toolkit's pipe input."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from tests.aitd_support import DATA

runner = CliRunner()

#: The answers to the first game's questions, in the order companion asks them.
ANSWERS = ["house", 7, 6, 9, 8, 5, 10, 5, 9, 8, "empty"]


def run(*args: str, code: int = 0):
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (result.stdout, result.stderr)
    return result


def step(*answer: object) -> dict:
    return json.loads(run("next", *map(str, answer), "--json").stdout)


def new_game(*extra: str) -> dict:
    return json.loads(run("new", "talisman", "--seed", "3", "--json", *extra).stdout)


def enter_numbers() -> dict:
    out = step()
    for answer in ANSWERS:
        out = step(answer)
    return out


@pytest.mark.parametrize(
    "name", ["talisman", "adventure-in-the-dungeon", "aitd", "dungeon", "Adventure in the Dungeon"]
)
def test_every_name_starts_the_game(name):
    out = json.loads(run("new", name, "--json").stdout)
    assert out["game"] == "talisman"


def test_the_numbers_are_asked_once_kept_and_reused_by_the_next_game(isolated_home):
    new_game()
    first = step()
    assert first["request"]["key"] == "data.source"
    out = enter_numbers()
    assert out["request"]["key"] == "area.enter"
    saved = json.loads((isolated_home / "gamedata" / "talisman.json").read_text())["values"]
    assert saved == DATA
    new_game("--name", "second")
    out = step()
    assert out["request"]["key"] == "area.enter"  # nothing asked again
    step(8)
    log = run("log", "--raw").stdout
    assert "Game data (kept from an earlier game)" in log and "house numbers, not the book's" in log


def test_a_scripted_game_logs_areas_rounds_tallies_the_talisman_and_the_score(tmp_path):
    new_game()
    enter_numbers()
    step(8)  # the Cadaver Creeper
    step("wait")
    step("1 1")  # it misses Adelhardt
    out = step("fight")
    assert out["request"]["key"] == "attack.paladin"
    step("3 3")
    out = step("5 5")  # Krylla: the Creeper's second hit slays it
    assert out["request"]["key"] == "talisman" and any("1/36" in line for line in out["request"]["info"])
    out = step("6 6")
    assert out["request"]["options"][0]["value"] == "leave"
    out = step("leave")
    assert out["done"] and out["finished"] == "won: Triumphant victory, 100 to 0"
    log = run("log", "--raw").stdout
    for text in (
        "## Area 8: Corridor of the Cadaver Creeper",
        "- Round 1: the Cadaver Creeper takes 2",
        "Cadaver Creeper: II (2 of 2 hits) (slain)",
        "`talisman` → `[6] [6]` = 12 vs 12 → **the Talisman is found!**",
        "Score: the heroes 100 (4 × 25), the monsters 0 (0 × 10).",
        "Verdict: a Triumphant victory",
    ):
        assert text in log, text
    assert 'finished: "won: Triumphant victory, 100 to 0"' in log


def test_hits_show_as_the_books_tallies_in_the_status(tmp_path):
    new_game()
    enter_numbers()
    step(9)
    step("wait")
    step("6 6")  # the Xorn hits Adelhardt
    status = run("status").stdout
    assert "Adelhardt – PALADIN: 9 8" in status and "Xorn: – (0 of 5 hits)" in status
    data = json.loads(run("status", "--json").stdout)
    assert data["state"]["trackers"]["tallies"]["Adelhardt"]["hits"] == 1


def test_undo_takes_back_a_roll_and_the_session_resumes_where_it_stopped():
    new_game()
    enter_numbers()
    step(9)
    step("wait")
    step("6 6")
    run("undo")
    out = step()
    assert out["request"]["key"] == "monster.paladin"
    assert json.loads(run("status", "--json").stdout)["state"]["trackers"]["tallies"]["Adelhardt"]["hits"] == 0
    run("redo")
    out = step()
    assert out["request"]["key"] == "monster.rangeress"


def test_typed_totals_are_checked():
    new_game()
    enter_numbers()
    step(9)
    step("wait")
    result = run("next", "=13", code=2)
    assert "13 cannot be rolled on 2d6" in result.stderr
    result = run("next", "19", code=2)  # neither a total nor a digit a die (no 9 on a d6)
    assert "19 cannot be rolled on 2d6" in result.stderr
    out = step("11")  # a total is accepted for 2d6
    assert out["request"]["key"] == "monster.rangeress"


# ---- companion dungeon ----------------------------------------------------------------------------


def test_dungeon_data_shows_edits_and_checks_the_numbers():
    out = run("dungeon", "data").stdout
    assert "rangeress.hits" in out and "not entered" in out
    run("dungeon", "data", "rangeress.hits=7", "source=book")
    data = json.loads(run("dungeon", "data", "--json").stdout)
    assert data["values"] == {"rangeress.hits": 7, "source": "book"}
    assert "fighter.to_hit" in data["missing"]
    for bad, message in (
        ("rangeress.hits=0", "from 1 to 20"),
        ("wizard.to_hit=seven", "whole number"),
        ("source=maybe", "one of book, house"),
        ("paladin.hits=10", "printed in the rule text"),
        ("krylla.hits=3", "unknown key"),
        ("rangeress.hits", "not KEY=VALUE"),
    ):
        result = run("dungeon", "data", bad, code=2)
        assert message in result.stderr and result.stderr.count("\n") <= 2, bad
    assert json.loads(run("dungeon", "data", "--json").stdout)["values"]["rangeress.hits"] == 7  # unchanged
    run("dungeon", "data", "--unset", "rangeress.hits")
    assert "rangeress.hits" not in json.loads(run("dungeon", "data", "--json").stdout)["values"]


def test_dungeon_data_session_changes_the_game_in_play_and_its_log():
    new_game()
    enter_numbers()
    run("dungeon", "data", "rangeress.to_hit=5", "--session")
    log = run("log", "--raw").stdout
    assert "Game data (entered): rangeress.to\\_hit = 5." in log  # markdown-escaped
    data = json.loads(run("status", "--json").stdout)
    assert data["state"]["data"]["rangeress.to_hit"] == 5


def test_the_generic_gamedata_command_sees_the_same_catalogue():
    run("dungeon", "data", "wizard.hits=5")
    assert "wizard.hits = 5" in run("gamedata", "talisman").stdout


def test_dungeon_areas_lists_every_area_and_with_numbers_what_each_side_needs():
    rows = json.loads(run("dungeon", "areas", "--json").stdout)
    assert [r["area"] for r in rows["areas"]] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13]
    assert not rows["numbers_known"]
    run("dungeon", "data", *(f"{k}={v}" for k, v in DATA.items()))
    rows = json.loads(run("dungeon", "areas", "--json").stdout)["areas"]
    ocular = rows[0]
    # The Ocular Terror (+3, magic) needs 11 − 3 = 8 on the dice against Adelhardt; 10 − 3 + 1 = 8 on Ibli.
    assert ocular["monster_needs"] == {"paladin": 8, "rangeress": 6, "fighter": 8, "wizard": 5}
    demon = rows[1]
    assert set(demon["hero_needs"]) == {"paladin", "wizard"}  # only they can hit it
    skeletons = rows[-1]
    assert skeletons["hero_needs"]["paladin"] == 8  # 4 + 4
    assert "Area 1: Lair of the Ocular Terror" in run("dungeon", "areas").stdout


def test_dungeon_odds_gives_exact_fractions_for_a_fresh_party():
    run("dungeon", "odds", "8", code=2)  # no numbers yet: one clear line
    run("dungeon", "data", *(f"{k}={v}" for k, v in DATA.items()))
    out = json.loads(run("dungeon", "odds", "8", "--json").stdout)
    fight = out["fight"]
    total = sum(Fraction(fight[k]) for k in ("slain", "wiped", "stuck"))
    assert total == 1 and Fraction(fight["slain"]) > Fraction(9, 10)
    assert out["monster_hits"] == {"paladin": "1/12"}  # it attacks the top of the list: 11+ on 2d6
    assert out["talisman"]["found_within"]["12"] == "1/1"
    assert out["talisman"]["found_within"]["1"] == "1/36"
    text = run("dungeon", "odds", "8").stdout
    assert "the Cadaver Creeper is slain:" in text
    run("dungeon", "odds", code=2)  # which area?
    run("dungeon", "odds", "12", code=2)  # Area 12 holds no monster in these numbers


def test_dungeon_odds_in_a_game_counts_from_the_choice():
    new_game()
    enter_numbers()
    step(8)
    step("wait")
    out = step("6 6")  # Adelhardt is paralysed
    assert out["request"]["key"] == "round.action"
    info = out["request"]["info"]
    assert any(line.startswith("To hit the Cadaver Creeper now") for line in info)
    assert any("Fighting on to the end" in line for line in info)
    odds = json.loads(run("dungeon", "odds", "--json").stdout)
    assert odds["from"] == "choice" and "paladin" not in odds["hero_hits"]  # the paralysed cannot attack
    step("fight")
    run("dungeon", "odds", code=2)  # in the middle of the heroes' attacks


def test_dungeon_score():
    assert "Heroes 75 (3 × 25), monsters 10 (1 × 10): a Resounding victory." in run("dungeon", "score", "3").stdout
    assert json.loads(run("dungeon", "score", "1", "--json").stdout) == {
        "survivors": 1,
        "heroes": 25,
        "monsters": 30,
        "verdict": "Pyrrhic",
        "victory": False,
    }
    run("dungeon", "score", code=2)  # no game, no number
    run("dungeon", "score", "5", code=2)


def test_the_dungeon_group_imports_only_typer_at_first():
    import subprocess
    import sys

    code = (
        "import sys, companion.games.adventure_in_the_dungeon.cli as c; "
        "print(any(m in sys.modules for m in ('rich', 'questionary', 'tinydb', "
        "'companion.games.adventure_in_the_dungeon.odds')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ---- companion play, with prompts answered through a pipe -----------------------------------------


def test_companion_play_asks_shows_the_odds_and_saves_on_quit(isolated_home):
    import io

    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from companion.cli.env import Env
    from companion.cli.kit import opened
    from companion.shell.play import play

    new_game()
    stdout = io.StringIO()
    env = Env(
        stdin=io.StringIO(),
        stdout=stdout,
        stderr=io.StringIO(),
        stdin_isatty=True,
        stdout_isatty=True,
        no_color=True,
        data_dir=isolated_home,
    )
    down = "\x1b[B"
    keys = (
        down
        + "\r"  # house numbers (the second option)
        + "".join(f"{n}\r" for n in ANSWERS[1:-1])
        + down
        + "\r"  # Area 12: no monster
        + down * 7
        + "\r"  # Area 8
        + "\r"  # Krylla strikes first
        + "3 3\r"  # her roll: a hit
        + "1 1\r"  # the Creeper misses her
        + "\r"  # fight on
        + "q\r"  # quit at the Paladin's roll
    )
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        inp.send_text(keys)
        with opened(env, engine=True) as session:
            play(env, session)
    shown = stdout.getvalue()
    assert "Adelhardt – PALADIN: 9" in shown
    assert "Fighting on to the end (Krylla striking first, the cure kept): the Cadaver Creeper is slain" in shown
    assert "Saved. Resume with: companion play" in shown
    out = step()
    assert out["request"]["key"] == "attack.paladin"  # resumed where it stopped
    assert json.loads(run("status", "--json").stdout)["state"]["trackers"]["tallies"]["Cadaver Creeper"]["hits"] == 1


def test_a_recorded_game_replays_to_the_same_state_and_log(tmp_path):
    """Play 120 answers at random through a real session; the replay from the events must agree."""
    import random

    from companion.engine.requests import Choice, RollRequest
    from companion.session import codec
    from companion.session.fold import answer_event
    from companion.session.service import Session
    from companion.store.sessions import Store

    store = Store(tmp_path / "data")
    session = Session.create(
        store, "fuzz", "talisman", seed=11, physical=False, variants=["flee-with-all"], logs_dir=tmp_path / "logs"
    )
    rng = random.Random(4)
    with session.files.locked():
        session.fold.start()
        for value in [*ANSWERS[:-1], "monster", "Gelatinous Thing", 3, 2, 1, 1, 1, "poison"]:
            session.record(answer_event(session.fold.pending, value))
        for _ in range(120):
            request = session.fold.pending
            if request is None:
                break
            if isinstance(request, RollRequest):
                answer = session.dice().roll(request.expr, request.mod, request.parts)
            else:
                assert isinstance(request, Choice)
                values = [v for v in request.values() if v != "abandon"]
                answer = "fight" if "fight" in values and rng.random() < 0.8 else rng.choice(values)
            session.record(answer_event(request, answer))
        live_state = codec.dump(session.state)
        live_log = session.log_text()
    files = store.open("fuzz")
    with files.locked():
        replayed = Session.open(files, engine=True)
        assert codec.dump(replayed.state) == live_state
        assert replayed.log_text() == live_log
    assert "Gelatinous Thing" in live_log
