"""What a player meets with a damaged session, on the screen (#22 items 3, 5): ``companion status`` on a
session whose newest events file is missing, then ``companion sessions repair NAME`` (answered at its
question), then ``status`` again, each in a pseudo-terminal rendered by pyte at 80 and 120 columns: the
whole message is there, no word is broken across two lines and nothing is cut at the edge."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

pytest.importorskip("pexpect")
pytest.importorskip("pyte")

from tests.terminal import TRACEBACK, Terminal, broken_words, edge_problems, terminal_env

pytestmark = pytest.mark.e2e


def _played(env: dict[str, str], events: int) -> Path:
    """A freeform session ``dmg`` of ``events`` rolls, written through the store at once (a shell would
    take a while), its log written; returns its folder."""
    from companion.dice.expr import parse
    from companion.session.fold import roll_event
    from companion.session.service import Session
    from companion.store import bulk
    from companion.store.sessions import Store

    store = Store(Path(env["COMPANION_HOME"]))
    session = Session.create(
        store, "dmg", "freeform", seed=4, physical=False, variants=[], logs_dir=Path(env["COMPANION_LOGS"])
    )
    dice = session.dice()
    files = store.open("dmg")
    with files.locked():
        bulk.write_events(files, [roll_event(dice.roll(parse("2d6")), None) for _ in range(events)])
        Session.open(files)
    store.set_current("dmg")
    return files.dir


def _read(term: Terminal) -> str:
    """Every line the terminal showed, checked to fit; the words as one line (wrapping undone)."""
    lines = term.all_lines()
    screen = "\n".join(line.rstrip() for line in lines)
    assert not TRACEBACK.search(term.raw), screen
    assert not broken_words(lines, term.columns), screen
    assert not edge_problems(lines, term.columns), "\n\n".join(edge_problems(lines, term.columns))
    return re.sub(r"\s+", " ", screen).strip()


@pytest.mark.parametrize("columns", [80, 120])
def test_a_damaged_session_status_repair_and_status_again_fit_the_screen(columns: int) -> None:
    # A short folder, as a player's own data folder is (~/.local/share/companion/...): pytest's own
    # temporary paths are longer than 80 columns, and a path is never broken to fit.
    with tempfile.TemporaryDirectory(prefix="dmg", dir="/tmp") as tmp:
        env = terminal_env(Path(tmp), columns, 40)
        folder = _played(env, 300)  # one sealed events file of 256, then the journal with 44
        (folder / "events" / "journal.jsonl").unlink()

        term = Terminal(env, "status", columns=columns, lines=40)
        assert term.finish() == 1
        said = _read(term)
        assert "session 'dmg' cannot be opened: events 1-300 are missing:" in said, said
        assert "its newest events file" in said and "journal.jsonl is missing" in said, said
        assert "its log was written after event 300" in said, said
        assert "put the file back (from a backup) and run the command again;" in said, said
        assert "before the damage with: companion sessions repair dmg" in said, said

        term = Terminal(env, "sessions", "repair", "dmg", columns=columns, lines=40)
        term.wait_for("[y/N]")
        term.send("y\r")
        assert term.finish() == 0
        said = _read(term)
        assert "Session dmg: " in said and "journal.jsonl is missing or empty." in said, said
        assert "events are intact; repairing keeps them and moves the rest aside." in said, said
        assert "Kept 0 events; events 1-300 could not be kept: with the damaged files, what was made" in said, said
        assert (folder / "damaged-1").is_dir()

        term = Terminal(env, "status", columns=columns, lines=40)
        assert term.finish() == 0
        said = _read(term)
        assert "dmg" in said and "cannot be opened" not in said, said
