"""``companion dragon notes``, ``treasure``, ``odds``, and ``companion odds fight dragons-den``.

Registered on ``companion dragon`` by :mod:`companion.games.dragons_den.cli`; only typer is imported
at module level.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.cli.common import JsonOpt
from companion.games.dragons_den.cli.common import _current_hero, _den, resolve

if TYPE_CHECKING:
    from companion.cli.env import Env

app = typer.Typer()

NOTES = ("heroes", "monsters", "dragons", "treasure", "charts")


@app.command()
def notes(
    ctx: typer.Context,
    what: Annotated[str, typer.Argument(help="heroes, monsters, dragons, treasure, charts or all.")] = "all",
    json_out: JsonOpt = False,
) -> None:
    """The rules' tables: heroes, monsters, dragons, both treasure tables (with your corrections), the charts."""
    from companion.errors import InputError
    from companion.games.dragons_den.view import tables

    env: Env = ctx.obj
    what = what.strip().lower()
    if what != "all" and what not in NOTES:
        raise InputError(f"{what!r} is not a table; tables: {', '.join(NOTES)} or all")
    values = _values(env)
    chosen = NOTES if what == "all" else (what,)
    if json_out:
        env.print_json({name: tables.as_json(name, values) for name in chosen})
        return
    for name in chosen:
        for table in tables.render(name, values):
            env.print(table)


def _values(env: Env) -> dict[str, Any]:
    """The game data in force: the active Dragon's Den session's, else the player's catalogue."""
    from companion.cli.kit import active_game, opened
    from companion.session import catalogue
    from companion.store.paths import data_dir

    try:
        game = active_game(env)
    except Exception:  # a damaged or missing session: fall back to the catalogue
        game = None
    if game == "dragons-den":
        with opened(env, read=True) as session:
            return dict(session.state.data)
    return catalogue.load(data_dir(env.data_dir), "dragons-den")


@app.command()
def treasure(
    ctx: typer.Context,
    table: Annotated[str | None, typer.Argument(help="dragon or monster.", show_default=False)] = None,
    row: Annotated[int | None, typer.Argument(help="The row (chit number).", min=1, max=20, show_default=False)] = None,
    name: Annotated[str | None, typer.Option("--name", help="The treasure's name, as your rules show it.")] = None,
    gp: Annotated[int | None, typer.Option("--gp", help="Its value in gp, as your rules show it.", min=0)] = None,
    json_out: JsonOpt = False,
) -> None:
    """Show the treasure tables, or correct a row (rows 9 and 10 are garbled in the text): kept for every new game."""
    from companion.cli.kit import active_game, opened
    from companion.errors import InputError
    from companion.games.dragons_den import data, rules
    from companion.games.dragons_den.view import tables
    from companion.session import catalogue
    from companion.store.paths import data_dir

    env: Env = ctx.obj
    if table is None:
        notes(ctx, "treasure", json_out)
        return
    table = table.strip().lower()
    if table not in data.TREASURE_TABLES:
        raise InputError(f"{table!r} is not a treasure table; use dragon or monster")
    size = len(data.TREASURE_TABLES[table])
    if row is None or not 1 <= row <= size:
        raise InputError(f"the {table} treasure table has rows 1 to {size}")
    values: dict[str, Any] = {}
    if name is not None:
        if not name.strip():
            raise InputError("--name needs some text")
        values[f"treasure.{table}.{row}.name"] = name.strip()
    if gp is not None:
        values[f"treasure.{table}.{row}.gp"] = gp
    recorded = None
    if values:
        catalogue.merge(data_dir(env.data_dir), "dragons-den", values)
        if active_game(env) == "dragons-den":
            with opened(env) as session:  # it records: under the lock
                session.record({"t": "gamedata", "values": values})
                recorded = session.name
    current = _values(env)
    fixed = rules.treasure_row(current, table, row)
    if json_out:
        env.print_json({"table": table, **tables.row_json(fixed), "saved": bool(values), "session": recorded})
        return
    env.print(f"{table.capitalize()} treasure {row}: {tables.row_text(fixed)}")
    if values:
        where = f" and to session {recorded}" if recorded else ""
        env.print(f"Saved to your game data (every new Dragon's Den game uses it){where}.")


