"""Damaged, missing and foreign save files, races on names, exports onto the store or special files,
and format versions (#22 items 3-8, 15, 16), each through the commands a player runs."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.helpers import cli, cli_json, open_session, regenerated_log


def _home() -> Path:
    return Path(os.environ["COMPANION_HOME"])


def _logs() -> Path:
    return Path(os.environ["COMPANION_LOGS"])


def _played(events: int = 300, name: str = "dmg") -> Path:
    """A freeform session of ``events`` rolls (written through the store at once: the shell would take a
    while), its log written; returns the session's folder."""
    from companion.dice.expr import parse
    from companion.session.fold import roll_event
    from companion.session.service import Session
    from companion.store import bulk
    from companion.store.sessions import Store

    store = Store(_home())
    session = Session.create(store, name, "freeform", seed=4, physical=False, variants=[], logs_dir=_logs())
    dice = session.dice()
    files = store.open(name)
    with files.locked():
        bulk.write_events(files, [roll_event(dice.roll(parse("2d6")), None) for _ in range(events)])
        Session.open(files)
    store.set_current(name)
    return files.dir


def _refused(*args: str) -> str:
    result = cli(*args)
    assert result.exit_code == 1, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    return result.stderr


# ---- item 3: a missing or emptied last events file is refused, never absorbed ----------------------


@pytest.mark.parametrize("how", ["moved", "emptied", "marker-only", "dangling", "fifo"])
def test_a_lost_journal_is_refused_and_nothing_is_rewritten(how: str) -> None:
    folder = _played(300)
    journal = folder / "events" / "journal.jsonl"
    log = _logs() / "dmg.md"
    log_before = log.read_bytes()
    if how == "moved":
        journal.rename(folder.parent.parent / "away.jsonl")
    elif how == "emptied":
        journal.write_bytes(b"")
    elif how == "marker-only":
        journal.write_bytes(journal.read_bytes().split(b"\n")[0] + b"\n")  # the header, no event
    elif how == "dangling":
        journal.unlink()
        journal.symlink_to(folder / "nowhere.jsonl")
    else:
        journal.unlink()
        os.mkfifo(journal)
    err = _refused("status")
    assert "session 'dmg' cannot be opened" in err
    assert "300" in err  # what the log and the snapshots know
    assert "companion sessions repair dmg" in err
    assert log.read_bytes() == log_before  # the only other copy of the rolls is never overwritten
    assert _refused("roll", "2d6", "--got", "3,4") == err  # nothing is recorded either
    assert log.read_bytes() == log_before


@pytest.mark.parametrize("how", ["moved", "emptied", "marker-only", "cut", "dangling"])
def test_a_lost_sealed_events_file_is_refused_when_the_session_opens(how: str) -> None:
    folder = _played(800)  # two sealed files of 256, then the journal
    sealed = folder / "events" / "000000.json"
    log_before = (_logs() / "dmg.md").read_bytes()
    if how == "moved":
        sealed.unlink()
    elif how == "emptied":
        sealed.write_bytes(b"")
    elif how == "marker-only":
        sealed.write_text(json.dumps({"_format": {"1": {"format": "companion-session", "version": 2}}}))
    elif how == "cut":
        sealed.write_bytes(sealed.read_bytes()[:-100])
    else:
        sealed.unlink()
        sealed.symlink_to(folder / "nowhere.json")
    err = _refused("roll", "2d6", "--got", "3,4")  # a roll does not read that file, but is refused at once
    assert "events 1-256 are lost" in err and str(sealed) in err
    assert "companion sessions repair dmg" in err and "0 events before the damage" in err
    assert (_logs() / "dmg.md").read_bytes() == log_before


