"""A freeform session with the example packs, one command at a time: tables, a reference chain, a check
against a tracker, an effect, undo; and the log shows each row."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.helpers import cli, cli_json, open_session, regenerated_log
from tests.test_completion import bash_complete  # noqa: F401  (a fixture)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "tables"
CRYPT = str(EXAMPLES / "sunken-crypt.toml")
LABYRINTH = str(EXAMPLES / "glass-labyrinth.toml")


def ok(*args: str):
    result = cli(*args)
    assert result.exit_code == 0, result.stderr
    return result


def test_a_reference_chain_an_effect_and_undo_in_a_session(isolated_home):
    ok("new", "freeform", "--tables", CRYPT, "--seed", "5")
    ok("room", "1", "The flooded stair")
    # 6 → "An alcove: roll on [treasure]", then treasure 4 → "A silver locket" (gold +3)
    out = ok("roll", "DR", "room", "--got", "6/4").stdout
    assert "DR room (1d6)  [6]  → An alcove: roll on [treasure]  · physical" in out
    assert "  DR treasure (1d6)  [4]  → A silver locket  · physical" in out
    assert "gold +3 → Gold: 3" in out
    session = open_session(isolated_home, "freeform-1")
    assert session.state.trackers.counters["gold"].value == 3
    log = session.log_text()
    lines = log.splitlines()
    room = lines.index("- Room 1: The flooded stair")
    assert (
        lines[room + 1]
        == "  - d: `DR room` → `[6]` → **6: An alcove: roll on \\[treasure\\]** · physical — What is behind the door"
    )
    assert lines[room + 2] == (
        "  - d: `DR treasure` → `[4]` → **4: A silver locket** · physical — What glints in the silt, from room"
    )
    assert lines[room + 3] == "  - Gold: 3 (treasure: Gold +3)"
    assert regenerated_log(isolated_home, "freeform-1") == log

    ok("undo")
    session = open_session(isolated_home, "freeform-1")
    assert session.state.trackers.counters.get("gold") is None or session.state.trackers.counters["gold"].value == 0
    assert "silver locket" not in session.log_text()


def test_virtual_rolls_follow_every_reference_and_replay_the_same(isolated_home):
    ok("new", "freeform", "--tables", CRYPT, "--seed", "11")
    seen = set()
    for _ in range(30):
        data = cli_json("roll", "DR", "room")
        rolls = data["rolls"]
        assert rolls[0]["table"] == "room" and rolls[0]["depth"] == 0
        for child in rolls[1:]:
            assert child["depth"] >= 1
            assert f"[{child['table']}]" in " ".join(r["result"] for r in rolls if r["depth"] < child["depth"])
        for r in rolls:
            assert r["source"] == "virtual"
            seen.add(r["table"])
    assert seen == {"room", "monster", "treasure", "trap"}
    session = open_session(isolated_home, "freeform-1")
    assert regenerated_log(isolated_home, "freeform-1") == session.log_text()


def test_a_check_reads_the_trackers_current_value(isolated_home):
    ok("new", "freeform", "--tables", LABYRINTH)
    odds = cli_json("odds", "check", "skill")
    assert odds["expr"] == "2d6<=9" and odds["success"] == "5/6" and odds["tracker"] == {"name": "SKILL", "value": 9}
    # LUCK 10: a 6 and a 5 make 11, unlucky, and every test costs a point of LUCK
    data = cli_json("roll", "check", "luck", "--got", "6,5")
    assert data["rolls"][0]["result"] == "fail: you are unlucky"
    assert data["rolls"][0]["tracker"] == {"name": "LUCK", "value": 10}
    assert data["effects"] == [{"effect": "LUCK -1", "tracker": "LUCK", "applied": True, "value": 9, "max": 12}]
    assert cli_json("odds", "check", "luck")["expr"] == "2d6<=9"  # LUCK is 9 now
    assert cli_json("odds", "check", "luck")["success"] == "5/6"
    # the hard climb is SKILL - 2 = 7; a fail costs 2 STAMINA, the pack's HP tracker
    out = ok("roll", "check", "climb", "--got", "4,4").stdout
    assert "check climb (2d6<=7, SKILL 9)  [4] [4] = 8  → fail" in out
    assert "STAMINA -2 → STAMINA: 16/18" in out
    assert "HP: 16/18" in ok("hp").stdout  # the one-shot hp command changes the same tracker
    ok("hp", "-6")
    log = open_session(isolated_home, "freeform-1").log_text()
    luck = "- d: `2d6<=10` → `[6] [5]` = 11 vs 10 or less → **fail: you are unlucky** · physical"
    assert f"{luck} — Test your LUCK (LUCK 10)" in log
    assert "- LUCK: 9/12 (luck: LUCK -1)" in log
    assert "- STAMINA: 10/18" in log  # the sheet names HP the way the book does


def test_odds_of_every_row(isolated_home):
    ok("new", "freeform", "--tables", CRYPT)
    data = cli_json("odds", "DR", "monster")
    assert [(r["roll"], r["chance"]) for r in data["rows"]] == [
        ("2-4", "1/6"),
        ("5-8", "5/9"),
        ("9-11", "1/4"),
        ("12", "1/36"),
    ]
    out = ok("odds", "DR", "monster").stdout
    assert " 5-8     5/9  55.6%  A grave crab (3 hits)" in out


def test_tables_list_show_and_the_built_in_tables(isolated_home):
    folder = isolated_home / "tables"
    folder.mkdir(parents=True)
    shutil.copy(LABYRINTH, folder)
    data = cli_json("tables", "list")
    by_name = {p["pack"]: p for p in data["packs"]}
    assert by_name["glass-labyrinth"]["from"] == "folder"
    assert by_name["glass-labyrinth"]["checks"] == ["climb", "luck", "skill"]
    assert by_name["inverted-tower"] == {
        "pack": "inverted-tower",
        "title": "The Inverted Tower",
        "from": "built-in",
        "read_only": True,
        "path": None,
        "tables": ["event", "treasure"],
        "checks": [],
        "trackers": [],
    }
    shown = cli_json("tables", "show", "glass-labyrinth")
    assert shown["trackers"]["STAMINA"] == {"start": 18, "max": 18, "hp": True}
    out = ok("tables", "show", "inverted-tower/event").stdout
    assert "DR event (1d6)" in out
    # a pack in the player's folder answers without a session; checks use the pack's start values
    data = cli_json("roll", "DR", "wanderer", "--got", "1,1")
    assert data["rolls"][0]["result"] == "The Glazier, who trades a potion"
    assert data["effects"][0]["applied"] is False
    odds = cli_json("odds", "check", "skill")
    assert odds["note"] == "SKILL 9 is the pack's start: no session is active"


def test_the_session_keeps_its_own_copy(isolated_home, tmp_path):
    mine = tmp_path / "mine.toml"
    shutil.copy(CRYPT, mine)
    ok("new", "freeform", "--tables", str(mine))
    mine.write_text(mine.read_text(encoding="utf-8").replace("A silver locket", "A brass button"), encoding="utf-8")
    data = cli_json("roll", "DR", "treasure", "--got", "4")
    assert data["rolls"][0]["result"] == "A silver locket"
    copy = isolated_home / "sessions" / "freeform-1" / "tables" / "sunken-crypt.toml"
    assert copy.read_text(encoding="utf-8") == Path(CRYPT).read_text(encoding="utf-8")


def test_refusals_change_nothing(isolated_home):
    ok("new", "freeform", "--tables", CRYPT)
    before = open_session(isolated_home, "freeform-1").count
    cases = [
        (("roll", "DR", "room", "--got", "7"), "'7' is not a face of a d6"),
        (("roll", "DR", "room", "--got", "4"), None),  # 4 leads to [monster]: rolled virtually
        (("roll", "DR", "room", "--got", "1/3"), "--got gives 2 rolls but this took 1"),
        (("roll", "DR", "room", "--mod", "1"), "DR room takes no modifier"),
        (("roll", "DR", "cellar"), "no table 'cellar' in your table packs; tables: sunken-crypt/monster"),
        (("roll", "check", "climb"), "no check 'climb' in your table packs"),
    ]
    expected = before
    for args, error in cases:
        result = cli(*args)
        if error is None:
            assert result.exit_code == 0, result.stderr
            expected += 1
            continue
        assert result.exit_code in (1, 2), args
        assert error in result.stderr, (args, result.stderr)
        assert result.stderr.count("\n") <= 2
    assert open_session(isolated_home, "freeform-1").count == expected


def test_physical_dice_need_every_rolls_faces_without_a_terminal(isolated_home):
    ok("new", "freeform", "--physical", "--tables", CRYPT)
    result = cli("roll", "DR", "room", "--got", "4")
    assert result.exit_code == 2
    assert "give the faces of every roll with --got, one roll after another, separated by / (e.g. --got 4/3,3)" in (
        result.stderr
    )
    data = cli_json("roll", "DR", "room", "--got", "4/3,3")
    assert [r["source"] for r in data["rolls"]] == ["physical", "physical"]


def test_built_in_games_keep_their_tables(isolated_home):
    ok("new", "inverted-tower", "--hero", "Ada")
    data = cli_json("roll", "DR", "events", "--got", "3")
    assert data["table"] == "event"
    rows = cli_json("odds", "DR", "events")["rows"]
    assert sum(int(r["chance"].split("/")[0]) / int(r["chance"].split("/")[1]) for r in rows) == pytest.approx(1)


def test_startup_stays_lean_until_a_pack_is_used(isolated_home):
    from tests.test_startup import imported_modules

    modules, proc = imported_modules(["roll", "2d6"], isolated_home)
    assert proc.returncode == 0
    assert "tomllib" not in modules and "companion.packs" not in modules
    folder = isolated_home / "tables"
    folder.mkdir(parents=True)
    shutil.copy(CRYPT, folder)
    modules, proc = imported_modules(["roll", "DR", "room", "--got", "1"], isolated_home)
    assert proc.returncode == 0, proc.stderr[-500:]
    assert "tomllib" in modules and "companion.packs.pack" in modules
    assert not {m.split(".")[0] for m in modules} & {"questionary", "prompt_toolkit", "tinydb"}


PLAIN = """[pack]
name = "plain"

