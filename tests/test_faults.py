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

import pytest

from tests import faults
from tests.fault_store import SIZES, copy, logs_of, one_fault, regenerated, retarget, what

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc/self/fd, forks")

MODES = ("kill", "full", "EIO")


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
                one_fault(args, base, tmp_path / "run", faults.Fault(kind, at, mode), before, after)
    assert tried >= 10, clean.calls
