"""``companion dark join``, ``item``, ``quest``, ``start``, ``decks``: the table before the first turn.

Registered on ``companion dark`` by :mod:`companion.games.dark_tower.cli`; only typer is imported at
module level.
"""

from __future__ import annotations

from typing import Annotated

import typer

from companion.games.dark_tower.cli.common import (
    JsonOpt,
    _env,
    _hero,
    _record,
    _session,
    _show,
)

app = typer.Typer()


@app.command("join")
def join(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(help="The player's name.", show_default=False)],
    hero: Annotated[str, typer.Argument(help="Their hero card (English or Russian name).", show_default=False)],
    json_out: JsonOpt = False,
) -> None:
    """Add a player and the hero they picked (before the game starts)."""
    from companion.games.dark_tower.rules import cards as C

    with _session(ctx) as session:
        before = len(session.state.log.entries)
        card = C.find(session.state, "hero", hero)
        _record(session, {"op": "join", "player": player, "hero": card})
        _show(ctx, session, before, json_out)


@app.command("item")
def item(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(help="Who takes it.", show_default=False)],
    name: Annotated[str, typer.Argument(help="The item card (English or Russian name).", show_default=False)],
    json_out: JsonOpt = False,
) -> None:
    """A player takes an item: their random starting item, or one a card gives."""
    from companion.errors import InputError
    from companion.games.dark_tower.rules import cards as C
    from companion.games.dark_tower.rules.setup import starting_item_refusal

    with _session(ctx) as session:
        before = len(session.state.log.entries)
        who = _hero(session, player)
        card = C.find(session.state, "item", name)
        refusal = starting_item_refusal(session.state, who, card)
        if refusal:
            raise InputError(refusal)
        _record(session, {"op": "item", "hero": who, "item": card})
        _show(ctx, session, before, json_out)


@app.command("quest")
def quest(
    ctx: typer.Context,
    name: Annotated[str | None, typer.Argument(help="The quest card drawn.", show_default=False)] = None,
    none: Annotated[bool, typer.Option("--none", help="Play without a quest: beat every monster.")] = False,
    done: Annotated[bool, typer.Option("--done", help="The quest is done: the heroes win.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Choose the quest (before the start), or mark it done (the heroes win)."""
    from companion.errors import InputError
    from companion.games.dark_tower.rules import cards as C

    if sum((name is not None, none, done)) != 1:
        from companion.i18n import _

        raise InputError(_("give the quest's name, or --none, or --done"))
    with _session(ctx) as session:
        before = len(session.state.log.entries)
        if done:
            _record(session, {"op": "quest-done"})
        else:
            card = None if none else C.find(session.state, "quest", name or "")
            _record(session, {"op": "quest", "quest": card})
        _show(ctx, session, before, json_out)


@app.command("start")
def start_cmd(
    ctx: typer.Context,
    first: Annotated[
        str | None, typer.Option("--first", help="Who goes first (default: the first player).", show_default=False)
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Build the three floor decks and start: floor 1, level 1, the first player's turn."""
    with _session(ctx) as session:
        before = len(session.state.log.entries)
        who = _hero(session, first) if first else 0
        _record(session, {"op": "start", "first": who})
        _show(ctx, session, before, json_out)


@app.command("decks")
def decks_cmd(
    ctx: typer.Context,
    players: Annotated[
        int | None,
        typer.Option(
            "--players", "-p", help="How many players (default: the session's).", min=1, max=4, show_default=False
        ),
    ] = None,
    fixed: Annotated[
        bool, typer.Option("--fixed-monsters", help="The fixed-monsters reading (default: the session's variant).")
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """The deck calculator: monster, obstacle and item cards for each floor's deck, per the rules."""
    from companion.cli.kit import active_game
    from companion.errors import InputError
    from companion.games.dark_tower import data
    from companion.games.dark_tower.rules.decks import deck_counts
    from companion.i18n import _, ngettext

    env = _env(ctx)
    quest = None
    reading = fixed
    if players is None:
        if active_game(env) != "dark-tower":
            raise InputError(_("give --players N (1-4), or start a Dark Tower session"))
        from companion.games.dark_tower.rules import cards as C
        from companion.games.dark_tower.rules import lookup

        with _session(ctx) as session:
            g = lookup.game(session.state)
            players = len(g.heroes)
            if not players:
                raise InputError(_("no players at the table yet; add them (companion dark join) or give --players N"))
            reading = fixed or data.FIXED_MONSTERS in session.meta.variants
            if g.quest:
                q = C.get(session.state, "quest", g.quest)
                quest = q.adds  # type: ignore[union-attr]
    decks = deck_counts(players, fixed_monsters=reading, quest=quest)
    if json_out:
        env.print_json(
            {
                "players": players,
                "reading": data.FIXED_MONSTERS if reading else "per-player",
                "quest": quest,
                "floors": [
                    {
                        "floor": d.floor,
                        "monsters": d.monsters,
                        "obstacles": d.obstacles,
                        "items": d.items,
                        "total": d.total,
                    }
                    for d in decks
                ],
            }
        )
        return
    from rich.table import Table

    lang = ctx.meta.get("dark_lang")
    from companion.games.dark_tower.rules import cards as C

    table = Table(box=None, pad_edge=False)
    for col in (C.term("floor", lang), C.term("monsters", lang), C.term("obstacles", lang), C.term("items", lang), ""):
        table.add_column(col, justify="right")
    table.add_column("", justify="right")  # the total, right-aligned after its own "=" column
    for d in decks:
        table.add_row(str(d.floor), str(d.monsters), str(d.obstacles), str(d.items), "=", str(d.total))
    reading_text = _("fixed monsters (variant)") if reading else _("monsters per player")
    line = (
        ngettext(
            "{n} player, {reading}, with the quest's cards", "{n} players, {reading}, with the quest's cards", players
        )
        if quest
        else ngettext("{n} player, {reading}", "{n} players, {reading}", players)
    )
    env.print(line.format(n=players, reading=reading_text))
    env.print(table)
