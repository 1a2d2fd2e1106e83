"""Table packs' d66, weighted rows, draws without repeats, repeated references and their duplicates,
a table's own "roll twice", and a row the player chose (--row): through the commands a player runs,
with every chance checked against a count made here, independently of companion's odds code."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from tests.helpers import cli, cli_json, open_session, regenerated_log

FAIR = str(Path(__file__).resolve().parent.parent / "examples" / "tables" / "lantern-fair.toml")


def ok(*args: str):
    result = cli(*args)
    assert result.exit_code == 0, result.stderr
    return result


def refused(*args: str, code: int = 2, lines: int = 1) -> str:
    result = cli(*args)
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    assert result.stdout == ""
    assert result.stderr.count("\n") == lines and "Traceback" not in result.stderr
    return result.stderr


def chances(data: dict) -> dict[str, Fraction]:
    return {r["roll"]: Fraction(r["chance"]) for r in data["rows"]}


def write_pack(tmp_path: Path, body: str, name: str = "p") -> str:
    path = tmp_path / f"{name}.toml"
    path.write_text(f'[pack]\nname = "{name}"\n\n' + body, encoding="utf-8")
    return str(path)


# ---- d66 -----------------------------------------------------------------------------------------


def test_d66_odds_are_the_cells_each_row_covers_of_36(isolated_home, tmp_path):
    pack = write_pack(
        tmp_path,
        '[tables.t]\ndice = "d66"\nrows = [\n'
        '  { roll = "11-16", result = "a" },\n  { roll = "21-35", result = "b" },\n'
        '  { roll = "36", result = "c" },\n  { roll = "41-66", result = "d" },\n]\n',
    )
    ok("new", "freeform", "--tables", pack)
    cells = [10 * t + u for t, u in itertools.product(range(1, 7), repeat=2)]  # the 36 equally likely cells
    want = {
        "11-16": Fraction(sum(11 <= c <= 16 for c in cells), 36),
        "21-35": Fraction(sum(21 <= c <= 35 for c in cells), 36),
        "36": Fraction(1, 36),
        "41-66": Fraction(sum(41 <= c <= 66 for c in cells), 36),
    }
    assert (
        chances(cli_json("odds", "DR", "t"))
        == want
        == {
            "11-16": Fraction(6, 36),
            "21-35": Fraction(11, 36),
            "36": Fraction(1, 36),
            "41-66": Fraction(18, 36),
        }
    )


@pytest.mark.parametrize("faces", ["3,5", "35", "3 5"])
def test_d66_faces_are_tens_then_units(isolated_home, faces):
    ok("new", "freeform", "--tables", FAIR)
    data = cli_json("roll", "DR", "stall", "--got", f"{faces}/2/6")
    first = data["rolls"][0]
    assert (first["faces"], first["total"], first["row"]) == ([3, 5], 35, "31-36")
    assert first["result"] == "Two stalls share one awning: [wares x2]"
    log = open_session(isolated_home, "freeform-1").log_text()
    assert "- d: `DR stall` → `[3] [5]` = 35 → **35: Two stalls share one awning: \\[wares x2\\]** · physical" in log


@pytest.mark.parametrize("faces", ["7", "37", "3,7", "0,5", "356", "8"])
def test_a_d66_roll_the_dice_cannot_show_is_refused(isolated_home, faces):
    ok("new", "freeform", "--tables", FAIR)
    before = open_session(isolated_home, "freeform-1").count
    error = refused("roll", "DR", "stall", "--got", faces)
    assert "is not a d66 roll; type the tens die, then the units die, each 1 to 6: 3,5 or 35" in error
    assert open_session(isolated_home, "freeform-1").count == before


def test_a_d66_row_the_cells_never_reach_is_refused_on_its_line(tmp_path):
    pack = write_pack(
        tmp_path,
        '[tables.t]\ndice = "d66"\nrows = [\n'
        '  { roll = "11-66", result = "a" },\n  { roll = "17-20", result = "b" },\n]\n',
    )
    error = refused("tables", "validate", pack)
    assert error == (
        f"companion: {pack}:8: table t: row 17-20 can never be rolled on d66 "
        "(11-16, 21-26, 31-36, 41-46, 51-56, 61-66); fix its roll\n"
    )


# ---- weights -------------------------------------------------------------------------------------


def test_weighted_rows_roll_one_die_of_the_summed_weights(isolated_home):
    ok("new", "freeform", "--tables", FAIR)
    data = cli_json("odds", "DR", "wares")
    weights = [4, 3, 2, 1]
    assert data["dice"] == "1d10"
    assert [r["weight"] for r in data["rows"]] == weights
    assert list(chances(data).values()) == [Fraction(w, sum(weights)) for w in weights]
    assert [r["roll"] for r in data["rows"]] == ["1-4", "5-7", "8-9", "10"]  # the totals of 1d10 each row covers
    result = cli_json("roll", "DR", "wares", "--got", "9")
    assert result["rolls"][0]["result"] == "A caged echo"


@pytest.mark.parametrize(
    ("rows", "dice", "line", "message"),
    [
        (
            '{ weight = 2, result = "a" },\n  { roll = "3", result = "b" }',
            None,
            7,
            "give every row a weight = N, or every row a roll",
        ),
        ('{ weight = 0, result = "a" }', None, 6, "weight = 0: write a whole number from 1 to 10000"),
        (
            '{ weight = 2, result = "a" },\n  { weight = 3, result = "b" }',
            '"1d6"',
            5,
            "its weights add up to 5, so it rolls 1d5",
        ),
    ],
)
def test_weighted_tables_refuse_what_does_not_add_up(tmp_path, rows, dice, line, message):
    body = "[tables.t]\n" + (f"dice = {dice}\n" if dice else "") + f"rows = [\n  {rows},\n]\n"
    pack = write_pack(tmp_path, body)
    error = refused("tables", "validate", pack)
    assert error.startswith(f"companion: {pack}:{line}: table t: ") and message in error, error


# ---- draw = "unique" -----------------------------------------------------------------------------


def test_a_unique_table_never_repeats_until_it_is_reset_and_undo_puts_a_draw_back(isolated_home):
    ok("new", "freeform", "--tables", FAIR, "--seed", "4")
    seen = [cli_json("roll", "DR", "fortune")["rolls"][0]["row"] for _ in range(6)]
    assert sorted(seen) == ["1", "2", "3", "4", "5", "6"]  # six draws: each card once
    error = refused("roll", "DR", "fortune")
    assert "every row of DR fortune is drawn (draw = unique); companion tables reset fortune puts them back" in error
    assert "DR fortune: 6 drawn rows are back" in ok("tables", "reset", "fortune").stdout
    assert cli_json("odds", "DR", "fortune")["drawn"] == []
    ok("undo")  # the reset taken back: all six are drawn again
    assert len(cli_json("odds", "DR", "fortune")["drawn"]) == 6
    ok("tables", "reset", "lantern-fair")  # a pack: each of its unique tables
    first = cli_json("roll", "DR", "fortune")["rolls"][0]["row"]
    assert cli_json("odds", "DR", "fortune")["drawn"] == [first]
    ok("undo")
    assert cli_json("odds", "DR", "fortune")["drawn"] == []
    session = open_session(isolated_home, "freeform-1")
    assert regenerated_log(isolated_home, "freeform-1") == session.log_text()


def test_the_odds_of_a_unique_table_are_of_what_is_left(isolated_home, tmp_path):
    pack = write_pack(
        tmp_path,
        '[tables.deck]\ndice = "2d6"\ndraw = "unique"\nrows = [\n'
        '  { roll = "2-5", result = "a" },\n  { roll = "6-8", result = "b" },\n  { roll = "9-12", result = "c" },\n]\n',
    )
    ok("new", "freeform", "--tables", pack)
    ok("roll", "DR", "deck", "--got", "3,4")  # 7: row b drawn
    ways = Counter(a + b for a, b in itertools.product(range(1, 7), repeat=2))
    left = {span: sum(ways[t] for t in range(lo, hi + 1)) for span, lo, hi in (("2-5", 2, 5), ("9-12", 9, 12))}
    data = cli_json("odds", "DR", "deck")
    assert data["drawn"] == ["6-8"]
    assert chances(data) == {
        "2-5": Fraction(left["2-5"], sum(left.values())),
        "6-8": Fraction(0),
        "9-12": Fraction(left["9-12"], sum(left.values())),
    }
    out = ok("odds", "DR", "deck").stdout
    assert "1 of 3 rows drawn (draw = unique): the chances are of what is left" in out
    assert " 6-8   drawn" in out
    before = open_session(isolated_home, "freeform-1").count
    error = refused("roll", "DR", "deck", "--got", "2,5")
    assert error == "companion: --got 2,5: row 6-8 of deck is drawn already (draw = unique): roll again\n"
    refused("roll", "DR", "deck", "--row", "8")
    assert open_session(isolated_home, "freeform-1").count == before


def test_virtual_rolls_again_are_kept_for_the_stream_and_the_audit(isolated_home):
    ok("new", "freeform", "--tables", FAIR, "--seed", "9")
    rerolled = 0
    for _ in range(6):
        rerolled += cli_json("roll", "DR", "fortune")["rolls"][0].get("rerolled", 0)
    assert rerolled > 0  # with seed 9 some draws land on a card already drawn and are rolled again
    session = open_session(isolated_home, "freeform-1")
    events = [e for e in session.files.read_events() if e["t"] == "table"]
    faces = sum(len(r["faces"]) for e in events for r in e["rolls"])
    assert sum(1 for e in events for r in e["rolls"] if r.get("discarded")) == rerolled
    audit = cli_json("dice", "audit")
    assert sum(d["rolls"] for d in audit["dice"] if d["source"] == "virtual") == faces  # every die rolled counts
    # the next virtual roll continues the seeded stream after every one of those dice
    from companion.dice.source import VirtualDice

    dice = VirtualDice(9)
    dice.skip(faces)
    want = dice.roll(__import__("companion.dice.expr", fromlist=["parse"]).parse("1d20")).faces
    assert cli_json("roll", "1d20")["dice"] == list(want)


def test_without_a_session_a_unique_table_says_its_draws_are_not_kept(isolated_home):
    folder = isolated_home / "tables"
    folder.mkdir(parents=True)
    (folder / "lantern-fair.toml").write_text(Path(FAIR).read_text(encoding="utf-8"), encoding="utf-8")
    data = cli_json("roll", "DR", "fortune", "--got", "2")
    assert data["note"] == "no session is active: the rows drawn are not kept"
    error = refused("tables", "reset", "fortune", code=1, lines=2)
    assert "no" in error.lower() and "session" in error.lower()


# ---- repeated references and duplicates ------------------------------------------------------------


def test_x2_rolls_twice_and_reroll_never_keeps_a_repeat(isolated_home):
    ok("new", "freeform", "--tables", FAIR, "--seed", "1")
    for _ in range(40):
        rolls = cli_json("roll", "DR", "stall", "--row", "33")["rolls"]
        assert [r["table"] for r in rolls] == ["stall", "wares", "wares"]
        assert rolls[0]["source"] == "chosen"
        assert rolls[1]["row"] != rolls[2]["row"]  # wares says duplicates = "reroll"
    error = refused("roll", "DR", "stall", "--got", "3,3/1/2")
    assert error == (
        "companion: --got 2: row 1-4 of wares came up already in this roll (duplicates = reroll): roll again\n"
    )


@pytest.mark.parametrize("rule", ["keep", "make_it_worse"])
def test_keep_and_make_it_worse_keep_a_repeat(isolated_home, tmp_path, rule):
    pack = write_pack(
        tmp_path,
        '[tables.room]\ndice = "1d6"\nrows = [ { roll = "1-6", result = "Foes: [foe x2]" } ]\n\n'
        f'[tables.foe]\ndice = "1d6"\nduplicates = "{rule}"\n'
        'rows = [ { roll = "1-3", result = "A rat" }, { roll = "4-6", result = "A crow" } ]\n',
    )
    ok("new", "freeform", "--tables", pack)
    data = cli_json("roll", "DR", "room", "--got", "1/2/3")
    assert [r["result"] for r in data["rolls"]] == ["Foes: [foe x2]", "A rat", "A rat"]
    assert data["rolls"][2].get("worse", False) is (rule == "make_it_worse")
    assert "worse" not in data["rolls"][1]
    out = ok("roll", "DR", "room", "--got", "1/1/4").stdout
    assert "make it worse" not in out  # two different rows
    log = open_session(isolated_home, "freeform-1").log_text()
    worse = "**3: A rat (the same row again: make it worse)**"
    assert (worse in log) is (rule == "make_it_worse")


def test_then_and_a_tables_own_roll_twice(isolated_home, tmp_path):
    pack = write_pack(
        tmp_path,
        '[tables.goal]\ndice = "1d6"\nduplicates = "reroll"\nrows = [\n'
        '  { roll = "1-2", result = "Find" },\n  { roll = "3-4", result = "Keep" },\n'
        '  { roll = "5", result = "Leave", then = ["omen"] },\n'
        '  { roll = "6", result = "Roll twice", then = [{ table = "goal", rolls = 2 }] },\n]\n\n'
        '[tables.omen]\ndice = "1d6"\nrows = [ { roll = "1-6", result = "A crow" } ]\n',
    )
    ok("new", "freeform", "--tables", pack, "--seed", "2")
    data = cli_json("roll", "DR", "goal", "--got", "6/1/5/3")
    assert [(r["table"], r["result"], r["depth"]) for r in data["rolls"]] == [
        ("goal", "Roll twice", 0),
        ("goal", "Find", 1),
        ("goal", "Leave", 1),
        ("omen", "A crow", 2),
    ]
    error = refused("roll", "DR", "goal", "--got", "6/6")
    assert "row 6 rolls on goal again, and this is goal's own repeat: roll again" in error
    for _ in range(30):  # virtual: the repeat never lands on "Roll twice" and never repeats a row
        rolls = [r for r in cli_json("roll", "DR", "goal", "--row", "6")["rolls"] if r["table"] == "goal"]
        inner = [r["row"] for r in rolls[1:]]
        assert len(inner) == 2 and "6" not in inner and inner[0] != inner[1]


@pytest.mark.parametrize(
    ("body", "line", "message"),
    [
        (
            '[tables.t]\nrows = [ { roll = "1-6", result = "again [t x2]" } ]\n',
            5,
            "table t: every row of t rolls on t again; give it a row with a plain result",
        ),
        (
            '[tables.t]\nrows = [ { roll = "1-6", result = "[u x3]" } ]\n[tables.u]\nduplicates = "reroll"\n'
            'rows = [ { roll = "1-3", result = "a" }, { roll = "4-6", result = "b" } ]\n',
            5,
            'table t: [u x3] needs 3 different rows of u (duplicates = "reroll"), and it has 2',
        ),
        ('[tables.t]\nrows = [ { roll = "1-6", result = "[t x21]" } ]\n', 5, "[t x21] rolls too often"),
        (
            '[tables.t]\ndraw = "once"\nrows = [ { roll = "1-6", result = "a" } ]\n',
            5,
            'tables.t.draw = \'once\': write "repeat" or "unique"',
        ),
        ('[tables.t]\nrows = [ { roll = "1-6", result = "a", then = ["nowhere"] } ]\n', 5, "[nowhere] names no table"),
    ],
)
def test_what_repeats_cannot_do_is_refused_on_its_line(tmp_path, body, line, message):
    pack = write_pack(tmp_path, body)
    error = refused("tables", "validate", pack)
    assert error.startswith(f"companion: {pack}:{line}: ") and message in error, error


def test_one_roll_leads_to_at_most_a_hundred_rolls_and_a_fan_is_refused_at_once(tmp_path):
    import time

    tables = [
        f'[tables.t{i}]\ndice = "1d2"\nrows = [ {{ roll = "1", result = "[t{i + 1} x10]" }}, '
        f'{{ roll = "2", result = "[t{i + 1} x10]" }} ]\n'
        for i in range(5)
    ]
    tables.append('[tables.t5]\ndice = "1d2"\nrows = [ { roll = "1-2", result = "end" } ]\n')
    pack = write_pack(tmp_path, "\n".join(tables))
    start = time.perf_counter()
    error = refused("tables", "validate", pack)
    assert time.perf_counter() - start < 10  # well under a second idle; the bound is loose for a busy machine
    assert "a roll on t0 can lead to 101 rolls; companion makes at most 100 for one roll" in error


def test_brackets_written_with_a_backslash_are_text(isolated_home, tmp_path):
    pack = write_pack(tmp_path, '[tables.t]\nrows = [ { roll = "1-6", result = "A sign: \\\\[closed\\\\]" } ]\n')
    ok("new", "freeform", "--tables", pack)
    data = cli_json("roll", "DR", "t", "--got", "2")
    assert [r["result"] for r in data["rolls"]] == ["A sign: [closed]"]


# ---- --row ---------------------------------------------------------------------------------------


def test_a_chosen_row_is_recorded_as_chosen_and_the_log_says_so(isolated_home):
    ok("new", "freeform", "--tables", FAIR)
    out = ok("roll", "DR", "stall", "--row", "52").stdout
    assert "DR stall (d66)  row 52  → A shuttered stall, light under the door  · chosen" in out
    session = open_session(isolated_home, "freeform-1")
    event = session.files.read_events()[-1]
    assert event["rolls"][0]["src"] == "chosen" and "faces" not in event["rolls"][0]
    assert "- d: `DR stall` → `row 52` → **52: A shuttered stall, light under the door** · chosen" in session.log_text()
    assert cli_json("dice", "audit")["dice"] == []  # a chosen row rolled no die
    assert regenerated_log(isolated_home, "freeform-1") == session.log_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("DR", "stall", "--row", "17"), "--row 17: DR stall (d66) has no total 17; its rows cover 11-16, 21-26"),
        (("DR", "wares", "--row", "11"), "--row 11: DR wares (1d10) has no total 11; its rows cover 1-10"),
        (("2d6", "--row", "4"), "--row picks a row of a table pack's table (DR NAME)"),
    ],
)
def test_a_row_the_table_does_not_have_is_refused(isolated_home, args, message):
    ok("new", "freeform", "--tables", FAIR)
    before = open_session(isolated_home, "freeform-1").count
    assert message in refused("roll", *args)
    assert open_session(isolated_home, "freeform-1").count == before


def test_the_events_and_the_export_schema_agree(isolated_home, tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    ok("new", "freeform", "--tables", FAIR, "--seed", "5")
    ok("roll", "DR", "stall", "--row", "44")
    for _ in range(4):
        ok("roll", "DR", "fortune")
    ok("tables", "reset", "fortune")
    target = tmp_path / "s.json"
    ok("export", str(target), "--format", "json")
    schema = json.loads((Path(__file__).resolve().parent.parent / "docs" / "session-export.schema.json").read_text())
    jsonschema.validate(json.loads(target.read_text(encoding="utf-8")), schema)


# ---- properties ------------------------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from companion.packs.pack import parse_pack  # noqa: E402
from companion.packs.rolling import table_odds  # noqa: E402


@settings(max_examples=80)
@given(st.lists(st.integers(1, 60), min_size=1, max_size=15))
def test_a_weighted_rows_chance_is_its_weight_over_the_sum(weights):
    rows = ",\n".join(f'  {{ weight = {w}, result = "r{i}" }}' for i, w in enumerate(weights))
    table = parse_pack(f'[pack]\nname = "w"\n[tables.t]\nrows = [\n{rows},\n]\n', "w.toml").tables["t"]
    assert table.dice == f"1d{sum(weights)}"
    assert [p for _row, p in table_odds(table)] == [Fraction(w, sum(weights)) for w in weights]


CELLS = [10 * t + u for t in range(1, 7) for u in range(1, 7)]


@settings(max_examples=80)
@given(st.sets(st.integers(1, 35), max_size=12), st.data())
def test_a_d66_rows_chance_is_the_cells_it_covers_of_36(cuts, data):
    bounds = [0, *sorted(cuts), 36]
    spans = [(CELLS[a], CELLS[b - 1]) for a, b in itertools.pairwise(bounds)]
    rows = ",\n".join(f'  {{ roll = "{lo}-{hi}", result = "r{i}" }}' for i, (lo, hi) in enumerate(spans))
    table = parse_pack(f'[pack]\nname = "d"\n[tables.t]\ndice = "d66"\nrows = [\n{rows},\n]\n', "d.toml").tables["t"]
    want = [Fraction(sum(lo <= c <= hi for c in CELLS), 36) for lo, hi in spans]
    assert [p for _row, p in table_odds(table)] == want
    names = [str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in spans]
    drawn = data.draw(st.sets(st.sampled_from(names), max_size=len(spans) - 1))
    left = sum(w for w, name in zip(want, names, strict=True) if name not in drawn)
    assert [p for _row, p in table_odds(table, drawn)] == [
        Fraction(0) if name in drawn else w / left for w, name in zip(want, names, strict=True)
    ]
