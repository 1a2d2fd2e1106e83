"""``companion roll`` and ``companion odds`` through the real command tree (typer's CliRunner).

CompanionGroup.main calls sys.exit itself; CliRunner turns that into ``result.exit_code`` and keeps
stdout and stderr apart, so every test checks all three.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import companion
from companion.cli.app import app
from companion.dice.expr import parse
from companion.dice.odds import odds
from companion.dice.source import VirtualDice

runner = CliRunner()
ANSI = re.compile(r"\x1b\[")


def run(*args: str, env: dict[str, str] | None = None, input: str | None = None):
    return runner.invoke(app, list(args), env=env, input=input, prog_name="companion")


def ok(*args: str, **kwargs):
    result = run(*args, **kwargs)
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    assert result.stderr == ""
    return result


def one_json(*args: str) -> dict:
    result = ok(*args, "--json")
    lines = result.stdout.splitlines()
    assert len(lines) == 1, result.stdout
    data = json.loads(lines[0])
    assert isinstance(data, dict)
    return data


@pytest.fixture
def spy_record(monkeypatch):
    """Swap the session stub's record_roll for one that notes each call (and records nothing)."""
    calls: list[tuple] = []

    def record_roll(env, expr, mod, *, got, seed, why):
        calls.append((str(expr), mod, got, seed, why))
        return None

    monkeypatch.setattr("companion.cli.kit.record_roll", record_roll)
    return calls


# --- success: exit 0, the roll on stdout, nothing on stderr -------------------------------------


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["DC", "--got", "5"], "DC  [5]  → pass (needs 5+)  · physical"),
        (["DC", "--got", "4"], "DC  [4]  → fail (needs 5+)  · physical"),
        (["DC", "--mod", "2", "--got", "3"], "DC +2  [3]  → pass (needs 3+)  · physical"),
        (
            ["DC", "--mod", "10", "--got", "1"],
            "DC +10  [1]  → fail (needs 2+)  natural 1: always fails  · physical",
        ),
        (
            ["DC", "--mod", "-10", "--got", "6"],
            "DC −10  [6]  → pass (needs a natural 6)  natural 6: always passes  · physical",
        ),
        (["EC", "--got", "6"], "EC  [6]  → pass (needs a natural 6)"),
        (["SR", "STR,DEX,INT", "--got", "4"], "SR STR,DEX,INT  [4]  → option 2: DEX  · physical"),
        (["SR", "--got", "1"], "SR  [1]  → option 1"),
        (["talisman", "--got", "6,6"], "talisman  [6] [6] = 12  → the Talisman is found!"),
        (["talisman", "--got", "6,5"], "talisman  [6] [5] = 11  → not found"),
        (["2d6", "--got", "3,5"], "2d6  [3] [5] = 8  · physical"),
        (["1d6+3>=7", "--got", "4"], "1d6+3>=7  [4]  → pass (needs 4+)  · physical"),  # the die must show 4
        (["1d6<=4", "--got", "5"], "1d6<=4  [5]  → fail (needs 4 or less)"),
        (["1d10>=5", "--got", "0"], "1d10>=5  [10]  → pass (needs 5+)"),
        (["d100", "--got", "00"], "1d100  [100]"),
        (["2d6-1d4", "--got", "3,5,2"], "2d6-1d4  [3] [5] [2] = 6  · physical"),
        (["4dt", "--got", "1,heart,star,5"], "4dt  [1] [♥] [★] [♥]  → 1, ♥2 ★1  · physical"),
        (["3dt", "--got", "4 5 6"], "3dt  [♥] [♥] [★]  → 0, ♥2 ★1"),
    ],
)
def test_roll_physical_line(args, line):
    result = ok("roll", *args)
    assert line in result.stdout
    assert len(result.stdout.splitlines()) == 1


@pytest.mark.parametrize("got", ["7", "=7"])
def test_one_number_for_several_dice_is_taken_as_the_total_and_said(got):
    """As at a 2d6 prompt: the same inputs, and the same words for what was taken."""
    result = ok("roll", "2d6", "--got", got)
    assert result.stdout == (
        "2d6  (total only) = 7  · physical\ntook 7 as the total of 2d6 (type each die, e.g. 3 4, to keep the faces)\n"
    )


