"""``companion tables import`` and ``export``: each format's sample imported, checked, rolled in a
session, its odds against a count made here from the source's own ranges or weights, exported and
imported back the same; and the bad files refused in one line, with nothing written."""

from __future__ import annotations

import itertools
import json
import re
import shutil
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from tests.helpers import cli, cli_json, open_session
from tests.test_completion import bash_complete  # noqa: F401  (a fixture)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "tables"
DATA = Path(__file__).resolve().parent / "data" / "tables"


def ok(*args: str):
    result = cli(*args)
    assert result.exit_code == 0, (args, result.stderr)
    return result


def folder(home: Path) -> Path:
    return home / "tables"


def pack_of(home: Path, name: str):
    from companion.packs.pack import read_pack

    return read_pack(folder(home) / f"{name}.toml")


def same(a, b) -> None:
    """Two packs hold the same: every table (dice, rows, references, effects, draws), check and tracker."""
    for key in ("title", "description", "book", "license", "tables", "checks", "trackers"):
        assert getattr(a, key) == getattr(b, key), key


def counts(dice: str) -> tuple[Counter, int]:
    """How many of the equally likely outcomes give each total, counted by listing them all."""
    if dice == "d66":
        return Counter(10 * a + b for a, b in itertools.product(range(1, 7), repeat=2)), 36
    m = re.fullmatch(r"(\d*)d(\d+|%)", dice)
    assert m, dice
    n, sides = int(m.group(1) or 1), 100 if m.group(2) == "%" else int(m.group(2))
    faces = list(itertools.product(range(1, sides + 1), repeat=n))
    return Counter(sum(f) for f in faces), len(faces)


def odds_from_ranges(dice: str, ranges: list[tuple[int, int]]) -> list[Fraction]:
    ways, total = counts(dice)
    return [Fraction(sum(c for t, c in ways.items() if lo <= t <= hi), total) for lo, hi in ranges]


def pack_odds(table: str) -> list[Fraction]:
    return [Fraction(r["chance"]) for r in cli_json("odds", "DR", table)["rows"]]


# ---- Obsidian markdown -----------------------------------------------------------------------------


def test_markdown_import_validates_has_the_sources_odds_and_rolls_a_chain(isolated_home):
    source = EXAMPLES / "hedge-witch.md"
    data = cli_json("tables", "import", str(source))
    assert data["pack"] == "hedge-witch" and data["format"] == "markdown"
    assert data["tables"] == ["path", "herbs", "pond"]  # the ^block-ids
    ok("tables", "validate", data["path"])
    # the odds, from the note's own rows (read here with a plain pattern)
    text = source.read_text(encoding="utf-8")
    path_rows = re.findall(r"^\| (\d+)(?:-(\d+)|,(\d+))?\s+\|", text.split("\n^path\n")[0], re.M)
    ranges = [(int(a), int(b or c or a)) for a, b, c in path_rows]
    assert pack_odds("path") == odds_from_ranges("1d20", ranges)
    pond_part = text.split("\n^herbs\n")[1]
    pond = [(int(a) or 100, int(b) or 100) for a, b in re.findall(r"^\| (\d\d)-(\d\d)", pond_part, re.M)]
    assert pack_odds("pond") == odds_from_ranges("d%", pond)
    assert pack_odds("herbs") == [Fraction(1, 3)] * 3  # a table without a dice column: one of its rows
    ok("new", "freeform", "--tables", "hedge-witch")
    rolled = cli_json("roll", "DR", "path", "--got", "18/2/3")
    assert [(r["table"], r["result"]) for r in rolled["rolls"]] == [
        ("path", "Two herb beds side by side: [herbs x2]"),
        ("herbs", "Rue, which no one should eat"),
        ("herbs", "Silverleaf, which hums when you touch it"),
    ]
    log = open_session(isolated_home, "freeform-1").log_text()
    assert "- d: `DR path` → `[18]` → **18: Two herb beds side by side: \\[herbs x2\\]** · physical" in log
    assert "- d: `DR herbs` → `[3]` → **3: Silverleaf, which hums when you touch it** · physical" in log


