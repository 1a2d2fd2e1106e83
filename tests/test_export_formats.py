"""Every export format, made from the seeded example sessions behind logs/, and the export command."""

from __future__ import annotations

import json
import re
from datetime import UTC
from fractions import Fraction
from pathlib import Path

import html5lib
import jsonschema
import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.export import lonelog
from companion.export.document import FORMAT, document
from companion.export.html import page
from companion.sim.fights import STAND, WIN
from tests.export_support import (  # noqa: F401 (examples_played_once: a fixture)
    ROOT,
    examples,
    examples_played_once,
    fetched_resources,
    replayed,
    source,
)

runner = CliRunner()
SCHEMA = json.loads((ROOT / "docs" / "session-export.schema.json").read_text(encoding="utf-8"))
XHTML = "{http://www.w3.org/1999/xhtml}"
SVG = "{http://www.w3.org/2000/svg}"


def parse_html(text: str):
    """Parse as a browser would, failing on any HTML5 parse error."""
    return html5lib.HTMLParser(strict=True, namespaceHTMLElements=True).parse(text)


@pytest.mark.parametrize("name", examples())
def test_json_export_validates_against_its_schema(name):
    src = source(name)
    doc = json.loads(json.dumps(document(src)))
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    jsonschema.validate(doc, SCHEMA, cls=jsonschema.Draft202012Validator)
    assert doc["format"] == FORMAT == "companion-session/1"
    assert len(doc["events"]) == len(src.events) and doc["events"][0]["id"] == 1
    assert doc["state"]["log"]["entries"], "the folded log is in the document"


def test_the_schema_rejects_what_it_should():
    doc = json.loads(json.dumps(document(source("freeform-example.md"))))
    for broken in (
        {**doc, "format": "companion-session/2"},
        {**doc, "events": [{"t": "roll", "id": 1}]},  # a roll with no expression
        {**doc, "dice_audit": [{"die": "d6", "source": "physical", "rolls": 1, "counts": {}, "verdict": "x"}]},
    ):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(broken, SCHEMA, cls=jsonschema.Draft202012Validator)


_LONELOG = [
    re.compile(r"^$"),
    re.compile(r"^```$"),  # each scene's notation in a code fence (the spec's digital format)
    re.compile(r"^# \S.*$"),
    re.compile(r"^## Session \d+$"),
    re.compile(r"^\*Date: \d{4}-\d\d-\d\d( \| Scenes: S1-S\d+)? \| Result: .+\*$"),
    re.compile(r"^### S\d+ \*\S.*\*$"),
    re.compile(r"^@ \S.*$"),
    re.compile(r"^(d|tbl): .+ -> .+ \((virtual, seed \d+|physical|amended)\)$"),  # a roll that fits on a line
    re.compile(r"^(d|tbl): .+ -> .+$"),  # a roll, its detail on the next line (a note ending with its source)
    re.compile(r"^=> \S.*$"),
    re.compile(r"^Rd\d+$"),
    re.compile(r"^\[/?(COMBAT|DUNGEON STATUS|RESOURCES)\]$"),
    re.compile(r"^\[(PC|N|F|R|Inv|Wealth):[^|\]]+(\|[^|\]]+)*\]$"),
    re.compile(r"^\(note: .+\)$"),
]


