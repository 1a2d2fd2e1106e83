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

_CHANGE = re.compile(r"^([+\-=]?)(\d+)$")
#: The most a change typed as text may be (companion.cli.bounds: no game needs a million of anything).
MOST_CHANGE = 999_999


def parse_change(text: str, what: str, most: int = MOST_CHANGE) -> tuple[str, int]:
    """``+2`` / ``-1`` / ``=5`` / ``3`` → ("add", 2) / ("add", -1) / ("set", 5) / ("add", 3); a number over
    ``most`` is refused with its range."""
    from companion.i18n import _, number, quote

    m = _CHANGE.match(text.strip().replace("−", "-"))
    if not m:
        raise InputError(
            _("{text} is not a change to {what}; use +N, -N or =N (e.g. +2, -1, =5)").format(
                text=quote(text), what=what
            )
        )
    sign, digits = m.groups()
    if len(digits.lstrip("0")) > len(str(most)) or int(digits) > most:
        raise InputError(
            _("{text} is too big a change to {what}: N goes from 0 to {most} (e.g. +2, -1, =5)").format(
                text=quote(text), what=what, most=number(most, group=True)
            )
        )
    n = int(digits)
    if sign == "=":
        return "set", n
    return "add", -n if sign == "-" else n


def check_name(*names: str | None) -> None:
    """Each of ``names`` (None: not given) can be a name (a tally's, a hero's, a session's, an item's): not
    blank, and no control, bidirectional or zero-width character (a name is an identifier); else one
    line, exit 2."""
    from companion.controls import name_refusal

    for text in names:
        refused = None if text is None else name_refusal(text)
        if refused is not None:
            raise InputError(refused)


def dump_state(session: Any, viewer: str = "public") -> dict[str, Any]:
    """The session as ``status --json`` gives it: its state as ``viewer`` may see it (the public's,
    unless a seat is named: ``companion serve``'s seats), with the list of what is withheld."""
    from companion.session import codec

    seen = session.spec.view(session.state, viewer)  # the one filter: what the viewer may see
    state = codec.dump(seen.state(session.state))
    state.pop("log", None)
    if not session.state.seed_shown:  # a sealed seed and its salt stay out until revealed
        state["meta"] = {**state["meta"], "seed": None, "salt": None}
    data = {"session": session.name, "game": session.meta.game, "events": session.count, "state": state}
    return data | {"withheld": [s.what for s in seen.withheld]}


def off_the_edge(env: Any) -> None:
    """At a terminal, write nothing in its last column (a terminal wraps there, breaking a word)."""
    if env.stdout_isatty:
        env.out.width = max(20, env.out.width - 1)
