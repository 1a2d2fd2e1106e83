"""A companion process in a pseudo-terminal, its screen rendered by pyte as a person would see it.

Everything the process writes goes through a pyte terminal of the same size, with a scroll-back
history, so a test can read every line that was ever on the screen, not just the last page.

Waiting is on events, not on quiet periods: prompt_toolkit turns bracketed paste on (``ESC[?2004h``)
when a prompt opens and off when it is done, and each drawing of a prompt ends with the same two
sequences (autowrap back on, attributes reset: ``ESC[?7h ESC[0m``, then perhaps "show the cursor"),
the last drawing of a finished prompt right after an erase-down (``ESC[J``). So a prompt is open and
fully drawn exactly when the output so far ends with a drawing that is not a finished prompt's, while
bracketed paste is on. The reader blocks until the process writes, and checks that after each read.

pyte reads the output only when a test looks at the screen (``screen``, ``display``, ``all_lines``):
its parser is incremental, so the screen is the same as if it had been fed every chunk as it came.

:func:`edge_problems` is the screen check of the guide: companion writes nothing in a terminal's last
column (see ``companion.shell.prompts.columns``), so a character there is a word the terminal broke
across two lines, or a message cut at the edge.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pyte
from pyte.screens import Margins

COMPANION = str(Path(sys.executable).with_name("companion"))
UP, DOWN, ENTER, BACKSPACE = "\x1b[A", "\x1b[B", "\r", "\x7f"
#: Generous: these machines are shared and busy. Nothing waits this long when all is well.
TIMEOUT = 60
PASTE_ON, PASTE_OFF = "\x1b[?2004h", "\x1b[?2004l"
#: The end of a prompt_toolkit drawing (see prompt_toolkit.renderer._output_screen_diff), and of the
#: last drawing of a prompt that is done (the cursor moved under it and the rest erased).
DRAWN = re.compile(r"\x1b\[\?7h\x1b\[0m(?:\x1b\[\?12l\x1b\[\?25h)?\Z")
DONE = re.compile(r"\x1b\[J\x1b\[\?7h\x1b\[0m(?:\x1b\[\?12l\x1b\[\?25h)?\Z")


def prompt_open(raw: str) -> bool:
    """Whether the output ``raw`` ends with a prompt that is open and fully drawn: bracketed paste on,
    and a drawing just ended that is not the last one of a prompt that is closing."""
    tail = raw[-40:]
    return DRAWN.search(tail) is not None and DONE.search(tail) is None and raw.rfind(PASTE_ON) > raw.rfind(PASTE_OFF)


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


def run_cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """``companion ARGS`` run in this process (typer's CliRunner) with ``env``, given back as
    ``subprocess.run`` gives a process: for the steps of a terminal test that set up a session or read
    it afterwards, where a process's start-up (most of a short command's time) proves nothing.
    An exception that is not an exit is raised, as a process would print its traceback."""
    from companion import i18n
    from tests.helpers import cli

    i18n.activate(None)  # a new process starts in English
    try:
        result = cli(*args, env=env)
    finally:
        i18n.activate(None)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return subprocess.CompletedProcess(["companion", *args], result.exit_code, result.stdout, result.stderr)


def prepare(env: dict[str, str], *args: str) -> str:
    """Run ``companion ARGS`` in this process (see :func:`run_cli`) to set up what a terminal test
    then plays (a new session); fails on a non-zero exit. What it printed."""
    result = run_cli(env, *args)
    assert result.returncode == 0, (args, result.stdout, result.stderr)
    return result.stdout


def pty_spawn(command: str, args: list[str], **kwargs) -> pexpect.spawn:
    """``pexpect.spawn`` for a test that sends keys only once it has seen the prompt they answer.

    prompt_toolkit puts the terminal in raw mode before it draws a prompt, so keys sent as soon as
    the prompt shows are read by it; pexpect's 50 ms pause before each send (for programs that turn
    echo off right after printing a password prompt) only costs time here.
    """
    child = pexpect.spawn(command, args, **kwargs)
    child.delaybeforesend = None
    return child


def close(child: pexpect.spawn) -> int:
    """Close ``child`` once its output has been read to the end, and give its exit code (-N for signal
    N). It is reaped first: pexpect's close otherwise sleeps 0.1 s to let the kernel note the exit."""
    child.wait()
    child.ptyproc.delayafterclose = 0
    child.close()
    return child.exitstatus if child.exitstatus is not None else -child.signalstatus


class Scrollback(pyte.Screen):
    """A pyte screen that keeps every line scrolled off its top: pyte's HistoryScreen without the
    paging (which wraps every event of the parser and costs most of the feeding time)."""

    def __init__(self, columns: int, lines: int) -> None:
        self.history: list = []
        super().__init__(columns, lines)

    def index(self) -> None:
        top, bottom = self.margins or Margins(0, self.lines - 1)
        if self.cursor.y == bottom:
            self.history.append(self.buffer[top])
        super().index()

    def erase_in_display(self, how: int = 0, *args, **kwargs) -> None:
        super().erase_in_display(how, *args, **kwargs)
        if how == 3:  # "erase the saved lines"
            self.history.clear()


