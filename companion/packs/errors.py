"""The refusal of a table pack: the file, the line and what to change.

Below every part of the pack reader (:mod:`companion.packs.reader`, :mod:`companion.packs.bounds`, the
importers), so each can name it without importing another.
"""

from __future__ import annotations

from companion.errors import InputError


class PackError(InputError):
    """A table pack that cannot be used, with the file and line to fix (exit code 2)."""

    def __init__(self, where: str, line: int | None, message: str) -> None:
        super().__init__(f"{where}:{line}: {message}" if line else f"{where}: {message}")
        self.where = where
        self.line = line
        #: The message without the file and line (an importer names its own file's line instead).
        self.what = message
