"""``companion amend`` finds the roll: it lists the physical rolls (the same numbers as ``log --rolls``),
shows the change before recording it, and refuses in the player's words."""

from __future__ import annotations

from tests.helpers import cli, cli_json


def _freeform() -> None:
    assert cli("new", "freeform", "--name", "s", "--seed", "42").exit_code == 0
    assert cli("roll", "DC", "--got", "2", "--why", "trap").exit_code == 0
    assert cli("roll", "2d6").exit_code == 0  # virtual: not listed, cannot be amended
    assert cli("roll", "2d6", "--got", "3,4", "--why", "wandering monster").exit_code == 0


def test_amend_without_roll_lists_the_physical_rolls_with_log_rolls_numbers() -> None:
    _freeform()
    listed = cli("amend")
    assert listed.exit_code == 0, listed.stderr
    assert "#1 trap: DC [2] → fail" in listed.stdout
    assert "#3 wandering monster: 2d6 [3] [4] → 7" in listed.stdout
    assert "#2" not in listed.stdout
    rolls = cli("log", "--rolls")
    assert rolls.exit_code == 0
    assert rolls.stdout.splitlines() == ["#1 trap: DC [2] → fail", "#3 wandering monster: 2d6 [3] [4] → 7"]
    data = cli_json("amend", "--json")
    assert [(r["n"], r["why"]) for r in data["rolls"]] == [(1, "trap"), (3, "wandering monster")]
    assert cli("amend").stdout == listed.stdout  # listing records nothing


def test_amend_shows_the_change_then_records_it_without_a_terminal() -> None:
    _freeform()
    result = cli("amend", "--roll", "1", "--got", "6", "--reason", "misread the die")
    assert result.exit_code == 0, result.stderr
    assert "trap DC [2] → [6]: pass instead of fail" in result.stdout
    assert "Roll #1 amended (misread the die)." in result.stdout
    assert "#1 trap: DC [6] → pass" in cli("log", "--rolls").stdout
    data = cli_json("amend", "--roll", "3", "--got", "6,6", "--reason", "x", "--yes")
    assert data["amended"] == 3 and data["change"] == "wandering monster 2d6 [3] [4] → [6] [6]: 12 instead of 7"


def test_amend_still_needs_a_reason_to_record() -> None:
    _freeform()
    result = cli("amend", "--roll", "1", "--got", "6")
    assert result.exit_code == 2 and "--reason" in result.stderr
    assert "#1 trap: DC [2] → fail" in cli("log", "--rolls").stdout


def test_a_refusal_names_the_roll_in_the_players_words() -> None:
    assert cli("new", "tower", "--name", "t", "--seed", "1", "--physical").exit_code == 0
    for answer in ("Aria", "1", "1", "3"):  # hero, STR, room roll [1] → encounter, 2 skeletons
        assert cli("next", answer).exit_code == 0
    result = cli("amend", "--roll", "3", "--got", "6", "--reason", "misread")
    assert result.exit_code == 1
    err = result.stderr
    assert "cannot amend roll #3 (New room: an event on a pass, an encounter on a fail: DC [1])" in err
    assert "would have gone another way" in err and "undo" in err
    assert "room.event" not in err and "encounter.count" not in err and "event 3" not in err
    # a change that keeps the same path is recorded, and shown first
    ok = cli("amend", "--roll", "4", "--got", "6", "--reason", "misread")
    assert ok.exit_code == 0, ok.stderr
    assert "[3] → [6]: option 3: 3 instead of option 2: 2" in ok.stdout


def test_at_a_terminal_amend_asks_first_and_no_changes_nothing() -> None:
    import os
    import shutil
    import sys
    from pathlib import Path

    import pytest

    pexpect = pytest.importorskip("pexpect")
    _freeform()
    exe = Path(sys.executable).parent / "companion"
    env = dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", NO_COLOR="1", TERM="xterm")
    args = ["amend", "--roll", "1", "--got", "6", "--reason", "misread"]
    for answer, after in (("n", "#1 trap: DC [2] → fail"), ("y", "#1 trap: DC [6] → pass")):
        child = pexpect.spawn(
            str(exe) if exe.exists() else shutil.which("companion") or "companion",
            args,
            env=env,
            dimensions=(24, 80),
            encoding="utf-8",
            timeout=30,
        )
        child.expect("trap DC \\[2\\] → \\[6\\]: pass instead of fail")
        child.expect("Record this amendment\\?")
        child.sendline(answer)
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        assert after in cli("log", "--rolls").stdout