@pytest.mark.parametrize("name", examples())
def test_every_lonelog_line_is_a_known_symbol_a_header_or_the_players_own_prose(name):
    src = source(name)
    text = lonelog.render(src, replayed(name))
    head, sep, body = text.partition("\n---\n")
    assert text.startswith("---\n") and sep, "a YAML campaign header"
    assert all(re.match(r"^[a-z_]+: ", line) for line in head.splitlines()[1:])
    typed = {line for e in src.events if e.get("t") == "note" for line in e["text"].splitlines()}
    lines = body.splitlines()
    for n, line in enumerate(lines):
        assert line in typed or any(p.match(line) for p in _LONELOG), f"not Lonelog: {line!r}"
        # One arrow, ASCII: the resource add-on's own 3→2 inside its tags is the only other.
        outside = re.sub(r"\[[^\]]*\]", "", line)
        assert line in typed or not any(a in outside for a in "→⟶"), f"arrows are ASCII: {line!r}"
        if line.startswith(("d: ", "tbl: ")):
            assert len(line) <= 80, f"a roll's line fits 80 columns: {line!r}"
            if not re.search(r"\((virtual, seed \d+|physical|amended)\)$", line):
                detail = lines[n + 1]
                assert re.match(r"^\(note: .+ (virtual, seed \d+|physical|amended)\)$", detail), (line, detail)
    rolls = sum(1 for e in src.state.log.entries if e["k"] == "roll")
    assert body.count("\nd: ") + body.count("\ntbl: ") == rolls, "one d: or tbl: line per roll in the log"
    assert "\n=> " in body


def test_lonelog_of_a_guided_game_has_scenes_choices_and_consequences():
    src = source("inverted-tower-example.md")
    text = lonelog.render(src, replayed("inverted-tower-example.md"))
    assert "\n### S1 *Floor 1*\n" in text and "\n### S10 *Floor 10*\n" in text
    assert "\n@ Explore a new room\n" in text
    assert "\nd: DC +1 STR [2] vs 4+ -> fail\n(note: Fight: Skeleton Warrior 1 of 2 · virtual, seed 667)\n" in text
    assert "\ntbl: Treasure: treasure [3] = 3 -> 1 gp (virtual, seed 667)\n" in text
    assert "\n=> Room 1: Mob 1 (killed) Mob 2 (killed)\n" in text
    assert "*Date: 2026-01-01 | Scenes: S1-S10 | Result: won*" in text


def test_lonelog_keeps_notes_as_typed():
    src = source("freeform-example.md")
    text = lonelog.render(src, replayed("freeform-example.md"))
    assert "\nKrylla wants to go back to Room 2: companion roll DC decides if something wanders in.\n" in text
    assert "(note: amended from [1]: the die had rolled under the book: it showed a 6 · " in text


@pytest.mark.parametrize("name", examples())
def test_html_export_parses_has_an_svg_chart_and_fetches_nothing(name):
    src = source(name)
    text = page(src, replayed(name, odds=True))
    doc = parse_html(text)
    svgs = list(doc.iter(f"{SVG}svg"))
    assert svgs, "at least one SVG chart"
    assert not list(doc.iter(f"{XHTML}script")) and not list(doc.iter(f"{SVG}script")), "no script at all"
    assert fetched_resources(doc) == []
    assert "fonts.googleapis" not in text and "kozea.github.io" not in text
    title = doc.find(f".//{XHTML}h1")
    assert title is not None and src.meta.name in "".join(title.itertext())
    log = doc.find(f".//{XHTML}section[@id='log']")
    assert log is not None and len(list(log.iter(f"{XHTML}li"))) >= 3, "the log is on the page"
    for svg in svgs:  # every chart's legend is inside its picture (pygal can place it low)
        height = float(svg.get("viewBox").split()[3])
        legends = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "legends"]
        for g in legends:
            y = float(re.search(r"translate\([\d.]+, ([\d.]+)\)", g.get("transform")).group(1))
            assert y + 14 <= height, f"legend at {y} below a {height}-high chart"


