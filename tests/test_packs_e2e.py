"""Table packs in a real pseudo-terminal: physical dice typed at the prompt for each table of a chain,
a check against a tracker, an effect, undo; and the screens read at 80 and 120 columns (pyte)."""

from __future__ import annotations

import itertools
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

from tests.terminal import close, pty_spawn, run_cli  # noqa: E402

pytestmark = pytest.mark.e2e

COMPANION = str(Path(sys.executable).with_name("companion"))
EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "tables"
CRYPT = str(EXAMPLES / "sunken-crypt.toml")
LABYRINTH = str(EXAMPLES / "glass-labyrinth.toml")


@pytest.fixture
def env(isolated_home, tmp_path):
    e = dict(os.environ)
    e.update(
        COMPANION_HOME=str(isolated_home),
        COMPANION_LOGS=str(tmp_path / "logs"),
        PROMPT_TOOLKIT_NO_CPR="1",
        TERM="xterm",
    )
    e.pop("COMPANION_SESSION", None)
    e.pop("NO_COLOR", None)
    return e


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    """The steps around the terminal, in this process (the screens and the prompt run in a pty)."""
    return run_cli(env, *args)


def screen(env: dict[str, str], cols: int, *args: str) -> tuple[int, list[str]]:
    """Run ``companion ARGS`` in a pty ``cols`` wide; its exit code and the screen's lines (pyte)."""
    child = pty_spawn(
        COMPANION, list(args), env={**env, "COLUMNS": str(cols)}, dimensions=(60, cols), encoding="utf-8", timeout=30
    )
    out = child.read()
    close(child)
    term = pyte.Screen(cols, 60)
    stream = pyte.Stream(term)
    stream.feed(out.replace("\n", "\r\n"))
    lines = [line.rstrip() for line in term.display]
    return child.exitstatus, [line for line in lines if line]


def test_a_chain_typed_at_the_prompt_a_check_an_effect_and_undo(env):
    assert run(env, "new", "freeform", "--physical", "--seed", "1", "--tables", CRYPT).returncode == 0
    assert run(env, "room", "3", "The bone gallery").returncode == 0
    child = pty_spawn(COMPANION, ["roll", "DR", "room"], env=env, dimensions=(24, 80), encoding="utf-8", timeout=30)
    child.expect("DR room: roll 1d6 and type what the dice show")
    child.send("9\r")  # not a face of a d6: refused at the prompt, asked again
    child.expect("not a face of a d6")
    child.sendcontrol("u")
    child.send("5\r")  # 4-5: Something stirs: roll on [monster]
    child.expect("DR monster: roll 2d6 and type what the dice")
    child.send("5 6\r")  # 11: a crypt guard with a purse: roll on [treasure]
    child.expect("DR treasure: roll 1d6")
    child.send("2\r")  # 1-3: A few coins, gold +1
    child.expect(pexpect.EOF)
    close(child)
    assert child.exitstatus == 0
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", child.before or "")
    assert "gold +1 → Gold: 1" in text

    log = run(env, "log").stdout
    room = log[log.index("- Room 3: The bone gallery") :]
    assert "  - d: `DR room` → `[5]` → **5: Something stirs: roll on \\[monster\\]** · physical" in room
    assert "  - d: `DR monster` → `[5] [6]` = 11 → **11: A crypt guard (4 hits), with a purse: roll on" in room
    assert (
        "  - d: `DR treasure` → `[2]` → **2: A few coins** · physical — What glints in the silt, from monster" in room
    )
    assert "  - Gold: 1 (treasure: Gold +1)" in room

    check = run(env, "roll", "check", "swim", "--got", "2")
    assert check.returncode == 0, check.stderr
    assert "hp -1 → HP: 9/10" in check.stdout
    assert "Undone: Swim a flooded passage: [2] → fail" in run(env, "undo").stdout
    status = run(env, "status", "--json")
    counters = __import__("json").loads(status.stdout)["state"]["trackers"]["counters"]
    assert counters["hp"]["value"] == 10 and counters["gold"]["value"] == 1


@pytest.mark.parametrize("cols", [80, 120])
def test_pack_screens_fit_and_break_no_word(env, cols):
    assert run(env, "new", "freeform", "--seed", "4", "--tables", LABYRINTH).returncode == 0
    folder = Path(env["COMPANION_HOME"]) / "tables"  # the crypt from the player's folder
    folder.mkdir(parents=True)
    (folder / "sunken-crypt.toml").write_text(Path(CRYPT).read_text(encoding="utf-8"), encoding="utf-8")
    words: set[str] = set()
    for path in (CRYPT, LABYRINTH):
        for m in re.finditer(r'(?:result|title) = "([^"]+)"', Path(path).read_text(encoding="utf-8")):
            words.update(w for w in re.findall(r"[A-Za-z]{4,}", m.group(1)))
    shown: list[str] = []
    for args in (
        ("odds", "DR", "monster"),
        ("odds", "DR", "wanderer"),
        ("tables", "list"),
        ("tables", "show", "sunken-crypt"),
        ("roll", "DR", "room", "--got", "6/4"),
        ("roll", "check", "climb", "--got", "6,6"),
        ("odds", "check", "luck"),
    ):
        code, lines = screen(env, cols, *args)
        assert code == 0, (args, lines)
        assert all(len(line) <= cols for line in lines)
        shown.extend(lines)
    text = "\n".join(shown)
    seen = {w for w in words if w in text}
    assert len(seen) > 20  # the screens show the packs' rows
    for line_a, line_b in itertools.pairwise(shown):
        if "/" in line_a:  # a file path longer than the screen has to wrap somewhere
            continue
        if len(line_a) == cols and line_a[-1].isalpha() and line_b[:1].isalpha():
            pytest.fail(f"a word is broken across two lines at {cols} columns:\n{line_a}\n{line_b}")
    assert "check climb (2d6<=7, SKILL 9)  [6] [6] = 12  → fail" in text
    assert "STAMINA -2 → STAMINA: 16/18" in text


