"""``companion dark ...``: every step of the Dark Tower as a one-shot command.

Each command records a ``dark`` event in the active session through ``Session.record`` (so the log,
undo, amend and replays see it); the event's reducer calls the same rules as guided play. Cards
entered here go into the player's catalogue too. Only typer is imported at module level.
"""

from __future__ import annotations

from typing import Annotated

import typer

from companion.games.dark_tower.cli import cards as cli_cards
from companion.games.dark_tower.cli import setup as cli_setup
from companion.games.dark_tower.cli import turn as cli_turn
from companion.games.dark_tower.cli import view as cli_view

EPILOG = """\
A turn:

  companion dark draw monster "Gelatinous Cube"     the card you drew
  companion dark fight                              odds, roll, result
  companion dark end                                the next player's turn
  companion dark draw obstacle Pit; companion dark check --got 1,4,6
  companion dark trade Aria Sword Bob; companion dark end

Russian names work too: companion dark draw монстр "Желатиновый Куб".
"""

app = typer.Typer(
    help="Тёмная Башня (Dark Tower): enter cards as they are drawn; companion does the dice, odds, health and turns.",
    epilog=EPILOG,
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
)


@app.callback()
def dark(
    ctx: typer.Context,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang", help="Show the rules' terms in en or ru (the rule text's own Russian).", show_default=False
        ),
    ] = None,
) -> None:
    """Тёмная Башня (Dark Tower): each step of a turn as a one-shot command."""
    if lang is not None:
        from companion import i18n
        from companion.errors import InputError

        if lang not in i18n.languages("dark-tower"):
            known = i18n._(" or ").join(f"--lang {x}" for x in i18n.languages("dark-tower"))
            raise InputError(i18n._("{lang!r} is not a language; use {known}").format(lang=lang, known=known))
        ctx.meta["dark_lang"] = lang
        i18n.activate(lang, "dark-tower")
        from companion.cli.group import speak_help

        speak_help(ctx.command)  # the commands' --help in that language too, not the session's


# The commands, by what they are about (each module registers on its own typer app; the order is
# the order of ``companion dark --help``).
for _part in (cli_cards, cli_setup, cli_turn, cli_view):
    app.registered_commands.extend(_part.app.registered_commands)
