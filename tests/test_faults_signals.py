"""A signal's line tells the truth about the action (#36 item 7): SIGTERM sent at every write, fsync,
truncate, rename, unlink, open for writing and mkdir of ``note``, ``undo``, ``new`` and ``sessions
rename``, at 10 events and at 10,000.

The line says "ended by SIGTERM: the note was saved (#N)" exactly when the action's journal line was
made durable (then the store is as after the command), and "... was not saved" otherwise (the store as
before, and the command run again does it once): a script that retries on 143 never doubles it.
"""

from __future__ import annotations

import re
import shutil
import sys

import pytest

from tests import faults
from tests.fault_store import SIZES, copy, copy_for_run, logs_of, regenerated, retarget, what

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc/self/fd, forks")

COMMANDS = {
    "note": (["note", "a note"], "the note"),
    "undo": (["undo"], "the undo"),
    "new": (["new", "freeform", "--name", "fresh", "--seed", "1"], "the new session"),
    "rename": (["sessions", "rename", "f", "Renamed"], "the rename"),
}
LINE = re.compile(r"^companion: ended by SIGTERM: (?P<what>.+) was (?P<not>not )?saved(?: \(#(?P<n>\d+)\))?$")


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_signal_anywhere_says_whether_the_action_was_saved(command, size, fault_templates, tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764633600")
    args, noun = COMMANDS[command]
    base = tmp_path / "base"
    home, _ = copy(fault_templates[size], base)
    before = (what(home), regenerated(home))
    shutil.copytree(base, tmp_path / "clean")
    retarget(base, tmp_path / "clean")
    kinds = faults.KINDS + faults.MAKING
    clean = faults.run(args, tmp_path / "clean" / "home", tmp_path / "clean" / "logs", kinds=kinds)
    assert clean.code == 0, clean.err
    after = (what(tmp_path / "clean" / "home"), regenerated(tmp_path / "clean" / "home"))
    counts = {"saved": 0, "not saved": 0}
    for kind, count in sorted(clean.calls.items()):
        for at in range(1, count + 1):
            where = f"{' '.join(args)}: SIGTERM at {kind} #{at}"
            home, logs = copy_for_run(base, tmp_path / "run")
            run = faults.run(args, home, logs, faults.Fault(kind, at, "SIGTERM"), kinds=kinds)
            lines = [line for line in run.err.splitlines() if line.strip()]
            assert run.code == 143, f"{where}: exit {run.code}\n{run.err}"
            assert "Traceback" not in run.err and len(lines) == 1, f"{where}:\n{run.err}"
            said = LINE.match(lines[0])
            assert said is not None and said["what"] == noun, f"{where}: {lines[0]}"
            now = what(home)
            if said["not"]:
                counts["not saved"] += 1
                assert now == before[0], f"{where}: said not saved, but the store changed"
                again = faults.run(args, home, logs)
                assert again.code == 0 and what(home) == after[0], f"{where}: run again: {again.err}"
            else:
                counts["saved"] += 1
                assert now == after[0], f"{where}: said saved, but the store is not as after"
                if command in ("note", "undo"):
                    assert said["n"] is not None, lines[0]
            assert logs_of(home) == (before[1] if what(home) == before[0] else after[1]), where
    assert counts["saved"] and counts["not saved"], counts
