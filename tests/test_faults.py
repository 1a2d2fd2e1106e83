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

import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from tests import faults

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc/self/fd, forks")

SIZES = {"10": 10, "10000": 10_000}
MODES = ("kill", "full", "EIO")
#: What a hint that asks for the command again says (never after it was done).
ASKS = ("run the command again", "undo again", "redo again", "try again")


def _build(root: Path, events: int) -> tuple[Path, Path]:
    """A freeform session ``f`` of ``events`` events: a tally, rolls, a physical roll last but two."""
    from companion.dice.expr import parse
    from companion.session.fold import roll_event
    from companion.session.service import Session
    from companion.store import bulk
    from companion.store.sessions import Store

    home, logs = root / "home", root / "logs"
    store = Store(home)
    session = Session.create(store, "f", "freeform", seed=3, physical=False, variants=[], logs_dir=logs)
    dice = session.dice()
    stamp = "2026-12-01T20:00:00Z"
    batch: list[dict[str, Any]] = [{"t": "tally", "op": "add", "name": "Hero", "max": 99_999, "at": stamp}]
    for i in range(events - 4):
        batch.append(
            {**roll_event(dice.roll(parse("2d6")), None), "at": stamp}
            if i % 2
            else {"t": "note", "text": f"n{i}", "at": stamp}
        )
    batch.append({"t": "roll", "expr": "DC", "mod": 0, "faces": [2], "src": "physical", "at": stamp})
    batch += [
        {"t": "note", "text": "last", "at": stamp},
        {"t": "tally", "op": "hit", "name": "Hero", "n": 1, "at": stamp},
    ]
    files = store.open("f")
    with files.locked():  # a checkpoint a few events before the end, as playing would leave one
        bulk.write_events(files, batch[:-6])
        Session.open(files)
        bulk.write_events(files, batch[-6:])
        Session.open(files)
    store.set_current("f")
    return home, logs


@pytest.fixture(scope="module")
def templates(tmp_path_factory) -> dict[str, tuple[Path, Path]]:
    """One session of each size per test module and worker, copied for every run."""
    return {name: _build(tmp_path_factory.mktemp(f"size{name}"), n) for name, n in SIZES.items()}


def _copy(template: tuple[Path, Path], dest: Path) -> tuple[Path, Path]:
    shutil.rmtree(dest, ignore_errors=True)
    home, logs = dest / "home", dest / "logs"
    shutil.copytree(template[0], home)
    shutil.copytree(template[1], logs)
    meta = home / "sessions" / "f" / "session.json"
    meta.write_text(meta.read_text().replace(str(template[1].resolve()), str(logs.resolve())))
    state = home / "sessions" / "f" / "log.json"
    if state.exists():
        state.write_text(state.read_text().replace(str(template[1].resolve()), str(logs.resolve())))
    return home, logs