def test_html_header_charts_moments_and_dice_of_a_won_game():
    src = source("inverted-tower-example.md")
    text = page(src, replayed("inverted-tower-example.md", odds=True), zone=UTC)
    doc = parse_html(text)
    header = "".join(doc.find(f".//{XHTML}header").itertext())
    for part in ("The Inverted Tower", "example", "Aria", "won", "1 January 2026", "1 January 2026, 00:00 UTC"):
        assert part in header
    titles = {"".join(t.itertext()) for t in doc.iter(f"{SVG}title")}
    assert {"HP over the session", "XP and level", "d6: share of rolls per face"} <= titles
    moments = "".join(doc.find(f".//{XHTML}section[@id='moments']").itertext())
    moments = " ".join(moments.split())
    assert "62 fights; where the chance was lowest or changed most, lowest first (every one is listed after" in moments
    assert "Floor 3, room 2: 3 Skeleton Warriors won Lowest chance to win: 5/16 (31.2%) after action 242" in moments
    assert "What turned it: action 243, Drink a potion (heal to Max HP)." in moments
    every = doc.find(f".//{XHTML}section[@id='fights']")
    assert len(list(every.iter(f"{XHTML}h3"))) == 62
    rows = [["".join(td.itertext()) for td in tr.iter(f"{XHTML}td")] for tr in doc.iter(f"{XHTML}tr")]
    # The table holds the numbers (it fits a phone); each source's verdict is said below it.
    assert ["physical", "0", "0", "0", "0", "0", "0", "0", "–"] in rows
    [virtual] = [r for r in rows if r and r[0] == "virtual"]
    assert virtual[1] == "538" and sum(map(int, virtual[2:8])) == 538 and len(virtual) == 9
    verdicts = [
        " ".join("".join(li.itertext()).split())
        for li in doc.iter(f"{XHTML}li")
        if li.find(f"{XHTML}strong") is not None
    ]
    assert "physical: no rolls" in verdicts and "virtual (control): no sign of bias in 538 rolls" in verdicts


def test_the_log_on_the_page_reads_as_the_markdown_does():
    src = source("talisman-example.md")
    doc = parse_html(page(src, replayed("talisman-example.md")))
    log = doc.find(f".//{XHTML}section[@id='log']")
    headings = ["".join(h.itertext()) for h in log.iter(f"{XHTML}h2")][1:]
    assert headings == [line[3:] for line in src.markdown.splitlines() if line.startswith("## ")]
    items = [" ".join("".join(li.itertext()).split()) for li in log.iter(f"{XHTML}li")]
    assert "d: 2d6>=6 → [1] [6] = 7 vs 6+ → pass · virtual — Krylla strikes the Ocular Terror first" in items


EVIL = "<script>alert(1)</script>"


def test_everything_a_player_typed_is_escaped_in_the_page(tmp_path):
    for args in (
        ["new", "freeform", "--name", "xss", "--seed", "1", "--hero", '<img src=x onerror="alert(2)">'],
        ["note", EVIL],
        ["room", "1", "<b>bold</b> & <i>", "--state", "cleared"],
        ["tally", "add", "</li><script>alert(3)</script>", "5"],
        ["item", "<svg onload=alert(4)>", "+1"],
        ["roll", "d6", "--got", "3", "--why", "<style>body{display:none}</style>"],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.stderr
    out = tmp_path / "xss.html"
    assert runner.invoke(app, ["export", str(out), "--format", "html"]).exit_code == 0
    text = out.read_text(encoding="utf-8")
    doc = parse_html(text)
    assert not list(doc.iter(f"{XHTML}script")) and not list(doc.iter(f"{SVG}script"))
    assert not list(doc.iter(f"{XHTML}img")) and not list(doc.iter(f"{XHTML}b"))
    assert [el for el in doc.iter() if any(a.startswith("on") for a in el.attrib)] == []
    assert len(list(doc.iter(f"{XHTML}style"))) == 1, "only the page's own stylesheet"
    words = " ".join("".join(doc.itertext()).split())
    assert f"Note: {EVIL}" in words  # shows as text, exactly as typed
    assert '<img src=x onerror="alert(2)">' in words
    assert "<b>bold</b> & <i>" in words
    assert "</li><script>alert(3)</script>" in words


def test_export_command_writes_every_format_where_the_log_is(tmp_path):
    assert runner.invoke(app, ["new", "freeform", "--name", "evening", "--seed", "3"]).exit_code == 0
    assert runner.invoke(app, ["roll", "2d6", "--got", "3,4"]).exit_code == 0
    assert runner.invoke(app, ["hp", "=5", "--max", "5"]).exit_code == 0
    logs = Path(runner.invoke(app, ["status", "--json"]).stdout and json.loads(
        runner.invoke(app, ["status", "--json"]).stdout)["meta"]["log"]).parent  # fmt: skip
    for fmt, file in (("md", "evening.md"), ("html", "evening.html"), ("lonelog", "evening.lonelog.md"),
                      ("json", "evening.json")):  # fmt: skip
        result = runner.invoke(app, ["export", "--format", fmt, "--json"])
        assert result.exit_code == 0, result.stderr
        assert json.loads(result.stdout) == {"session": "evening", "format": fmt, "file": str(logs / file)}
        assert (logs / file).stat().st_size > 100
    result = runner.invoke(app, ["export", "--format", "lonelog"])
    assert result.stdout == f"Lonelog written to {logs / 'evening.lonelog.md'}\n"
    printed = runner.invoke(app, ["export", "-", "--format", "json"])
    assert json.loads(printed.stdout)["session"]["name"] == "evening"
    assert runner.invoke(app, ["export", "-"]).stdout == (logs / "evening.md").read_text(encoding="utf-8")


def test_export_all_writes_an_index_page(tmp_path):
    for name in ("one", "two"):
        assert runner.invoke(app, ["new", "freeform", "--name", name, "--hero", f"Hero {name}"]).exit_code == 0
        assert runner.invoke(app, ["roll", "d6", "--got", "4"]).exit_code == 0
    result = runner.invoke(app, ["export", str(tmp_path / "site"), "--all", "--format", "html"])
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "site").iterdir()) == ["index.html", "one.html", "two.html"]
    doc = parse_html((tmp_path / "site" / "index.html").read_text(encoding="utf-8"))
    links = sorted(a.get("href") for a in doc.iter(f"{XHTML}a"))
    assert links == ["one.html", "two.html"] and fetched_resources(doc) == []
    result = runner.invoke(app, ["export", str(tmp_path / "j"), "--all", "--format", "json", "--json"])
    assert [w["session"] for w in json.loads(result.stdout)["written"]] == ["one", "two"]


