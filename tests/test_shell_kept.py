"""The shell keeps its session in memory: a command does not read or fold the session again, and what
it leaves on disk is exactly what one-shot commands would have left."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.helpers import cli, cli_json, open_session, regenerated_log


def _count_opens(monkeypatch) -> list[int]:
    from companion.session.service import Session

    opens: list[int] = []
    real = Session.open.__func__

    def counting(cls, files, **kwargs):
        opens.append(1)
        return real(cls, files, **kwargs)

    monkeypatch.setattr(Session, "open", classmethod(counting))
    return opens


def test_a_shell_opens_its_session_once_for_many_commands(monkeypatch) -> None:
    assert cli("new", "freeform", "--name", "kept", "--seed", "2").exit_code == 0
    assert cli("tally", "add", "Aria", "40").exit_code == 0
    opens = _count_opens(monkeypatch)
    lines = ["roll 2d6", "tally hit Aria", "note a note", "status", "undo", "redo", "roll DC --got 4"] * 5
    result = cli("shell", input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.stderr
    assert len(opens) <= 2, f"the shell read its session {len(opens)} times for {len(lines)} lines"
    home, logs = Path(os.environ["COMPANION_HOME"]), Path(os.environ["COMPANION_LOGS"])
    session = open_session(home, "kept")
    assert session.count == 1 + 5 * 4  # the tally, then five rounds of roll, hit, note, roll (an undo redone)
    assert (logs / "kept.md").read_text() == regenerated_log(home, "kept")


def test_the_shell_and_one_shot_commands_leave_the_same_session(tmp_path) -> None:
    lines = ["tally add Aria 9", "roll 2d6 --got 3,4", "tally hit Aria 2", "note hello", "undo", "room 4 Mob 1"]
    lines += ["roll DC --got 2", "amend --reason misread --got 5 --yes", "tally heal Aria", "floor 2"]
    home, logs = Path(os.environ["COMPANION_HOME"]), Path(os.environ["COMPANION_LOGS"])
    env = {"SOURCE_DATE_EPOCH": "1764633600"}
    assert cli("new", "freeform", "--name", "one", "--seed", "5", env=env).exit_code == 0
    for line in lines:
        assert cli("--session", "one", *line.split(), env=env).exit_code == 0, line
    assert cli("new", "freeform", "--name", "two", "--seed", "5", env=env).exit_code == 0
    result = cli("shell", "two", input="\n".join(lines) + "\n", env=env)
    assert result.exit_code == 0, result.stderr
    one, two = (cli_json("--session", name, "status") for name in ("one", "two"))
    for data in (one, two):
        data.pop("session")
        data["meta"].pop("name"), data["meta"].pop("log")
        data["state"]["meta"] = {}
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)
    body = [(logs / f"{n}.md").read_text().split("\n# ", 1)[1].split("\n", 1)[1] for n in ("one", "two")]
    assert body[0] == body[1]
    assert (logs / "two.md").read_text() == regenerated_log(home, "two")


def test_the_pending_step_of_a_game_not_begun_is_found_without_replaying_the_session(monkeypatch) -> None:
    """The shell shows the step a guided game waits for after every command; before the game's first
    answer it looks on a copy of the state, so no command folds the session again (and the session's
    own engine is not started by a look: its events would not have started it)."""
    from companion.session.service import Session

    assert cli("new", "inverted-tower", "--name", "look", "--seed", "4").exit_code == 0
    rebuilds: list[int] = []
    real = Session.rebuild

    def counting(self, events=None):
        rebuilds.append(self.count)
        return real(self, events)

    monkeypatch.setattr(Session, "rebuild", counting)
    lines = ["note by the stairs", "roll 2d6 --got 3,4", "note a second note", "status"] * 5
    result = cli("shell", input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.stderr
    assert len(rebuilds) <= 1, f"the session was folded again {len(rebuilds)} times for {len(lines)} lines"
    home = Path(os.environ["COMPANION_HOME"])
    assert open_session(home, "look").count == 15
    assert cli_json("next")["request"] is not None  # the game still waits for its first step