def test_roll_virtual_shows_its_seed(spy_record):
    result = ok("roll", "2d6", "--seed", "1")
    assert result.stdout == "2d6  [1] [6] = 7  · virtual (seed 1)\n"


def test_roll_expression_may_span_words():
    assert ok("roll", "1d6", "+", "3", ">=", "7", "--got", "4").stdout.startswith("1d6+3>=7  [4]")
    assert ok("roll", "SR", "A,", "B,", "C", "--got", "6").stdout.startswith("SR A,B,C  [6]")


def test_roll_with_odds():
    result = ok("roll", "DC", "--mod", "2", "--got", "5", "--odds")
    assert "odds 2/3 (66.7%)" in result.stdout


def test_roll_is_recorded_through_the_session_api(spy_record):
    ok("roll", "DC", "--mod", "1", "--got", "5", "--why", "the door")
    assert spy_record == [("DC", 1, "5", None, "the door")]


def test_scratch_roll_is_not_recorded(spy_record):
    ok("roll", "DC", "--got", "5", "--scratch")
    assert spy_record == []


# --- bad input: exit 2, one stderr line naming the die and what it accepts, nothing recorded ---


BAD_GOT = [
    # (expression words, --got value, what the line must say)
    (["DC"], "7", ["'7' is not a face of a d6", "a d6 accepts a whole number from 1 to 6"]),
    (["2d6"], "3,7", ["'7' is not a face of a d6", "a d6 accepts a whole number from 1 to 6"]),
    (["DC"], "0", ["'0' is not a face of a d6", "a d6 accepts a whole number from 1 to 6"]),
    (["1d6+3>=7"], "0", ["'0' is not a face of a d6", "1 to 6"]),
    (["DC"], "x", ["'x' is not a face of a d6", "a d6 accepts a whole number from 1 to 6"]),
    (["2d6"], "3,five", ["'five' is not a face of a d6", "1 to 6"]),
    (["2d6"], "3 4 5", ["2d6 needs 2 values, got 3", "or one number for the total"]),
    (["2d6"], "1,2,3", ["2d6 needs 2 values, got 3", "a whole number from 1 to 6"]),
    (["DC"], "3,4", ["DC (1d6) needs 1 value, got 2", "a whole number from 1 to 6"]),
    (["talisman"], "6 6 6", ["talisman (2d6) needs 2 values, got 3", "1 to 6"]),
    (["DC"], "", ["no value given for DC (1d6)", "a whole number from 1 to 6"]),
    (["2d6"], "", ["no value given for 2d6", "a whole number from 1 to 6"]),
    (["2d6"], " ", ["no value given for 2d6", "a whole number from 1 to 6"]),
    (["1d10"], "11", ["'11' is not a face of a d10", "1 to 10 (0 reads as 10)"]),
    (["d20"], "0", ["'0' is not a face of a d20", "1 to 20"]),
    (["d100"], "101", ["'101' is not a face of a d100", "0 or 00 reads as 100"]),
    (["3dt"], "1,2,7", ["'7' is not a face of a dt", "1, 2, 3, ♥", "★"]),
    (["3dt"], "1,2", ["3dt needs 3 values, got 2", "♥"]),
    (["2d6"], "=13", ["13 cannot be rolled on 2d6", "from 2 to 12"]),
    (["2d6"], "=x", ["'x' is not a total for 2d6", "from 2 to 12"]),
]


def assert_one_line_error(result, pieces: list[str]) -> None:
    assert result.exit_code == 2, (result.stdout, result.stderr, result.exception)
    assert isinstance(result.exception, SystemExit)  # not a crash
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("companion")
    assert "Traceback" not in result.stderr
    for piece in pieces:
        assert piece in lines[0]


@pytest.mark.parametrize(("words", "got", "pieces"), BAD_GOT)
def test_bad_got_is_one_line_exit_2_nothing_recorded(words, got, pieces, spy_record, isolated_home):
    result = run("roll", *words, "--got", got)
    assert_one_line_error(result, pieces)
    assert spy_record == []
    assert not isolated_home.exists() or not any(isolated_home.rglob("*"))


