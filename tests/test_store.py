"""The store: atomic writes, a full disk, damaged and foreign files, safe names, locks."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.errors import InputError, StoreError
from companion.store.atomic import AtomicJSONStorage, CorruptFileError, read_json, write_atomic
from companion.store.paths import safe_name
from tests.helpers import cli, open_session, regenerated_log, store


def test_write_atomic_replaces_the_whole_file(tmp_path: Path) -> None:
    target = tmp_path / "save.json"
    write_atomic(target, "x" * 10_000)
    write_atomic(target, "short")
    assert target.read_text() == "short"
    assert not (tmp_path / "save.json.tmp").exists()


def test_full_disk_keeps_the_previous_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "save.json"
    write_atomic(target, "the good save")

    def no_space(fd: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", no_space)
    with pytest.raises(StoreError) as info:
        write_atomic(target, "the new save")
    assert "disk is full" in info.value.message
    assert str(target) in info.value.message
    monkeypatch.undo()
    assert target.read_text() == "the good save"
    assert not (tmp_path / "save.json.tmp").exists()


def test_full_disk_during_a_command_is_one_line_and_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    assert cli("new", "freeform", "--name", "disk", "--seed", "1").exit_code == 0
    assert cli("note", "first").exit_code == 0
    home = Path(os.environ["COMPANION_HOME"])
    before = open_session(home, "disk")
    real_write = os.write

    def no_space(fd: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", no_space)
    result = cli("note", "second")
    monkeypatch.setattr(os, "write", real_write)
    assert result.exit_code == 1
    assert result.stderr.startswith("companion: the disk is full")
    assert "Traceback" not in result.stderr + result.stdout
    after = open_session(home, "disk")
    assert after.count == before.count == 1
    assert [(e["k"], e["t"]) for e in after.state.log.entries] == [("note", "first")]


def test_damaged_file_is_named_never_overwritten_and_no_useless_copy(tmp_path: Path) -> None:
    target = tmp_path / "session.json"
    target.write_text('{"meta": {"1": {}}} trailing garbage')
    with pytest.raises(CorruptFileError) as info:
        read_json(target)
    assert str(target) in info.value.message
    assert "damaged" in info.value.message
    assert "copy" not in (info.value.hint or "")  # a copy of the damage restores nothing
    assert not (tmp_path / "session.json.damaged").exists()
    assert target.read_text().endswith("trailing garbage")


def test_foreign_json_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "session.json"
    target.write_text(json.dumps({"_default": {"1": {"name": "someone else's"}}}))
    with pytest.raises(CorruptFileError) as info:
        read_json(target)
    assert "not a companion save" in info.value.message


def test_damaged_session_gives_one_clear_line_and_stays_untouched() -> None:
    assert cli("new", "freeform", "--name", "broken", "--seed", "1").exit_code == 0
    home = Path(os.environ["COMPANION_HOME"])
    meta = home / "sessions" / "broken" / "session.json"
    meta.write_text("{ not json")
    result = cli("note", "hello")
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert lines[0].startswith("companion: ") and str(meta) in lines[0]
    assert "will not overwrite it" in lines[0]
    assert "back from a backup" in lines[1]
    assert "Traceback" not in result.stderr
    assert meta.read_text() == "{ not json"


def _notes(n: int) -> None:
    for i in range(n):
        assert cli("note", f"kept {i}").exit_code == 0


def test_missing_checkpoints_are_made_again_from_the_events() -> None:
    """Checkpoints are a cache: if only they are lost the events still hold everything."""
    assert cli("new", "freeform", "--name", "cache", "--seed", "1").exit_code == 0
    _notes(40)
    home = Path(os.environ["COMPANION_HOME"])
    folder = home / "sessions" / "cache" / "checkpoints"
    assert any(folder.iterdir())
    for path in folder.iterdir():
        path.unlink()
    session = open_session(home, "cache")
    assert session.count == 40
    assert [e["t"] for e in session.full().log.entries] == [f"kept {i}" for i in range(40)]


def test_a_damaged_checkpoint_is_not_used() -> None:
    assert cli("new", "freeform", "--name", "torn", "--seed", "1").exit_code == 0
    _notes(40)
    home = Path(os.environ["COMPANION_HOME"])
    folder = home / "sessions" / "torn" / "checkpoints"
    newest = sorted(folder.iterdir())[-1]
    newest.write_text(newest.read_text() + "} torn tail")
    result = cli("note", "after")
    assert result.exit_code == 0, result.stderr
    session = open_session(home, "torn")
    assert [e["t"] for e in session.full().log.entries] == [*(f"kept {i}" for i in range(40)), "after"]
    logs = Path(os.environ["COMPANION_LOGS"])
    assert (logs / "torn.md").read_text() == regenerated_log(home, "torn")


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("../../x", "x"),
        ("/etc/passwd", "etc-passwd"),
        ("..", None),
        ("My Run #1", "my-run-1"),
        ("Тёмная башня", "тёмная-башня"),  # ё is a letter of its own (#37)
        ("a\\b:c", "a-b-c"),
        ("   ", None),
    ],
)
def test_safe_names_never_leave_the_folder(name: str, expected: str | None) -> None:
    if expected is None:
        with pytest.raises(InputError):
            safe_name(name)
        return
    slug = safe_name(name)
    assert slug == expected
    assert "/" not in slug and "\\" not in slug and not slug.startswith(".")


def test_path_traversal_in_a_session_name_stays_inside_the_store(tmp_path: Path) -> None:
    result = cli("new", "freeform", "--name", "../../escape", "--seed", "1")
    assert result.exit_code == 0, result.stderr
    home = Path(os.environ["COMPANION_HOME"])
    assert (home / "sessions" / "escape" / "session.json").exists()
    assert not (home.parent / "escape").exists()
    assert not (home.parent.parent / "escape").exists()
    logs = Path(os.environ["COMPANION_LOGS"])
    assert (logs / "escape.md").exists()


def test_storage_is_a_tinydb_storage(tmp_path: Path) -> None:
    from tinydb import TinyDB

    path = tmp_path / "db.json"
    with TinyDB(path, storage=AtomicJSONStorage) as db:
        db.insert({"a": 1})
    with TinyDB(path, storage=AtomicJSONStorage) as db:
        assert db.all() == [{"a": 1}]
    assert json.loads(path.read_text())["_format"]["1"]["format"] == "companion-session"


def test_a_second_process_gets_a_clear_message_while_the_save_is_held(tmp_path: Path) -> None:
    assert cli("new", "freeform", "--name", "held", "--seed", "1").exit_code == 0
    home = Path(os.environ["COMPANION_HOME"])
    files = store(home).open("held")
    env = dict(os.environ, COMPANION_LOCK_WAIT="0.5")  # the product waits 3 s; the lock is held throughout
    with files.locked():
        proc = subprocess.run(
            [sys.executable, "-m", "companion", "note", "from the other terminal"],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
    assert proc.returncode == 1
    assert proc.stderr.startswith("companion: session 'held' is in use by another companion process")
    assert "Traceback" not in proc.stderr
    assert open_session(home, "held").count == 0


def test_two_processes_on_one_save_lose_nothing(tmp_path: Path) -> None:
    """Two writers take turns on the lock; every action both reported done is in the save."""
    assert cli("new", "freeform", "--name", "shared", "--seed", "1").exit_code == 0
    home = Path(os.environ["COMPANION_HOME"])
    script = textwrap.dedent(
        """
        import sys
        from pathlib import Path
        from companion.store.sessions import Store
        from companion.session.service import Session
        home, who, n = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
        for i in range(n):
            files = Store(home).open("shared")
            with files.locked(timeout=30):
                Session.open(files).record({"t": "note", "text": f"{who}-{i}"})
            print(f"{who}-{i}", flush=True)
        """
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", script, str(home), who, "25"], stdout=subprocess.PIPE, text=True)
        for who in ("a", "b")
    ]
    reported = []
    for proc in procs:
        out, _ = proc.communicate(timeout=120)
        assert proc.returncode == 0
        reported.extend(out.split())
    session = open_session(home, "shared")
    notes = [e["t"] for e in session.full().log.entries]
    assert sorted(notes) == sorted(reported)
    assert len(notes) == 50 and session.count == 50


def test_the_lock_wait_is_three_seconds_unless_companion_lock_wait_says(monkeypatch) -> None:
    from companion.store.sessions import LOCK_WAIT, lock_wait

    assert LOCK_WAIT == 3.0
    for raw, wait in (("", 3.0), ("0.5", 0.5), ("0", 0.0), ("10", 10.0), ("-1", 3.0), ("soon", 3.0), ("nan", 3.0)):
        monkeypatch.setenv("COMPANION_LOCK_WAIT", raw)
        assert lock_wait() == wait, raw
    monkeypatch.delenv("COMPANION_LOCK_WAIT")
    assert lock_wait() == 3.0
