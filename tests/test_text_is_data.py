"""Text from a player, a pack or a save is data (#22 items 12-14): never rich markup, never a control
code on the terminal, and a mistake in it is one line, not a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.helpers import cli, open_session

COMPANION = [sys.executable, "-m", "companion"]


def _run(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([*COMPANION, *args], capture_output=True, text=True, timeout=60, **kwargs)


# ---- markup ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["tally", "add", "[/bold]", "3"], "[/bold]: 3"),
        (["tally", "add", "[link=http://evil.example]click[/link]", "3"], "[link=http://evil.example]click[/link]: 3"),
        (["item", "[/x]", "+1"], "[/x]: 1"),
        (["odds", "SR [/],b,c"], "option 1 ([/]): 1/3"),
        (["note", "[red]not red[/red]"], "Noted"),
    ],
)
def test_markup_in_what_the_player_types_is_shown_as_written(args, shown):
    assert cli("new", "freeform").exit_code == 0
    result = cli(*args)
    assert result.exit_code == 0, result.stderr
    assert shown in result.stdout
    status = cli("status")
    assert status.exit_code == 0, status.stderr
    if args[0] in ("tally", "item"):
        assert args[2 if args[0] == "tally" else 1] in status.stdout


def test_a_session_named_with_markup_opens_and_shows_its_name():
    result = cli("new", "freeform", "--name", "[/bold]crypt")
    assert result.exit_code == 0, result.stderr
    assert cli("status").exit_code == 0


def test_no_live_hyperlink_or_colour_code_comes_from_a_name_at_a_terminal(tmp_path):
    """At a terminal, with colours on: rich would turn [link=...] into an OSC 8 hyperlink."""
    from tests.terminal import close, pty_spawn

    env = dict(os.environ, TERM="xterm-256color", COLUMNS="100")
    env.pop("NO_COLOR", None)
    assert cli("new", "freeform").exit_code == 0
    child = pty_spawn(
        sys.executable,
        ["-m", "companion", "tally", "add", "[link=http://evil.example]click[/link]", "3"],
        env=env,
        dimensions=(24, 100),
        timeout=60,
        encoding="utf-8",
    )
    raw = child.read()
    close(child)
    assert "\x1b]8;" not in raw and "evil.example]click" in raw


# ---- control characters ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["note", "innocent \x1bc note"], "'innocent ␛c note' holds a control character, U+001B (ESC)"),
        (["tally", "add", "\x1b[31mred", "3"], "holds a control character, U+001B (ESC)"),
        (["new", "freeform", "--name", "a\x9b2Jb"], "'a�2Jb' holds a control character, U+009B"),
        (["tally", "add", "two\nlines", "3"], "holds a control character, U+000A (line feed)"),
        (["note", "bad \udcff"], "'bad \\xff' is not UTF-8 text (byte 0xff); type it in UTF-8"),
        (["new", "freeform", "--name", "caf\udce9"], "is not UTF-8 text (byte 0xe9)"),
    ],
)
def test_control_characters_and_bytes_that_are_not_utf8_are_refused_at_the_door(args, said):
    assert cli("new", "freeform", "--name", "table").exit_code == 0
    result = cli(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert said in result.stderr and result.stderr.count("\n") == 1
    assert "\x1b" not in result.stderr and "\x9b" not in result.stderr
    assert open_session(_home(), "table").count == 0
    assert [line.split()[1] for line in cli("sessions").stdout.splitlines()[1:]] == ["table"]


def test_a_byte_that_is_not_utf8_on_a_real_command_line_is_refused():
    """As the issue's repro: bash passes the byte itself (no session is left half made)."""
    result = subprocess.run([*COMPANION, "new", "freeform", "--name", b"caf\xe9"], capture_output=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.decode() == "companion: 'caf\\xe9' is not UTF-8 text (byte 0xe9); type it in UTF-8\n"
    assert "no sessions" in cli("sessions").stdout.lower()


def _home():
    from pathlib import Path

    return Path(os.environ["COMPANION_HOME"])


def test_control_characters_kept_in_a_save_are_shown_as_pictures(tmp_path):
    """A save written elsewhere (or edited by hand) can hold them: they are shown, never sent raw."""
    assert cli("new", "freeform", "--name", "table").exit_code == 0
    nasty = "innocent \x1bc\x1b]0;owned\x07 \x9b2J note"
    session = open_session(_home(), "table")
    with session.files.locked():
        session.record({"t": "note", "text": nasty})
        session.record({"t": "tally", "op": "add", "name": "Gob\x1b[31mlin", "max": 3, "role": "", "monster": True})
    for args in (["log"], ["status"], ["tally"], ["export", "-"]):
        result = cli(*args)
        assert result.exit_code == 0, (args, result.stderr)
        out = result.stdout + result.stderr
        assert not any(c in out for c in "\x1b\x07\x9b"), (args, out)
        assert "␛" in out, (args, out)
    log = cli("log").stdout
    assert "innocent ␛c␛\\]0;owned␇ �2J note" in log  # the markdown escapes its bracket
    document = cli("export", "--format", "json", "-").stdout
    assert "\x9b" not in document and "\\u009b" in document
    assert nasty in _strings(json.loads(document))  # the same data, escaped
    page = tmp_path / "page.html"
    assert cli("export", "--format", "html", str(page)).exit_code == 0
    assert "\x1b" not in page.read_text(encoding="utf-8")


def _strings(data) -> list[str]:
    if isinstance(data, dict):
        return [s for v in data.values() for s in _strings(v)]
    if isinstance(data, list):
        return [s for v in data for s in _strings(v)]
    return [data] if isinstance(data, str) else []


def test_html_in_a_note_stays_text_in_the_page_and_the_log(tmp_path):
    assert cli("new", "freeform").exit_code == 0
    assert cli("note", "<script>alert(1)</script> **not bold**").exit_code == 0
    page = tmp_path / "page.html"
    assert cli("export", "--format", "html", str(page)).exit_code == 0
    html = page.read_text(encoding="utf-8")
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;" in html
    assert r"\<script\>alert(1)\</script\> \*\*not bold\*\*" in cli("log").stdout


# ---- one line for every mistake --------------------------------------------------------------


def test_a_full_stdout_after_the_roll_is_recorded_is_one_line_and_the_roll_is_kept():
    assert cli("new", "freeform", "--name", "table").exit_code == 0
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [*COMPANION, "roll", "2d6", "--got", "3,4"], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60
        )
    assert result.returncode == 1
    assert result.stderr == (
        "companion: cannot write to the output (No space left on device); companion status shows what is saved\n"
    )
    assert open_session(_home(), "table").count == 1


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["export", ""], "export '': that is a folder; give a file name (e.g. run.html), or - to print it"),
        (["roll", "1d6", "--got", "9" * 5000], "a number of more than 4,300 digits"),
        (["roll", "2d6+" + "9" * 5000], "(5,004 characters; dice are at most 200)"),
        (["roll", "2d6+" + "9" * 12], "a number of more than 9 digits"),
        (["hp", "+" + "9" * 5000], "is too big a change to HP: N goes from 0 to 999,999"),
        (["tally", "add", "Gob", "9" * 5000], "is not a valid int range"),
        (["note", "x" * 10_001], "an argument of 10,001 characters"),
    ],
)
def test_each_mistake_is_one_line(args, said):
    assert cli("new", "freeform", "--name", "table").exit_code == 0
    result = cli(*args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2, result.stderr
    assert said in result.stderr
    assert result.stderr.count("\n") <= 2 and len(result.stderr) < 600, result.stderr
    assert open_session(_home(), "table").count == 0


def test_an_unexpected_error_is_one_line_without_a_traceback(tmp_path):
    """Whatever nothing else explains still ends in one line (COMPANION_DEBUG=1 shows the traceback)."""
    code = (
        "import sys; from companion.cli import main as m\n"
        "import companion.cli.app as a\n"
        "a.root_command = lambda: (_ for _ in ()).throw(AttributeError('broken'))\n"
        "sys.exit(m.main(['status']))\n"
    )
    quiet = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert quiet.returncode == 1
    assert quiet.stderr == (
        "companion: unexpected error (AttributeError: broken); set COMPANION_DEBUG=1 to see the traceback\n"
    )
    loud = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COMPANION_DEBUG": "1"},
    )
    assert loud.returncode == 1 and "Traceback" in loud.stderr


def test_a_reader_that_left_the_pipe_ends_the_command_quietly(tmp_path):
    """``companion log | head -1``: once the reader has gone, companion stops writing and says nothing
    more (exit 1); what the command recorded stays (a full disk still says its line)."""
    import json
    import os
    import subprocess

    from tests.terminal import COMPANION

    env = dict(os.environ, COMPANION_HOME=str(tmp_path / "home"), COMPANION_LOGS=str(tmp_path / "logs"))
    assert subprocess.run([COMPANION, "new", "talisman", "--seed", "1"], env=env, capture_output=True).returncode == 0
    for args in (["dungeon", "areas"], ["roll", "2d6"]):
        read, write = os.pipe()
        os.close(read)  # the reader is gone before the first line
        try:
            done = subprocess.run([COMPANION, *args], env=env, stdout=write, stderr=subprocess.PIPE, text=True)
        finally:
            os.close(write)
        assert (done.returncode, done.stderr) == (1, ""), (args, done.stderr)
    status = subprocess.run([COMPANION, "status", "--json"], env=env, capture_output=True, text=True)
    assert json.loads(status.stdout)["events"] == 1, status.stdout