class Terminal:
    def __init__(self, env: dict[str, str], *args: str, columns: int = 80, lines: int = 24) -> None:
        self.columns, self.lines = columns, lines
        self._screen = Scrollback(columns, lines)
        self.stream = pyte.Stream(self._screen)
        self.raw = ""
        self._fed = 0
        self.child = pexpect.spawn(
            COMPANION, list(args), env=env, dimensions=(lines, columns), encoding="utf-8", timeout=TIMEOUT
        )
        # Keys are sent only to a prompt that is open and drawn: pexpect's 50 ms pause before each
        # send (for programs that read a password right after echoing a prompt) only costs time here.
        self.child.delaybeforesend = None

    # ---- reading -----------------------------------------------------------------------------
    def read(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for output and take what came; False once the process has
        exited (its output all read)."""
        try:
            self.raw += self.child.read_nonblocking(1 << 20, timeout=max(timeout, 0))
        except pexpect.TIMEOUT:
            pass
        except pexpect.EOF:
            return False
        return True

    def settle(self, quiet: float = 0.15, limit: float = TIMEOUT) -> bool:
        """Read until the process has been quiet for ``quiet`` seconds (or has exited)."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            size = len(self.raw)
            if not self.read(quiet):
                return False
            if len(self.raw) == size:
                return True
        return self.child.isalive()

    def prompting(self) -> bool:
        """Whether a prompt is open now: prompt_toolkit turns bracketed paste on while it reads a
        key and off when it is done, so keys sent now reach the prompt (not the terminal's echo)."""
        return self.raw.rfind(PASTE_ON) > self.raw.rfind(PASTE_OFF)

    def at_prompt(self) -> bool:
        """Whether a prompt is open and its drawing is complete: all the output so far is read, up to
        the end of a drawing of an open prompt (not the last one of a prompt that is closing)."""
        return prompt_open(self.raw)

    def ready(self, limit: float = TIMEOUT) -> bool:
        """Wait until a prompt is open and drawn; False once the process has exited."""
        deadline = time.monotonic() + limit
        while not self.at_prompt():
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no prompt within {limit} s; the screen:\n{self.display()}")
            if not self.read(left):
                return False
        return True

    def wait_for(self, text: str, timeout: float = TIMEOUT) -> None:
        """Wait until ``text`` is on the visible screen."""
        deadline = time.monotonic() + timeout
        while text not in self.display():
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{text!r} never appeared; the screen:\n{self.display()}")
            if not self.read(left) and text not in self.display():
                raise AssertionError(f"companion exited before {text!r}; the screen:\n{self.display()}")

    @property
    def screen(self) -> Scrollback:
        """The pyte screen, up to date with everything read so far."""
        if self._fed < len(self.raw):
            self.stream.feed(self.raw[self._fed :])
            self._fed = len(self.raw)
        return self._screen

    def display(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def all_lines(self) -> list[str]:
        """Every line ever shown: the scroll-back, then the screen."""
        screen, width = self.screen, self.columns
        history = ["".join(row[x].data for x in range(width)) for row in screen.history]
        return history + list(screen.display)

    # ---- writing -----------------------------------------------------------------------------
    def send(self, keys: str) -> None:
        self.child.send(keys)

    def key(self, keys: str, echo: float = 10.0) -> bool:
        """Press ``keys`` and wait for the next prompt; False once the process has exited.

        It first waits for the screen to answer the key, so the prompt found open is not the one the
        key has just closed: for a line typed and entered (``"3 4" + ENTER``), until that prompt has
        closed (a redraw of it showing part of the line is not the answer); for one key, up to
        ``echo`` seconds for any output (a key may change nothing on screen).
        """
        size = len(self.raw)
        self.send(keys)
        line = len(keys) > 1 and keys.endswith(ENTER) and keys != ENTER
        deadline = time.monotonic() + (TIMEOUT if line else echo)
        while (PASTE_OFF not in self.raw[size:]) if line else (len(self.raw) == size):
            left = deadline - time.monotonic()
            if left <= 0:
                if line:
                    raise AssertionError(f"{keys!r} did not close the prompt; the screen:\n{self.display()}")
                break
            if not self.read(left):
                return False
        return self.ready()

    def seen(self, text: str, timeout: float = TIMEOUT) -> None:
        """Wait until ``text`` has been on the screen (now or in the scroll-back)."""
        deadline = time.monotonic() + timeout
        while text not in "\n".join(self.all_lines()):
            left = deadline - time.monotonic()
            if left <= 0 or not self.read(left):
                raise AssertionError(f"{text!r} never appeared; the screen:\n{self.display()}")

    def finish(self, timeout: float = TIMEOUT) -> int:
        """Wait for the end; the exit code."""
        deadline = time.monotonic() + timeout
        while self.read(deadline - time.monotonic()):
            if time.monotonic() > deadline:
                raise AssertionError(f"companion still running after {timeout} s; the screen:\n{self.display()}")
        return close(self.child)  # all its output is read: it has exited or is exiting

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