@app.command()
def odds(
    ctx: typer.Context,
    names: Annotated[
        list[str] | None, typer.Argument(help="ATTACKER TARGET on the board (default: the current turn's options).")
    ] = None,
    health: Annotated[
        int | None, typer.Option("--health", help="The striker's health (no session needed).", min=1)
    ] = None,
    against: Annotated[int | None, typer.Option("--against", help="The other side's health.", min=1)] = None,
    need: Annotated[
        int | None, typer.Option("--need", help="Squares a move must reach (run-away odds).", min=0)
    ] = None,
    speed: Annotated[int | None, typer.Option("--speed", help="The mover's speed (with --need).", min=0)] = None,
    run: Annotated[bool, typer.Option("--run", help="With --need: running (1d6 + 1d10 + speed).")] = False,
    haste: Annotated[
        bool, typer.Option("--haste", help="With --need: Cara's Haste adds its d6 (a 6 adds nothing).")
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """Exact odds: an attack, a fight to the end, a breath save, a move reaching N squares."""
    from companion.errors import InputError
    from companion.games.dragons_den.view import tables

    env: Env = ctx.obj
    if need is not None:
        who = None
        if speed is None:
            if not names:
                raise InputError("give --speed, or name who moves")
            from companion.cli.kit import opened

            with opened(env, read=True) as session:
                den = _den(session)
                f = den.figure(resolve(den, names[0]))
                assert f is not None
                speed, who = f.speed, f.name
        data_ = tables.move_odds(speed, need, run=run, haste=haste, who=who)
    elif health is not None or against is not None:
        if health is None or against is None:
            raise InputError("--health and --against go together: the two sides' health")
        data_ = tables.fight_odds(health, against)
    else:
        from companion.cli.kit import opened

        with opened(env, read=True) as session:
            den = _den(session)
            if names:
                if len(names) != 2:
                    raise InputError("name the attacker and the target (odds jared goblin)")
                a = den.figure(resolve(den, names[0]))
                b = den.figure(resolve(den, names[1]))
                assert a is not None and b is not None
                data_ = tables.figure_odds(den, a, b)
            else:
                data_ = tables.turn_odds(den)
    if json_out:
        env.print_json(data_)
        return
    for line in data_["lines"]:
        env.print(line)


# ---- companion odds fight dragons-den ------------------------------------------------------------


def odds_fight(
    ctx: typer.Context,
    names: Annotated[
        list[str] | None,
        typer.Argument(
            help="ATTACKER [TARGET] on the board (default: the hero whose turn it is, against the one monster).",
            show_default=False,
        ),
    ] = None,
    health: Annotated[
        int | None, typer.Option("--health", help="The striker's health (no game needed).", min=1, show_default=False)
    ] = None,
    against: Annotated[
        int | None, typer.Option("--against", help="The other side's health.", min=1, show_default=False)
    ] = None,
    second: Annotated[bool, typer.Option("--second", help="The other side strikes first.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Exact odds of an exchange of attacks at the current health: single blows in turn until one falls.

    With a Dragon's Den game active, the figures on the board at their health now (a hero against a
    monster, or a monster against a hero); --health and --against set a health yourself.
    """
    env: Env = ctx.obj
    from companion.cli.kit import active_game, opened
    from companion.errors import InputError
    from companion.games.dragons_den.odds import fight_outcome
    from companion.sim.fights import show

    name, other = "the striker", "the other side"
    if active_game(env) == "dragons-den" and (names or health is None or against is None):
        with opened(env, read=True) as session:
            den = _den(session)
            if len(names or []) > 2:
                raise InputError("name the attacker and the target, e.g. companion odds fight dragons-den jared goblin")
            a = den.figure(resolve(den, names[0]) if names else _current_hero(den))
            if names and len(names) == 2:
                b = den.figure(resolve(den, names[1]))
            else:
                foes = den.monsters_alive() if a is not None and a.kind == "hero" else den.heroes_in()
                if len(foes) != 1:
                    raise InputError(f"name the target: {a.name if a else 'who'} against whom?")
                b = foes[0]
            assert a is not None and b is not None
            if "dragon" in (a.kind, b.kind):
                raise InputError(
                    "the dragon does not trade blows: its only attack is its breath (companion dragon odds)"
                )
            if (a.kind == "hero") == (b.kind == "hero"):
                raise InputError("an exchange is a hero against a monster, or a monster against a hero")
            name, other = a.name, (f"the {b.name}" if b.kind == "monster" else b.name)
            if a.kind == "monster":
                name = f"the {a.name}"
            health = a.health if health is None else health
            against = b.health if against is None else against
    elif names:
        raise InputError("naming figures needs a Dragon's Den game; without one give --health and --against")
    if health is None or against is None:
        raise InputError("give --health and --against: the two sides' health (or name figures in a game)")
    show(env, fight_outcome(health, against, first=not second, name=name, other=other), json_out)
