"""Table packs: the format, its refusals (file, line, what to change), and properties of valid packs."""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice.odds import sum_counts
from companion.errors import InputError
from companion.packs.lines import find_line
from companion.packs.pack import MAX_DEPTH, PackError, parse_pack, read_pack
from companion.packs.rolling import table_odds
from tests.helpers import cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "tables"
BROKEN = Path(__file__).resolve().parent / "packs"

#: Each broken pack under tests/packs/ and the exact line companion prints for it (after "FILE:").
REFUSALS = {
    "overlap": "8: table room: rows 1-3 and 3-5 both cover 3; give each total one row",
    "gap": "6: table room: no row for 4 (1d6 rolls 1-6); add a row or widen one",
    "outside": "9: table monster: row 13 can never be rolled on 2d6 (2-12); fix its roll",
    "no-table": "7: table room: [monsters] names no table; tables: monster, room",
    "loop": "7: tables loop: monster → room → monster; a table cannot lead back to itself, "
    "end the chain with a plain result",
    "unknown-tracker": "7: effect 'LUCK +1' names no tracker; trackers: SKILL, hp, gold, xp, item NAME, "
    "or add LUCK to [trackers]",
    "check-tracker": "6: check luck: target names LUCK, which is not in [trackers]; trackers: SKILL",
    "bad-dice": "5: dice '2d6 twice' cannot be rolled on a table; write dice such as 1d6, 2d6, 1d6+1, d20 or d%",
    "syntax": "7: TOML syntax: invalid value; put text in double quotes",
    "bad-roll": '6: table room: roll = \'1 to 5\' is not a roll; write "4", "1-3" or "11+"',
    "unknown-key": "5: tables.room has an unknown key 'die'; "
    "table keys: title, dice, rows, description, draw, duplicates",
    "bad-effect": "7: effect 'gold plus one' is not a tracker change; write NAME +N, NAME -N or NAME =N (e.g. gold +1)",
    "no-pack": '1: a pack starts with [pack] and name = "..." (a short name, e.g. ruined-keep)',
    "deep": f"4: the chain a → b → c → d → e → f → g is 7 tables deep; companion follows at most {MAX_DEPTH}",
    "start-above-max": "8: tracker SKILL starts at 14, above its max 12; lower start or raise max",
    "array-rows": "9: table room: rows 1-4 and 4-6 both cover 4; give each total one row",
}


def test_every_broken_pack_in_the_folder_has_its_refusal_listed():
    assert sorted(p.stem for p in BROKEN.glob("*.toml")) == sorted(REFUSALS)
    assert len(REFUSALS) >= 10


@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_a_broken_pack_is_refused_with_its_file_line_and_fix(name):
    path = BROKEN / f"{name}.toml"
    result = cli("tables", "validate", str(path))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"companion: {path}:{REFUSALS[name]}\n"


@pytest.mark.parametrize("name", ["overlap", "loop", "syntax", "check-tracker"])
def test_a_broken_pack_starts_no_session(name, isolated_home):
    path = BROKEN / f"{name}.toml"
    result = cli("new", "freeform", "--tables", str(path))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"companion: {path}:")
    assert result.stderr.count("\n") == 1
    assert not (isolated_home / "sessions").exists() or not any((isolated_home / "sessions").iterdir())


def test_the_line_named_is_the_line_of_the_mistake():
    """The number in each refusal points at a line that shows the mistake."""
    shown = {
        "overlap": '"3-5"',
        "gap": "rows",
        "outside": '"13"',
        "no-table": "[monsters]",
        "unknown-tracker": "LUCK",
        "check-tracker": "LUCK",
        "bad-dice": "twice",
        "syntax": "Empty",
        "bad-roll": "1 to 5",
        "unknown-key": "die",
        "bad-effect": "plus",
        "start-above-max": "SKILL",
        "array-rows": "4-6",
    }
    for name, needle in shown.items():
        line = int(REFUSALS[name].split(":", 1)[0])
        text = (BROKEN / f"{name}.toml").read_text(encoding="utf-8").splitlines()[line - 1]
        assert needle in text, (name, line, text)


def test_the_examples_are_valid_and_hold_what_the_docs_say():
    crypt = read_pack(EXAMPLES / "sunken-crypt.toml")
    assert sorted(crypt.tables) == ["monster", "room", "trap", "treasure"]
    assert crypt.tables["room"].lookup(4).refs == ("monster",)
    assert [e.text for e in crypt.tables["treasure"].lookup(2).effects] == ["gold +1"]
    labyrinth = read_pack(EXAMPLES / "glass-labyrinth.toml")
    assert labyrinth.checks["skill"].tracker.name == "SKILL"
    assert labyrinth.checks["climb"].offset == -2
    assert labyrinth.trackers["stamina"].key == "hp"  # hp = true: the HP tracker, changed by `companion hp`
    assert [e.label for e in labyrinth.checks["luck"].effects] == ["LUCK"]


def test_a_missing_file_is_one_line():
    with pytest.raises(InputError, match=r"nope\.toml: no such file"):
        read_pack("nope.toml")


