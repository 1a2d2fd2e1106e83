"""A save that is not what companion wrote (#22 item 14): a file of the wrong shape, nested too deep, a
link to /dev/zero or a FIFO in place of a file. Each is one line and exit 1, in a few seconds at most
(a FIFO was a hang, /dev/zero filled the memory); nothing is written over it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import cli

COMPANION = [sys.executable, "-m", "companion"]


def _session(home: Path) -> Path:
    assert cli("new", "freeform", "--name", "t").exit_code == 0
    assert cli("roll", "2d6", "--got", "3,4").exit_code == 0
    return home / "sessions" / "t"


def _edit_json(path: Path, change) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def _first_events_file(folder: Path) -> Path:
    """The session's events file: a short session's events are all in its journal (save format 2)."""
    sealed = sorted((folder / "events").glob("*.json"))
    return sealed[0] if sealed else folder / "events" / "journal.jsonl"


def _list_for_events(folder: Path) -> None:
    """The events file's table (a sealed file's) or header (the journal's) made a list."""
    path = _first_events_file(folder)
    if path.suffix == ".json":
        _edit_json(path, lambda d: d.update(events=[1, 2]))
        return
    rest = path.read_text(encoding="utf-8").split("\n", 1)[1]
    path.write_text("[1, 2]\n" + rest, encoding="utf-8")


def _fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def _zero(path: Path) -> None:
    path.unlink()
    path.symlink_to("/dev/zero")


DAMAGE = {
    "a FIFO for the events": lambda s: _fifo(_first_events_file(s)),
    "a FIFO for the meta": lambda s: _fifo(s / "session.json"),
    "/dev/zero for the meta": lambda s: _zero(s / "session.json"),
    "/dev/zero for the events": lambda s: _zero(_first_events_file(s)),
    "nested 100,000 deep": lambda s: (s / "session.json").write_text("[" * 100_000 + "]" * 100_000),
    "a list for the format marker": lambda s: (s / "session.json").write_text('{"_format": [], "meta": 3}'),
    "a list for the meta": lambda s: _edit_json(s / "session.json", lambda d: d["meta"]["1"].update(meta=[])),
    "a list for the events": _list_for_events,
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_save_that_companion_did_not_write_is_one_line(damage, isolated_home):
    folder = _session(isolated_home)
    DAMAGE[damage](folder)
    before = sorted((str(p), p.is_symlink()) for p in folder.rglob("*"))
    env = {**os.environ, "COMPANION_LOCK_WAIT": "0"}
    # The first as a process of its own, so a hang (a FIFO read) fails here instead of stopping the
    # suite; once that holds, the others run in this process.
    try:
        first = subprocess.run([*COMPANION, "status"], capture_output=True, text=True, timeout=60, env=env)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{damage}: companion status hung")
    results = [(["status"], first.returncode, first.stdout, first.stderr)]
    for args in (["roll", "2d6", "--got", "1,2"], ["sessions"]):
        done = cli(*args)
        assert done.exception is None or isinstance(done.exception, SystemExit), (args, done.exception)
        results.append((args, done.exit_code, done.stdout, done.stderr))
    for args, code, out, err in results:
        assert "Traceback" not in err and "unexpected error" not in err, (args, err)
        if args == ["sessions"]:  # the list goes on; the session is marked
            assert code == 0, err
            continue
        assert code == 1, (args, code, err)
        assert out == ""
        lines = err.splitlines()
        assert 1 <= len(lines) <= 2 and lines[0].startswith("companion: "), err
    after = sorted((str(p), p.is_symlink()) for p in folder.rglob("*") if not p.name.endswith(".damaged"))
    assert [p for p in after if not p[0].endswith((".lock", ".owner"))] == [
        p for p in before if not p[0].endswith((".lock", ".owner"))
    ]  # nothing written over the damage, nothing added but a copy of it