@pytest.mark.parametrize(("words", "got", "pieces"), BAD_GOT[:6])
def test_bad_got_as_json_is_still_one_line(words, got, pieces, spy_record):
    assert_one_line_error(run("roll", *words, "--got", got, "--json"), pieces)
    assert spy_record == []


@pytest.mark.parametrize(
    ("args", "pieces"),
    [
        (["roll", "foo"], ["unknown dice expression 'foo'", "accepted: DR, DC, EC, SR, talisman"]),
        (["roll", "2d"], ["unknown dice expression '2d'", "accepted:"]),
        (["roll", "2d6>="], ["unknown dice expression", "accepted:"]),
        (["roll", "0d6"], ["between 1 and 100 dice"]),
        (["roll", "1d1"], ["a die has 2 to 1000 sides"]),
        (["roll", "SR", "a,b"], ["SR takes three options"]),
        (["roll", "foo", "--got", "3"], ["unknown dice expression 'foo'"]),
        (["roll", "EC", "--mod", "1"], ["EC takes no modifier", "natural 6 only"]),
        (["roll", "SR", "--mod", "1", "--got", "3"], ["SR takes no modifier"]),
        (["roll", "talisman", "--mod", "-1"], ["talisman takes no modifier"]),
        (["roll", "DR", "events"], ["DR events needs a game", "--game"]),
        (["odds", "foo"], ["unknown dice expression 'foo'"]),
        (["odds", "EC", "--mod", "2"], ["EC takes no modifier"]),
        (["odds", "100d1000"], ["too many totals"]),
    ],
)
def test_bad_expression_is_one_line_exit_2(args, pieces, spy_record):
    assert_one_line_error(run(*args), pieces)
    assert spy_record == []


@pytest.mark.parametrize(
    ("args", "pieces"),
    [
        (["roll"], ["Missing argument 'EXPR'", "companion roll --help"]),
        (["roll", "2d6", "--mod", "x"], ["'x' is not a valid int"]),
        (["roll", "2d6", "--seed", "x"], ["'x' is not a valid int"]),
        (["roll", "2d6", "--nope"], ["No such option"]),
        (["nope"], ["No such command"]),
    ],
)
def test_usage_errors_are_one_line_exit_2(args, pieces):
    assert_one_line_error(run(*args), pieces)


# --- --json: one object with stable keys and types -----------------------------------------------

KEYS = {
    "expr",
    "kind",
    "dice",
    "symbols",
    "modifier",
    "total",
    "success",
    "option",
    "option_name",
    "natural",
    "hearts",
    "stars",
    "source",
    "target",
    "odds",
    "table",
    "row",
}


