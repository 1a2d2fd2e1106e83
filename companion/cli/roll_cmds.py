"""``companion roll`` and ``companion odds``: the dice core on the command line."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from companion.i18n import _, pair, quote

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.dice.expr import Expr
    from companion.dice.tables import Table

ROLL_HELP = """Roll dice, virtually or with the faces you rolled yourself (--got).

Expressions: DR [TABLE], DC, EC, SR [A,B,C], talisman, NdX±M with an optional
comparison (2d6, 1d6+3>=7, d20, 1d10>=5, d%), and Dark Tower pools (dt, 3dt, 4dt).

The faces may follow the dice as they are (2d6 53, 2d6 5 3: a digit a die), as --got.
When a session is active the roll is recorded in it and in its dungeon log.
"""

ROLL_EPILOG = """\
\b
Examples:
  companion roll DC --mod 1
  companion roll DC --got 5
  companion roll 2d6 --got 3,5
  companion roll 2d6 35
  companion roll SR STR,DEX,INT
  companion roll "1d6+3>=7" --seed 7
  companion roll 3dt --got 1,heart,star
  companion roll DR events --game inverted-tower
"""

ODDS_EPILOG = """\
\b
Examples:
  companion odds DC --mod 2          2/3
  companion odds "2d6>=9"
  companion odds talisman
  companion odds 4dt
  companion odds fight it --mobs 2   exact fight odds
  companion odds fight --help        fight odds in every game
"""


def _table_names(ctx: typer.Context, incomplete: str) -> list[tuple[str, str]]:
    from companion.cli.complete import table_names

    return table_names(ctx, incomplete)


def _faces_after(words: list[str], got: str | None) -> tuple[list[str], str | None]:
    """``2d6 53`` or ``2d6 5 3``: the dice, then the faces rolled (as ``--got``), where the first word is
    dice alone and every word after it is faces (digits, with commas): a roll at the shell in the dice
    and the faces. Anything else is the expression's own words (``SR STR,DEX``, ``DR room``)."""
    import re

    if got is not None or len(words) < 2 or not all(re.fullmatch(r"\d+(,\d+)*", w) for w in words[1:]):
        return words, got
    from companion.dice.expr import parse
    from companion.errors import InputError

    try:
        first = parse(words[0])
    except InputError:
        return words, got
    if not first.dice or first.kind == "DR":
        return words, got
    return words[:1], " ".join(words[1:])


def _expr(words: list[str]) -> Expr:
    from companion.dice.expr import parse

    return parse(" ".join(words))


def _table(env: Env, expr: Expr, game: str | None) -> Table | None:
    """The table a ``DR NAME`` is read against, from --game or the active session's game."""
    if expr.kind != "DR" or not expr.table:
        return None
    from companion.errors import InputError, NotFoundError
    from companion.games import load

    if game is None:
        from companion.cli.kit import active_game

        game = active_game(env)
    if game is None:
        raise InputError(
            _("{dice} needs a game to find its table: give --game NAME or start a session").format(dice=expr)
        )
    spec = load(game)
    # "DR events" and "DR event" both find the table, whichever way the game named it.
    candidates = (expr.table, expr.table.removesuffix("s"), expr.table + "s")
    table = next((spec.tables[c] for c in candidates if c in spec.tables), None)
    if table is None:
        known = ", ".join(sorted(spec.tables)) or _("none")
        raise NotFoundError(
            _("{game} has no table {name}; its tables: {known}").format(
                game=_(spec.title), name=quote(expr.table), known=known
            )
        )
    return table


