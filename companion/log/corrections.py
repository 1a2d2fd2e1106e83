"""The log's words for a correction: the sheet fixed against the rules (``--correct``), never a move.

A correction is written as one line, ``corrected: HP 0 → 5``, so the log never changes a number
silently, and a reader tells a fix of the sheet from what happened in the game.
"""

from __future__ import annotations

from typing import Any

from companion.i18n import N_, _

CORRECTED = N_("corrected: {what} {before} → {after}")


def corrected(what: str, before: Any, after: Any, why: str | None = None) -> str:
    """``corrected: HP 0 → 5`` (and why, when the player said)."""
    text = _(CORRECTED).format(
        what=what, before="–" if before is None else before, after="–" if after is None else after
    )
    return text + (f" ({why})" if why else "")