def test_notes_of_one_folder_resolve_each_others_references(isolated_home):
    data = cli_json("tables", "import", str(DATA / "notes"))
    assert data["pack"] == "notes" and sorted(data["tables"]) == ["grave-goods", "moor", "names"]
    pack = pack_of(isolated_home, "notes")
    assert [c.table for c in pack.tables["moor"].rows[3].calls] == ["grave-goods"]
    assert pack.tables["moor"].rows[3].calls[0].rolls == 2
    assert pack.tables["grave-goods"].rows[1].span == "4-5"  # 4,5 in the note
    assert pack.tables["grave-goods"].rows[0].text == "A bronze pin | bent"
    one = cli("tables", "import", str(DATA / "notes" / "encounters.md"))
    assert one.exit_code == 2
    assert one.stderr == (
        f"companion: {DATA / 'notes' / 'encounters.md'}:7: `dice: [[treasure^grave-goods]]` names a table that "
        "is not in this import; import treasure.md with it\n"
    )


def test_markdown_export_then_import_is_the_same_pack(isolated_home, tmp_path):
    shutil.copytree(EXAMPLES, folder(isolated_home), ignore=shutil.ignore_patterns("*.md", "*.json"))
    for name in ("lantern-fair", "sunken-crypt", "glass-labyrinth"):
        target = tmp_path / f"{name}.md"
        ok("tables", "export", name, str(target))
        text = target.read_text(encoding="utf-8")
        assert text.count("| dice: ") == len(pack_of(isolated_home, name).tables)
        shutil.move(str(folder(isolated_home) / f"{name}.toml"), tmp_path / f"{name}.toml")
        ok("tables", "import", str(target))
        from companion.packs.pack import read_pack

        same(read_pack(tmp_path / f"{name}.toml"), pack_of(isolated_home, name))
    text = (tmp_path / "lantern-fair.md").read_text(encoding="utf-8")
    assert "| dice: 1d6*10+1d6 | Which stall you stop at |" in text  # d66, as the plugin rolls it
    assert "| 31-36 | Two stalls share one awning: `dice: 2d[[lantern-fair^wares]]` |" in text
    assert "\n^fortune\n" in text


def test_an_exported_row_edited_in_obsidian_is_read_as_it_is_now(isolated_home, tmp_path):
    shutil.copytree(EXAMPLES, folder(isolated_home), ignore=shutil.ignore_patterns("*.md", "*.json"))
    target = tmp_path / "fair.md"
    ok("tables", "export", "lantern-fair", str(target))
    text = target.read_text(encoding="utf-8").replace(
        "| 61-66 | The lantern keeper herself |", "| 61-66 | The lantern keeper, asleep |"
    )
    target.write_text(text, encoding="utf-8")
    data = cli_json("tables", "import", str(target))
    assert "table stall: row 6 was edited after companion wrote it: read as it is now" in data["notes"]
    assert pack_of(isolated_home, "fair").tables["stall"].rows[5].result == "The lantern keeper, asleep"


# ---- Datasworn -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "version", "table"),
    [
        (EXAMPLES / "brine-flats.json", "Datasworn 0.1.0, rows with roll: {min, max}", "visitor"),
        (DATA / "old-datasworn.json", "Datasworn 0.0.10, rows with min and max on the row", "sign"),
    ],
)
def test_datasworn_import_says_its_version_keeps_the_licence_and_the_sources_odds(
    isolated_home, source, version, table
):
    data = cli_json("tables", "import", str(source))
    assert data["read"] == version
    ok("tables", "validate", data["path"])
    raw = json.loads(source.read_text(encoding="utf-8"))
    pack = pack_of(isolated_home, data["pack"])
    assert pack.license == raw["license"]

    def tables(node):
        for part in ("contents", "collections"):
            for key, value in (node.get(part) or {}).items():
                if value.get("type") == "oracle_rollable":
                    yield key, value
                else:
                    yield from tables(value)

    found = dict(t for collection in raw["oracles"].values() for t in tables(collection))
    rows = [r.get("roll") or r for r in found[table]["rows"]]
    ranges = [(r["min"], r["max"]) for r in rows if r.get("min") is not None]
    assert pack_odds(table) == odds_from_ranges(found[table]["dice"], ranges)


