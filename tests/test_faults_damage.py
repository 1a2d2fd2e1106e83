"""Damage where it hides, and a repair that leads out (#36 items 2-6, 8, 13), at 10 events and at 10,000.

Each damaged state is made on a copy of the fault tests' store (tests/fault_store.py), then met through
the commands a player types: the first command refuses it in one line whose hint names how many events
``companion sessions repair`` keeps, the repair keeps exactly that many (and says where the rest went),
and the session then opens and plays on. Links and FIFOs where companion keeps a file of its own are
never written through, never hang, and are named in one line.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

from tests import faults
from tests.fault_store import SIZES, copy

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="forks")

HINT = re.compile(r"keep the (\d+) events? before the damage")
KEPT = re.compile(r"Kept (\d+) events?")


def _run(home: Path, *args: str) -> faults.Run:
    run = faults.run(list(args), home, home.parent / "logs")
    assert "Traceback" not in run.err and "unexpected error" not in run.err, f"{args}: {run.err}"
    return run


def _events(home: Path) -> int:
    run = _run(home, "status", "--json")
    assert run.code == 0, run.err
    return json.loads(run.out)["events"]


def _journal(home: Path) -> Path:
    return home / "sessions" / "f" / "events" / "journal.jsonl"


def _checkpoint_at_the_end(home: Path) -> None:
    """A checkpoint after the last event (as a guided answer or the game's end leaves one)."""
    from companion.session.service import Session
    from companion.store.sessions import Store

    files = Store(home).open("f")
    with files.locked():
        Session.open(files).write_checkpoint()


def _leads_out(home: Path, expected: int) -> None:
    """Refused with a hint naming ``expected`` events; the repair keeps those; the session opens again."""
    refused = _run(home, "note", "after the damage")
    assert refused.code == 1 and "cannot be opened" in refused.err, refused.err
    hint = HINT.search(refused.err)
    assert hint is not None and int(hint[1]) == expected, refused.err
    repaired = _run(home, "sessions", "repair", "f", "--yes")
    assert repaired.code == 0, repaired.err
    kept = KEPT.search(repaired.out)
    assert kept is not None and int(kept[1]) == expected, repaired.out  # the hint's count is the repair's
    assert "damaged-1" in repaired.out
    assert _events(home) == expected
    assert _run(home, "note", "after the repair").code == 0
    assert _events(home) == expected + 1
    again = _run(home, "sessions", "repair", "f", "--yes")
    assert again.code == 0 and "is intact" in again.out, again.out


@pytest.fixture
def store(fault_templates, request, tmp_path) -> tuple[Path, int]:
    """A copy of the store of ``request.param`` events; its home and its events."""
    home, _ = copy(fault_templates[request.param], tmp_path / "store")
    return home, SIZES[request.param]


SIZED = pytest.mark.parametrize("store", list(SIZES), indirect=True)


# ---- item 4: the journal ends before what log.json or a checkpoint knows: 8 cases -------------------


@SIZED
@pytest.mark.parametrize("witness", ["log", "checkpoint"])
@pytest.mark.parametrize("cut", ["mid-line", "last newline", "two lines", "older backup"])
def test_a_journal_shorter_than_what_was_known_leads_out(store, witness: str, cut: str) -> None:
    home, n = store
    journal = _journal(home)
    if cut == "older backup":
        backup = journal.read_bytes()
        assert _run(home, "note", "one").code == 0 and _run(home, "note", "two").code == 0
        n += 2
    if witness == "checkpoint":
        _checkpoint_at_the_end(home)
        (home / "sessions" / "f" / "log.json").unlink()
    raw = journal.read_bytes()
    lines = raw.split(b"\n")[:-1]
    if cut == "mid-line":
        journal.write_bytes(raw[: len(raw) - len(lines[-1]) // 2 - 1])
        kept = n - 1
    elif cut == "last newline":
        journal.write_bytes(raw[:-1])
        kept = n
    elif cut == "two lines":
        journal.write_bytes(b"\n".join(lines[:-2]) + b"\n")
        kept = n - 2
    else:
        journal.write_bytes(backup)
        kept = n - 2
    if cut == "last newline":  # the whole line, check and all, proven by what was known: kept, as it was
        assert _events(home) == n
        assert journal.read_bytes() == raw
        return
    _leads_out(home, kept)


# ---- item 3: damage in an older journal line is found at open ---------------------------------------


@SIZED
def test_a_changed_byte_in_an_early_journal_line_is_found_at_open(store) -> None:
    home, _n = store
    journal = _journal(home)
    raw = journal.read_bytes()
    lines = raw.split(b"\n")
    base = json.loads(lines[0])["base"]
    third = lines[3]  # event base + 3: one letter's case, the same size
    lines[3] = third.replace(b"T20:", b"t20:", 1)
    assert lines[3] != third and len(lines[3]) == len(third)
    journal.write_bytes(b"\n".join(lines))
    status = _run(home, "status")
    assert status.code == 1 and "does not match its check" in status.err, status.err  # at open: nothing acknowledged
    _leads_out(home, base + 2)


# ---- item 6: a sealed file changed without changing its size ---------------------------------------


@pytest.mark.parametrize("store", ["10000"], indirect=True)
@pytest.mark.parametrize("keep_time", [False, True])
def test_a_sealed_file_changed_in_one_letter_leads_out(store, keep_time: bool) -> None:
    home, _ = store
    sealed = home / "sessions" / "f" / "events" / "000002.json"
    data = sealed.read_bytes()
    times = sealed.stat()
    at = data.index(b'"note"')
    sealed.write_bytes(data[:at] + b'"Note"' + data[at + 6 :])
    if keep_time:  # not seen at open (one stat each): found when read
        os.utime(sealed, ns=(times.st_atime_ns, times.st_mtime_ns))
        export = _run(home, "export", "-")
        assert export.code == 1 and "changed after it was sealed" in export.err, export.err
    survey = _run(home, "sessions", "repair", "f")
    assert "is intact" not in survey.out and "512 events are intact" in survey.out, survey.out
    if keep_time:
        refused = _run(home, "export", "-")
        assert HINT.search(refused.err) and int(HINT.search(refused.err)[1]) == 512, refused.err
        repaired = _run(home, "sessions", "repair", "f", "--yes")
        assert int(KEPT.search(repaired.out)[1]) == 512
        assert _events(home) == 512 and _run(home, "export", "-").code == 0
        return
    _leads_out(home, 512)


# ---- item 5: a missing session.json is rebuilt from the journal's header ---------------------------


@SIZED
def test_a_missing_session_json_is_a_session_to_repair(store) -> None:
    home, n = store
    (home / "sessions" / "f" / "session.json").unlink()
    listed = _run(home, "sessions")
    assert listed.code == 0 and "f" in listed.out and "session.json" in listed.out, listed.out
    status = _run(home, "status")
    assert status.code == 1 and "companion sessions repair f" in status.err, status.err
    new = _run(home, "new", "freeform", "--name", "f")
    assert new.code == 1 and "already exists" in new.err and "sessions repair f" in new.err, new.err
    assert _run(home, "use", "f").code == 0
    repaired = _run(home, "sessions", "repair", "f", "--yes")
    assert repaired.code == 0 and int(KEPT.search(repaired.out)[1]) == n, repaired.out
    assert _events(home) == n
    assert json.loads((home / "sessions" / "f" / "session.json").read_text())["meta"]["1"]["meta"]["name"] == "f"


# ---- items 2 and 13: links, FIFOs and devices where companion keeps a file of its own ----------------


#: Each cache, and a command that writes it (a checkpoint when the dice change; redo.json on undo).
CACHES = {
    "log.json": ["note", "through the link?"],
    ".owner": ["note", "through the link?"],
    ".lock": ["note", "through the link?"],
    "checkpoints": ["mode", "physical"],
    "checkpoint": ["mode", "physical"],
    "redo.json": ["undo"],
}


@SIZED
@pytest.mark.parametrize("which", list(CACHES))
def test_a_link_where_a_cache_should_be_is_never_written_through(store, which: str, tmp_path) -> None:
    import shutil

    home, n = store
    folder = home / "sessions" / "f"
    aside = tmp_path / "aside"
    aside.mkdir()
    target = aside / "precious.txt"
    target.write_bytes(b"my notes\n" * 400)
    before = target.read_bytes()
    if which == "checkpoint":
        _checkpoint_at_the_end(home)
        name = "checkpoints/" + sorted(os.listdir(folder / "checkpoints"))[-1]
    else:
        name = which
    place = folder / name
    if place.is_dir():
        shutil.rmtree(place)
    else:
        place.unlink(missing_ok=True)
    place.symlink_to(target if which != "checkpoints" else aside)
    first = _run(home, *CACHES[which])
    assert first.code == 0, first.err
    assert target.read_bytes() == before and os.listdir(aside) == ["precious.txt"]  # nothing written through
    assert _events(home) == (n - 1 if which == "redo.json" else n + 1)
    if which != "redo.json":  # named once (redo.json is replaced whole by a rename: nothing was at risk)
        assert f"{place} was a symbolic link" in first.err, first.err
        assert not place.is_symlink()
        assert "symbolic link" not in _run(home, *CACHES[which][:1], *CACHES[which][1:]).err


@SIZED
@pytest.mark.parametrize("which", ["log.json", ".owner"])
@pytest.mark.parametrize("kind", ["FIFO", "device"])
def test_a_fifo_or_a_device_where_a_cache_should_be_never_hangs(store, which: str, kind: str) -> None:
    import stat

    home, n = store
    place = home / "sessions" / "f" / which
    place.unlink(missing_ok=True)
    if kind == "FIFO":
        os.mkfifo(place)
    else:
        try:
            os.mknod(place, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # what /dev/null is
        except PermissionError:
            pytest.skip("making a device node needs root")
    run = _run(home, "note", f"past the {kind}")  # a hang would fail the run (the fork is waited on)
    assert run.code == 0 and f"{place} was a {kind}" in run.err, run.err
    assert _events(home) == n + 1
    assert stat.S_ISREG(place.lstat().st_mode)


@SIZED
def test_a_link_where_the_journal_should_be_is_refused_and_repaired(store, tmp_path) -> None:
    home, _n = store
    journal = _journal(home)
    base = json.loads(journal.read_bytes().split(b"\n")[0])["base"]  # the events in sealed files
    moved = tmp_path / "journal-elsewhere.jsonl"
    journal.rename(moved)
    journal.symlink_to(moved)
    before = moved.read_bytes()
    refused = _run(home, "note", "x")
    assert refused.code == 1 and "is a symbolic link" in refused.err, refused.err
    assert int(HINT.search(refused.err)[1]) == base
    repaired = _run(home, "sessions", "repair", "f", "--yes")
    assert repaired.code == 0 and int(KEPT.search(repaired.out)[1]) == base, repaired.out
    assert moved.read_bytes() == before  # never written through; the link itself is in damaged-1
    assert (home / "sessions" / "f" / "damaged-1" / "journal.jsonl").is_symlink()
    assert _events(home) == base


@SIZED
def test_a_fifo_as_the_current_mark_and_a_link_as_the_game_data_are_never_followed(store, tmp_path) -> None:
    home, n = store
    current = home / "current"
    current.unlink()
    os.mkfifo(current)
    status = _run(home, "--session", "f", "status", "--json")  # a FIFO there once hung every command
    assert status.code == 0 and json.loads(status.out)["events"] == n, status.err
    assert _run(home, "status").code == 1  # no session is current: one line
    target = tmp_path / "precious.json"
    target.write_text('{"my": "notes"}')
    (home / "gamedata").mkdir(exist_ok=True)
    (home / "gamedata" / "freeform.json").symlink_to(target)
    made = _run(home, "new", "freeform", "--name", "g")
    assert made.code == 1 and "freeform.json" in made.err and "a symbolic link" in made.err, made.err
    assert target.read_text() == '{"my": "notes"}'
