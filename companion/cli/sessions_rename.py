"""``companion sessions rename``: a session's new name (its folder and its meta; the log keeps its path)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from companion.cli.common import JsonOpt, check_name
from companion.cli.complete import session_names
from companion.i18n import _

if TYPE_CHECKING:
    from companion.cli.env import Env


def sessions_rename(
    ctx: typer.Context,
    old: Annotated[str, typer.Argument(help="The session.", autocompletion=session_names, show_default=False)],
    new: Annotated[str, typer.Argument(help="Its new name.", show_default=False)],
    json_out: JsonOpt = False,
) -> None:
    """Give a session a new name (its log file keeps its path).

    \b
    Examples:
      companion sessions rename example "The long night"
    """
    env: Env = ctx.obj
    from companion.cli.kit import store

    check_name(new)
    files = store(env).rename(old, new)
    if json_out:
        env.print_json({"renamed": old, "session": files.slug})
        return
    env.echo(_("Session renamed: {name}").format(name=files.slug))