def roll(
    ctx: typer.Context,
    expr: Annotated[
        list[str],
        typer.Argument(
            help="What to roll, e.g. DC, 2d6+1, SR STR,DEX,INT, DR room, check skill.",
            show_default=False,
            metavar="EXPR",
            autocompletion=_table_names,
        ),
    ],
    mod: Annotated[int, typer.Option("--mod", "-m", help="Add this modifier (may be negative).")] = 0,
    got: Annotated[
        str | None,
        typer.Option("--got", "-g", help="The faces you rolled, e.g. 5 or 3,5 (physical dice).", show_default=False),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Seed the virtual dice so the roll replays exactly.", show_default=False),
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    show_odds: Annotated[bool, typer.Option("--odds", help="Show the exact odds of the check.")] = False,
    why: Annotated[
        str | None, typer.Option("--why", help="What the roll is for (kept in the log).", show_default=False)
    ] = None,
    scratch: Annotated[bool, typer.Option("--scratch", help="Do not record in the active session.")] = False,
    game: Annotated[
        str | None, typer.Option("--game", help="The game whose tables DR reads.", show_default=False)
    ] = None,
    row: Annotated[
        int | None,
        typer.Option(
            "--row",
            help="DR NAME of a table pack: take the row covering this total (35 on d66) instead of rolling; "
            "the log says it was chosen.",
            show_default=False,
        ),
    ] = None,
) -> None:
    env: Env = ctx.obj
    from companion.cli import pack_use

    aside = None
    if not scratch:  # the roll goes into the active session: say mistakes in its language
        from companion.cli.kit import active_name, speak_session

        speak_session(env)
        if seed is not None:
            # A session rolls from its own seed: a roll with --seed is a scratch roll beside it (the
            # README's `roll DC --seed 7` in a game just started), said in one line, not refused.
            aside = active_name(env)
            scratch = aside is not None
    expr, got = _faces_after(expr, got)
    if pack_use.wants(expr):
        from companion.cli.pack_roll import roll as pack_roll

        if pack_roll(
            env,
            expr,
            mod=mod,
            got=got,
            seed=seed,
            json_out=json_out,
            why=why,
            scratch=scratch,
            game=game,
            row=row,
            aside=aside,
        ):
            return  # a table pack's table or check (docs/tables.md)
    if row is not None:
        from companion.errors import InputError

        raise InputError(_("--row picks a row of a table pack's table (DR NAME); this roll is rolled, or --got"))
    from companion.dice.roll import check_modifier

    e = _expr(expr)
    check_modifier(e, mod)
    table = _table(env, e, game)
    physical = None
    if got is not None:  # checked before anything can be recorded: bad faces change no save
        from companion.dice.source import read_physical

        physical = read_physical(e, got, mod)
    session_roll = None
    over = None
    if not scratch:
        from companion.cli.kit import active_name, record_roll

        session_roll = record_roll(env, e, mod, got=got, seed=seed, why=why)
        if session_roll is None:
            over = active_name(env)  # a session is active but its game is over: the roll is made aside
    extra: dict[str, object] = {}
    if over is not None:
        extra["not_recorded"] = over
    if aside is not None:
        extra["scratch"] = aside
    if session_roll is not None:
        result, session_name = session_roll
        extra["session"] = session_name
    elif physical is not None:
        result = physical
    else:
        from companion.dice.source import VirtualDice, new_seed

        if seed is None:
            seed = new_seed()
        result = VirtualDice(seed).roll(e, mod)
        extra["seed"] = seed
    _show(env, result, table, json_out, show_odds, extra)


def _show(env: Env, result: object, table: Table | None, json_out: bool, show_odds: bool, extra: dict) -> None:
    from companion.dice import render

    roll_ = result  # a companion.dice.roll.Roll
    row = table.row_text(roll_.total) if table is not None else None  # type: ignore[attr-defined]
    if json_out:
        from companion.dice.odds import odds

        o = odds(roll_.expr, roll_.modifier - roll_.expr.const)  # type: ignore[attr-defined]
        data = render.to_json(
            roll_,  # type: ignore[arg-type]
            odds=f"{o.success.numerator}/{o.success.denominator}" if o.success is not None else None,
            table=table.name if table else None,
            row=row,
            **extra,
        )
        env.print_json(data)
        return
    segments = render.segments(roll_, row=row, show_odds=show_odds)  # type: ignore[arg-type]
    if "seed" in extra:
        segments.append((f" (seed {extra['seed']})", "dim"))
    if "session" in extra:
        segments.append(("  " + _("recorded in {session}").format(session=extra["session"]), "dim"))
    elif "not_recorded" in extra:
        segments.append(("  " + _("not recorded: {session} is over").format(session=extra["not_recorded"]), "dim"))
    note = None
    if roll_.faces is None:  # type: ignore[attr-defined]  # one number for several dice: say so, as the prompt does
        from companion.dice.source import total_note

        note = total_note(roll_)  # type: ignore[arg-type]
    if "scratch" in extra:
        from companion.cli.kit import scratch_note

        note = "\n".join(filter(None, [note, scratch_note(str(extra["scratch"]))]))
    if not env.stdout_isatty:
        # No terminal, so no colour to show: skip importing rich (~20 ms of every piped roll).
        env.echo("".join(part for part, _style in segments))
        if note:
            env.echo(note)
        return
    from rich.text import Text

    text = Text()
    for part, style in segments:
        text.append(part, style=style)
    env.print(text)
    if note:
        env.print(Text(note, style="dim"))


def odds_cmd(
    ctx: typer.Context,
    expr: Annotated[
        list[str],
        typer.Argument(
            help="The roll, e.g. DC, 2d6>=9, talisman, 4dt, DR room, check skill.",
            show_default=False,
            metavar="EXPR",
            autocompletion=_table_names,
        ),
    ],
    mod: Annotated[int, typer.Option("--mod", "-m", help="Add this modifier (may be negative).")] = 0,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Exact odds of a roll, as a fraction and a percentage, with its distribution."""
    env: Env = ctx.obj
    from companion.cli import pack_use
    from companion.dice.odds import dt_pool, odds, percent
    from companion.dice.render import fraction

    if pack_use.wants(expr):
        from companion.cli.pack_odds import odds as pack_odds

        if pack_odds(env, expr, mod=mod, json_out=json_out):
            return  # each row of a table, or a check against a tracker (docs/tables.md)
    e = _expr(expr)
    o = odds(e, mod)
    dt = e.has_dt and len(e.terms) == 1 and e.terms[0].sign > 0
    pool = dt_pool(e.terms[0].count) if dt else None
    if json_out:
        data: dict[str, object] = {
            "expr": str(e),
            "modifier": o.expr.const + mod,
            "target": o.target,
            "success": _frac(o.success),
            "percent": round(float(o.success) * 100, 3) if o.success is not None else None,
            "totals": {str(t): _frac(p) for t, p in o.totals.items()},
            "options": {str(k): _frac(p) for k, p in o.options.items()} or None,
        }
        if pool is not None:
            data["hearts"] = {str(k): _frac(v) for k, v in _marginal(pool, 1).items()}
            data["stars"] = {str(k): _frac(v) for k, v in _marginal(pool, 2).items()}
        env.print_json(data)
        return
    from rich.table import Table as RichTable
    from rich.text import Text

    head = Text(str(e), style="bold")
    if mod:
        head.append(f" {mod:+d}".replace("-", "−"), style="cyan")
    if o.success is not None:
        head.append(_(": passes on {target} → ").format(target=o.target), style="")
        head.append(fraction(o.success), style="bold green")
    env.print(head)
    if e.kind in ("DC", "EC", "talisman") and o.success is not None:
        for label, p, style in (("pass", o.success, "green"), ("fail", 1 - o.success, "red")):
            bar = Text("█" * round(float(p) * 30), style=style)
            env.print(Text(f"  {_(label)}  {percent(p):>6}  ").append(bar))
        return
    if o.options:
        names = e.options or ("1", "2", "3")
        for k, p in o.options.items():
            env.print("  " + _("option {n}").format(n=k) + f" ({names[k - 1]}): {fraction(p)}")
        return
    grid = RichTable(box=None, show_header=True, pad_edge=False)
    # A check lists what the dice show (its target is what they must show); a plain roll its totals.
    shift = o.expr.const + mod if e.op is not None else 0
    grid.add_column(_("dice") if e.op is not None else _("total") if pool is None else _("sum"), justify="right")
    grid.add_column(_("chance"), justify="right")
    grid.add_column("")
    dist = o.totals  # for a dt pool these are its sums, with the constant and --mod added
    if len(dist) > 40:
        env.print(
            "  "
            + _("{n} totals from {lo} to {hi}; use --json for all of them").format(
                n=len(dist), lo=min(dist), hi=max(dist)
            )
        )
        return
    peak = max(dist.values())
    for total, p in dist.items():
        bar = "█" * max(1, round(float(p / peak) * 30)) if p else ""
        grid.add_row(str(total - shift), percent(p), Text(bar, style="magenta"))
    env.print(grid)
    if pool is not None:
        for label, idx in ((_("♥ hearts"), 1), (_("★ stars"), 2)):
            m = _marginal(pool, idx)
            env.print(f"  {label}: " + ", ".join(pair(k, percent(v)) for k, v in m.items()))


def _frac(p: object) -> str | None:
    if p is None:
        return None
    return f"{p.numerator}/{p.denominator}"  # type: ignore[attr-defined]


def _marginal(pool: dict, index: int) -> dict:
    out: dict = {}
    for key, p in pool.items():
        out[key[index]] = out.get(key[index], 0) + p
    return dict(sorted(out.items()))


app = typer.Typer(rich_markup_mode=None)
app.command("roll", help=ROLL_HELP, epilog=ROLL_EPILOG)(roll)
app.command("odds", epilog=ODDS_EPILOG)(odds_cmd)
