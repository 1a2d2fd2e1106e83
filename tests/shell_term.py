"""A real pseudo-terminal for ``companion shell`` tests: pexpect runs it, pyte keeps the screen.

``cpr=True`` answers prompt_toolkit's cursor-position requests from the pyte screen, as a real
terminal does; prompt_toolkit draws the bottom toolbar only when it knows the rows below the cursor.
Without it PROMPT_TOOLKIT_NO_CPR=1 is set (the toolbar is then not drawn).
"""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import pexpect
import pyte

COMPANION = str(Path(sys.executable).with_name("companion"))
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\r")
TAB, ENTER, CTRL_C, CTRL_D = "\t", "\r", "\x03", "\x04"


class Term:
    def __init__(self, *args: str, cols: int = 80, rows: int = 24, cpr: bool = False, env: dict | None = None) -> None:
        environ = dict(os.environ, TERM="xterm", COLUMNS=str(cols), LINES=str(rows), **(env or {}))
        environ.pop("PROMPT_TOOLKIT_NO_CPR", None)
        if not cpr:
            environ["PROMPT_TOOLKIT_NO_CPR"] = "1"
        self.child = pexpect.spawn(
            COMPANION, list(args), env=environ, dimensions=(rows, cols), encoding="utf-8", timeout=30
        )
        outer = self

        class Screen(pyte.Screen):
            def write_process_input(self, data: str) -> None:
                if cpr:
                    outer.child.send(data)

        self.screen = Screen(cols, rows)
        self.screen.set_mode(pyte.modes.LNM)
        self.stream = pyte.Stream(self.screen)
        self.transcript = ""

    def pump(self, seconds: float = 0.3) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                data = self.child.read_nonblocking(100_000, timeout=0.1)
            except pexpect.TIMEOUT:
                continue
            except pexpect.EOF:
                return
            self.transcript += data
            self.stream.feed(data)

    def wait_for(self, text: str, timeout: float = 30) -> None:
        """Read until ``text`` is on the screen (as a person would see it)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if text in self.display():
                return
            self.pump(0.2)
        raise AssertionError(f"{text!r} never appeared; the screen:\n{self.display()}")

    def line(self, keys: str, expect: str, timeout: float = 60) -> str:
        """Type ``keys`` and wait until ``expect`` is printed after them; what was printed since."""
        mark = len(self.transcript)
        self.child.send(keys)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            since = ANSI.sub("", self.transcript[mark:])
            if expect in since:
                return since
            self.pump(0.2)
        since = ANSI.sub("", self.transcript[mark:])
        raise AssertionError(f"{expect!r} never came after {keys!r}; since then:\n{since}")

    def send(self, keys: str, settle: float = 0.5) -> None:
        self.child.send(keys)
        self.pump(settle)

    def display(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def plain(self) -> str:
        return ANSI.sub("", self.transcript)

    def close(self) -> int:
        self.child.expect(pexpect.EOF, timeout=60)
        self.pump(0.1)
        self.child.close()
        return self.child.exitstatus
