"""companion sessions rm / restore / rename: nothing is lost, the trash is in the data folder."""

from __future__ import annotations

import json

from tests.helpers import cli, open_session


def test_rm_moves_to_the_trash_and_restore_brings_it_back(isolated_home):
    assert cli("new", "inverted-tower", "--name", "keep").exit_code == 0
    assert cli("next", "Aria").exit_code == 0
    result = cli("sessions", "rm", "keep")  # no terminal, no --yes: refused, nothing moved
    assert result.exit_code == 2 and "--yes" in result.stderr
    assert (isolated_home / "sessions" / "keep").is_dir()
    result = cli("sessions", "rm", "keep", "--yes")
    assert result.exit_code == 0, result.stderr
    assert "companion sessions restore keep" in result.stdout
    assert not (isolated_home / "sessions" / "keep").exists()
    assert (isolated_home / "trash" / "keep" / "session.json").exists()
    assert json.loads(cli("sessions", "--json").stdout) == []
    assert cli("status").exit_code == 1  # it was current: no session is active now
    result = cli("sessions", "restore", "keep")
    assert result.exit_code == 0, result.stderr
    assert cli("use", "keep").exit_code == 0
    assert open_session(isolated_home, "keep", engine=True).state.hero == "Aria"


def test_rm_twice_keeps_both_in_the_trash(isolated_home):
    for _ in range(2):
        assert cli("new", "freeform", "--name", "same").exit_code == 0
        assert cli("sessions", "rm", "same", "--yes").exit_code == 0
    assert sorted(p.name for p in (isolated_home / "trash").iterdir()) == ["same", "same.2"]
    assert cli("sessions", "restore", "same").exit_code == 0
    assert cli("sessions", "restore", "same").exit_code == 1  # one of that name is back already


def test_rename_keeps_the_events_and_the_current_mark(isolated_home):
    assert cli("new", "freeform", "--name", "old one").exit_code == 0
    assert cli("hp", "=5", "--max", "5").exit_code == 0
    result = cli("sessions", "rename", "old-one", "The long night")
    assert result.exit_code == 0, result.stderr
    rows = json.loads(cli("sessions", "--json").stdout)
    assert [(r["session"], r["name"], r["current"]) for r in rows] == [("the-long-night", "The long night", True)]
    assert json.loads(cli("hp", "--json").stdout)["value"] == 5
    assert cli("sessions", "rename", "nope", "x").exit_code == 2


def test_bad_names_are_bad_input(isolated_home):
    assert cli("sessions", "rm", "ghost", "--yes").exit_code == 2
    assert cli("sessions", "restore", "ghost").exit_code == 2
