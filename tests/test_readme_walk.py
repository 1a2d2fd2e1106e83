"""The README, top to bottom, as a newcomer types it: a fresh home and data folder, a folder that sees
the clone's examples/ (as the clone does), every example in the order the page gives it.

- Each ``sh`` and ``console`` block's commands run in turn; ``companion play`` runs at a terminal
  (a few answers, then ``q``; the second play resumes), the install step of completion runs in bash.
- A quoted output must be what is printed (the blocks are also checked on their own by
  tests/test_docs_quotes.py; here they are checked in the state the walk has reached: the game of
  the Quick start going, so the dice examples say where each roll went).
- Each command named in the prose (in backquotes, with no placeholder) runs too, in the order met;
  the few that need a session of a kind the walk is not in are listed with what they need.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests import docs_quotes as dq
from tests.helpers import cli

README = dq.REPO / "README.md"
#: Commands of the prose that cannot run as the walk stands, and why (the prose says what they need).
NEEDS = {
    "companion simulate talisman": "your party's numbers first (docs/balance.md enters house numbers)",
    "companion serve --lan --qr": "runs until stopped (tests/test_serve_seats.py runs it with its seats)",
    "companion roll DR room": "a session with a pack that has a room table (the block below starts one)",
    "companion roll check skill": "a pack with a skill check (examples/tables/glass-labyrinth.toml)",
    "companion fight start sword --foe warden": "a session with examples/tables/ashen-keep.toml",
    "companion fight round": "a fight started",
    "companion section back": "a second section to go back from",
    "companion odds fight pack sword --foe warden": "a session with examples/tables/ashen-keep.toml",
    "companion shell": "the shell block above runs it",
    "companion play": "the Quick start block runs it",
    "companion serve": "runs until stopped",
}
PLACEHOLDER = re.compile(r"\b[A-Z]{3,}\b|\.\.\.|\\\||…")


def _steps() -> list[tuple[str, object]]:
    """The README's examples in page order: ("block", Block) for a fenced block, ("line", command)
    for a command in the prose."""
    text = README.read_text(encoding="utf-8")
    lines = text.split("\n")
    blocks = {b.line: b for b in dq.blocks(README)}
    steps: list[tuple[str, object]] = []
    i = 0
    while i < len(lines):
        m = dq.FENCE.match(lines[i])
        if m:
            end = i + 1
            while not lines[end].startswith("```"):
                end += 1
            if i + 1 in blocks:
                steps.append(("block", blocks[i + 1]))
            elif m.group(1) == "sh":
                steps.append(("sh", lines[i + 1 : end]))
            i = end + 1
            continue
        for command in re.findall(r"`(companion [^`]+)`", lines[i]):
            steps.append(("line", command))
        i += 1
    return steps


def _companion_words(line: str) -> list[str] | None:
    """The companion command of a line of an sh block (after ``.venv/bin/`` or ``&&``), or None."""
    for part in line.split("&&"):
        words = shlex.split(part, comments=True)
        if words and words[0].endswith("companion") and not words[0].startswith("python"):
            return words[1:]
    return None


def _play(env: dict[str, str], keys: list[str]) -> list[str]:
    from tests.terminal import Terminal

    term = Terminal(env, "play", columns=80, lines=40)
    try:
        term.ready()
        for key in keys:
            if not term.key(key):
                break
        lines = term.all_lines()
    finally:
        term.kill()
    return [line.rstrip() for line in lines if line.strip()]


@pytest.mark.e2e
def test_the_readme_top_to_bottom_as_a_newcomer(tmp_path, isolated_home, monkeypatch):
    you = tmp_path / "you"
    (you / "clone").mkdir(parents=True)
    (you / "clone" / "examples").symlink_to(dq.REPO / "examples")
    for var in ("COMPANION_HOME", "COMPANION_LOGS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(you))
    monkeypatch.chdir(you / "clone")
    env = dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm-256color", COLUMNS="80", LINES="40")
    ran, skipped, plays = [], [], 0
    problems: list[str] = []
    for kind, step in _steps():
        if kind == "sh":
            for line in step:
                words = _companion_words(line)
                if words is None:
                    continue  # pip, pytest: the install and the test command, not the walk's
                if words[:2] == ["completion", "install"]:
                    done = subprocess.run(["bash", "--norc", "-c", line], env=env | {"PATH": _path()}, text=True,
                                          capture_output=True, timeout=120)  # fmt: skip
                    assert done.returncode == 0, done.stderr
                    assert (you / ".bashrc").read_text().count("bash-completion/completions/companion") == 2
                elif words[:1] == ["play"]:
                    plays += 1
                    screen = _play(env, ["1", "q\r"] if plays == 1 else ["q\r"])
                    if plays == 2:
                        assert any(s.startswith("Resuming inverted-tower-1 after 1 action") for s in screen), screen
                    assert any(s.startswith("Saved. Resume with: companion play") for s in screen), screen
                else:
                    result = cli(*words)
                    assert result.exit_code == 0, (line, result.stdout, result.stderr)
                ran.append(line)
        elif kind == "block":
            if step.kind == "commands":
                problems += dq.run_commands(dq.Block(step.page, step.line, step.lang, step.lines, "commands"), you)
            elif step.kind == "shell":
                problems += dq.check_shell(dq.Block(step.page, step.line, step.lang, step.lines, "shell"), tmp_path,
                                           env={"HOME": str(you)})  # fmt: skip
            ran.append(step.where)
        else:
            command = step
            if command.startswith("companion serve"):  # never run in-process: it would wait for ever
                assert command in NEEDS, f"{command!r}: say in NEEDS why the walk does not run it"
            if command in NEEDS or PLACEHOLDER.search(command):
                skipped.append(command)
                continue
            result = cli(*shlex.split(command)[1:])
            if result.exit_code != 0:
                problems.append(f"{command!r} exited {result.exit_code}: {result.stderr.strip()}")
            ran.append(command)
    assert not problems, "\n\n".join(problems)
    assert plays == 2 and len(ran) >= 20, ran
    assert not (set(NEEDS) - set(skipped)), "a command NEEDS names is no longer in the README"
    assert not any(p.name != "examples" for p in (you / "clone").iterdir() if p.name != "logs")


def _path() -> str:
    """The venv's commands first (the README: put .venv/bin on your PATH), then the system's."""
    return f"{Path(sys.executable).parent}{os.pathsep}/usr/bin{os.pathsep}/bin"
