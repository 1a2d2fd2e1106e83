"""``companion shell``: one prompt beside the board (the loop is :mod:`companion.shell.repl`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from companion.cli.complete import session_names

if TYPE_CHECKING:
    from companion.cli.env import Env


def shell(
    ctx: typer.Context,
    name: Annotated[
        str | None,
        typer.Argument(
            help="The session (default: the current one).", autocompletion=session_names, show_default=False
        ),
    ] = None,
) -> None:
    """A prompt that stays open: every command without 'companion', Tab completion, the state in view.

    \b
    Examples:
      companion shell                 the current session
      companion shell my-run          another session
    \b
    In the shell:
      r 2d6 --got 3,4     roll (a bare 2d6, DC+1 or 4dt rolls too)
      h Adelhardt         tally hit
      u, s, t, n          undo, status, talisman, next
      help                the short forms and the keys; Ctrl-D or exit leaves
    """
    env: Env = ctx.obj
    from companion.cli.kit import root_options
    from companion.shell.repl import run

    raise typer.Exit(run(env, root_options(ctx), name or env.session))


app = typer.Typer(rich_markup_mode=None)
app.command("shell")(shell)
