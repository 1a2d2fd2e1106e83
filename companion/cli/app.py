"""The ``companion`` command tree. Each command module registers its commands here.

Only typer is imported at module level; every command imports what it needs when it runs.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Annotated, Any

import typer

from companion import __version__
from companion.cli.complete import session_names
from companion.cli.env import Env
from companion.cli.group import CompanionGroup
from companion.cli.registry import COMMAND_MODULES

__all__ = ["COMMAND_MODULES", "app", "root_command"]

EXAMPLES = """\
\b
Examples:
  companion roll DC --mod 1         a Dice Check with +1
  companion roll 2d6 --got 3,5      the dice you rolled yourself
  companion roll SR STR,DEX,INT     a Split Roll, named options
  companion roll 4dt                Dark Tower dice: sum, hearts and stars
  companion odds DC --mod 2         exact odds: 2/3
  companion new inverted-tower      start a game; then companion play
  companion odds fight it --mobs 2  exact fight odds
  companion simulate it --runs 1000  whole games and their win rate
"""

app = typer.Typer(
    cls=CompanionGroup,
    name="companion",
    help="A table-side companion for dungeon gamebooks and board games: dice, odds, trackers, "
    "guided solo play and a markdown dungeon log.",
    epilog=EXAMPLES,
    no_args_is_help=True,
    add_completion=False,
    # Plain help: the rich help panels cost ~80 ms of start-up (docs/startup.md).
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"companion {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit."),
    ] = False,
    data_dir: Annotated[
        Path | None,
        typer.Option(
            "--data-dir",
            envvar="COMPANION_HOME",
            help="Where saves live (default: the user data folder).",
            show_default=False,
        ),
    ] = None,
    logs_dir: Annotated[
        Path | None,
        typer.Option(
            "--logs-dir",
            envvar="COMPANION_LOGS",
            help="Where new sessions write their markdown log (default: ./logs).",
            show_default=False,
        ),
    ] = None,
    session: Annotated[
        str | None,
        typer.Option(
            "--session",
            "-s",
            envvar="COMPANION_SESSION",
            help="Use this session instead of the current one.",
            autocompletion=session_names,
            show_default=False,
        ),
    ] = None,
) -> None:
    """A table-side companion for dungeon gamebooks and board games."""
    ctx.obj = Env.from_process(data_dir=data_dir, logs_dir=logs_dir, session=session)


@functools.cache
def root_command() -> Any:
    """``app`` as its click group, built once per process.

    Calling ``app(...)`` has typer build the group again each time, reading the root callback's
    options from its signature; the shell runs many lines in one process, and so do the tests.
    """
    return typer.main.get_command(app)