def _what(home: Path) -> tuple:
    """The store as the player would find it: each session's name, events and redo list (the events as
    their files hold them: the sealed files' bytes and the journal's lines; times are pinned)."""
    import hashlib

    from companion.session.service import Session
    from companion.store.sessions import Store

    store = Store(home)
    out = []
    for slug in store.slugs():
        files = store.open(slug)
        with files.locked():
            session = Session.open(files)
            found = files.events.journal
            sealed = [hashlib.sha1(files.events.segment(i).read_bytes()).hexdigest() for i in range(found.base // 256)]
            out.append((slug, session.meta.name, tuple(sealed), tuple(found.lines), repr(session.redo_stack)))
    return tuple(out)


def _logs(home: Path) -> dict[str, str]:
    """Each session's log file as it is on disk (after opening it, which brings it up to date)."""
    from companion.session.service import Session
    from companion.store.sessions import Store

    out = {}
    for slug in Store(home).slugs():
        files = Store(home).open(slug)
        with files.locked():
            out[slug] = Path(Session.open(files).meta.log_path).read_text()
    return out


def _regenerated(home: Path) -> dict[str, str]:
    from companion.store.sessions import Store
    from tests.helpers import regenerated_log

    return {slug: regenerated_log(home, slug) for slug in Store(home).slugs()}


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
def test_every_fault_point_keeps_the_store_true(command: str, size: str, templates, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764633600")
    args, prepare = COMMANDS[command]
    base = tmp_path / "base"
    home, logs = _copy(templates[size], base)
    if prepare:
        assert faults.run(prepare, home, logs).code == 0
    before = (_what(home), _regenerated(home))
    assert _logs(home) == before[1]
    shutil.copytree(base, tmp_path / "clean")
    _retarget(base, tmp_path / "clean")
    clean = faults.run(args, tmp_path / "clean" / "home", tmp_path / "clean" / "logs")
    assert clean.code == 0, clean.err
    after = (_what(tmp_path / "clean" / "home"), _regenerated(tmp_path / "clean" / "home"))
    assert after[0] != before[0]
    assert _logs(tmp_path / "clean" / "home") == after[1]
    tried = 0
    for kind, count in sorted(clean.calls.items()):
        for at in range(1, count + 1):
            for mode in MODES:
                tried += 1
                _one(args, base, tmp_path / "run", faults.Fault(kind, at, mode), before, after)
    assert tried >= 10, clean.calls


def _link_or_copy(src: str, dst: str) -> None:
    """Sealed events files and checkpoints are never changed in place (only replaced or removed):
    linked, so a copy of a 10,000-event session costs little. Everything else is copied."""
    parts = Path(src).parts
    if ("events" in parts and not src.endswith(".jsonl")) or "checkpoints" in parts:
        os.link(src, dst)
    else:
        shutil.copy2(src, dst)


def _one(args: list[str], base: Path, dest: Path, fault: faults.Fault, before: tuple, after: tuple) -> None:
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(base, dest, copy_function=_link_or_copy)
    home, logs = dest / "home", dest / "logs"
    _retarget(base, dest)
    where = f"{' '.join(args)} with {fault.kind} #{fault.at} {fault.mode}"
    run = faults.run(args, home, logs, fault)
    assert "Traceback" not in run.err and run.code in (0, 1, -9), f"{where}: exit {run.code}\n{run.err}"
    now = (_what(home), None)
    if run.killed:
        assert now[0] in (before[0], after[0]), f"{where}: killed, the store is neither as before nor as after"
    elif run.code == 0:
        assert now[0] == after[0], f"{where}: exit 0 but not done\n{run.err}"
        assert not any(a in run.err for a in ASKS), f"{where}: done, yet the player is asked to do it again:\n{run.err}"
    elif "could not be made the current one" in run.err:  # made or renamed: only the current mark is not
        assert now[0] == after[0], f"{where}: said it is done (not current), but it is not\n{run.err}"
        assert "companion use" in run.err and not any(a in run.err for a in ASKS), run.err
    else:
        assert now[0] == before[0], f"{where}: it failed ({run.err.strip()}) but the store changed"
        assert any(w in run.err for w in ("not recorded", "nothing was", "is not", "could not")), run.err
        again = faults.run(args, home, logs)  # the hint: free some space (done: the fault is gone), run again
        assert again.code == 0, f"{where}: following the hint failed: {again.err}"
        now = (_what(home), None)
        assert now[0] == after[0], f"{where}: following the hint did not do it exactly once"
    expected = before[1] if now[0] == before[0] else after[1]
    assert _logs(home) == expected, f"{where}: the log is not the log regenerated from the events"


def _retarget(base: Path, dest: Path) -> None:
    """The copy's saves name their log where the copy is."""
    for name in ("session.json", "log.json"):
        for path in (dest / "home" / "sessions").glob(f"*/{name}"):
            path.write_text(path.read_text().replace(str((base / "logs").resolve()), str((dest / "logs").resolve())))
