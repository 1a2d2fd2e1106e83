"""Format-2 saves (companion before #36: journal lines without a check) open, play on, and become format 3.

``tests/data/v2/`` holds saves written by the format-2 code itself (``tests/data/make_v2_saves.py``): a
freeform session of 567 events (a sealed events file, a journal of 311 lines, a redo list, checkpoints)
and a guided Inverted Tower game. Each is copied into the test's own data folder and opened through the
commands. Read without the lock (``companion sessions``) a format-2 journal is read as it is; the first
command that opens it under the lock writes it again as format 3: every line with its check, the sealed
file's digest in its header, the sealed file itself untouched.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from companion.store import journal
from tests.helpers import cli, cli_json, open_session, regenerated_log
from tests.test_store_migrate import contains, shape, without_paths

DATA = Path(__file__).parent / "data" / "v2"


def install(slug: str) -> Path:
    """Copy the format-2 save ``slug`` into this test's data folder, its log path pointed at the logs folder."""
    home, logs = Path(os.environ["COMPANION_HOME"]), Path(os.environ["COMPANION_LOGS"])
    target = home / "sessions" / slug
    shutil.copytree(DATA / "sessions" / slug, target)
    path = str((logs / f"{slug}.md").resolve())
    meta_file = target / "session.json"
    doc = json.loads(meta_file.read_text())
    doc["meta"]["1"]["meta"]["log_path"] = path
    meta_file.write_text(json.dumps(doc))
    raw = (target / "events" / "journal.jsonl").read_bytes()
    head, _, rest = raw.partition(b"\n")
    header = json.loads(head)
    header["meta"]["log_path"] = path
    (target / "events" / "journal.jsonl").write_bytes(json.dumps(header).encode() + b"\n" + rest)
    logs.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(DATA / "expected" / f"{slug}.log-on-disk.md", logs / f"{slug}.md")
    return target


def expected_status(slug: str) -> dict:
    return without_paths(json.loads((DATA / "expected" / f"{slug}.status.json").read_text()))


def _journal(folder: Path) -> tuple[dict, list[bytes]]:
    raw = (folder / "events" / "journal.jsonl").read_bytes()
    lines = raw.split(b"\n")
    return json.loads(lines[0]), [line + b"\n" for line in lines[1:-1]]


def test_a_format_2_save_is_read_as_it_is_without_the_lock_and_written_as_format_3_with_it() -> None:
    folder = install("long-run")
    sealed = (folder / "events" / "000000.json").read_bytes()
    header, lines = _journal(folder)
    assert header["_format"]["version"] == 2 and not any(journal.checked(line) for line in lines)
    listed = cli_json("sessions")
    assert [r["events"] for r in listed if r["session"] == "long-run"] == [567]
    assert _journal(folder) == (header, lines)  # the listing reads, never writes
    contains(without_paths(cli_json("--session", "long-run", "status")), expected_status("long-run"))
    upgraded, checked = _journal(folder)
    assert upgraded["_format"]["version"] == 3 and upgraded["base"] == 256
    assert all(journal.checked(line) for line in checked) and len(checked) == len(lines)
    assert [journal.decode(folder, line) for line in checked] == [json.loads(line) for line in lines]
    assert len(upgraded["hashes"]) == len(upgraded["mtimes"]) == 1
    assert (folder / "events" / "000000.json").read_bytes() == sealed  # the sealed file as it was


def test_a_format_2_save_opens_with_the_same_state_and_log() -> None:
    install("long-run")
    home = Path(os.environ["COMPANION_HOME"])
    exported = cli("--session", "long-run", "export", "-")
    assert exported.exit_code == 0, exported.stderr
    assert shape(exported.stdout) == shape((DATA / "expected" / "long-run.md").read_text())
    logs = Path(os.environ["COMPANION_LOGS"])
    assert (logs / "long-run.md").read_text() == exported.stdout == regenerated_log(home, "long-run")


def test_a_format_2_save_plays_on_undoes_and_redoes() -> None:
    """The freeform save kept two undone actions: redo brings them back, and play goes on."""
    install("long-run")
    home = Path(os.environ["COMPANION_HOME"])
    assert cli_json("--session", "long-run", "redo")["redone"]["t"] == "xp"
    assert cli_json("--session", "long-run", "redo")["redone"]["text"] == "the last thing"
    assert cli("--session", "long-run", "redo").exit_code == 1  # nothing more to redo
    assert cli("--session", "long-run", "roll", "2d6", "--got", "3,4").exit_code == 0
    for _ in range(3):
        assert cli("--session", "long-run", "undo").exit_code == 0
    assert open_session(home, "long-run").count == 567
    contains(without_paths(cli_json("--session", "long-run", "status")), expected_status("long-run"))
    logs = Path(os.environ["COMPANION_LOGS"])
    assert (logs / "long-run.md").read_text() == regenerated_log(home, "long-run")


def test_a_format_2_guided_game_goes_on_where_it_stopped() -> None:
    install("tower")
    before = cli_json("--session", "tower", "next")
    assert before["events"] == 40 and before["request"]
    request = before["request"]
    answer = {"text": "Aria", "choice": "=" + (request.get("options") or [{"value": ""}])[0]["value"]}.get(
        request["type"], "roll"
    )
    assert cli_json("--session", "tower", "next", answer)["events"] == 41
    home, logs = Path(os.environ["COMPANION_HOME"]), Path(os.environ["COMPANION_LOGS"])
    assert (logs / "tower.md").read_text() == regenerated_log(home, "tower")


@pytest.mark.parametrize("damage", ["not JSON", "another id"])
def test_a_damaged_format_2_line_is_found_when_it_is_written_again(damage: str) -> None:
    """A format-2 line has no check: a line that is no event is found when the journal is written again
    as format 3 (its first locked open), and the repair keeps the events before it."""
    folder = install("long-run")
    header, lines = _journal(folder)
    if damage == "not JSON":
        lines[9] = lines[9][:20] + b"}" + lines[9][21:]
    else:
        lines[9] = lines[9].replace(b'"id":266,', b'"id":267,', 1)
    (folder / "events" / "journal.jsonl").write_bytes(json.dumps(header).encode() + b"\n" + b"".join(lines))
    refused = cli("--session", "long-run", "status")
    assert refused.exit_code == 1 and "keep the 265 events before the damage" in refused.stderr, refused.stderr
    assert cli("sessions", "repair", "long-run", "--yes").exit_code == 0
    assert cli_json("--session", "long-run", "status")["events"] == 265
