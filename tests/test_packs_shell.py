"""Table packs in ``companion shell``: ``DR room`` and ``check swim`` run the same roll command."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.shell_term import COMPANION, CTRL_D, ENTER, Term

pytestmark = pytest.mark.e2e

CRYPT = str(Path(__file__).resolve().parent.parent / "examples" / "tables" / "sunken-crypt.toml")


def companion(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([COMPANION, *args], capture_output=True, text=True, check=True, timeout=120)


def test_a_chain_a_check_an_effect_and_undo_in_the_shell():
    companion("new", "freeform", "--tables", CRYPT)
    t = Term("shell")
    t.wait_for("freeform-1>")
    t.line("room 2 A flooded crypt" + ENTER, "Room 2")
    t.line("DR room --got 6/4" + ENTER, "gold +3 → Gold: 3")  # a chain and an effect
    t.line("odds DR monster" + ENTER, "5/9")
    t.line("check swim --got 1" + ENTER, "hp -1 → HP: 9/10")  # a check, its fail effect
    t.line("u" + ENTER, "Undone: Swim a flooded passage")
    t.line("tables" + ENTER, "sunken-crypt")
    t.send(CTRL_D)
    assert t.close() == 0
    assert "Traceback" not in t.plain()
    counters = json.loads(companion("status", "--json").stdout)["state"]["trackers"]["counters"]
    assert counters["gold"]["value"] == 3 and counters["hp"]["value"] == 10
    log = companion("log").stdout
    room = log[log.index("- Room 2: A flooded crypt") :]
    assert "  - d: `DR room` → `[6]` → **6: An alcove: roll on \\[treasure\\]** · physical" in room
    assert "  - d: `DR treasure` → `[4]` → **4: A silver locket** · physical" in room
    assert "swim" not in room