def test_datasworn_roll_twice_and_make_it_worse_in_a_session(isolated_home):
    ok("tables", "import", str(EXAMPLES / "brine-flats.json"))
    pack = pack_of(isolated_home, "brine-flats")
    assert pack.tables["trouble"].duplicates == "make_it_worse"
    assert pack.tables["visitor"].duplicates == "reroll"
    ok("new", "freeform", "--tables", "brine-flats")
    # a salt storm (6) leads to trouble; 9 there rolls twice more: 2 and 3 are one row (1-3), made worse
    data = cli_json("roll", "DR", "weather", "--got", "6/9/2/3")
    assert [(r["table"], r["depth"]) for r in data["rolls"]] == [
        ("weather", 0),
        ("trouble", 1),
        ("trouble", 2),
        ("trouble", 2),
    ]
    assert data["rolls"][3].get("worse") is True
    log = open_session(isolated_home, "freeform-1").log_text()
    assert "**3: A wheel cracks on the crust (the same row again: make it worse)**" in log
    refused = cli("roll", "DR", "visitor", "--got", "95/10/20")
    assert refused.exit_code == 2
    assert "row 1-40 of visitor came up already in this roll (duplicates = reroll): roll again" in refused.stderr


# ---- Foundry ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("source", [EXAMPLES / "cellar-finds.json", DATA / "foundry-v13.json"])
def test_foundry_import_has_the_odds_of_its_ranges(isolated_home, source):
    data = cli_json("tables", "import", str(source))
    ok("tables", "validate", data["path"])
    raw = json.loads(source.read_text(encoding="utf-8"))
    docs = raw if isinstance(raw, list) else [raw]
    for doc, name in zip(docs, data["tables"], strict=True):
        ranges = sorted(tuple(r["range"]) for r in doc["results"])
        assert pack_odds(name) == odds_from_ranges(doc["formula"], ranges), name


def test_foundry_weights_without_ranges_and_a_linked_table(isolated_home):
    data = cli_json("tables", "import", str(DATA / "foundry-weights.json"))
    assert "table tavern-rumours: a result of weight 0 can never come up, and is left out" in data["notes"]
    raw = json.loads((DATA / "foundry-weights.json").read_text(encoding="utf-8"))
    weights = [r["weight"] for r in raw["results"] if r["weight"]]
    assert pack_odds("tavern-rumours") == [Fraction(w, sum(weights)) for w in weights]
    ok("tables", "import", str(DATA / "foundry-v13.json"), "--name", "wreck")
    pack = pack_of(isolated_home, "wreck")
    assert pack.tables["shipwreck"].rows[2].result == "[cargo]"  # the result that links the Cargo table
    assert pack.tables["cargo"].draw == "unique"  # replacement: false
    assert pack.tables["shipwreck"].rows[0].result == "Driftwood: and nothing else"
    ok("new", "freeform", "--tables", "wreck")
    rolled = cli_json("roll", "DR", "shipwreck", "--got", "5,5/3")
    assert [r["result"] for r in rolled["rolls"]] == ["[cargo]", "A chest of letters"]
    assert (
        "- d: `DR cargo` → `[3]` → **3: A chest of letters** · physical"
        in open_session(isolated_home, "freeform-1").log_text()
    )