def check_types(data: dict) -> None:
    assert set(data) >= KEYS
    assert isinstance(data["expr"], str)
    assert data["kind"] in ("DR", "DC", "EC", "SR", "talisman", "sum")
    assert data["dice"] is None or all(type(f) is int for f in data["dice"])
    assert type(data["modifier"]) is int
    assert type(data["total"]) is int
    assert data["success"] in (True, False, None)
    assert data["option"] in (1, 2, 3, None)
    assert data["source"] in ("virtual", "physical")
    for key in ("hearts", "stars", "natural"):
        assert data[key] is None or type(data[key]) is int
    for key in ("symbols", "option_name", "target", "odds", "table", "row"):
        assert data[key] is None or isinstance(data[key], str | list)
    if data["source"] == "virtual":
        assert type(data["seed"]) is int
    else:
        assert "seed" not in data


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["DC", "--got", "5"],
            {
                "expr": "DC",
                "kind": "DC",
                "dice": [5],
                "modifier": 0,
                "total": 5,
                "success": True,
                "option": None,
                "source": "physical",
                "target": "5+",
                "odds": "1/3",
                "hearts": None,
                "stars": None,
            },
        ),
        (
            ["DC", "--mod", "2", "--got", "1"],
            {"dice": [1], "modifier": 2, "total": 3, "success": False, "natural": 1, "odds": "2/3"},
        ),
        (
            ["DC+1", "--mod", "1", "--got", "3"],
            {"expr": "DC+1", "modifier": 2, "total": 5, "success": True},
        ),
        (["EC", "--got", "6"], {"success": True, "natural": 6, "odds": "1/6"}),
        (
            ["SR", "STR,DEX,INT", "--got", "4"],
            {
                "expr": "SR STR,DEX,INT",
                "option": 2,
                "option_name": "DEX",
                "success": None,
                "total": 4,
            },
        ),
        (["SR", "--got", "5"], {"option": 3, "option_name": None}),
        (
            ["talisman", "--got", "6,6"],
            {"dice": [6, 6], "total": 12, "success": True, "odds": "1/36"},
        ),
        (["talisman", "--got", "=11"], {"dice": None, "total": 11, "success": False}),
        (
            ["2d6", "--got", "3,5"],
            {"dice": [3, 5], "total": 8, "success": None, "odds": None, "target": None},
        ),
        (["2d6", "--got", "=7"], {"dice": None, "total": 7, "symbols": None}),
        (
            ["1d6+3>=7", "--got", "4"],
            {
                "expr": "1d6+3>=7",
                "modifier": 3,
                "total": 7,
                "success": True,
                "target": "4+",  # what the die must show for the total of 7
                "odds": "1/2",
            },
        ),
        (["1d10", "--got", "0"], {"dice": [10], "total": 10, "natural": 10}),
        (["d100", "--got", "00"], {"expr": "1d100", "dice": [100], "total": 100}),
        (["2d6-1d4", "--got", "1,1,4"], {"dice": [1, 1, 4], "total": -2}),
        (
            ["3dt", "--got", "1,heart,star"],
            {
                "dice": [1, 4, 6],
                "symbols": ["1", "♥", "★"],
                "total": 1,
                "hearts": 1,
                "stars": 1,
                "success": None,
            },
        ),
        (["4dt", "--got", "3,2,6,5"], {"total": 5, "hearts": 1, "stars": 1}),
        (["3dt>=4", "--got", "3,2,6"], {"total": 5, "success": True, "stars": 1}),
    ],
)
def test_json_physical(args, expected):
    data = one_json("roll", *args)
    check_types(data)
    for key, value in expected.items():
        assert data[key] == value, key


@pytest.mark.parametrize(
    "expr",
    [
        "DC",
        "EC",
        "SR",
        "DR",
        "talisman",
        "2d6",
        "1d6+3>=7",
        "d20",
        "1d10>=5",
        "d%",
        "dt",
        "3dt",
        "4dt",
        "2d6-1d4",
    ],
)
def test_json_virtual(expr):
    data = one_json("roll", expr, "--seed", "11")
    check_types(data)
    assert data["seed"] == 11
    e = parse(expr)
    assert data["dice"] == list(VirtualDice(11).faces(e))
    assert data["expr"] == str(e)
    if e.has_dt:
        assert data["total"] == sum(f for f in data["dice"] if f <= 3) + e.const
        assert data["hearts"] == sum(1 for f in data["dice"] if f in (4, 5))
        assert data["stars"] == data["dice"].count(6)
    else:
        assert data["hearts"] is None and data["stars"] is None
    assert (data["option"] is not None) == (e.kind == "SR")
    assert (data["success"] is not None) == e.is_check


# --- seeds replay -------------------------------------------------------------------------------


def test_same_seed_same_output():
    a = ok("roll", "4dt", "--seed", "123")
    b = ok("roll", "4dt", "--seed", "123")
    assert a.stdout == b.stdout
    assert "(seed 123)" in a.stdout


def test_unseeded_roll_reports_a_seed_that_replays_it():
    first = one_json("roll", "3d6")
    again = one_json("roll", "3d6", "--seed", str(first["seed"]))
    assert again == first


def test_different_seeds_differ_somewhere():
    seen = {tuple(one_json("roll", "5d20", "--seed", str(s))["dice"]) for s in range(5)}
    assert len(seen) == 5


# --- odds ---------------------------------------------------------------------------------------


