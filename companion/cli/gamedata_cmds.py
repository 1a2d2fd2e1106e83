"""``companion gamedata``: the numbers and cards a player entered from their own book or cards, shown and
changed (a game's own ``cli.gamedata`` module shows them in its words and finds a card by its name)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.cli.common import JsonOpt
from companion.i18n import quote

if TYPE_CHECKING:
    from companion.cli.env import Env


#: A yes or a no typed in Russian, read as true/false (a card's «разовый», «призывает»).
YES_NO = {"да": True, "нет": False}


def gamedata(
    ctx: typer.Context,
    game: Annotated[
        str | None,
        typer.Argument(
            help="The game whose data to show or change (default: the current session's).", show_default=False
        ),
    ] = None,
    assignments: Annotated[
        list[str] | None,
        typer.Argument(help="KEY=VALUE pairs to set (a number, true/false, or text).", show_default=False),
    ] = None,
    unset: Annotated[
        list[str] | None, typer.Option("--unset", help="Remove a key (repeat for several).", show_default=False)
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Show or edit the numbers you entered from your own book or cards (kept for every new session).

    \b
    Examples:
      companion gamedata dark-tower
      companion gamedata dark-tower Lich.strength=13
      companion gamedata dark-tower --unset Lich
    """
    env: Env = ctx.obj
    import copy
    import json

    from companion.cli.kit import active_game
    from companion.errors import InputError
    from companion.games import canonical
    from companion.i18n import _
    from companion.session import catalogue
    from companion.store.paths import data_dir

    if game is not None and "=" in game:  # no game named: KEY=VALUE for the current session's game
        assignments, game = [game, *(assignments or [])], None
    if game is None:
        game = active_game(env)
        if game is None:
            raise InputError(_("name the game (companion gamedata GAME), or start a session of it"))
    game = canonical(game)
    folder = data_dir(env.data_dir)
    values = catalogue.load(folder, game)
    own = _gamedata_words(game)
    changed = False
    for item in assignments or []:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise InputError(_("{item} is not KEY=VALUE (e.g. paladin.hit=4)").format(item=quote(item)))
        try:
            value = json.loads(raw)
        except ValueError:
            value = YES_NO.get(raw.strip().casefold(), raw)  # да/нет as a Russian player types true/false
        found = None if key in values or own is None else own.resolve(values, key)
        if found is not None and found[1] is not None:  # a card's number: change it in the card
            card = copy.deepcopy(values[found[0]])
            card[found[1]] = value
            own.check(found[0], card)
            values[found[0]] = card
        else:
            values[key] = value
        changed = True
    for key in unset or []:
        found = None if key in values or own is None else own.resolve(values, key)
        if values.pop(found[0] if found and found[1] is None else key, None) is not None:
            changed = True
    if changed:
        catalogue.save(folder, game, values)
    if json_out:
        env.print_json({"game": game, "values": values, "file": str(catalogue.path(folder, game))})
        return
    if not values:
        env.print(
            _("No game data for {game} yet; companion asks for it the first time it is needed.").format(game=game)
        )
        return
    from companion import i18n

    if own is not None and i18n.language() != i18n.SOURCE:  # the game's words, not its raw keys
        for line in own.shown(values):
            env.print(line)
        return
    for key in sorted(values):
        value = values[key]
        shown = json.dumps(value, ensure_ascii=False) if isinstance(value, (dict, list)) else str(value)
        env.print(f"{key} = {shown}")


def _gamedata_words(game: str) -> Any:
    """A game's own way to show and edit its game data (``<package>.cli.gamedata``), or None."""
    import importlib

    from companion.games import GAMES

    try:
        return importlib.import_module(GAMES[game] + ".cli.gamedata")
    except ModuleNotFoundError:
        return None


app = typer.Typer(rich_markup_mode=None)
app.command("gamedata")(gamedata)
