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

from tests.terminal import PASTE_OFF, close, prompt_open

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
        # pexpect pauses 50 ms before each send (for programs that read a password right after
        # echoing a prompt); the shell's prompt reads keys as they come, typed ahead or not.
        self.child.delaybeforesend = None
        outer = self

        class Screen(pyte.Screen):
            def write_process_input(self, data: str) -> None:
                if cpr:
                    outer.child.send(data)

        self.screen = Screen(cols, rows)
        self.screen.set_mode(pyte.modes.LNM)
        self.stream = pyte.Stream(self.screen)
        self.transcript = ""

    def read(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for output and take what came; False once the process has
        exited (its output all read)."""
        try:
            data = self.child.read_nonblocking(100_000, timeout=max(timeout, 0))
        except pexpect.TIMEOUT:
            return True
        except pexpect.EOF:
            return False
        self.transcript += data
        self.stream.feed(data)
        return True

    def wait_for(self, text: str, timeout: float = 30, *, bottom: int = 0) -> None:
        """Read until ``text`` is on the screen (as a person would see it), or on its ``bottom`` rows."""
        end = time.monotonic() + timeout
        while text not in "\n".join(self.display().split("\n")[-bottom:]):
            if time.monotonic() > end or not self.read(end - time.monotonic()):
                raise AssertionError(f"{text!r} never appeared; the screen:\n{self.display()}")

    def ready(self, timeout: float = 60) -> None:
        """Wait until a prompt is open and drawn: keys typed now reach it, as a person types at the
        prompt they see (keys typed while a command runs are the terminal's, and a Ctrl-D then is
        the terminal's end of file, not the shell's)."""
        end = time.monotonic() + timeout
        while not prompt_open(self.transcript):
            if time.monotonic() > end or not self.read(end - time.monotonic()):
                raise AssertionError(f"no prompt within {timeout} s; the screen:\n{self.display()}")

    def line(self, keys: str, expect: str, timeout: float = 60) -> str:
        """At the prompt, type ``keys`` and wait until ``expect`` is printed after them, once the
        prompt has taken them (not in the echo of what was typed); what was printed since."""
        self.ready(timeout)
        mark = len(self.transcript)
        self.child.send(keys)
        end = time.monotonic() + timeout
        while True:
            since = self.transcript[mark:]
            taken = since.find(PASTE_OFF)
            if taken >= 0 and expect in ANSI.sub("", since[taken:]):
                return ANSI.sub("", since)
            if time.monotonic() > end or not self.read(end - time.monotonic()):
                raise AssertionError(f"{expect!r} never came after {keys!r}; since then:\n{ANSI.sub('', since)}")

    def typed(self, keys: str, shows: str, timeout: float = 30) -> None:
        """Type ``keys`` (no Enter) and wait until the line being typed ends with ``shows``: the keys
        drawn, or what Tab completed them to."""
        self.ready(timeout)
        self.child.send(keys)
        end = time.monotonic() + timeout
        while not self.before_cursor().endswith(shows):
            if time.monotonic() > end or not self.read(end - time.monotonic()):
                raise AssertionError(f"{keys!r} never showed {shows!r}; the screen:\n{self.display()}")

    def send(self, keys: str) -> None:
        """At the prompt, type ``keys``."""
        self.ready()
        self.child.send(keys)

    def before_cursor(self) -> str:
        """The line being typed, up to the cursor (not the suggestion from history drawn after it)."""
        cursor = self.screen.cursor
        return self.screen.display[cursor.y][: cursor.x].rstrip()

    def display(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def plain(self) -> str:
        return ANSI.sub("", self.transcript)

    def close(self, timeout: float = 60) -> int:
        """Read to the end of the output; the exit code."""
        end = time.monotonic() + timeout
        while self.read(end - time.monotonic()):
            if time.monotonic() > end:
                raise AssertionError(f"companion still running after {timeout} s; the screen:\n{self.display()}")
        return close(self.child)  # all its output is read: it has exited or is exiting