def test_find_line_reads_headers_dotted_keys_inline_arrays_and_array_tables():
    source = """# a comment with [brackets] and "quotes"
[pack]
name = "x"

[tables]
room.dice = "1d6"

[tables.hall]
rows = [ { roll = "1", result = "a, b" }, { roll = "2-6",
  result = "c [d]" } ]

[[tables.keep.rows]]
roll = "1"
[[tables.keep.rows]]
roll = "2"
"""
    assert find_line(source, ("pack", "name")) == 3
    assert find_line(source, ("tables", "room", "dice")) == 6
    assert find_line(source, ("tables", "hall", "rows", 0, "roll")) == 9
    assert find_line(source, ("tables", "hall", "rows", 1)) == 9
    assert find_line(source, ("tables", "hall", "rows", 1, "result")) == 10
    assert find_line(source, ("tables", "keep", "rows", 1, "roll")) == 15
    assert find_line(source, ("tables", "nowhere", "rows")) >= 1


# ---- properties of any valid pack --------------------------------------------------------------

DICE = ["1d6", "2d6", "1d8", "1d10", "1d12", "d20", "1d6+1", "3d6", "1d4+1d6", "2d6-2", "d%"]
WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz ,.!'-", min_size=1, max_size=20).filter(str.strip)


def _support(dice: str) -> list[int]:
    from companion.dice.expr import parse

    expr = parse(dice)
    counts, _ = sum_counts(expr)
    return sorted(t + expr.const for t, c in counts.items() if c)


@st.composite
def packs(draw):
    """A valid pack as TOML text: tables whose rows split the dice's totals, referring only forward."""
    n = draw(st.integers(1, 4))
    tables = []
    for i in range(n):
        dice = draw(st.sampled_from(DICE))
        totals = _support(dice)
        lo, hi = totals[0], totals[-1]
        inner = list(range(lo + 1, hi + 1))
        cuts = sorted(draw(st.sets(st.sampled_from(inner), max_size=min(8, len(inner)))) if inner else [])
        bounds = [lo, *cuts, hi + 1]
        rows = []
        for j, (a, b) in enumerate(itertools.pairwise(bounds)):
            last = j == len(bounds) - 2
            span = str(a) if a == b - 1 else f"{a}-{b - 1}"
            if last and draw(st.booleans()):
                span = f"{a}+"
            result = draw(WORDS)
            if i + 1 < n and draw(st.booleans()):
                result += f" [t{draw(st.integers(i + 1, n - 1))}]"
            effect = draw(st.sampled_from(["", "gold +1", "hp -2", "xp +1", "item rope +1", "SKILL -1"]))
            fields = f'roll = "{span}", result = "{result}"' + (f', effect = "{effect}"' if effect else "")
            rows.append("  { " + fields + " },")
        tables.append(f'[tables.t{i}]\ndice = "{dice}"\nrows = [\n' + "\n".join(rows) + "\n]\n")
    return '[pack]\nname = "gen"\n\n' + "\n".join(tables) + "\n[trackers]\nSKILL = { start = 7, max = 12 }\n"


@settings(max_examples=150)
@given(packs())
def test_every_total_of_a_valid_pack_maps_to_exactly_one_row(source):
    pack = parse_pack(source, "gen.toml")
    for table in pack.tables.values():
        for total in _support(table.dice):
            covering = [row for row in table.rows if row.lo <= total <= row.hi]
            assert len(covering) == 1, (table.name, total)
            assert table.lookup(total) is covering[0]


@settings(max_examples=150)
@given(packs())
def test_the_odds_of_a_table_add_up_to_one(source):
    pack = parse_pack(source, "gen.toml")
    for table in pack.tables.values():
        chances = table_odds(table)
        assert sum(p for _, p in chances) == 1
        assert all(p > 0 for _, p in chances)  # every row can be rolled


@settings(max_examples=60)
@given(packs(), st.data())
def test_a_row_made_to_overlap_its_neighbour_is_refused_on_its_line(source, data):
    pack = parse_pack(source, "gen.toml")
    table = (
        next(t for t in pack.tables.values() if len(t.rows) > 1)
        if any(len(t.rows) > 1 for t in pack.tables.values())
        else None
    )
    if table is None:
        return
    i = data.draw(st.integers(1, len(table.rows) - 1))
    row, before = table.rows[i], table.rows[i - 1]
    lines = source.splitlines()
    start = lines.index(f"[tables.{table.name}]")
    k = next(n for n in range(start, len(lines)) if "roll = " in lines[n] and lines[n].count("{") and n > start) + i
    new_span = f"{before.hi}-{row.hi}" if row.hi != before.hi else str(before.hi)
    lines[k] = lines[k].replace(f'roll = "{_span_text(lines[k])}"', f'roll = "{new_span}"', 1)
    with pytest.raises(PackError) as info:
        parse_pack("\n".join(lines) + "\n", "gen.toml")
    assert info.value.line == k + 1
    assert "both cover" in str(info.value)


def _span_text(line: str) -> str:
    return line.split('roll = "', 1)[1].split('"', 1)[0]


def test_table_odds_agree_with_icepool():
    icepool = pytest.importorskip("icepool")
    pack = read_pack(EXAMPLES / "sunken-crypt.toml")
    monster = pack.tables["monster"]
    die = icepool.d6 + icepool.d6
    total = die.denominator()
    for row, p in table_odds(monster):
        want = Fraction(sum(die.quantity(t) for t in range(row.lo, row.hi + 1)), total)
        assert p == want, row.span
