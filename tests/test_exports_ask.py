"""Exports ask (#36 item 1): ``companion export FILE`` never replaces a file companion did not write
without ``--force`` (or a yes at a terminal), never writes through a symbolic link, and never writes a
system file; an export of its own is written again as before."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.helpers import cli


@pytest.fixture(autouse=True)
def session():
    assert cli("new", "freeform", "--name", "f", "--seed", "1").exit_code == 0
    assert cli("note", "hello").exit_code == 0


@pytest.mark.parametrize("fmt", ["md", "html", "lonelog", "json"])
def test_a_file_companion_did_not_write_is_kept_unless_forced(tmp_path, fmt):
    mine = tmp_path / "mine"
    mine.mkdir()
    notes = mine / ("notes." + {"md": "md", "html": "html", "lonelog": "md", "json": "json"}[fmt])
    notes.write_text("my notes\n")
    refused = cli("export", str(notes), "--format", fmt)
    assert refused.exit_code == 2, refused.stderr
    assert refused.stderr.startswith(f"companion: {notes} is there already and companion did not write it")
    assert "--force" in refused.stderr and notes.read_text() == "my notes\n"
    forced = cli("export", str(notes), "--format", fmt, "--force")
    assert forced.exit_code == 0, forced.stderr
    assert notes.read_text() != "my notes\n"
    again = cli("export", str(notes), "--format", fmt)  # now it is companion's: written again, no question
    assert again.exit_code == 0, again.stderr
    assert [p.name for p in mine.iterdir()] == [notes.name]  # no temporary file left


def test_at_a_terminal_it_asks(tmp_path):
    from tests.terminal import close, pty_spawn

    notes = tmp_path / "notes.md"
    for answer, kept in (("n", True), ("y", False)):
        notes.write_text("my notes\n")
        child = pty_spawn(
            sys.executable,
            ["-m", "companion", "export", str(notes)],
            env=dict(os.environ),
            timeout=60,
            encoding="utf-8",
        )
        child.expect("companion did not write it; replace it\\?")
        child.sendline(answer)
        child.expect(["Log written", "nothing was written"])
        close(child)
        assert (notes.read_text() == "my notes\n") is kept


def test_never_through_a_link(tmp_path):
    target = tmp_path / "target.txt"
    target.write_text("kept\n")
    link = tmp_path / "link.md"
    link.symlink_to(target)
    for args in (["export", str(link)], ["export", str(link), "--force", "-f", "html"]):
        result = cli(*args)
        assert result.exit_code == 2 and "is a symbolic link (to " in result.stderr, result.stderr
    assert target.read_text() == "kept\n" and link.is_symlink()
    etc = tmp_path / "etc"
    etc.symlink_to("/etc")  # a folder that leads into the system's: refused as the system's
    result = cli("export", str(etc / "companion-export.md"), "--force")
    assert result.exit_code == 2 and "in the system's folder /etc" in result.stderr, result.stderr


@pytest.mark.parametrize("path", ["/etc/companion-export.md", "/usr/share/companion.html", "/proc/self/environ"])
def test_a_system_path_is_one_line(path):
    result = cli("export", path, "--force")
    assert result.exit_code == 2, result.stderr
    assert "in the system's folder" in result.stderr and result.stderr.count("\n") == 2
    assert not Path(path).exists() or path.startswith("/proc")


def test_the_streams_still_take_an_export():
    assert cli("export", "/dev/null").exit_code == 0
    result = cli("export", "/dev/stdout")  # the runner's stdout: its own stream
    assert result.exit_code in (0, 1) and "system" not in result.stderr


def test_the_help_says_what_force_does():
    text = " ".join(cli("export", "--help").stdout.split())
    assert "--force" in text and "though companion did not write it" in text
    assert "A symbolic link, a save in the data folder and a system file (/etc, /usr, ...) are never written" in text


def test_a_russian_sessions_own_export_is_written_again(tmp_path):
    assert cli("new", "dark-tower", "--name", "башня", "--lang", "ru", "--seed", "3").exit_code == 0
    target = tmp_path / "mine" / "башня.md"
    for fmt in ("md", "md", "lonelog", "html", "json"):
        result = cli("--session", "башня", "export", str(target), "--format", fmt)
        assert result.exit_code == 0, (fmt, result.stderr)
