"""What a command prints, said in the shell's own forms: ``Next: play``, not ``Next: companion play``.

The hints and "Next:" lines of the one-shot commands name whole command lines
(``companion redo brings it back``); inside ``companion shell`` the same command is typed without
the ``companion`` prefix. While a command runs in the shell, its output streams pass through
:class:`ShellForms`, which drops the prefix where it stands before the name of a command, and
nowhere else (``companion: …`` error lines, a path, a word in a sentence stay as they are).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import IO, Any


def prefix_pattern(commands: Iterable[str]) -> re.Pattern[str]:
    """``companion`` before a command's name, where it starts a word (after a style's escape too: a
    terminal's bold ``Next: companion play`` is the same words)."""
    names = "|".join(re.escape(c) for c in sorted(commands, key=len, reverse=True))
    return re.compile(rf"(?P<pre>(?:^|(?<=[^\w./\\-]))(?:\x1b\[[0-9;]*m)*)companion (?=(?:{names})(?![\w-]))")


def shell_forms(text: str, pattern: re.Pattern[str]) -> str:
    """``text`` with ``companion CMD`` said as ``CMD``."""
    return pattern.sub(r"\g<pre>", text) if "companion " in text else text


class ShellForms:
    """A text stream that writes to ``stream`` in the shell's forms (everything else is the stream's)."""

    def __init__(self, stream: IO[str], pattern: re.Pattern[str]) -> None:
        self._stream = stream
        self._pattern = pattern

    def write(self, text: str) -> int:
        self._stream.write(shell_forms(text, self._pattern))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
