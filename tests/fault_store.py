"""The store the fault-injection tests (tests/test_faults*.py) start from, and how they read it.

A freeform session ``f`` of 10 events and one of 10,000, built once per test run and worker (the
``fault_templates`` fixture in tests/conftest.py) and copied for every run: sealed files and
checkpoints are hard links (never changed in place), so a copy of the long session costs little.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

SIZES = {"10": 10, "10000": 10_000}
#: What a hint that asks for the command again says (never after it was done).
ASKS = ("run the command again", "undo again", "redo again", "try again")


def build(root: Path, events: int) -> tuple[Path, Path]:
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


def copy(template: tuple[Path, Path], dest: Path) -> tuple[Path, Path]:
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


def what(home: Path) -> tuple:
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


def logs_of(home: Path) -> dict[str, str]:
    """Each session's log file as it is on disk (after opening it, which brings it up to date)."""
    from companion.session.service import Session
    from companion.store.sessions import Store

    out = {}
    for slug in Store(home).slugs():
        files = Store(home).open(slug)
        with files.locked():
            out[slug] = Path(Session.open(files).meta.log_path).read_text()
    return out


def regenerated(home: Path) -> dict[str, str]:
    from companion.store.sessions import Store
    from tests.helpers import regenerated_log

    return {slug: regenerated_log(home, slug) for slug in Store(home).slugs()}


def link_or_copy(src: str, dst: str) -> None:
    """Sealed events files and checkpoints are never changed in place (only replaced or removed):
    linked, so a copy of a 10,000-event session costs little. Everything else is copied."""
    parts = Path(src).parts
    if ("events" in parts and not src.endswith(".jsonl")) or "checkpoints" in parts:
        os.link(src, dst)
    else:
        shutil.copy2(src, dst)


def retarget(base: Path, dest: Path) -> None:
    """The copy's saves name their log where the copy is."""
    for name in ("session.json", "log.json"):
        for path in (dest / "home" / "sessions").glob(f"*/{name}"):
            path.write_text(path.read_text().replace(str((base / "logs").resolve()), str((dest / "logs").resolve())))


def copy_for_run(base: Path, dest: Path) -> tuple[Path, Path]:
    """A copy of ``base`` (a store and its logs) at ``dest`` for one run: sealed files linked."""
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(base, dest, copy_function=link_or_copy)
    retarget(base, dest)
    return dest / "home", dest / "logs"


def one_fault(
    args: list[str],
    base: Path,
    dest: Path,
    fault: Any,
    before: tuple,
    after: tuple,
    kinds: tuple[str, ...] | None = None,
) -> Any:
    """Run ``companion ARGS`` on a copy of ``base`` with ``fault``; check what was said against the store
    (before or after, as said), and that following an error's hint does it once. Returns the run."""
    from tests import faults

    kinds = kinds or faults.KINDS
    home, logs = copy_for_run(base, dest)
    where = f"{' '.join(args)} with {fault.kind} #{fault.at} {fault.mode}"
    run = faults.run(args, home, logs, fault, kinds=kinds)
    assert "Traceback" not in run.err and run.code in (0, 1, -9), f"{where}: exit {run.code}\n{run.err}"
    assert "unexpected error" not in run.err, f"{where}: not the designed line\n{run.err}"
    now = (what(home), None)
    if run.killed:
        assert now[0] in (before[0], after[0]), f"{where}: killed, the store is neither as before nor as after"
    elif run.code == 0:
        assert now[0] == after[0], f"{where}: exit 0 but not done\n{run.err}"
        assert not any(a in run.err for a in ASKS), f"{where}: done, yet the player is asked to do it again:\n{run.err}"
    elif "could not be made the current one" in run.err or "is made, but" in run.err:  # made: said so
        assert now[0] == after[0], f"{where}: said it is done (not current), but it is not\n{run.err}"
        assert "companion use" in run.err and not any(a in run.err for a in ASKS), run.err
    else:
        assert now[0] == before[0], f"{where}: it failed ({run.err.strip()}) but the store changed"
        assert any(w in run.err for w in ("not recorded", "nothing was", "is not", "could not")), run.err
        again = faults.run(args, home, logs)  # the hint: free some space (done: the fault is gone), run again
        assert again.code == 0, f"{where}: following the hint failed: {again.err}"
        now = (what(home), None)
        assert now[0] == after[0], f"{where}: following the hint did not do it exactly once"
    expected = before[1] if now[0] == before[0] else after[1]
    assert logs_of(home) == expected, f"{where}: the log is not the log regenerated from the events"
    return run
