"""Saves written by earlier companions open, play on and give the same game and log.

``tests/data/v1/`` holds format-1 saves written by the format-1 code itself (see
``tests/data/make_v1_saves.py``): a freeform session of 289 events over two events files with a redo
list, a guided Inverted Tower game and a Haunted Tower game at the table. Each is copied into the test's
own data folder, its log path pointed into the test's logs folder, and opened through the commands.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from companion.cli.common import dump_state
from tests.helpers import cli, cli_json, open_session, regenerated_log

DATA = Path(__file__).parent / "data" / "v1"
SESSIONS = ("long-run", "tower", "haunted")


def install(slug: str) -> tuple[Path, Path]:
    """Copy the format-1 save ``slug`` into this test's data folder; its log goes to the logs folder."""
    home, logs = Path(os.environ["COMPANION_HOME"]), Path(os.environ["COMPANION_LOGS"])
    target = home / "sessions" / slug
    shutil.copytree(DATA / "sessions" / slug, target)
    meta_file = target / "session.json"
    doc = json.loads(meta_file.read_text())
    doc["meta"]["1"]["meta"]["log_path"] = str((logs / f"{slug}.md").resolve())
    meta_file.write_text(json.dumps(doc))
    log = logs / f"{slug}.md"
    log.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(DATA / "expected" / f"{slug}.log-on-disk.md", log)  # the log as that companion left it
    return target, log


def without_paths(data: dict) -> dict:
    """``status --json`` without the log's path (the fixture's was a temporary folder)."""
    data["meta"].pop("log")
    data["state"]["meta"].pop("log_path")
    return data


def expected_status(slug: str) -> dict:
    return without_paths(json.loads((DATA / "expected" / f"{slug}.status.json").read_text()))


def contains(got: object, expected: object, where: str = "status") -> None:
    """Every figure format 1 showed is there and the same (a field added since is no difference)."""
    if isinstance(expected, dict) and isinstance(got, dict):
        for key, value in expected.items():
            assert key in got, f"{where}.{key} is gone"
            contains(got[key], value, f"{where}.{key}")
        return
    assert got == expected, f"{where}: {got!r} != {expected!r}"


def v1_events(slug: str) -> list[dict]:
    """The events as the format-1 files hold them."""
    out = []
    for path in sorted((DATA / "sessions" / slug / "events").glob("*.json")):
        table = json.loads(path.read_text())["events"]
        out.extend({"id": int(k), **v} for k, v in sorted(table.items(), key=lambda kv: int(kv[0])))
    return out


def shape(log: str) -> list[str]:
    """What a log holds, line by line, without its words: a rule's wording may be better now than when
    the save was made, but no roll, note, line or heading may be missing or added."""
    out = []
    for line in log.splitlines():
        body = line.lstrip()
        indent = len(line) - len(body)
        kind = "roll" if body.startswith("- d:") else "note" if "Note:" in body else body[:2]
        out.append(f"{indent}:{kind}")
    return out


def test_a_format_1_save_opens_with_the_same_state_and_log() -> None:
    """The freeform session (trackers and rolls only) shows what format 1 showed."""
    _, log = install("long-run")
    home = Path(os.environ["COMPANION_HOME"])
    contains(without_paths(cli_json("--session", "long-run", "status")), expected_status("long-run"))
    exported = cli("--session", "long-run", "export", "-")
    assert exported.exit_code == 0, exported.stderr
    assert shape(exported.stdout) == shape((DATA / "expected" / "long-run.md").read_text())
    assert log.read_text() == exported.stdout == regenerated_log(home, "long-run")


@pytest.mark.parametrize("slug", SESSIONS)
def test_a_format_1_save_keeps_every_event_and_folds_as_the_events_say(slug: str) -> None:
    """A save keeps every event as it was; its state and log are the events folded by the rules as they
    are now (a rule fixed since may tell the same events another way), and its log has every line."""
    _, log = install(slug)
    home = Path(os.environ["COMPANION_HOME"])
    status = without_paths(cli_json("--session", slug, "status"))
    assert status["events"] == len(v1_events(slug))
    assert open_session(home, slug).files.read_events() == v1_events(slug)
    again = json.loads(json.dumps(dump_state(open_session(home, slug, engine=True))["state"]))
    again["meta"].pop("log_path")
    assert status["state"] == again
    assert log.read_text() == regenerated_log(home, slug)
    assert shape(log.read_text()) == shape((DATA / "expected" / f"{slug}.md").read_text())
    folder = home / "sessions" / slug
    assert not (folder / "head.json").exists() and (folder / "events" / "journal.jsonl").exists()
    assert json.loads((folder / "session.json").read_text())["_format"]["1"]["version"] == 2


def test_a_format_1_save_plays_on_undoes_and_redoes() -> None:
    """The freeform save kept two undone actions: redo brings them back, and play goes on."""
    install("long-run")
    home = Path(os.environ["COMPANION_HOME"])
    assert open_session(home, "long-run").count == 289
    first = cli_json("--session", "long-run", "redo")
    assert first["redone"]["t"] == "xp" and first["events"] == 290
    second = cli_json("--session", "long-run", "redo")
    assert second["redone"]["text"] == "the last thing" and second["events"] == 291
    assert cli("--session", "long-run", "redo").exit_code == 1  # nothing more to redo
    assert cli("--session", "long-run", "roll", "2d6", "--got", "3,4").exit_code == 0
    assert cli("--session", "long-run", "undo").exit_code == 0
    assert cli("--session", "long-run", "undo").exit_code == 0
    assert cli("--session", "long-run", "undo").exit_code == 0
    session = open_session(home, "long-run")
    assert session.count == 289
    contains(without_paths(cli_json("--session", "long-run", "status")), expected_status("long-run"))
    logs = Path(os.environ["COMPANION_LOGS"])
    assert (logs / "long-run.md").read_text() == regenerated_log(home, "long-run")
    assert shape((logs / "long-run.md").read_text()) == shape((DATA / "expected" / "long-run.md").read_text())


def test_a_format_1_guided_game_goes_on_where_it_stopped() -> None:
    install("tower")
    before = cli_json("--session", "tower", "next")
    assert before["events"] == 40 and before["request"]
    request = before["request"]
    answer = {"text": "Aria", "choice": "=" + (request.get("options") or [{"value": ""}])[0]["value"]}.get(
        request["type"], "roll"
    )
    after = cli_json("--session", "tower", "next", answer)
    assert after["events"] == 41
    home, logs = Path(os.environ["COMPANION_HOME"]), Path(os.environ["COMPANION_LOGS"])
    assert (logs / "tower.md").read_text() == regenerated_log(home, "tower")
