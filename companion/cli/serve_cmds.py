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
    qr: Annotated[
        bool, typer.Option("--qr", help="A QR code of each seat's address under it, to scan with a phone.")
    ] = False,
    seat_per_player: Annotated[
        bool,
        typer.Option(
            "--seat-per-player",
            help="A seat for each player where players share one (the Dragon's Den: a page for each hero "
            "besides the dragon player's, instead of one for the heroes).",
        ),
    ] = False,
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
    """Serve the current session as a page for each seat at the table: the step, big buttons, the table.

    One line a seat, `seat NAME  URL`, each with its own token: a seat's page shows only what that
    seat may see (the Dragon's Den's dragon player: the dragon) and answers its own steps. A solo
    game has one seat, `table`; a game with several players prints first `host  URL`, the laptop's
    page (every step, the public table). Then `read-only  URL`: the public table as JSON. It holds
    the session's lock until Ctrl-C (a second serve or shell on it is refused).

    \b
    Examples:
      companion serve                      seat table  http://127.0.0.1:8765/?token=...
      companion serve --lan --qr           for phones on the same network, a QR code a seat
      companion serve --seat-per-player    the Dragon's Den: a page for each hero
      companion serve --port 0             any free port
      companion serve --session my-run     another session
      companion serve --token-file serve.token   the same addresses after a restart
    """
    env: Env = ctx.obj
    from companion.cli.kit import root_options
    from companion.serve.server import run

    raise typer.Exit(
        run(
            env,
            root_options(ctx),
            session or env.session,
            port=port,
            lan=lan,
            token_file=token_file,
            qr=qr,
            per_player=seat_per_player,
        )
    )


app = typer.Typer(rich_markup_mode=None)
app.command("serve")(serve)