def test_odds_dc_mod_2_is_two_thirds():
    result = ok("odds", "DC", "--mod", "2")
    assert result.stdout.splitlines()[0] == "DC +2: passes on 3+ → 2/3 (66.7%)"
    assert "pass   66.7%" in result.stdout
    assert "fail   33.3%" in result.stdout


def test_odds_json():
    data = one_json("odds", "DC", "--mod", "2")
    assert data["success"] == "2/3"
    assert data["modifier"] == 2
    assert data["target"] == "3+"
    assert data["percent"] == pytest.approx(66.667)
    data = one_json("odds", "2d6>=9")
    assert data["success"] == "5/18"
    assert data["totals"]["7"] == "1/6"
    assert data["options"] is None
    assert one_json("odds", "talisman")["success"] == "1/36"
    sr = one_json("odds", "SR", "a,b,c")
    assert sr["success"] is None
    assert sr["options"] == {"1": "1/3", "2": "1/3", "3": "1/3"}


def test_odds_json_dark_tower_pool():
    data = one_json("odds", "4dt")
    assert data["success"] is None
    assert sum(_frac(v) for v in data["totals"].values()) == 1
    assert data["hearts"]["0"] == "16/81"  # (4/6)^4
    assert data["stars"]["4"] == "1/1296"  # (1/6)^4
    assert set(data["hearts"]) == set(data["stars"]) == {"0", "1", "2", "3", "4"}


def _frac(text: str):
    from fractions import Fraction

    return Fraction(text)


def _table_rows(stdout: str) -> dict[int, str]:
    rows = {}
    for line in stdout.splitlines():
        m = re.match(r"^\s*(-?\d+)\s+(\d+\.\d%)", line)
        if m:
            rows[int(m.group(1))] = m.group(2)
    return rows


@pytest.mark.parametrize(
    ("words", "mod"),
    [(["2d6"], 0), (["3dt"], 0), (["3dt+2"], 0), (["3dt+2"], 1), (["4dt"], -1), (["2d6-1"], 2)],
)
def test_odds_table_lists_the_totals(words, mod):
    """Every row of the table is a total the roll can make, modifiers included."""
    result = ok("odds", *words, "--mod", str(mod))
    rows = _table_rows(result.stdout)
    expected = odds(parse(" ".join(words)), mod).totals
    assert set(rows) == {t for t, p in expected.items() if p}


def test_odds_dark_tower_lines():
    result = ok("odds", "4dt")
    assert "♥ hearts: 0: 19.8%" in result.stdout
    assert "★ stars: 0: 48.2%" in result.stdout


# --- terminals, colour and streams -------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["roll", "DC", "--got", "5"],
        ["roll", "4dt", "--seed", "3"],
        ["odds", "DC", "--mod", "2"],
        ["odds", "2d6"],
    ],
)
def test_no_color_means_no_escapes(args):
    result = ok(*args, env={"NO_COLOR": "1"})
    assert not ANSI.search(result.stdout)
    assert result.stdout.strip()


def test_not_a_terminal_never_prompts():
    """CliRunner's stdin is not a tty: rolls run without reading it and exit 0."""
    result = ok("roll", "DC", "--mod", "1", input="6\n6\n")
    assert result.stdout.startswith("DC +1  [")
    result = ok("roll", "2d6", "--got", "3,4", input="")
    assert "= 7" in result.stdout


def _companion_script() -> Path:
    return Path(sys.executable).with_name("companion")


def _subprocess_env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.update(COMPANION_HOME=str(home), **extra)
    return env


def test_real_process_with_closed_stdin_and_piped_stdout(isolated_home):
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "roll", "DC", "--got", "5"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        env=_subprocess_env(isolated_home),
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "DC  [5]  → pass (needs 5+)  · physical\n"
    assert proc.stderr == ""


_COLOUR_SGR = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9;]*)?m")