FAIR = str(EXAMPLES / "lantern-fair.toml")


def test_d66_and_a_drawn_row_typed_at_the_prompt(env):
    assert run(env, "new", "freeform", "--physical", "--tables", FAIR).returncode == 0
    assert run(env, "roll", "DR", "fortune", "--got", "4").returncode == 0  # The Well is drawn
    child = pty_spawn(COMPANION, ["roll", "DR", "stall"], env=env, dimensions=(24, 80), encoding="utf-8", timeout=30)
    child.expect("the tens die, then the units die")
    child.expect("3 5 or 35")  # the hint says how a d66 is typed, not "one number for their total"
    child.send("47\r")  # a d66 has no 7
    child.expect("is not a d66 roll")
    child.sendcontrol("u")
    child.send("43\r")  # 41-46: a fortune teller, draw from [fortune]
    child.expect("DR fortune: roll 1d6")
    child.send("4\r")  # The Well was drawn already: refused at the prompt, asked again
    child.expect("drawn already")
    child.sendcontrol("u")
    child.send("5\r")
    child.expect(pexpect.EOF)
    close(child)
    assert child.exitstatus == 0
    log = run(env, "log").stdout
    assert "- d: `DR stall` → `[4] [3]` = 43 → **43: A fortune teller: draw from \\[fortune\\]** · physical" in log
    assert "- d: `DR fortune` → `[5]` → **5: The Kite: a stranger owes you a favour** · physical" in log


@pytest.mark.parametrize("cols", [80, 120])
def test_the_new_pack_screens_fit_and_break_no_word(env, cols):
    assert run(env, "new", "freeform", "--seed", "6", "--tables", FAIR).returncode == 0
    assert run(env, "roll", "DR", "fortune", "--got", "2").returncode == 0
    shown: list[str] = []
    for args in (
        ("odds", "DR", "stall"),
        ("odds", "DR", "wares"),
        ("odds", "DR", "fortune"),
        ("roll", "DR", "stall", "--row", "33"),
        ("roll", "DR", "rumour", "--got", "6"),
        ("tables", "reset", "fortune"),
        ("tables", "show", "lantern-fair"),
    ):
        code, lines = screen(env, cols, *args)
        assert code == 0, (args, lines)
        assert all(len(line) <= cols for line in lines)
        shown.extend(lines)
    text = "\n".join(shown)
    assert "1 of 6 rows drawn (draw = unique)" in text
    assert "DR stall (d66)  row 33  → Two stalls share one awning: [wares x2]  · chosen" in text
    assert "DR fortune: 1 drawn row is back" in text
    for line_a, line_b in itertools.pairwise(shown):
        if "/" in line_a:  # a file path longer than the screen has to wrap somewhere
            continue
        if len(line_a) == cols and line_a[-1].isalpha() and line_b[:1].isalpha():
            pytest.fail(f"a word is broken across two lines at {cols} columns:\n{line_a}\n{line_b}")


@pytest.mark.parametrize("cols", [80, 120])
def test_import_and_export_screens_fit_and_break_no_word(env, cols, tmp_path):
    data = Path(__file__).resolve().parent / "data" / "tables"
    shown: list[str] = []
    for args in (
        ("tables", "import", str(data / "old-datasworn.json")),
        ("tables", "import", str(EXAMPLES / "hedge-witch.md")),
        ("tables", "export", "hedge-witch", str(tmp_path / "hw.md")),
        ("tables", "export", "hedge-witch", str(tmp_path / "hw"), "--format", "foundry"),
    ):
        code, lines = screen(env, cols, *args)
        assert code == 0, (args, lines)
        shown.extend(lines)
    text = " ".join(shown)
    assert "note: rolls Datasworn leaves to the player (auto: false) are made every time" in " ".join(text.split())
    for line_a, line_b in itertools.pairwise(shown):
        if "/" in line_a:  # a file path longer than the screen has to wrap somewhere
            continue
        if len(line_a) == cols and line_a[-1].isalpha() and line_b[:1].isalpha():
            pytest.fail(f"a word is broken across two lines at {cols} columns:\n{line_a}\n{line_b}")
