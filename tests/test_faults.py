"""Fault injection (#22): every write, fsync, truncate, rename and unlink of the store's commands, at 10
events and at 10,000, killed there or failed there (ENOSPC with the disk full from then on, or one EIO).

For each command and each of its calls that touch the data or the logs folder (counted by a run
without a fault, see tests/faults.py), a copy of the session is run with that call killed or failed.
Then, with the disk well again:

- the session opens, and holds exactly the events (and the redo list) of before the command or of
  after it, nothing else;
- what was said is true: exit 0 means it is done; an error means it is not done (and says so);
- following the hint of an error (running the command again) does it once;
- the log file is the log regenerated from the events (the state before or after).

The 10,000-event session is written once per run through the store (companion.store.bulk), not by
10,000 commands.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from tests import faults
from tests.fault_store import SIZES, copy, link_or_copy, logs_of, regenerated, retarget, what

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc/self/fd, forks")

MODES = ("kill", "full", "EIO")
#: What a hint that asks for the command again says (never after it was done).
ASKS = ("run the command again", "undo again", "redo again", "try again")


#: The commands, each with what to do to the session first (a redo needs an undo before it).
COMMANDS: dict[str, tuple[list[str], list[str] | None]] = {
    "roll": (["roll", "2d6", "--got", "3,4"], None),
    "tally": (["tally", "hit", "Hero"], None),
    "note": (["note", "a note"], None),
    "undo": (["undo"], None),
    "redo": (["redo"], ["undo"]),
    "amend": (["amend", "--reason", "misread", "--got", "5", "--yes"], None),
    "new": (["new", "freeform", "--name", "fresh", "--seed", "1"], None),
    "rename": (["sessions", "rename", "f", "Renamed"], None),
}


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_fault_point_keeps_the_store_true(
    command: str, size: str, fault_templates, tmp_path, monkeypatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764633600")
    args, prepare = COMMANDS[command]
    base = tmp_path / "base"
    home, logs = copy(fault_templates[size], base)
    if prepare:
        assert faults.run(prepare, home, logs).code == 0
    before = (what(home), regenerated(home))
    assert logs_of(home) == before[1]
    shutil.copytree(base, tmp_path / "clean")
    retarget(base, tmp_path / "clean")
    clean = faults.run(args, tmp_path / "clean" / "home", tmp_path / "clean" / "logs")
    assert clean.code == 0, clean.err
    after = (what(tmp_path / "clean" / "home"), regenerated(tmp_path / "clean" / "home"))
    assert after[0] != before[0]
    assert logs_of(tmp_path / "clean" / "home") == after[1]
    tried = 0
    for kind, count in sorted(clean.calls.items()):
        for at in range(1, count + 1):
            for mode in MODES:
                tried += 1
                _one(args, base, tmp_path / "run", faults.Fault(kind, at, mode), before, after)
    assert tried >= 10, clean.calls


def _one(args: list[str], base: Path, dest: Path, fault: faults.Fault, before: tuple, after: tuple) -> None:
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(base, dest, copy_function=link_or_copy)
    home, logs = dest / "home", dest / "logs"
    retarget(base, dest)
    where = f"{' '.join(args)} with {fault.kind} #{fault.at} {fault.mode}"
    run = faults.run(args, home, logs, fault)
    assert "Traceback" not in run.err and run.code in (0, 1, -9), f"{where}: exit {run.code}\n{run.err}"
    now = (what(home), None)
    if run.killed:
        assert now[0] in (before[0], after[0]), f"{where}: killed, the store is neither as before nor as after"
    elif run.code == 0:
        assert now[0] == after[0], f"{where}: exit 0 but not done\n{run.err}"
        assert not any(a in run.err for a in ASKS), f"{where}: done, yet the player is asked to do it again:\n{run.err}"
    elif "could not be made the current one" in run.err:  # made or renamed: only the current mark is not
        assert now[0] == after[0], f"{where}: said it is done (not current), but it is not\n{run.err}"
        assert "companion use" in run.err and not any(a in run.err for a in ASKS), run.err
    else:
        assert now[0] == before[0], f"{where}: it failed ({run.err.strip()}) but the store changed"
        assert any(w in run.err for w in ("not recorded", "nothing was", "is not", "could not")), run.err
        again = faults.run(args, home, logs)  # the hint: free some space (done: the fault is gone), run again
        assert again.code == 0, f"{where}: following the hint failed: {again.err}"
        now = (what(home), None)
        assert now[0] == after[0], f"{where}: following the hint did not do it exactly once"
    expected = before[1] if now[0] == before[0] else after[1]
    assert logs_of(home) == expected, f"{where}: the log is not the log regenerated from the events"