@pytest.mark.parametrize("keep_time", [False, True])
def test_damage_of_the_same_size_is_found_before_anything_is_written(keep_time: bool) -> None:
    """A sealed file damaged without changing its size is found by its digest: at open when its time
    changed (an edit), else when a command reads it (an export, the physical rolls, an undo that folds
    the whole session); refused there, before anything is written: never 'no tally named X'."""
    folder = _played(800)
    sealed = folder / "events" / "000001.json"
    data = sealed.read_bytes()
    times = sealed.stat()
    sealed.write_bytes(data[:100] + b"#" * 50 + data[150:])
    if keep_time:
        os.utime(sealed, ns=(times.st_atime_ns, times.st_mtime_ns))
        assert cli("status").exit_code == 0  # not read at open: one stat, as the time says it is as sealed
    else:
        assert "changed after it was sealed" in _refused("status")
    log_before = (_logs() / "dmg.md").read_bytes()
    for args in (("export", "-"), ("log", "--rolls"), ("export",)):
        err = _refused(*args)
        assert "events 257-512 are lost" in err and "changed after it was sealed" in err, err
    assert (_logs() / "dmg.md").read_bytes() == log_before
    assert sealed.read_bytes()[100:150] == b"#" * 50  # left exactly as it is


def test_repair_keeps_the_intact_events_and_moves_the_rest_aside() -> None:
    folder = _played(800)
    (folder / "events" / "000001.json").unlink()  # events 257-512
    assert "keep the 256 events before the damage" in _refused("status")
    assert cli("sessions", "repair", "dmg").exit_code == 2  # no terminal: it needs --yes
    result = cli("sessions", "repair", "dmg", "--yes")
    assert result.exit_code == 0, result.stderr
    assert "Kept 256 events" in result.stdout
    status = cli_json("status")
    assert status["events"] == 256
    aside = folder / "damaged-1"
    assert (aside / "journal.jsonl").exists() and (aside / "dmg.md").exists()  # nothing is deleted
    assert (_logs() / "dmg.md").read_text() == regenerated_log(_home(), "dmg")
    assert cli("roll", "2d6", "--got", "1,2").exit_code == 0
    assert cli("sessions", "repair", "dmg", "--yes").stdout.startswith("Session dmg is intact")


def test_a_damaged_session_is_refused_in_its_own_language() -> None:
    """A session played in Russian says what is lost, and the way out, as whole Russian sentences."""
    assert cli("new", "dark-tower", "--name", "башня", "--lang", "ru", "--seed", "3").exit_code == 0
    folder = _home() / "sessions" / "башня"
    (folder / "events" / "journal.jsonl").unlink()
    err = _refused("status")
    journal = folder / "events" / "journal.jsonl"
    assert err.startswith(f"companion: сессию «башня» нельзя открыть: нет её последнего файла событий {journal}"), err
    assert "верните файл (из резервной копии) и повторите команду;" in err
    assert "или оставьте 0 событий до повреждения командой: companion sessions repair башня" in err
    assert "cannot be opened" not in err and "put the file back" not in err


def test_a_damaged_meta_file_is_written_again_from_the_journal() -> None:
    folder = _played(20)
    (folder / "session.json").write_text("{ not json")
    err = _refused("status")
    assert str(folder / "session.json") in err and "companion sessions repair dmg" in err
    assert cli("sessions", "repair", "dmg", "--yes").exit_code == 0
    assert cli_json("status")["events"] == 20


# ---- item 4 and 6: exports ---------------------------------------------------------------------------


def test_export_refuses_any_path_inside_the_store() -> None:
    folder = _played(20)
    target = folder / "events" / "journal.jsonl"
    before = target.read_bytes()
    for fmt in ("md", "html", "json"):
        result = cli("export", str(target), "--format", fmt)
        assert result.exit_code == 2, result.stderr
        assert "inside companion's data folder" in result.stderr
    assert target.read_bytes() == before
    assert cli_json("status")["events"] == 20


def test_export_writes_a_device_as_a_stream_and_never_replaces_it(tmp_path: Path) -> None:
    _played(5)
    node = tmp_path / "full"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 7))  # /dev/full: every write fails, ENOSPC
    except PermissionError:
        pytest.skip("making a device node needs root")
    result = cli("export", str(node))
    assert result.exit_code == 1 and "the disk is full" in result.stderr
    assert stat.S_ISCHR(node.stat().st_mode)
    null = tmp_path / "null"
    os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    assert cli("export", str(null), "--format", "lonelog").exit_code == 0
    assert stat.S_ISCHR(null.stat().st_mode)