[tables.weather]
dice = "1d6"
rows = [ { roll = "1-4", result = "Rain" }, { roll = "5-6", result = "Sun", effect = "gold +1" } ]
"""


def test_new_json_names_the_packs(isolated_home, tmp_path):
    plain = tmp_path / "plain.toml"
    plain.write_text(PLAIN, encoding="utf-8")
    result = cli("new", "freeform", "--tables", CRYPT, "--tables", str(plain), "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["tables"] == ["sunken-crypt", "plain"]
    result = cli("new", "freeform", "--tables", CRYPT, "--tables", LABYRINTH)
    assert result.exit_code == 2
    assert result.stderr == (
        "companion: sunken-crypt and glass-labyrinth both declare an HP tracker (HP and STAMINA); keep it in one pack\n"
    )
    result = cli("new", "freeform", "--tables", CRYPT, "--tables", CRYPT)
    assert result.exit_code == 2
    assert "two --tables packs are both named 'sunken-crypt'" in result.stderr


def test_every_command_in_docs_tables_runs_as_typed(isolated_home, monkeypatch):
    """The player's page: its folder of your own made as it says (from the clone), then each
    `$ companion ...` line, in order, there; nothing is written into the clone."""
    import re
    import shlex
    import subprocess

    root = Path(__file__).resolve().parent.parent
    text = (root / "docs" / "tables.md").read_text(encoding="utf-8")
    setup = re.search(r"```sh\n(mkdir .*?)\n```", text)
    assert setup, "docs/tables.md says how to make the folder its commands run in"
    monkeypatch.delenv("COMPANION_LOGS")  # the default: logs/ in the folder the commands run in
    made = subprocess.run(
        ["bash", "--norc", "-c", setup.group(1) + " && pwd"], cwd=root, capture_output=True, text=True
    )
    assert made.returncode == 0, made.stderr
    here = Path(made.stdout.strip())
    assert here.parent == Path(os.environ["HOME"])  # ~/tables-tour: the test's own home
    before = _clone_files(root)
    monkeypatch.chdir(here)
    blocks = re.findall(r"```console\n(.*?)```", text, flags=re.S)
    commands = [line[2:] for block in blocks for line in block.splitlines() if line.startswith("$ companion ")]
    assert len(commands) >= 15
    for line in commands:
        words = shlex.split(line, comments=True)
        assert words[0] == "companion"
        result = cli(*words[1:])
        want = 2 if line.rstrip().endswith("# exit 2") else 0
        assert result.exit_code == want, (line, result.stderr)
        if want == 0:
            assert result.stderr == "", (line, result.stderr)
    assert (here / "logs" / "crypt.md").is_file()  # the logs are in the folder of your own
    after = _clone_files(root)
    assert after == before  # nothing written into the clone


def _clone_files(root: Path) -> list[str]:
    """Every file of the clone but the venv's, git's and the caches' (what a command could have written)."""
    skip = {".git", ".venv", "__pycache__", ".hypothesis", ".ruff_cache", ".pytest_cache", "companion.egg-info"}
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in skip]
        found += [os.path.relpath(os.path.join(folder, f), root) for f in files]
    return sorted(found)


