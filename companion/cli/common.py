"""Small helpers the command modules share: option types, change syntax, JSON state."""

from __future__ import annotations

import re
from typing import Annotated, Any

import typer

from companion.errors import InputError

JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of text.")]
#: ``companion new --got``: the dice of the starting scores a pack rolls (companion/cli/pack_start.py).
GotStartOpt = Annotated[
    str | None,
    typer.Option(
        "--got",
        help="The dice you rolled for the starting scores a pack rolls (roll = ...), in its trackers' order, "
        "separated by / (e.g. --got 4/3,5/2).",
        show_default=False,
    ),
]

#: Commands whose arguments may be negative numbers (``hp -1``) take unknown options as arguments.
SIGNED = {"ignore_unknown_options": True}

_CHANGE = re.compile(r"^([+\-=]?)(\d{1,6})$")


def parse_change(text: str, what: str) -> tuple[str, int]:
    """``+2`` / ``-1`` / ``=5`` / ``3`` → ("add", 2) / ("add", -1) / ("set", 5) / ("add", 3)."""
    m = _CHANGE.match(text.strip().replace("−", "-"))
    if not m:
        from companion.i18n import _, quote

        raise InputError(
            _("{text} is not a change to {what}; use +N, -N or =N (e.g. +2, -1, =5)").format(
                text=quote(text), what=what
            )
        )
    sign, digits = m.groups()
    n = int(digits)
    if sign == "=":
        return "set", n
    return "add", -n if sign == "-" else n


def dump_state(session: Any) -> dict[str, Any]:
    from companion.session import codec

    state = codec.dump(session.state)
    state.pop("log", None)
    return {"session": session.name, "game": session.meta.game, "events": session.count, "state": state}
