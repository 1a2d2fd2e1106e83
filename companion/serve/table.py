"""The session the page serves: held under its lock, every tap run as a command of the one tree.

:class:`Table` is the shell (:class:`companion.shell.repl.Shell`) with the page as its terminal: it
holds the session's lock the shell's way (``kit.holding``: a second ``serve``, ``shell`` or ``play``
is refused with the lock's line), and runs each tap as the words of a one-shot command through the
shell's own :meth:`~companion.shell.repl.Shell.invoke` (the root group, in this process, with
``--session`` of the session held). What the command prints is kept for the page instead of shown on
a terminal: its refusal line is the page's error line. Whatever the shell gains (the session kept in
memory between commands), the page gains too.

After every command the page's view is made again once (:mod:`companion.serve.view`), given a new
version, and pushed to every open page (:class:`Hub`).
"""

from __future__ import annotations

import asyncio
import io
import os
import sys
import time
from contextlib import ExitStack, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.i18n import _
from companion.shell.repl import Shell

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.serve.view import View


@dataclass(frozen=True)
class Result:
    """What one command did: its exit code and what it printed."""

    code: int
    out: str
    err: str

    @property
    def error(self) -> str:
        """The refusal as one line or two (the message and its hint), without the ``companion:``."""
        lines = [line.strip() for line in self.err.strip().splitlines() if line.strip()]
        return "\n".join(line.removeprefix("companion: ") for line in lines)


class Hub:
    """Every open page's queue of updates; the newest update replaces one not yet sent."""

    def __init__(self) -> None:
        self.queues: set[asyncio.Queue[Any]] = set()
        self.closed = False

    def join(self) -> asyncio.Queue[Any]:
        queue: asyncio.Queue[Any] = asyncio.Queue(maxsize=1)
        self.queues.add(queue)
        return queue

    def leave(self, queue: asyncio.Queue[Any]) -> None:
        self.queues.discard(queue)

    def publish(self, item: Any) -> None:
        for queue in list(self.queues):
            _put_latest(queue, item)

    def close(self) -> None:
        """The server is stopping: every page's stream ends (the page reconnects when it is back)."""
        self.closed = True
        self.publish(None)


def _put_latest(queue: asyncio.Queue[Any], item: Any) -> None:
    if queue.full():
        with suppress(asyncio.QueueEmpty):
            queue.get_nowait()
    queue.put_nowait(item)


class Table(Shell):
    """The held session, the commands run on it, and the page's view of it."""

    def __init__(self, env: Env, root_args: list[str]) -> None:
        super().__init__(env, root_args)
        self.interactive = False  # nothing is shown on the server's terminal for a tap
        self.hub = Hub()
        #: Bumped after every command that ran (a change made, or refused): a page's forms carry it.
        #: It starts from the clock (in ms), so a page open across a restart sees the new one as newer.
        self.version = time.time_ns() // 1_000_000
        self.view: View | None = None
        #: The token the page's forms carry (set before the session is held).
        self.token = ""
        #: The table's part of the page for :attr:`view`, and the live update that carries it.
        self.html = ""
        self.message = ""
        self._captured: tuple[io.StringIO, io.StringIO] | None = None

    # The shell's terminal is the page's: a command's output is kept, and no shell hints are added.
    def _in_shell(self) -> ExitStack:
        out, err = io.StringIO(), io.StringIO()
        self._captured = (out, err)
        stack = ExitStack()
        saved = (sys.stdout, sys.stderr)
        # A command run for the page never asks at a terminal (no stdin): it refuses with its line.
        saved_stdin = sys.stdin
        stack.callback(lambda: setattr(sys, "stdin", saved_stdin))
        stack.callback(lambda: (setattr(sys, "stdout", saved[0]), setattr(sys, "stderr", saved[1])))
        sys.stdout, sys.stderr, sys.stdin = out, err, io.StringIO()  # type: ignore[assignment]
        os.environ.pop("COMPANION_IN_SHELL", None)
        return stack

    def command(self, words: list[str]) -> Result:
        """Run ``companion WORDS`` on the held session, as typed; then the page's view is made again."""
        code = self.invoke(words)
        out, err = self._captured or (io.StringIO(), io.StringIO())
        self._captured = None
        self.refresh()
        return Result(code, out.getvalue(), err.getvalue())

    def refresh(self) -> None:
        """The shell's figures, then the page's view, once per change; pushed to every open page."""
        super().refresh()
        from companion.serve.page import event_message, fragment

        self.version += 1
        self.view = build(self)
        self.html = self.view.shown(fragment(self.view, self.token))
        self.message = event_message(self.version, self.html)
        self.hub.publish(self.message)

    def control_words(self, key: str, way: str) -> tuple[str, ...] | None:
        """The command words of the +/- button ``key``'s ``way`` (``minus`` or ``plus``) on the table
        as the pages show it now, or None: no such button now (it went, or never was)."""
        for control in self.view.controls if self.view is not None else ():
            if control.key == key:
                words = control.minus if way == "minus" else control.plus if way == "plus" else ()
                return words or None
        return None


def build(table: Table) -> View:
    """The page's view of the held session (or of no session)."""
    from companion.cli.kit import opened
    from companion.serve.view import View, of_session

    if table.name is None:
        return View(table.version, "", "", _("no session"), "en", error=_("no session is active"))
    with opened(table._env(table.name), wait=0) as session:
        return of_session(session, table.version, table.pending, table.board)