def test_every_example_in_tables_help_runs_as_typed(isolated_home, monkeypatch):
    import shlex

    from companion.cli.table_cmds import TABLES_EPILOG

    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    lines = [line.strip() for line in TABLES_EPILOG.splitlines() if line.strip().startswith("companion ")]
    assert len(lines) >= 5
    for line in lines:
        result = cli(*shlex.split(line)[1:])
        assert result.exit_code == 0, (line, result.stderr)


def test_the_tracker_command_changes_a_packs_tracker_and_refuses_others(isolated_home):
    ok("new", "freeform", "--tables", LABYRINTH)
    assert ok("tracker", "luck", "-1", "--why", "a trap").stdout == "LUCK: 9/12\n"
    assert ok("tracker", "SKILL", "=14").stdout == "SKILL: 12/12\n"  # never past its max
    assert cli_json("tracker", "LUCK") == {"name": "LUCK", "value": 9, "max": 12}
    assert cli_json("odds", "check", "luck")["expr"] == "2d6<=9"
    result = cli("tracker", "MIGHT", "+1")
    assert result.exit_code == 2
    assert result.stderr == "companion: this session keeps no tracker 'MIGHT'; its trackers: SKILL, STAMINA, LUCK\n"
    result = cli("tracker", "LUCK", "lots")
    assert result.exit_code == 2
    log = open_session(isolated_home, "freeform-1").log_text()
    assert "- LUCK: 9/12 (a trap)" in log and "- SKILL: 12/12" in log


