"""Saves survive kill -9 and Ctrl-C at any moment: every save loads, and no reported action is missing.

A child process (forked, so it starts in milliseconds) records actions in a loop and reports each
one on a pipe only after ``Session.record`` returned. The parent stops it at a random moment (SIGKILL
for most, SIGINT for every fourth, as Ctrl-C would), then checks the save from scratch. 120 stops.
"""

from __future__ import annotations

import os
import random
import select
import signal
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import cli, open_session, regenerated_log

pytestmark = pytest.mark.skipif(sys.platform == "win32" or not hasattr(os, "fork"), reason="needs fork")

KILLS = 120


def _quiet_child() -> None:
    """Make a forked child behave like a fresh companion process.

    It shares pytest's output streams: point them at /dev/null so nothing it might print can block on
    (or mix into) the parent's output. And it inherits whatever SIGINT handler earlier in-process tests
    left behind (prompt_toolkit and asyncio install their own while a prompt runs): restore Python's
    default, so Ctrl-C raises KeyboardInterrupt as it does in a real ``companion``.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.set_wakeup_fd(-1)


def _reap(pid: int, fd: int, seconds: float = 20.0, interrupted: list[int] | None = None) -> bytes:
    """Wait for a stopped child, draining its pipe meanwhile, and return all it reported.

    Never hangs the suite: a child still running ``seconds`` after it was stopped is killed and the
    test fails, saying so. A child stopped with SIGINT (``interrupted`` given) that is still running
    after 2 s is stopped with SIGKILL and counted there: a Ctrl-C that lands while Python runs a
    finalizer (a ``__del__`` or a weakref callback; the writer frees lock and database objects at
    every step) is reported by Python as unraisable and swallowed, and the process goes on, as a
    person would see it do until they press Ctrl-C again.
    """
    data = bytearray()
    start = time.monotonic()
    deadline = start + seconds
    while not os.waitpid(pid, os.WNOHANG)[0]:
        if interrupted is not None and time.monotonic() > start + 2.0:
            interrupted.append(pid)
            os.kill(pid, signal.SIGKILL)
            interrupted = None
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise AssertionError(f"the writer (pid {pid}) was still running {seconds:.0f} s after it was stopped")
        if select.select([fd], [], [], 0.05)[0]:
            data += os.read(fd, 65536)
    while chunk := os.read(fd, 65536):
        data += chunk
    return bytes(data)


def _read_ids(fd: int, count: int, buffer: bytearray) -> list[int]:
    """Block until the child has reported ``count`` more ids (kept beyond them stay in ``buffer``)."""
    while buffer.count(b"\n") < count:
        chunk = os.read(fd, 65536)
        if not chunk:
            raise AssertionError("the writer stopped before reporting its actions")
        buffer += chunk
    lines = bytes(buffer).split(b"\n")
    ids, rest = lines[:count], b"\n".join(lines[count:])
    buffer[:] = rest
    return [int(i) for i in ids]


def _writer(home: Path, fd: int, start: int) -> None:
    """The child: record notes and rolls forever, reporting each id once it is done."""
    from companion.dice.expr import parse
    from companion.session.fold import roll_event
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
    swallowed: list[int] = []  # Ctrl-Cs that did not stop the writer (see _reap)
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
        # Let the child finish 0-2 actions (so kills land at every stage of a write however loaded
        # the machine is), then stop it a random moment into the next one.
        wait_for = n % 3
        expected += wait_for
        buffer = bytearray()
        reported.update(_read_ids(read_fd, wait_for, buffer))
        time.sleep(rng.uniform(0.0, 0.03))
        ctrl_c = n % 4 == 3
        os.kill(pid, signal.SIGINT if ctrl_c else signal.SIGKILL)
        buffer += _reap(pid, read_fd, interrupted=swallowed if ctrl_c else None)
        os.close(read_fd)
        reported.update(int(line) for line in bytes(buffer).split())
        session = open_session(home, "crash")  # must load, whatever moment the kill hit
        ids = {e["id"] for e in session.files.read_events()}
        missing = reported - ids
        assert not missing, f"after kill {n}: actions {sorted(missing)} were reported done but are gone"
        assert session.count == len(ids)
    assert len(reported) >= expected  # the kills did land after completed actions
    assert len(swallowed) <= 2, f"{len(swallowed)} of {KILLS // 4} Ctrl-Cs did not stop the writer"
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
        _reap_silent(pid)
        session = open_session(home, "crash2")
        assert (logs / "crash2.md").read_text() == session.log_text() == regenerated_log(home, "crash2")


def _reap_silent(pid: int, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not os.waitpid(pid, os.WNOHANG)[0]:
        if time.monotonic() > deadline:
            raise AssertionError(f"the writer (pid {pid}) survived SIGKILL for {seconds:.0f} s")
        time.sleep(0.01)


def _writer_named(home: Path, name: str, start: int) -> None:
    from companion.session.service import Session
    from companion.store.sessions import Store

    i = start
    while True:
        files = Store(home).open(name)
        with files.locked(timeout=30):
            Session.open(files).record({"t": "note", "text": f"action {i}"})
        i += 1