def test_foundry_export_is_one_file_or_a_folder_and_imports_back_the_same(isolated_home, tmp_path):
    shutil.copytree(EXAMPLES, folder(isolated_home), ignore=shutil.ignore_patterns("*.md", "*.json"))
    ok("tables", "import", str(EXAMPLES / "cellar-finds.json"))
    ok("tables", "export", "cellar-finds", str(tmp_path / "one.json"), "--format", "foundry")
    doc = json.loads((tmp_path / "one.json").read_text(encoding="utf-8"))
    assert doc["formula"] == "1d8" and [r["range"] for r in doc["results"]] == [[1, 2], [3, 4], [5, 7], [8, 8]]
    for name in ("lantern-fair", "glass-labyrinth", "cellar-finds"):
        out = tmp_path / name
        data = cli_json("tables", "export", name, str(out), "--format", "foundry")
        files = [Path(f) for f in data["files"]]
        assert len(files) == len(pack_of(isolated_home, name).tables)
        shutil.move(str(folder(isolated_home) / f"{name}.toml"), tmp_path / f"{name}.toml")
        ok("tables", "import", *(str(f) for f in files), "--name", name)
        from companion.packs.pack import read_pack

        same(read_pack(tmp_path / f"{name}.toml"), pack_of(isolated_home, name))
    stall = json.loads((tmp_path / "lantern-fair" / "stall.json").read_text(encoding="utf-8"))
    assert stall["formula"] == "1d6*10+1d6"
    assert stall["results"][2]["text"].startswith("Two stalls share one awning: @UUID[RollTable.")
    fortune = json.loads((tmp_path / "lantern-fair" / "fortune.json").read_text(encoding="utf-8"))
    assert fortune["replacement"] is False


# ---- names, replacing, bad files -------------------------------------------------------------------


def test_an_export_replaces_no_other_text_without_force_and_never_writes_through_a_link(isolated_home, tmp_path):
    target = tmp_path / "inverted-tower.md"
    target.write_text("my own notes\n", encoding="utf-8")
    refused = cli("tables", "export", "inverted-tower", str(target))
    assert refused.exit_code == 2
    assert refused.stderr == (
        f"companion: {target} is there already with other text; nothing was written\n"
        "  give another name, or add --force to replace it\n"
    )
    assert target.read_text(encoding="utf-8") == "my own notes\n"
    ok("tables", "export", "inverted-tower", str(target), "--force")
    made = target.read_text(encoding="utf-8")
    assert made.count("| dice: 1d6 |") == 2
    ok("tables", "export", "inverted-tower", str(target))  # the same text again: nothing to ask
    assert target.read_text(encoding="utf-8") == made
    # a folder of Foundry files is written whole or not at all: one changed file stops every one
    folder_out = tmp_path / "vtt"
    ok("tables", "export", "inverted-tower", str(folder_out), "--format", "foundry")
    (folder_out / "treasure.json").write_text("kept\n", encoding="utf-8")
    (folder_out / "event.json").unlink()
    assert cli("tables", "export", "inverted-tower", str(folder_out), "--format", "foundry").exit_code == 2
    assert not (folder_out / "event.json").exists()
    assert (folder_out / "treasure.json").read_text(encoding="utf-8") == "kept\n"
    # a link is never written through, --force or not; the file it points at is unchanged
    mine = tmp_path / "mine.txt"
    mine.write_text("mine\n", encoding="utf-8")
    (tmp_path / "link.md").symlink_to(mine)
    linked = cli("tables", "export", "inverted-tower", str(tmp_path / "link.md"), "--force")
    assert linked.exit_code == 2 and "not a regular file" in linked.stderr
    assert mine.read_text(encoding="utf-8") == "mine\n"


