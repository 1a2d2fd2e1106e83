"""What the Dark Tower's commands share: the session check, the ``dark`` event, what an action shows.

The generic part (the lock, ``--got`` or virtual dice, entries as text or JSON) is the command kit,
:mod:`companion.cli.kit`; this module keeps what is the Dark Tower's own. Only typer at module level.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.cli.common import JsonOpt

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.dice.expr import Expr
    from companion.dice.roll import Roll
    from companion.session.service import Session

__all__ = ["GotOpt", "JsonOpt"]

GAME = "dark-tower"

GotOpt = Annotated[
    str | None,
    typer.Option(
        "--got",
        "-g",
        help="The faces you rolled: 1, 2, 3, ♥ (or 4, 5, h) and ★ (or 6, s, *), e.g. 1,h,6.",
        show_default=False,
    ),
]


def _env(ctx: typer.Context) -> Env:
    return ctx.obj


def _refuse(session: Session) -> Exception:
    from companion.errors import CompanionError
    from companion.i18n import _

    return CompanionError(
        _("the current session plays {game}, not the Dark Tower").format(game=session.meta.game),
        hint=_("start one with: companion new dark-tower (or pick one: companion use NAME)"),
    )


def _session(ctx: typer.Context, *, read: bool = False) -> AbstractContextManager[Session]:
    """The active session, under its lock, refused unless it plays the Dark Tower (``read``: only read, a
    copy of one held elsewhere at once)."""
    from companion.cli.kit import game_session

    return game_session(_env(ctx), GAME, _refuse, read=read)


@contextmanager
def _shown_in(ctx: typer.Context, session: Session) -> Iterator[None]:
    """Show terms in ``--lang`` for this command's output only: the save keeps the session's language."""
    from companion.i18n import using

    g = session.state.game
    saved = g.lang
    g.lang = ctx.meta.get("dark_lang", saved)
    try:
        with using(g.lang, "dark-tower"):
            yield
    finally:
        g.lang = saved


def _record(session: Session, event: dict[str, Any]) -> int:
    """Record a ``dark`` event: its reducer applies the rules, and undo, the log and replays see it."""
    return session.record({"t": "dark", **event})


def _dry(session: Session) -> Any:
    """A copy of the state to try an action on first (for its result), before it is recorded."""
    from companion.cli.kit import dry

    return dry(session)


def _show(
    ctx: typer.Context, session: Session, before: int, json_out: bool, result: dict[str, Any] | None = None
) -> None:
    """What the action wrote to the log, and what the game waits for now (or one JSON object).

    A turn's line (``Turn 3 · Aria: Fight ...``) is updated in place as the turn goes on; when this
    action changed it, it is shown first.
    """
    from companion.cli.kit import entry_texts, new_entries, print_entries
    from companion.games.dark_tower import view
    from companion.games.dark_tower.rules import lookup

    env = _env(ctx)
    log = session.state.log
    entries = new_entries(session, before)
    turn_line = log.lines.get(f"turn-{lookup.game(session.state).turns}")
    if turn_line is not None and turn_line < before and log.entries[turn_line]["t"] != ctx.meta.get("dark_line"):
        entries = [log.entries[turn_line], *entries]
    if json_out:
        data: dict[str, Any] = {"session": session.name, "events": session.count}
        if result is not None:
            data["result"] = result
        data["log"] = entry_texts(entries)
        data["status"] = view.status_json(session.state)
        env.print_json(data)
        return
    from rich.text import Text

    print_entries(env, entries)
    with _shown_in(ctx, session):
        from companion.i18n import _

        env.print(Text(_("Now: {what}").format(what=lookup.waiting_for(session.state)), style="bold"))


def _roll(ctx: typer.Context, session: Session, expr: Expr, got: str | None, why: str) -> tuple[Roll, dict[str, Any]]:
    """Roll ``expr``: the faces given, the player's typed faces (physical dice), or the session's dice."""
    from companion.cli.kit import roll_faces

    return roll_faces(_env(ctx), session, expr, got, why)


def _hero(session: Session, text: str) -> int:
    from companion.games.dark_tower.rules import lookup

    return lookup.hero_index(session.state, text)


def _info(env: Env, lines: tuple[str, ...] | list[str], json_out: bool) -> None:
    from companion.cli.kit import info

    info(env, lines, json_out)


def _split(text: str | None) -> list[str]:
    return [p.strip() for p in (text or "").replace(";", ",").split(",") if p.strip()]


def _ints(text: str, n: int, what: str) -> list[int]:
    from companion.errors import InputError

    parts = _split(text.replace("/", ","))
    try:
        values = [int(p) for p in parts]
    except ValueError:
        values = []
    if len(values) != n:
        from companion.i18n import ngettext

        raise InputError(
            ngettext(
                "{what} needs {n} whole numbers separated by commas, got {text!r}",
                "{what} needs {n} whole numbers separated by commas, got {text!r}",
                n,
            ).format(what=what, n=n, text=text)
        )
    return values