def test_tab_completes_table_and_check_names(bash_complete_packs):
    complete = bash_complete_packs
    assert sorted(complete("companion roll DR ")) == ["monster", "room", "trap", "treasure"]
    assert sorted(complete("companion roll DR tr")) == ["trap", "treasure"]
    assert complete("companion odds check ") == ["swim"]
    assert complete("companion roll 2d6 ") == []


@pytest.fixture
def bash_complete_packs(bash_complete, isolated_home):  # noqa: F811  (the fixture imported above)
    ok("new", "freeform", "--tables", CRYPT)
    return bash_complete


def test_a_table_roll_is_corrected_by_undo_not_amend(isolated_home):
    ok("new", "freeform", "--physical", "--tables", CRYPT)
    ok("roll", "DR", "room", "--got", "6/4")
    result = cli("amend", "--reason", "misread", "--got", "5")
    assert result.exit_code == 1
    assert "cannot be amended roll by roll" in result.stderr
    assert "undo it and run it again" in result.stderr


def test_a_game_with_rules_of_its_own_takes_tables_but_not_trackers(isolated_home, tmp_path):
    result = cli("new", "inverted-tower", "--tables", CRYPT)
    assert result.exit_code == 2
    assert "sunken-crypt declares trackers (HP, torches), and only a freeform session keeps" in result.stderr
    plain = tmp_path / "plain.toml"
    plain.write_text(PLAIN, encoding="utf-8")
    ok("new", "inverted-tower", "--hero", "Ada", "--tables", str(plain))
    data = cli_json("roll", "DR", "weather", "--got", "2")
    assert data["rolls"][0]["result"] == "Rain"
    assert cli_json("roll", "DR", "events", "--got", "3")["table"] == "event"  # the game's own table


def test_a_session_with_table_rolls_exports_to_the_documented_json(isolated_home, tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    ok("new", "freeform", "--tables", CRYPT)
    ok("roll", "DR", "room", "--got", "6/4")
    ok("roll", "check", "swim", "--got", "1")
    target = tmp_path / "s.json"
    ok("export", str(target), "--format", "json")
    schema = json.loads((Path(__file__).resolve().parent.parent / "docs" / "session-export.schema.json").read_text())
    data = json.loads(target.read_text(encoding="utf-8"))
    jsonschema.validate(data, schema)
    tables = [e for e in data["events"] if e["t"] == "table"]
    assert [e.get("table") or e.get("check") for e in tables] == ["room", "swim"]
    del tables[0]["rolls"][0]["result"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema)
