"""Freeform's GameSpec: no rules; a table pack's fight in progress on the shell's bar
(:mod:`companion.games.freeform.view`)."""

from companion.games.base import GameSpec


def _board(state):  # type: ignore[no-untyped-def]
    from companion.games.freeform.view import board

    return board(state)


GAME = GameSpec(name="freeform", title="Freeform session", board=_board)