@pytest.mark.e2e
@pytest.mark.skipif(not _companion_script().exists(), reason="needs the installed console script")
@pytest.mark.parametrize("no_color", ["", "1"])
def test_no_color_in_a_real_terminal(no_color, isolated_home):
    """In a pseudo-terminal the roll is coloured, unless NO_COLOR is set (https://no-color.org)."""
    pexpect = pytest.importorskip("pexpect")
    env = _subprocess_env(isolated_home, TERM="xterm-256color", NO_COLOR=no_color)
    out, status = pexpect.run(f"{_companion_script()} roll DC --got 5", env=env, withexitstatus=True, timeout=60)
    text = out.decode()
    assert status == 0, text
    assert "pass" in text
    if no_color:
        assert not _COLOUR_SGR.search(text), repr(text)
    else:
        assert _COLOUR_SGR.search(text), repr(text)


# --- help, examples, version ----------------------------------------------------------------------


def _walk(command, path=(), parent=None):
    """Every command under ``command``, found the way the CLI finds them (lazily, through a context)."""
    yield path, command
    if not hasattr(command, "list_commands"):
        return
    ctx = typer.Context(command, info_name=path[-1] if path else "companion", parent=parent)
    for name in command.list_commands(ctx):
        yield from _walk(command.get_command(ctx, name), (*path, name), ctx)


def test_every_command_has_help():
    root = typer.main.get_command(app)
    commands = list(_walk(root))
    found = {p for p, _ in commands}
    assert found >= {(), ("roll",), ("odds",), ("new",), ("status",), ("tally",), ("tally", "add"), ("play",)}
    for path, command in commands:
        assert (command.help or "").strip(), f"companion {' '.join(path)} has no help"
        assert (command.get_short_help_str() or "").strip()
        result = ok(*path, "--help")
        assert "Usage: companion" in result.stdout
        for param in command.params:
            if getattr(param, "hidden", False) or param.name == "help":
                continue
            assert (getattr(param, "help", None) or "").strip(), (path, param.name)


def test_root_help_shows_examples():
    result = ok("--help")
    assert "Examples" in result.stdout
    assert "companion roll DC --mod 1" in result.stdout
    assert "companion odds DC --mod 2" in result.stdout


@pytest.mark.parametrize("command", ["roll", "odds"])
def test_command_help_shows_examples(command):
    result = ok(command, "-h")
    assert "Examples" in result.stdout
    assert f"companion {command} " in result.stdout


def test_version_flag():
    assert ok("--version").stdout == f"companion {companion.__version__}\n"


def test_python_m_companion_version(isolated_home):
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        env=_subprocess_env(isolated_home),
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"companion {companion.__version__}\n"
    assert proc.stderr == ""


def test_a_seeded_roll_in_a_session_is_a_scratch_roll_and_says_so(isolated_home):
    """The README's dice examples, typed once a game is started: --seed rolls aside, said in one line;
    a typed roll is recorded, and says where."""
    ok("new", "inverted-tower", "--hero", "Aria")

    def events() -> int:
        return json.loads(ok("status", "--json").stdout)["events"]

    before = events()
    seeded = ok("roll", "DC", "--mod", "1", "--seed", "7")
    assert seeded.stdout.splitlines() == [
        "DC +1  [2]  → fail (needs 4+)  · virtual (seed 7)",
        "  a scratch roll (--seed): not recorded in inverted-tower-1",
    ]
    data = one_json("roll", "SR", "STR,DEX,INT", "--seed", "3")
    assert data["scratch"] == "inverted-tower-1" and data["seed"] == 3 and "session" not in data
    assert events() == before
    typed = ok("roll", "2d6", "--got", "3,5")
    assert typed.stdout == "2d6  [3] [5] = 8  · physical  recorded in inverted-tower-1\n"
    assert events() == before + 1


def test_a_seeded_table_roll_in_a_session_is_a_scratch_roll_too(isolated_home):
    crypt = str(Path(__file__).resolve().parent.parent / "examples" / "tables" / "sunken-crypt.toml")
    ok("new", "freeform", "--name", "crypt", "--tables", crypt)
    before = json.loads(ok("status", "--json").stdout)["events"]
    result = ok("roll", "DR", "room", "--seed", "4")
    assert result.stdout.splitlines()[-1] == "  a scratch roll (--seed): not recorded in crypt"
    assert json.loads(ok("status", "--json").stdout)["events"] == before