def test_export_into_a_fifo_and_never_through_a_symlink(tmp_path: Path) -> None:
    _played(5)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert cli("export", str(fifo)).exit_code == 1  # nobody reads it: refused at once, not waited on
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    import time

    for _ in range(200):  # the reader has opened the FIFO once a writer can open it without blocking
        fd = None
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            time.sleep(0.01)
            continue
        os.close(fd)
        break
    reader.join(timeout=30)
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    for _ in range(500):
        result = cli("export", str(fifo))
        if result.exit_code == 0:
            break
        time.sleep(0.01)
    reader.join(timeout=30)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert b"# Freeform session: dmg" in b"".join(got)
    target = tmp_path / "real.md"
    target.write_text("old")
    link = tmp_path / "link.md"
    link.symlink_to(target)
    result = cli("export", str(link), "--force")  # never through a link, --force or not
    assert result.exit_code == 2 and "is a symbolic link" in result.stderr, result.stderr
    assert link.is_symlink() and target.read_text() == "old"


# ---- items 5, 7, 8: names taken at once, and kills -------------------------------------------------


def _both(*args: str) -> list[subprocess.CompletedProcess]:
    env = dict(os.environ)
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "companion", *args],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    return [subprocess.CompletedProcess(p.args, p.wait(timeout=120), *p.communicate()) for p in procs]


def test_two_new_of_one_name_at_once_start_one_session() -> None:
    for round_ in range(4):
        results = _both("new", "freeform", "--name", f"same-{round_}", "--seed", "1")
        codes = sorted(r.returncode for r in results)
        assert codes == [0, 1], [r.stderr for r in results]
        loser = next(r for r in results if r.returncode == 1)
        assert "already exists" in loser.stderr and "Traceback" not in loser.stderr
        assert cli("--session", f"same-{round_}", "note", "kept").exit_code == 0
        assert open_session(_home(), f"same-{round_}").count == 1


def test_two_renames_onto_one_name_at_once() -> None:
    for name in ("a", "b"):
        assert cli("new", "freeform", "--name", name, "--seed", "1").exit_code == 0
        assert cli("--session", name, "note", f"from {name}").exit_code == 0
    env = dict(os.environ)
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "companion", "sessions", "rename", old, "target"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for old in ("a", "b")
    ]
    outs = [(p.wait(timeout=120), *p.communicate()) for p in procs]
    assert sorted(code for code, _, _ in outs) == [0, 1], outs
    assert all("Traceback" not in err for _, _, err in outs)
    loser = "a" if outs[0][0] == 1 else "b"
    assert open_session(_home(), loser).meta.name == loser  # the loser is untouched, under its own name
    assert open_session(_home(), "target").meta.name == "target"


def test_a_session_half_made_by_a_kill_is_neither_listed_nor_in_the_way() -> None:
    root = _home() / "sessions"
    stale = root / ".new-half-4242"
    stale.mkdir(parents=True)
    (stale / "session.json").write_text("{}")
    assert "half" not in cli("sessions").stdout
    assert cli("new", "freeform", "--name", "half", "--seed", "1").exit_code == 0
    assert not stale.exists()
    assert cli_json("status")["events"] == 0


# ---- item 16: versions -----------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["session.json", "events/journal.jsonl", "events/000000.json"])
def test_a_newer_format_is_refused_naming_the_companion_it_needs(which: str) -> None:
    folder = _played(600)
    path = folder / which
    text = path.read_text()
    version = 3 if which == "events/journal.jsonl" else 2  # the journal's own format is 3 (its lines' checks)
    newer = text.replace(f'"version": {version}', f'"version": {version + 1}')
    newer = newer.replace(f'"version":{version}', f'"version":{version + 1}')
    newer = newer.replace('"companion": "0.1.0"', '"companion": "9.1.0"').replace(
        '"companion":"0.1.0"', '"companion":"9.1.0"'
    )
    assert newer != text
    path.write_text(newer)
    if which == "events/000000.json":  # as a newer companion would have sealed it: its digest in the header
        from companion.store.events import stamp

        journal = folder / "events" / "journal.jsonl"
        head, _, rest = journal.read_bytes().partition(b"\n")
        header = json.loads(head)
        header["sealed"][0], header["hashes"][0], header["mtimes"][0] = stamp(path)
        journal.write_bytes(json.dumps(header).encode() + b"\n" + rest)
    err = _refused("roll", "2d6", "--got", "3,4") if which != "events/000000.json" else _refused("export", "-")
    assert f"save format {version + 1}" in err and "companion 9.1.0 or later" in err
    assert path.read_text() == newer  # left as it is: never rewritten as an older format
