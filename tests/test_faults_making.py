"""Fault injection where files and folders are made (#36 item 14): every ``open`` for writing and every
``mkdir`` in the data or logs folder of ``new``, ``note``, ``undo`` and ``sessions rename``, at 10 events
and at 10,000, failed with ENOSPC (the disk full from then on) or one EIO.

Each gives its designed line (never "unexpected error"): a full disk making ``new``'s ``.new-X/.lock``
or its ``events`` folder says no session was made; an I/O error opening a session's ``.lock`` says
nothing was done, and the store is unchanged; the command run again (the hint) does it once.
"""

from __future__ import annotations

import shutil
import sys

import pytest

from tests import faults
from tests.fault_store import SIZES, copy, logs_of, one_fault, regenerated, retarget, what

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc/self/fd, forks")

COMMANDS = {
    "new": ["new", "freeform", "--name", "fresh", "--seed", "1"],
    "note": ["note", "a note"],
    "undo": ["undo"],
    "rename": ["sessions", "rename", "f", "Renamed"],
}


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_file_and_folder_made_fails_with_its_designed_line(command, size, fault_templates, tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764633600")
    args = COMMANDS[command]
    base = tmp_path / "base"
    home, _ = copy(fault_templates[size], base)
    before = (what(home), regenerated(home))
    shutil.copytree(base, tmp_path / "clean")
    retarget(base, tmp_path / "clean")
    clean = faults.run(args, tmp_path / "clean" / "home", tmp_path / "clean" / "logs", kinds=faults.MAKING)
    assert clean.code == 0, clean.err
    after = (what(tmp_path / "clean" / "home"), regenerated(tmp_path / "clean" / "home"))
    assert logs_of(tmp_path / "clean" / "home") == after[1]
    said = set()
    for kind, count in sorted(clean.calls.items()):
        for at in range(1, count + 1):
            for mode in ("full", "EIO"):
                run = one_fault(
                    args, base, tmp_path / "run", faults.Fault(kind, at, mode), before, after, faults.MAKING
                )
                said.add(run.err.strip().splitlines()[0] if run.code else "")
    assert clean.calls.get("open", 0) >= 2, clean.calls
    if command == "new":  # the folders new makes: its own, and its events folder
        assert clean.calls.get("mkdir", 0) >= 2, clean.calls
        assert any("no session was made" in line and ".lock" in line for line in said), said
        assert any("no session was made" in line and "events" in line for line in said), said
    else:
        assert any("nothing was done (could not open the session's lock" in line for line in said), said
