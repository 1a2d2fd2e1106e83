"""The errors companion reports to a player.

Every error the player can cause carries one clear line: what was wrong and what is accepted. The CLI
prints that line and exits with the error's code; it never shows a traceback for these.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable


class CompanionError(Exception):
    """Something went wrong that the player should read about in one line (exit code 1)."""

    exit_code = 1

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message


class InputError(CompanionError):
    """Bad input from the player: a dice expression, a die face, an option value (exit code 2).

    Raised before anything is recorded, so the save never changes because of bad input.
    """

    exit_code = 2


def closest(word: str, choices: Iterable[str]) -> str | None:
    """The one of ``choices`` that ``word`` most likely meant (a prefix of it, or a near typo), or None."""
    import difflib

    options = list(dict.fromkeys(choices))
    key = word.strip().lower()
    if not key:
        return None
    starts = [c for c in options if c.lower().startswith(key)]
    close = starts[:1] or difflib.get_close_matches(key, options, n=1, cutoff=0.6)
    return close[0] if close else None


class StoreError(CompanionError):
    """A save cannot be read or written (corrupt file, full disk, locked by another process)."""


class NotFoundError(InputError):
    """A session, table, game or variant name that does not exist: bad input (exit code 2)."""
