"""Every menu, panel and transcript quoted in docs/ (and the README) is what companion prints today.

Each page's quoted screens are run again (tests/docs_quotes.py says how a block says what it is) and
compared with the page: a one-shot command's output, a guided game at a terminal, the shell, an
example log. A block that quotes something and says nothing of what it is fails here: check it, or
take it out.
"""

from __future__ import annotations

import os

import pytest

from tests import docs_quotes as dq

ALL = [b for page in dq.PAGES for b in dq.blocks(page)]
KINDS = {"commands", "play", "shell", "file", "figures", "none"}


def test_every_quoted_block_says_what_it_is():
    unknown = [f"{b.where}: {b.lines[:1]}" for b in ALL if b.kind not in KINDS]
    assert not unknown, "a quote with no <!-- screen: ... --> comment (tests/docs_quotes.py):\n" + "\n".join(unknown)
    assert sum(b.kind == "commands" for b in ALL) >= 40
    assert sum(b.kind == "play" for b in ALL) >= 5


def test_no_page_promises_a_menu_entry_that_is_gone():
    """The menus end with Undo and Save and quit; the dice switch on v/p (#40)."""
    said = [f"{p.relative_to(dq.REPO)}" for p in dq.PAGES if "Switch virtual/physical" in p.read_text(encoding="utf-8")]
    assert not said, said


PAGES_WITH_COMMANDS = sorted({b.page for b in ALL if b.kind == "commands"})


@pytest.mark.parametrize("page", PAGES_WITH_COMMANDS, ids=[str(p.relative_to(dq.REPO)) for p in PAGES_WITH_COMMANDS])
def test_the_transcripts_of_a_page_are_what_the_commands_print(page, isolated_home, tmp_path, monkeypatch):
    """The page's `$ companion ...` lines, in order, typed in a home of its own (read as /home/you,
    its default folders; a block may ask for a fresh home, or a folder of it) that sees the clone's
    examples/ and tests/ (as docs/tables.md has the player arrange)."""
    for var in ("COMPANION_HOME", "COMPANION_LOGS", "COMPANION_TABLES"):
        monkeypatch.delenv(var, raising=False)
    problems: list[str] = []
    you = None
    for n, block in enumerate(b for b in ALL if b.page == page and b.kind == "commands"):
        if you is None or "fresh" in block.args:
            you = tmp_path / f"you-{n}"
            you.mkdir()
            for name in ("examples", "tests"):
                (you / name).symlink_to(dq.REPO / name)
            monkeypatch.setenv("HOME", str(you))
            here = dq.folder_of_your_own(page, you) or you  # as the page has you make it, from the clone
        monkeypatch.chdir(here)
        problems += dq.run_commands(block, you, int(block.option("columns", "80") or 80))
    assert not problems, "\n\n".join(problems)


PLAYED = [b for b in ALL if b.kind == "play"]


@pytest.mark.parametrize("block", PLAYED, ids=[b.where for b in PLAYED])
def test_a_guided_game_quoted_is_what_the_terminal_shows(block, tmp_path, isolated_home):
    problems = dq.check_play(block, tmp_path)
    assert not problems, "\n".join(problems)


SHELLS = [b for b in ALL if b.kind == "shell"]


@pytest.mark.parametrize("block", SHELLS, ids=[b.where for b in SHELLS])
def test_a_shell_quoted_is_what_the_shell_prints(block, tmp_path, isolated_home):
    problems = dq.check_shell(block, tmp_path)
    assert not problems, "\n".join(problems)


def test_the_lines_quoted_from_files_are_in_them():
    problems = [p for b in ALL if b.kind == "file" for p in dq.check_file(b)]
    assert not problems, "\n".join(problems)


def test_the_comparison_fails_on_a_changed_line():
    """The check itself: a quote that differs by a character, a line left out or added, fails."""
    shown = ["a", "b", "c", "d"]
    assert dq.matches(["a", "b", "c", "d"], shown, anchored=True) is None
    assert dq.matches(["a", "...", "d"], shown, anchored=True) is None
    assert dq.matches(["a", "b", "c", "D"], shown, anchored=True)
    assert dq.matches(["a", "b", "c"], shown, anchored=True)  # d printed, not quoted
    assert dq.matches(["b", "c"], shown, anchored=False) is None
    assert dq.matches(["c", "b"], shown, anchored=False)
    assert dq.matches(["a", "c"], shown, anchored=False)  # a run is consecutive lines
    assert os.path.isdir(dq.REPO / "docs")
