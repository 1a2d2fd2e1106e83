"""A gamebook's numbered sections in any session: ``section N [--note]``, ``section back [K]``,
``sections [--json]`` in the shapes the issue names, the decision log (a line a section, starting with
§N, the rolls made there under it), the shell's ``§213``, and the exports (a Lonelog scene a section,
the html page's list), the whole path kept through every return."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.helpers import cli, open_session, regenerated_log


def ok(*args: str):
    result = cli(*args)
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return result


def sections() -> dict:
    return json.loads(ok("sections", "--json").stdout)


@pytest.fixture
def book(isolated_home):
    ok("new", "freeform", "--name", "book", "--seed", "1")
    return isolated_home


def test_the_path_visits_and_where_you_are_in_the_named_shape(book):
    ok("section", "1")
    ok("section", "213", "--note", "took the left stair")
    assert json.loads(ok("section", "back", "--json").stdout) == {
        "path": [1, 213, 1],
        "visits": {"1": 2, "213": 1},
        "current": 1,
        "branches": [{"from": 1, "path": [213], "how": "back"}],
    }
    assert sections()["path"] == [1, 213, 1]
    assert ok("sections").stdout.splitlines() == [
        "Path: §1 → §213 → §1",
        "Visited: 2 sections (§1 ×2, §213 ×1)",
        "Now at §1; the way back: none",
        "Tried from §1: §213, went back",
    ]


def test_going_back_walks_the_way_forward_not_the_path(book):
    for n in ("1", "50", "213", "7"):
        ok("section", n)
    ok("section", "back", "2")  # from §7, two back along the way: §50
    assert sections()["current"] == 50
    ok("section", "back")  # and on back: §1 (not forth again to §213)
    assert sections() == {
        "path": [1, 50, 213, 7, 50, 1],
        "visits": {"1": 2, "50": 2, "213": 1, "7": 1},
        "current": 1,
        "branches": [{"from": 50, "path": [213, 7], "how": "back"}, {"from": 1, "path": [50], "how": "back"}],
    }


def test_the_decision_log_has_a_line_a_section_with_what_was_chosen_and_rolled_there(book):
    ok("section", "1", "--note", "into the keep")
    ok("roll", "2d6", "--got", "3,4", "--why", "the gate's lock")
    ok("section", "213", "--note", "took the left stair")
    ok("note", "a draught from below")
    ok("section", "back")
    log = ok("log").stdout
    body = log.split("\n# ", 1)[1]
    lines = [line for line in body.splitlines() if line.startswith(("- ", "  - "))]
    assert lines == [
        "- §1 — into the keep",
        "  - d: `2d6` → `[3] [4]` = 7 · physical — the gate's lock",
        "- §213 — took the left stair",
        "  - Note: a draught from below",
        "- §1 — back 1, from §213",
        "  - tried: §213, went back",
    ]
    decision = [line for line in lines if not line.startswith("  ")]
    assert all(line[2:].startswith("§") for line in decision)  # each line of the decision log starts with §N
    assert log == regenerated_log(book, "book")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("section", "back"), "no section yet: section N records where you are"),
        (
            ("section", "0"),
            "'0' is not a section; write its number (section 213, from 1 to 99,999) or section back [K]",
        ),
        (("section", "twelve"), "'twelve' is not a section"),
        (("section", "12", "3"), "section 12 takes no second number; section back 3 goes back"),
        (("section", "back", "0"), "section back 0: give how many sections back, 1 or more"),
    ],
)
def test_what_is_no_section_is_refused_and_nothing_is_recorded(book, args, says):
    before = open_session(book, "book").count
    result = cli(*args)
    assert result.exit_code == 2 and says in result.stderr and result.stderr.count("\n") == 1, result.stderr
    assert open_session(book, "book").count == before


def test_the_words_after_the_number_are_the_note_quoted_or_not(book):
    ok("section", "1")
    assert ok("section", "213", "took", "the", "left", "stair").stdout == "§213 — took the left stair\n"
    # --note with its words unquoted (as typed in the shell): the option takes one, the rest follow it
    assert ok("section", "40", "--note", "the", "cold", "stair").stdout == "§40 — the cold stair\n"
    assert ok("section", "back", "2", "the", "other", "door").stdout == (
        "§1 — back 2, from §40 — the other door\n  tried: §213 → §40, went back\n"
    )
    assert sections()["path"] == [1, 213, 40, 1]


def test_going_back_further_than_the_way_is_refused(book):
    ok("section", "1")
    ok("section", "2")
    result = cli("section", "back", "2")
    assert result.exit_code == 2
    assert result.stderr == "companion: section back 2: the way back is 1 section long; give 1 or less\n"
    ok("section", "back")
    result = cli("section", "back")
    assert result.stderr == "companion: §1 is where your way starts: there is no section before it to go back to\n"


def test_undo_takes_a_return_back_and_the_way_is_as_it_was(book):
    ok("section", "1")
    ok("section", "9")
    ok("section", "back")
    ok("undo")
    assert sections() == {"path": [1, 9], "visits": {"1": 1, "9": 1}, "current": 9, "branches": []}


def test_sections_are_kept_in_a_guided_game_too(isolated_home):
    ok("new", "inverted-tower", "--name", "tower", "--seed", "2", "--hero", "Aria")
    ok("section", "12", "--note", "a house rule's numbered event")
    assert sections()["current"] == 12
    assert "Section" in ok("status").stdout


def test_the_exports_show_the_whole_path(book, tmp_path):
    html5lib = pytest.importorskip("html5lib")
    ok("section", "1", "--note", "the gate")
    ok("roll", "2d6", "--got", "6,6")
    ok("section", "52")
    ok("section", "back", "--note", "the other way")
    ok("section", "40")
    ok("export", str(tmp_path / "book.lonelog"), "--format", "lonelog")
    lonelog = (tmp_path / "book.lonelog").read_text(encoding="utf-8")
    assert "*Date: " in lonelog and "| Scenes: S1-S4 |" in lonelog
    scenes = [line for line in lonelog.splitlines() if line.startswith("### S")]
    assert scenes == [
        "### S1 *§1 — the gate*",
        "### S2 *§52*",
        "### S3 *§1 — back 1, from §52 — the other way*",
        "### S4 *§40*",
    ]
    assert lonelog.index("### S1 *§1") < lonelog.index("d: 2d6 [6] [6] = 12") < lonelog.index("### S2 *§52")
    ok("export", str(tmp_path / "book.html"), "--format", "html")
    doc = html5lib.parse((tmp_path / "book.html").read_text(encoding="utf-8"), namespaceHTMLElements=False)
    part = doc.find(".//section[@id='sections']")
    assert part is not None
    items = ["".join(li.itertext()) for li in part.find("ol").iter("li")]
    assert items == ["§1 — the gate", "§52", "§1 — back 1, from §52 — the other way", "§40"]
    assert ["".join(li.itertext()) for li in part.find("ul").iter("li")] == ["from §1: §52, went back"]
    assert "4 read, 3 different" in "".join(part.find("p").itertext())
    ok("export", str(tmp_path / "book.json"), "--format", "json")
    data = json.loads((tmp_path / "book.json").read_text(encoding="utf-8"))
    assert [e.get("n", e.get("back")) for e in data["events"] if e["t"] == "section"] == [1, 52, 1, 40]
    assert data["state"]["trackers"]["sections"]["path"] == [1, 52, 1, 40]
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((Path(__file__).resolve().parent.parent / "docs" / "session-export.schema.json").read_text())
    jsonschema.validate(data, schema)


def test_the_shell_takes_section_213_as_s213_or_213_with_a_sign(isolated_home):
    env = {"COMPANION_HOME": str(isolated_home)}
    import os
    import sys

    ok("new", "freeform", "--name", "book", "--seed", "1")
    companion = str(Path(sys.executable).with_name("companion"))
    result = subprocess.run(
        [companion, "shell"],
        input="§1\ns213 --note left\n§40\nsections --json\n",
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert sections() == {"path": [1, 213, 40], "visits": {"1": 1, "213": 1, "40": 1}, "current": 40, "branches": []}
    assert "§213 — left" in result.stdout
