"""The environment of one invocation: streams, terminal flags, colour, and where saves live.

Made fresh for every command (as httpie does), never at import time, so tests can swap streams and
colour settings, and so a rich Console is only built when something is printed.

Every word a command prints goes through here, and here text is only text:

- :meth:`Env.print` reads no rich markup in what it is given (a tally named ``[/bold]`` is shown as
  written); a line that wants styles says so with :func:`styled`, which escapes every value put into
  its template;
- no control character from a player, a pack or a save reaches the terminal: what rich renders, and
  what :meth:`Env.echo`, :meth:`Env.error` and :meth:`Env.warn` write, shows each as its picture
  (:func:`companion.controls.visible`: ESC as ␛); :meth:`Env.print_json` escapes DEL and C1 too;
- a stream that cannot be written (a full disk, a closed pipe) ends the command with one line
  (:class:`OutputError`), not a traceback.
"""

from __future__ import annotations

import os
import re
import string
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from companion.controls import UNSEEN, json_safe, visible
from companion.errors import CompanionError

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text


class OutputError(CompanionError):
    """Standard output or error cannot be written (a full disk, a closed pipe): exit 1. ``quiet`` when
    the reader of a pipe has gone (``companion log | head -1``): it asked for no more, so nothing is
    said."""

    exit_code = 1
    quiet = False


def _written(stream: IO[str], text: str) -> None:
    """Write and flush ``text``; a stream that cannot take it ends the command with one line.

    The stream is pointed at the null device first, so Python's own flush at exit says nothing more.
    """
    try:
        stream.write(text)
        stream.flush()
    except OSError as exc:
        raise unwritable(stream, exc) from None


def unwritable(stream: IO[str], exc: OSError) -> OutputError:
    """The one line for an output that cannot be written, ``stream`` silenced first."""
    from companion.i18n import _

    silence(stream)
    error = OutputError(
        _("cannot write to the output ({reason}); companion status shows what is saved").format(
            reason=exc.strerror or exc
        )
    )
    error.quiet = isinstance(exc, BrokenPipeError)
    return error


def silence(stream: IO[str]) -> None:
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):  # not a file of its own (a test's buffer)
        pass


_LONG_WORD = re.compile(r"\S{501,}")


def said(text: str) -> str:
    """A message as stderr shows it: control characters as pictures, a word of over 500 characters (a
    pasted argument; a path is shorter) shortened to its start and end."""
    text = visible(text)
    if len(text) > 500:
        text = _LONG_WORD.sub(lambda m: m.group()[:60] + "…" + m.group()[-20:], text)
    return text


def styled(template: str, **values: Any) -> Text:
    """A line with rich styles: ``template``'s markup (``[bold]{name}[/bold]``), every value escaped
    once formatted, so a value is shown as written and never read as markup. ``template`` may be a
    translated message (``styled(_("Current session: [bold]{slug}[/bold]"), slug=...)``): its ``!r``
    quotes as the language does."""
    from rich.text import Text

    return Text.from_markup(_Escaping(template).vformat(template, (), values) if values else template)


class _Escaping(string.Formatter):
    """``str.format`` for :func:`styled`: each field converted as the template's language converts it
    (:func:`companion.i18n.converted`), then escaped for rich markup."""

    field: str | None = None

    def __init__(self, template: str) -> None:
        self.template = template

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        from companion.i18n import converted

        return converted(self.template, value, conversion)

    def format_field(self, value: Any, format_spec: str) -> str:
        from rich.markup import escape

        from companion.i18n import said, translated

        if translated(self.template):  # a case declines, a !r value is quoted (companion/declension.py)
            value, format_spec = said(value, format_spec, self.field)
        return escape(visible(format(value, format_spec)))

    def get_field(self, field_name: str, args: Any, kwargs: Any) -> Any:
        self.field = field_name.split(".")[0].split("[")[0]
        return super().get_field(field_name, args, kwargs)


def _console_class() -> type:
    """rich's Console, showing each control character in what it renders as its picture."""
    global _SAFE_CONSOLE
    if _SAFE_CONSOLE is None:
        from rich.console import Console
        from rich.segment import Segment

        class SafeConsole(Console):
            def render_str(self, text: str, **kwargs: Any) -> Any:
                # A bidirectional or zero-width character shown as its code before the text is laid out
                # (its code is wider than it is), so a table stays aligned.
                return super().render_str(visible(text), **kwargs)

            def render(self, renderable: Any, options: Any = None) -> Any:
                for segment in super().render(renderable, options):
                    if segment.control is None and UNSEEN.search(segment.text):
                        yield Segment(visible(segment.text), segment.style)
                    else:
                        yield segment

        _SAFE_CONSOLE = SafeConsole
    return _SAFE_CONSOLE


_SAFE_CONSOLE: type | None = None


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


def _has_no_break(obj: Any) -> bool:
    from rich.text import Text

    return "\u00a0" in obj if isinstance(obj, str) else isinstance(obj, Text) and "\u00a0" in obj.plain


def _no_break(obj: Any) -> Any:
    """A line for a terminal that rich wraps without breaking at its no-break spaces (``93,8 %``): a
    ``str`` (plain text, never markup) or a :func:`styled` line."""
    if not _has_no_break(obj):
        return obj
    from rich.text import Text

    from companion.shell.panels import NoBreak, held

    return NoBreak(held(Text(obj) if isinstance(obj, str) else obj))


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
        under = line.find(": ") + 2
        if line.lstrip().startswith("companion ") and os.environ.get("COMPANION_IN_SHELL") == "1":
            under -= len("companion ")  # the shell says «tally hit: …» (companion/shell/forms.py): under that
        indent = lead + ("  " if not line.lstrip().startswith("companion") else " " * under)
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
        return _console_class()(
            file=stream,
            no_color=self.no_color,
            highlight=False,
            markup=False,  # text is text: a line with styles is built with styled()
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
        """Objects to stdout through rich: a ``str`` is plain text (no markup), a :func:`styled` line or
        a rich object keeps its styles; control characters are shown as their pictures."""
        if self.stdout_isatty and any(_has_no_break(o) for o in objects):
            objects = tuple(_no_break(o) for o in objects)
        try:
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
        except OSError as exc:
            raise unwritable(self.stdout, exc) from None

    def echo(self, text: str = "") -> None:
        """Plain text to stdout, no markup, control characters shown as their pictures."""
        _written(self.stdout, visible(text) + "\n")

    def write(self, text: str, *, json: bool = False) -> None:
        """A document to stdout as it is (a log, an export), control characters shown as pictures
        (in ``json`` text, DEL and C1 escaped: the same data)."""
        _written(self.stdout, json_safe(text) if json else visible(text))

    def print_json(self, data: Any) -> None:
        """One JSON document on stdout, unstyled, so scripts can parse it."""
        import json

        _written(self.stdout, json_safe(json.dumps(data, ensure_ascii=False)) + "\n")

    def error(self, message: str, hint: str | None = None) -> None:
        """One line on stderr: ``companion: <what was wrong>``, plus an optional hint line."""
        text = fold_for(self.stderr, f"companion: {said(message)}") + "\n"
        if hint:
            text += fold_for(self.stderr, f"  {said(hint)}") + "\n"
        _written(self.stderr, text)

    def warn(self, message: str) -> None:
        _written(self.stderr, fold_for(self.stderr, f"companion: {said(message)}") + "\n")
