"""``companion export`` names what it exports, and the page says when the game was played in the
player's own time zone, as a person writes it (the JSON keeps the stamps in ISO 8601, UTC)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import html5lib
import pytest
from typer.testing import CliRunner

from companion.cli.app import app

runner = CliRunner()
XHTML = "{http://www.w3.org/1999/xhtml}"


def ok(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return result.stdout


def js(*args: str):
    return json.loads(ok(*args, "--json"))


def words(path: Path) -> str:
    doc = html5lib.parse(path.read_text(encoding="utf-8"), namespaceHTMLElements=True)
    return " ".join("".join(doc.find(f".//{XHTML}body").itertext()).split())


@pytest.fixture
def two_sessions():
    ok("new", "freeform", "--name", "evening", "--seed", "1", "--hero", "Krylla")
    ok("roll", "d6", "--got", "4")
    ok("new", "freeform", "--name", "morning", "--seed", "2", "--hero", "Ibli")  # now the current one
    ok("roll", "d6", "--got", "2")


def test_export_name_exports_that_session_not_the_current_one(two_sessions, tmp_path):
    done = js("export", "evening", "--format", "html")
    assert done["session"] == "evening" and done["file"].endswith("evening.html")
    assert "Krylla" in words(Path(done["file"])) and "Ibli" not in words(Path(done["file"]))
    assert js("status")["meta"]["name"] == "morning", "the current session stays the current one"
    out = ok("export", "evening", str(tmp_path / "shared" / "eve"), "-f", "lonelog")
    assert out == f"Lonelog written to {tmp_path / 'shared' / 'eve.lonelog.md'}\n"
    assert "Krylla" in (tmp_path / "shared" / "eve.lonelog.md").read_text(encoding="utf-8")
    done = js("export", "-s", "evening", str(tmp_path / "log.txt"))
    assert done == {"session": "evening", "format": "md", "file": str(tmp_path / "log.txt")}


def test_a_path_without_an_extension_gets_the_formats(two_sessions, tmp_path):
    for fmt, name in (("html", "run.html"), ("json", "run.json"), ("lonelog", "run.lonelog.md"), ("md", "run.md")):
        done = js("export", str(tmp_path / "run"), "--format", fmt)
        assert done == {"session": "morning", "format": fmt, "file": str(tmp_path / name)}
        assert (tmp_path / name).stat().st_size > 50
    done = js("export", str(tmp_path / "page.htm"), "--format", "html")  # an extension of its own stays
    assert done["file"] == str(tmp_path / "page.htm")


def test_export_refuses_a_session_that_is_not_there(two_sessions, tmp_path):
    result = runner.invoke(app, ["export", "nobody", str(tmp_path / "x.html"), "-f", "html"])
    assert result.exit_code == 2 and "no session named 'nobody'" in result.stderr
    result = runner.invoke(app, ["export", "evening", str(tmp_path / "x.html"), "-s", "morning"])
    assert result.exit_code == 2 and "name the session once" in result.stderr
    result = runner.invoke(app, ["export", "--all", "-s", "evening"])
    assert result.exit_code == 2 and "--all exports every session" in result.stderr


def test_export_help_shows_its_session_option():
    out = ok("export", "--help")
    assert "-s, --session" in out and "[NAME or PATH]" in out


@pytest.fixture
def berlin(monkeypatch):
    """The player's machine in Berlin (CET in winter, CEST in summer)."""
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def at(stamp: str, monkeypatch, *args: str) -> None:
    """Run a command at a moment (UTC), as the clock of the machine says it."""
    from datetime import datetime

    epoch = int(datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp())
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(epoch))
    ok(*args)


def test_times_are_the_players_own_and_written_out(berlin, monkeypatch, tmp_path):
    at("2026-12-01T20:50:30Z", monkeypatch, "new", "freeform", "--name", "night", "--seed", "1")
    at("2026-12-01T21:47:02Z", monkeypatch, "roll", "d6", "--got", "5")
    text = words(Path(js("export", "-f", "html")["file"]))
    assert "Played1 December 2026, 21:50 to 22:47 CET" in text
    assert "· 1 December 2026" in text and "2026-12-01T" not in text and "(UTC)" not in text
    doc = json.loads(ok("export", "-", "-f", "json"))
    assert doc["session"]["started"] == "2026-12-01T20:50:30Z"  # JSON keeps ISO 8601, UTC
    assert doc["session"]["updated"] == "2026-12-01T21:47:02Z"
    at("2026-12-01T23:30:00Z", monkeypatch, "roll", "d6", "--got", "1")  # past midnight in Berlin
    text = words(Path(js("export", "-f", "html")["file"]))
    assert "Played1 December 2026, 21:50 to 2 December 2026, 00:30 CET" in text
    at("2027-07-01T10:00:00Z", monkeypatch, "roll", "d6", "--got", "1")  # summer time by then
    text = words(Path(js("export", "-f", "html")["file"]))
    assert "Played1 December 2026, 21:50 CET to 1 July 2027, 12:00 CEST" in text


def test_the_index_gives_each_sessions_day(berlin, monkeypatch, tmp_path):
    at("2026-12-01T23:30:00Z", monkeypatch, "new", "freeform", "--name", "late", "--seed", "1")
    at("2026-11-03T09:00:00Z", monkeypatch, "new", "freeform", "--name", "early", "--seed", "1")
    ok("export", str(tmp_path / "site"), "--all", "-f", "html")
    doc = html5lib.parse((tmp_path / "site" / "index.html").read_text(encoding="utf-8"), namespaceHTMLElements=True)
    cells = [td for td in doc.iter(f"{XHTML}td") if td.get("class") == "date"]
    assert ["".join(td.itertext()) for td in cells] == ["2 December 2026", "3 November 2026"], "newest first"