def test_export_refuses_an_unknown_format_and_all_to_stdout():
    assert runner.invoke(app, ["new", "freeform", "--name", "x"]).exit_code == 0
    result = runner.invoke(app, ["export", "--format", "pdf"])
    assert result.exit_code == 2 and "'pdf' is not an export format; use md, html, lonelog, json" in result.stderr
    result = runner.invoke(app, ["export", "-", "--all"])
    assert result.exit_code == 2 and "give a folder" in result.stderr


def test_the_big_moments_of_a_lost_game():
    from companion.export.moments import moments

    src = source("talisman-example.md")
    found = moments(replayed("talisman-example.md", odds=True))
    fought = [f for f in found.fights if f.of == WIN]
    assert found.probed and len(fought) == 12
    last = fought[-1]
    assert last.title == "Area 13: the Iron Skeletons" and last.result == "lost"
    assert 0 < last.lowest.chance < 1 and isinstance(last.lowest.chance, Fraction)
    assert last.turn is not None and last.turn.after is None and last.turn.end == "lost" and last.turn.rolls
    assert [f.result for f in fought[:-1]] == ["won"] * 11
    # Each hero in each fight is followed too: every one who fell in the last fight is a fall there.
    heroes = [f for f in found.fights if f.of == STAND and f.title.endswith("(area 13)")]
    assert heroes and all(f.result == "lost" for f in heroes) and all(0 < f.lowest.chance < 1 for f in heroes)
    text = page(src, replayed("talisman-example.md", odds=True))
    assert "to a loss." in " ".join(text.split())


def test_a_freeform_page_says_why_it_has_no_big_moments():
    from companion.export.moments import moments, outcome

    found = moments(replayed("freeform-example.md", odds=True))
    assert found.fights == [] and not found.probed
    text = " ".join(page(source("freeform-example.md"), replayed("freeform-example.md", odds=True)).split())
    assert "A freeform session keeps no fight rules, so companion has no odds to count its fights by" in text
    assert [outcome(x) for x in ("won", "lost: every hero has fallen", "dead on floor 3", "a draw", None)] == [
        "won",
        "lost",
        "lost",
        None,
        None,
    ]
