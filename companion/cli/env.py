"""The environment of one invocation: streams, terminal flags, colour, and where saves live.

Made fresh for every command (as httpie does), never at import time, so tests can swap streams and
colour settings, and so a rich Console is only built when something is printed.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console


def _isatty(stream: IO[str] | None) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (ValueError, AttributeError):
        return False


def _table_width(console: Console, objects: tuple[Any, ...]) -> int | None:
    """The width a piped table needs so no data column is cut (None when it fits, or no table).

    A terminal shows a table at its own width; a pipe has none (rich assumes 80), and a file or
    another program should get every value whole (``companion sessions | cat`` kept its dates).
    """
    from rich.measure import Measurement
    from rich.table import Table

    widest = 0
    for obj in objects:
        if isinstance(obj, Table):
            widest = max(widest, Measurement.get(console, console.options.update_width(10_000), obj).maximum)
    return widest if widest > console.width else None


def _no_break(obj: Any, markup: bool | None) -> Any:
    """A line for a terminal that rich wraps without breaking at its no-break spaces (``93,8 %``)."""
    if not isinstance(obj, str) or "\u00a0" not in obj:
        return obj
    from rich.text import Text

    from companion.shell.panels import NoBreak, held

    return NoBreak(held(Text(obj) if markup is False else Text.from_markup(obj)))


def fold_for(stream: IO[str] | None, text: str) -> str:
    """``text`` folded at the terminal's width, at spaces, when ``stream`` is a terminal.

    A terminal breaks a long line at its edge, mid-word; a pipe or a file gets the line as it is.
    Continuation lines are indented to the message (``companion: ``), so they read as one message.
    """
    if not _isatty(stream):
        return text
    import shutil
    import textwrap

    width = shutil.get_terminal_size((80, 24)).columns
    out = []
    for line in text.split("\n"):
        if len(line) < width:
            out.append(line)
            continue
        lead = line[: len(line) - len(line.lstrip())]
        indent = lead + ("  " if not line.lstrip().startswith("companion") else " " * (line.find(": ") + 2))
        out.append(
            textwrap.fill(
                line,
                width=width - 1,
                subsequent_indent=indent if len(indent) < width // 2 else "  ",
                break_long_words=False,
                break_on_hyphens=False,
            )
        )
    return "\n".join(out)


@dataclass
class Env:
    """What a command may touch outside the library."""

    stdin: IO[str]
    stdout: IO[str]
    stderr: IO[str]
    stdin_isatty: bool
    stdout_isatty: bool
    no_color: bool
    data_dir: Path | None = None
    logs_dir: Path | None = None
    session: str | None = None
    environ: dict[str, str] = field(default_factory=dict)
    _out: Console | None = None
    _err: Console | None = None

    @classmethod
    def from_process(
        cls,
        *,
        data_dir: Path | None = None,
        logs_dir: Path | None = None,
        session: str | None = None,
    ) -> Env:
        environ = dict(os.environ)
        return cls(
            stdin=sys.stdin,
            stdout=sys.stdout,
            stderr=sys.stderr,
            stdin_isatty=_isatty(sys.stdin),
            stdout_isatty=_isatty(sys.stdout),
            no_color="NO_COLOR" in environ and environ["NO_COLOR"] != "",
            data_dir=data_dir,
            logs_dir=logs_dir,
            session=session,
            environ=environ,
        )

    @property
    def interactive(self) -> bool:
        """True when a person can answer a prompt: both ends are terminals."""
        return self.stdin_isatty and self.stdout_isatty

    def _console(self, stream: IO[str]) -> Console:
        from rich.console import Console

        return Console(
            file=stream,
            no_color=self.no_color,
            highlight=False,
            soft_wrap=not _isatty(stream),
            emoji=False,
        )

    @property
    def out(self) -> Console:
        if self._out is None:
            self._out = self._console(self.stdout)
        return self._out

    @property
    def err(self) -> Console:
        if self._err is None:
            self._err = self._console(self.stderr)
        return self._err

    def print(self, *objects: Any, **kwargs: Any) -> None:
        if self.stdout_isatty and any(isinstance(o, str) and "\u00a0" in o for o in objects):
            objects = tuple(_no_break(o, kwargs.get("markup")) for o in objects)
        wide = None if self.stdout_isatty or "width" in kwargs else _table_width(self.out, objects)
        if wide is None:
            self.out.print(*objects, **kwargs)
            return
        width = self.out.width
        self.out.width = wide  # rich caps a print's width at the console's
        try:
            self.out.print(*objects, **kwargs)
        finally:
            self.out.width = width

    def echo(self, text: str = "") -> None:
        """Plain text to stdout, no markup."""
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def print_json(self, data: Any) -> None:
        """One JSON document on stdout, unstyled, so scripts can parse it."""
        import json

        self.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
        self.stdout.flush()

    def error(self, message: str, hint: str | None = None) -> None:
        """One line on stderr: ``companion: <what was wrong>``, plus an optional hint line."""
        self.stderr.write(fold_for(self.stderr, f"companion: {message}") + "\n")
        if hint:
            self.stderr.write(fold_for(self.stderr, f"  {hint}") + "\n")
        self.stderr.flush()

    def warn(self, message: str) -> None:
        self.stderr.write(fold_for(self.stderr, f"companion: {message}") + "\n")
        self.stderr.flush()
