"""``companion serve``: the table prompt on a phone beside the board (the server is :mod:`companion.serve`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from companion.cli.complete import session_names

if TYPE_CHECKING:
    from companion.cli.env import Env


def serve(
    ctx: typer.Context,
    port: Annotated[
        int, typer.Option("--port", help="The port to serve on (0 picks a free one).", min=0, max=65535)
    ] = 8765,
    lan: Annotated[
        bool,
        typer.Option(
            "--lan",
            help="Serve on this machine's network address, so a phone on the same network can open it: anyone on "
            "that network who has the address (its token) can see and play the session (plain HTTP; without "
            "--lan only this machine can reach it).",
        ),
    ] = False,
    token_file: Annotated[
        Path | None,
        typer.Option(
            "--token-file",
            help="Keep the token in this file (made the first time, readable by you alone), so the address stays "
            "the same across restarts.",
            show_default=False,
        ),
    ] = None,
    session: Annotated[
        str | None,
        typer.Option(
            "--session",
            help="The session to serve (default: the current one).",
            autocompletion=session_names,
            show_default=False,
        ),
    ] = None,
) -> None:
    """Serve the current session as a page for a phone or tablet: the step, big buttons, the table.

    The first line printed is the address with its token, then a QR code of it. It holds the
    session's lock until Ctrl-C (a second serve or shell on it is refused).

    \b
    Examples:
      companion serve                      http://127.0.0.1:8765/?token=...
      companion serve --lan                for a phone on the same network
      companion serve --port 0             any free port
      companion serve --session my-run     another session
      companion serve --token-file serve.token   the same address after a restart
    """
    env: Env = ctx.obj
    from companion.cli.kit import root_options
    from companion.serve.server import run

    raise typer.Exit(run(env, root_options(ctx), session or env.session, port=port, lan=lan, token_file=token_file))


app = typer.Typer(rich_markup_mode=None)
app.command("serve")(serve)
