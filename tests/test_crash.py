"""Saves survive kill -9 and Ctrl-C at any moment: every save loads, and no reported action is missing.

A child process (forked, so it starts in milliseconds) records actions in a loop and reports each
one on a pipe only after ``Session.record`` returned. The parent stops it at a random moment (SIGKILL
for most, SIGINT for every fourth, as Ctrl-C would), then checks the save from scratch. 120 stops.
"""

from __future__ import annotations

import os
import random
import signal
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import cli, open_session, regenerated_log

pytestmark = pytest.mark.skipif(sys.platform == "win32" or not hasattr(os, "fork"), reason="needs fork")

KILLS = 120


def _quiet_child() -> None:
    """A forked child shares pytest's output streams; point them at /dev/null so nothing it might
    print can block on (or mix into) the parent's output."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)


def _writer(home: Path, fd: int, start: int) -> None:
    """The child: record notes and rolls forever, reporting each id once it is done."""
    from companion.dice.expr import parse
    from companion.session.api import roll_event
    from companion.session.service import Session
    from companion.store.sessions import Store

    i = start
    while True:
        files = Store(home).open("crash")
        with files.locked(timeout=30):
            session = Session.open(files)
            if i % 3 == 0:
                roll = session.dice().roll(parse("2d6"))
                event = roll_event(roll, f"roll {i}")
            else:
                event = {"t": "note", "text": f"action {i}"}
            eid = session.record(event)
        os.write(fd, f"{eid}\n".encode())
        i += 1


def test_kill_9_and_ctrl_c_never_lose_a_reported_action() -> None:
    assert cli("new", "freeform", "--name", "crash", "--seed", "5").exit_code == 0
    home = Path(os.environ["COMPANION_HOME"])
    rng = random.Random(1234)
    reported: set[int] = set()
    expected = 0
    for n in range(KILLS):
        read_fd, write_fd = os.pipe()
        # SIGINT stays blocked until the child is inside its try: a Ctrl-C that lands in between
        # must not unwind the child into pytest.
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child never returns
            try:
                _quiet_child()
                os.close(read_fd)
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
                _writer(home, write_fd, n * 1000)
            finally:
                os._exit(0)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        os.close(write_fd)
        pipe = os.fdopen(read_fd)
        # Let the child finish 0-2 actions (so kills land at every stage of a write however loaded
        # the machine is), then stop it a random moment into the next one.
        wait_for = n % 3
        expected += wait_for
        for _ in range(wait_for):
            reported.add(int(pipe.readline()))
        time.sleep(rng.uniform(0.0, 0.03))
        os.kill(pid, signal.SIGINT if n % 4 == 3 else signal.SIGKILL)
        os.waitpid(pid, 0)
        reported.update(int(line) for line in pipe.read().split())
        pipe.close()
        session = open_session(home, "crash")  # must load, whatever moment the kill hit
        ids = {e["id"] for e in session.files.read_events()}
        missing = reported - ids
        assert not missing, f"after kill {n}: actions {sorted(missing)} were reported done but are gone"
        assert session.count == len(ids)
    assert len(reported) >= expected  # the kills did land after completed actions
    final = open_session(home, "crash")
    assert final.log_text() == regenerated_log(home, "crash")


def test_the_log_on_disk_matches_the_events_after_kills() -> None:
    """The markdown file is rewritten before the snapshot, so after any crash and one reopen the file
    on disk equals the log regenerated from the events."""
    assert cli("new", "freeform", "--name", "crash2", "--seed", "6").exit_code == 0
    home = Path(os.environ["COMPANION_HOME"])
    logs = Path(os.environ["COMPANION_LOGS"])
    rng = random.Random(99)
    for n in range(20):
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child never returns
            try:
                _quiet_child()
                _writer_named(home, "crash2", n * 1000)
            finally:
                os._exit(0)
        time.sleep(rng.uniform(0.0, 0.05))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        session = open_session(home, "crash2")
        assert (logs / "crash2.md").read_text() == session.log_text() == regenerated_log(home, "crash2")


def _writer_named(home: Path, name: str, start: int) -> None:
    from companion.session.service import Session
    from companion.store.sessions import Store

    i = start
    while True:
        files = Store(home).open(name)
        with files.locked(timeout=30):
            Session.open(files).record({"t": "note", "text": f"action {i}"})
        i += 1