def test_a_pack_of_that_name_is_refused_unless_replace(isolated_home):
    ok("tables", "import", str(EXAMPLES / "cellar-finds.json"))
    again = cli("tables", "import", str(EXAMPLES / "cellar-finds.json"))
    assert again.exit_code == 2
    assert "a pack named cellar-finds is in your folder already" in again.stderr
    ok("tables", "import", str(EXAMPLES / "cellar-finds.json"), "--replace")
    ok("tables", "import", str(EXAMPLES / "cellar-finds.json"), "--name", "cellar")
    assert sorted(p.name for p in folder(isolated_home).iterdir()) == ["cellar-finds.toml", "cellar.toml"]
    bad = cli("tables", "import", str(EXAMPLES / "cellar-finds.json"), "--name", "no spaces")
    assert bad.exit_code == 2 and "--name 'no spaces': use letters, digits, - and _" in bad.stderr
    wrong = cli("tables", "import", str(EXAMPLES / "cellar-finds.json"), "--format", "datasworn")
    assert wrong.exit_code == 2 and "not Datasworn JSON; companion reads it as Foundry VTT roll tables" in wrong.stderr


BAD = {
    "truncated.json": "truncated.json:12: not JSON (Expecting ':' delimiter, column 114); the file ends too early: "
    "it may be cut short",
    "overlap.json": "overlap.json:7: table overlap: rows 1-3 and 3-4 both cover 3; give each total one row",
    "gap.json": "gap.json:7: table gap: no row for 5-6 (1d10 rolls 1-10); add a row or widen one",
    "missing.md": "missing.md:6: `dice: [[missing^rooms]]` names a table that is not in this import; "
    "import missing.md with it",
    "cycle.json": "cycle.json:23: tables loop: hill → valley → hill; a table cannot lead back to itself, "
    "end the chain with a plain result",
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_bad_file_is_one_line_exit_2_and_nothing_written(isolated_home, name):
    path = DATA / "bad" / name
    result = cli("tables", "import", str(path))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"companion: {DATA / 'bad'}/{BAD[name]}\n"
    assert not folder(isolated_home).exists() or not any(folder(isolated_home).iterdir())


def test_a_100_mib_file_is_refused_before_it_is_read(isolated_home, tmp_path):
    import time

    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(100 * 2**20)  # 100 MiB, sparse: nothing to read before the refusal
    start = time.perf_counter()
    result = cli("tables", "import", str(big))
    assert time.perf_counter() - start < 10
    assert result.exit_code == 2
    assert result.stderr == (
        f"companion: {big}: 100 MiB is too big for a file of tables; companion imports files up to 16 MiB\n"
    )
    assert not folder(isolated_home).exists()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000, "the JSON is nested too deeply"),
        ('{"results": [{"range": [1, 1], "text": "a", "weight": 1' + "9" * 5000 + "}]}", "not JSON companion can read"),
        ('{"a": 1}', "JSON, but neither Datasworn (oracles) nor a Foundry roll table (results)"),
    ],
)
def test_hostile_json_is_one_line(isolated_home, tmp_path, text, message):
    path = tmp_path / "x.json"
    path.write_text(text, encoding="utf-8")
    result = cli("tables", "import", str(path))
    assert result.exit_code == 2 and result.stderr.count("\n") == 1 and message in result.stderr, result.stderr


def test_a_fifo_is_not_read(isolated_home, tmp_path):
    import os

    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    result = cli("tables", "import", str(fifo))
    assert result.exit_code == 2 and "not a regular file" in result.stderr


def test_tab_completes_the_packs_to_export_and_the_tables_to_reset(bash_complete, isolated_home):  # noqa: F811
    ok("new", "freeform", "--tables", str(EXAMPLES / "lantern-fair.toml"))
    ok("tables", "import", str(EXAMPLES / "cellar-finds.json"))
    assert sorted(bash_complete("companion tables export ")) == ["cellar-finds", "lantern-fair"]
    assert sorted(bash_complete("companion tables reset ")) == ["fortune", "lantern-fair"]
    assert bash_complete("companion tables reset fo") == ["fortune"]
