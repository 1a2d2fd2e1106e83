"""Folding a sealed session's reveal (``"t": "reveal"``: ``companion dice reveal``, or the game's end).

The event holds the seed and the salt the session was sealed with (docs/dice.md, "Sealed dice"); the
log says them, so anyone can check the commitment and every virtual roll with ``companion dice verify``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.i18n import _

if TYPE_CHECKING:
    from companion.session.state import State


def fold_reveal(state: State, event: dict[str, Any]) -> bool:
    """Fold the reveal into ``state``; False (nothing changed) when it shows a seed or salt the session
    was not sealed with."""
    meta = state.meta
    if not meta.sealed or event.get("seed") != meta.seed or event.get("salt") != meta.salt:
        return False
    state.revealed = event.get("id")
    state.log.text(
        _("The dice's seed revealed: {seed} (salt {salt}); companion dice verify checks every virtual roll.").format(
            seed=event["seed"], salt=event["salt"]
        ),
        under=False,
        event=event.get("id"),
    )
    return True
