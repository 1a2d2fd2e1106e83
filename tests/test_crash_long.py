"""Crash tests at 10,000 events (#21): kill -9 (and Ctrl-C) at random moments while actions are appended.

The session is written once through the store (companion.store.bulk) with its journal a few events
short of sealing, so the kills also land while events are sealed into a new file and while checkpoints
are written. A forked child records actions (opening the session for each, as one-shot commands do,
or keeping it open, as the shell does) and reports each one after ``record`` returned. After every
stop: the session opens, every reported action is there, and the log file on disk is exactly the log
regenerated from the events.
"""

from __future__ import annotations

import os
import random
import signal
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import open_session, regenerated_log
from tests.test_crash import _quiet_child, _read_ids, _reap

pytestmark = pytest.mark.skipif(sys.platform == "win32" or not hasattr(os, "fork"), reason="needs fork")

KILLS = 24
#: 38 sealed files of 256 and 500 events in the journal: sealing comes 12 events in.
EVENTS = 38 * 256 + 500


def _build(home: Path, logs: Path) -> None:
    from companion.dice.expr import parse
    from companion.session.fold import roll_event
    from companion.session.service import Session
    from companion.store import bulk
    from companion.store.sessions import Store

    store = Store(home)
    session = Session.create(store, "long", "freeform", seed=9, physical=False, variants=[], logs_dir=logs)
    dice = session.dice()
    events = [{"t": "tally", "op": "add", "name": "Hero", "max": 99_999}]
    events += [
        roll_event(dice.roll(parse("2d6")), f"r{i}") if i % 3 else {"t": "note", "text": f"n{i}"}
        for i in range(EVENTS - 1)
    ]
    files = store.open("long")
    with files.locked():
        bulk.write_events(files, events)
        Session.open(files)


def _writer(home: Path, fd: int, start: int, keep: bool) -> None:
    """Record notes, rolls and tally hits forever, reporting each id once it is done."""
    from companion.dice.expr import parse
    from companion.session.fold import roll_event
    from companion.session.service import Session
    from companion.store.sessions import Store

    files = Store(home).open("long")
    i = start
    session = None
    while True:
        with files.locked(timeout=30):
            if session is None or not keep:
                session = Session.open(files)
            if i % 3 == 0:
                event = roll_event(session.dice().roll(parse("2d6")), f"roll {i}")
            elif i % 3 == 1:
                event = {"t": "tally", "op": "hit", "name": "Hero", "n": 1}
            else:
                event = {"t": "note", "text": f"action {i}"}
            eid = session.record(event)
            if not keep:
                session = None
        os.write(fd, f"{eid}\n".encode())
        i += 1


def test_kill_9_at_10000_events_never_loses_a_reported_action_and_the_log_is_the_events() -> None:
    home, logs = Path(os.environ["COMPANION_HOME"]), Path(os.environ["COMPANION_LOGS"])
    _build(home, logs)
    rng = random.Random(2101)
    reported: set[int] = set()
    swallowed: list[int] = []
    sealed_before = len(list((home / "sessions" / "long" / "events").glob("0*.json")))
    # The log regenerated from the events, by a fold of its own kept up to date kill after kill: the
    # events only grow here, so it folds the new ones (regenerated_log checks it at the end, from scratch).
    reference = _Reference(home)
    for n in range(KILLS):
        read_fd, write_fd = os.pipe()
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child never returns
            try:
                _quiet_child()
                os.close(read_fd)
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
                _writer(home, write_fd, n * 1000, keep=n % 2 == 1)
            finally:
                os._exit(0)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        os.close(write_fd)
        buffer = bytearray()
        reported.update(_read_ids(read_fd, n % 3, buffer))
        time.sleep(rng.uniform(0.0, 0.03))
        ctrl_c = n % 4 == 3
        os.kill(pid, signal.SIGINT if ctrl_c else signal.SIGKILL)
        buffer += _reap(pid, read_fd, interrupted=swallowed if ctrl_c else None)
        os.close(read_fd)
        reported.update(int(line) for line in bytes(buffer).split())
        session = open_session(home, "long")  # must load, whatever moment the kill hit
        ids = {e["id"] for e in session.files.read_events()}
        missing = reported - ids
        assert not missing, f"after kill {n}: actions {sorted(missing)} were reported done but are gone"
        assert session.count == len(ids) == max(ids)
        assert (logs / "long.md").read_text() == reference.log(), f"after kill {n}"
    assert len(swallowed) <= 2, f"{len(swallowed)} of {KILLS // 4} Ctrl-Cs did not stop the writer"
    assert len(reported) >= KILLS  # the kills landed after completed actions, at every stage of a write
    sealed_after = len(list((home / "sessions" / "long" / "events").glob("0*.json")))
    assert sealed_after > sealed_before, "no kill run reached the sealing of the journal"
    assert (logs / "long.md").read_text() == regenerated_log(home, "long")


class _Reference:
    """A fold of the session's events from the first, made once and brought up to date by the events
    recorded since, never by the store's own snapshots or log."""

    def __init__(self, home: Path) -> None:
        from companion.session.service import Session
        from companion.store.sessions import Store

        files = Store(home).open("long")
        with files.locked():
            self.session = Session.open(files, engine=True)
            self.session.rebuild()
        self.files = files

    def log(self) -> str:
        with self.files.locked():
            self.files.load()
            for event in self.files.read_events(self.session.count):
                self.session.fold.apply(event)
                self.session.count = event["id"]
        return self.session.log_text()
