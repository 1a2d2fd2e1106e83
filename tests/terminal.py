"""A companion process in a pseudo-terminal, its screen rendered by pyte as a person would see it.

Everything the process writes goes through a pyte terminal of the same size, with a scroll-back
history, so a test can read every line that was ever on the screen, not just the last page.

:func:`edge_problems` is the screen check of the guide: companion writes nothing in a terminal's last
column (see ``companion.shell.prompts.columns``), so a character there is a word the terminal broke
across two lines, or a message cut at the edge.
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
UP, DOWN, ENTER, BACKSPACE = "\x1b[A", "\x1b[B", "\r", "\x7f"
#: Generous: these machines are shared and busy. Nothing waits this long when all is well.
TIMEOUT = 60


def terminal_env(home: Path, columns: int = 80, lines: int = 24) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        COMPANION_HOME=str(home / "home"),
        COMPANION_LOGS=str(home / "logs"),
        PROMPT_TOOLKIT_NO_CPR="1",
        TERM="xterm-256color",
        COLUMNS=str(columns),
        LINES=str(lines),
    )
    env.pop("NO_COLOR", None)
    return env


class Terminal:
    def __init__(self, env: dict[str, str], *args: str, columns: int = 80, lines: int = 24) -> None:
        self.columns, self.lines = columns, lines
        self.screen = pyte.HistoryScreen(columns, lines, history=100_000, ratio=0.5)
        self.stream = pyte.Stream(self.screen)
        self.raw = ""
        self.child = pexpect.spawn(
            COMPANION, list(args), env=env, dimensions=(lines, columns), encoding="utf-8", timeout=TIMEOUT
        )

    # ---- reading -----------------------------------------------------------------------------
    def pump(self, timeout: float = 0.05) -> bool:
        """Feed what the process wrote meanwhile into the screen; False once it has exited."""
        try:
            chunk = self.child.read_nonblocking(65536, timeout=timeout)
        except pexpect.TIMEOUT:
            return True
        except pexpect.EOF:
            return False
        self.raw += chunk
        self.stream.feed(chunk)
        return True

    def settle(self, quiet: float = 0.15, limit: float = TIMEOUT) -> bool:
        """Read until the process has been quiet for ``quiet`` seconds (or has exited)."""
        deadline = time.monotonic() + limit
        last = time.monotonic()
        size = len(self.raw)
        while time.monotonic() < deadline:
            if not self.pump(0.05):
                return False
            if len(self.raw) != size:
                size, last = len(self.raw), time.monotonic()
            elif time.monotonic() - last >= quiet:
                return True
        return self.child.isalive()

    def prompting(self) -> bool:
        """Whether a prompt is open now: prompt_toolkit turns bracketed paste on while it reads a
        key and off when it is done, so keys sent now reach the prompt (not the terminal's echo)."""
        return self.raw.rfind("\x1b[?2004h") > self.raw.rfind("\x1b[?2004l")

    def ready(self, quiet: float = 0.05, limit: float = TIMEOUT) -> bool:
        """Wait until a prompt is open and drawn; False once the process has exited."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if not self.settle(quiet, limit):
                return False
            if self.prompting():
                return True
        raise AssertionError(f"no prompt within {limit} s; the screen:\n{self.display()}")

    def wait_for(self, text: str, timeout: float = TIMEOUT) -> None:
        """Wait until ``text`` is on the visible screen."""
        deadline = time.monotonic() + timeout
        while text not in self.display():
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} never appeared; the screen:\n{self.display()}")
            if not self.pump(0.1) and text not in self.display():
                raise AssertionError(f"companion exited before {text!r}; the screen:\n{self.display()}")

    def display(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def all_lines(self) -> list[str]:
        """Every line ever shown: the scroll-back, then the screen."""
        width = self.columns
        history = ["".join(row[x].data for x in range(width)) for row in self.screen.history.top]
        return history + list(self.screen.display)

    # ---- writing -----------------------------------------------------------------------------
    def send(self, keys: str) -> None:
        self.child.send(keys)

    def key(self, keys: str, echo: float = 3.0) -> bool:
        """Press ``keys`` and wait for the next prompt; False once the process has exited.

        It first waits (up to ``echo`` seconds: a key may change nothing on screen) for the screen to
        answer the key, so the prompt found open is not the one the key has just closed.
        """
        size = len(self.raw)
        self.send(keys)
        deadline = time.monotonic() + echo
        while len(self.raw) == size and time.monotonic() < deadline:
            if not self.pump(0.05):
                return False
        return self.ready()

    def seen(self, text: str, timeout: float = TIMEOUT) -> None:
        """Wait until ``text`` has been on the screen (now or in the scroll-back)."""
        deadline = time.monotonic() + timeout
        while text not in "\n".join(self.all_lines()):
            if time.monotonic() > deadline or not self.pump(0.1):
                raise AssertionError(f"{text!r} never appeared; the screen:\n{self.display()}")

    def finish(self) -> int:
        """Wait for the end; the exit code."""
        while self.pump(0.1):
            pass
        self.child.close()
        return self.child.exitstatus if self.child.exitstatus is not None else -self.child.signalstatus

    def kill(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)


TRACEBACK = re.compile(r"Traceback \(most recent call last\)")


def edge_problems(lines: list[str], columns: int) -> list[str]:
    """Lines that reach the last column (a word broken by the terminal or a message cut at the edge),
    each shown with the next line so a failure reads like the screen."""
    problems = []
    for i, line in enumerate(lines):
        if len(line) >= columns and line[columns - 1].strip():
            after = lines[i + 1].rstrip() if i + 1 < len(lines) else ""
            problems.append(f"{line.rstrip()}⏎\n{after}")
    return problems


def broken_words(lines: list[str], columns: int) -> list[str]:
    """Word characters on both sides of a line end that reaches the edge: a word split in two."""
    found = []
    for i in range(len(lines) - 1):
        a, b = lines[i], lines[i + 1]
        if len(a) >= columns and a[columns - 1].isalnum() and b[:1].isalnum():
            found.append(f"{a.rstrip()}|{b.rstrip()}")
    return found
