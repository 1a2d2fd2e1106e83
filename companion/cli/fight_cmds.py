"""``companion odds fight GAME [OPTIONS]``: exact fight odds for every game that gives them.

``companion odds EXPR`` takes free words (``companion odds DC --mod 2``), so ``fight`` is not a
subcommand of it: the root group sends ``odds fight ...`` here instead (see
:meth:`companion.cli.group.CompanionGroup.resolve_command`). Each game's own command is listed in
:data:`companion.sim.fights.FIGHT_ODDS` and imported only when that game is asked for.

Only typer is imported at module level.
"""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperGroup

HELP = """Exact fight odds: the chance to win, to lose (to flee, where a game has fleeing), the HP left,
and a bar chart of how the fight can end. Computed, never sampled.

With a session of that game active, what you leave out comes from it (HP, floor, attributes, the
fight on the table).
"""


def _epilog() -> str:
    from companion.sim.fights import FIGHT_ODDS

    lines = ["\b", "Examples:"]
    lines += [f"  {entry.example}" for entry in FIGHT_ODDS.values() if entry.example]
    return "\n".join(lines)


class FightGroup(TyperGroup):
    """One command per game with fight odds, built from the registry when it is asked for."""

    def list_commands(self, ctx: Any) -> list[str]:
        from companion.sim.fights import FIGHT_ODDS

        return list(FIGHT_ODDS)

    def get_command(self, ctx: Any, name: str) -> Any:
        from companion.errors import InputError
        from companion.games import canonical, load
        from companion.sim.fights import FIGHT_ODDS

        if name == "pack":  # a fight a table pack defines, not a game
            return _command("pack", FIGHT_ODDS["pack"].command, FIGHT_ODDS["pack"].summary)
        game = canonical(name)  # an unknown game: one line naming the known games
        from companion.cli.group import speak_game

        speak_game(ctx, game)
        entry = FIGHT_ODDS.get(game)
        if entry is None:
            from companion.i18n import _

            raise InputError(
                _("{game} has no fight odds; games with fight odds: {games}").format(
                    game=_(load(game).title), games=", ".join(FIGHT_ODDS)
                )
            )
        return _command(game, entry.command, entry.summary)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        # get_command raises for a game without odds; keep the typed name for the usage line
        cmd = self.get_command(ctx, args[0])
        return args[0], cmd, args[1:]


_CACHE: dict[str, Any] = {}


def _command(game: str, target: str, summary: str) -> Any:
    """The click command for one game's odds (a typer command function at ``module:function``), built once."""
    cmd = _CACHE.get(game)
    if cmd is None:
        import importlib

        module, _, attr = target.partition(":")
        function = getattr(importlib.import_module(module), attr)
        single = typer.Typer(rich_markup_mode=None, add_completion=False)
        single.command(game, short_help=summary)(function)
        cmd = _CACHE[game] = typer.main.get_command(single)
        cmd.name = game
        from companion.cli.complete import attach

        attach(cmd)  # the session's names (a pack's fights and foes) complete here too
    return cmd


app = typer.Typer(
    cls=FightGroup,
    name="fight",
    help=HELP,
    epilog=_epilog(),
    add_completion=False,
    rich_markup_mode=None,
)


@app.callback(invoke_without_command=True)
def fight(ctx: typer.Context) -> None:
    """Exact fight odds for a game: companion odds fight GAME [OPTIONS]."""
    if ctx.invoked_subcommand is None:  # no game given: the help, which lists the games
        typer.echo(ctx.get_help())
