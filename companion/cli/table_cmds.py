"""``companion tables list|show|validate``: the table packs a player wrote, and the games' own tables."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.cli.common import JsonOpt
from companion.i18n import _

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.packs.pack import Pack, PackTable

TABLES_EPILOG = """\
\b
Examples:
  companion tables list
  companion tables validate examples/tables/sunken-crypt.toml
  companion tables show inverted-tower
  companion new freeform --tables examples/tables/sunken-crypt.toml
  companion roll DR room
  companion roll DR room --row 4
  companion odds DR monster
  companion roll check swim
  companion tracker torches -1
  companion tables import examples/tables/hedge-witch.md
"""

tables_app = typer.Typer(
    help="Table packs: your own book's roll tables, checks and trackers (see docs/tables.md).",
    epilog=TABLES_EPILOG,
    invoke_without_command=True,
    rich_markup_mode=None,
)


@tables_app.callback()
def tables_root(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """Table packs: your own book's roll tables, checks and trackers (alone: the same as tables list)."""
    if ctx.invoked_subcommand is None:
        list_cmd(ctx, json_out)


def _all(env: Env) -> tuple[list[tuple[Pack, str]], list[Any], Path]:
    """Every pack with where it is from ("session", "folder", "built-in"), the refused files, the folder."""
    from companion.cli.pack_use import available
    from companion.packs.find import builtin_packs, config_dir

    found = available(env)
    packs = [(p, found.origin[p.name]) for p in found.packs]
    packs += [(p, "built-in") for p in builtin_packs()]
    return packs, found.broken, config_dir(env.data_dir)


@tables_app.command("list")
def list_cmd(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """List your table packs, the current session's copies, and the built-in games' tables."""
    env: Env = ctx.obj
    packs, broken, folder = _all(env)
    if json_out:
        env.print_json(
            {
                "folder": str(folder),
                "packs": [
                    {
                        "pack": p.name,
                        "title": p.title,
                        "from": origin,
                        "read_only": p.builtin,
                        "path": None if p.builtin else p.path,
                        "tables": sorted(p.tables),
                        "checks": sorted(p.checks),
                        "trackers": [t.name for t in p.trackers.values()],
                    }
                    for p, origin in packs
                ],
                "refused": [str(e) for e in broken],
            }
        )
        return
    from rich.table import Table

    from companion.cli.env import styled

    grid = Table(box=None, pad_edge=False)
    for col in ("pack", "from", "tables and checks"):
        grid.add_column(col, overflow="fold")
    labels = {"session": "this session", "folder": "your folder", "built-in": "built-in, read-only"}
    for p, origin in packs:
        names = [f"DR {t}" for t in p.tables] + [f"check {c}" for c in p.checks]
        grid.add_row(p.name, labels[origin], ", ".join(names))
    env.print(grid)
    env.print(_("Your folder: {path}").format(path=folder), soft_wrap=True)
    if not any(origin == "folder" for _, origin in packs):
        env.print(_("  (no packs there yet: copy a .toml pack into it, or use companion new freeform --tables FILE)"))
    for exc in broken:
        env.print(styled(_("[red]refused[/red] {why}"), why=str(exc)))


@tables_app.command("show")
def show_cmd(
    ctx: typer.Context,
    name: Annotated[
        str,
        typer.Argument(help="A pack (sunken-crypt), a table (room, sunken-crypt/room) or a game.", show_default=False),
    ],
    json_out: JsonOpt = False,
) -> None:
    """Show a pack's tables, checks and trackers, or one table's rows with their odds."""
    env: Env = ctx.obj
    from companion.errors import NotFoundError

    packs, broken, _folder = _all(env)
    key = name.strip().lower()
    pack_name, _slash, table_name = key.rpartition("/")
    for p, _origin in packs:
        if p.name == key:
            _show_pack(env, p, json_out)
            return
    hits = [
        (p, p.tables[table_name]) for p, _ in packs if table_name in p.tables and (not pack_name or p.name == pack_name)
    ]
    if hits:
        from companion.cli.pack_odds import show_table_odds

        show_table_odds(env, hits[0][0], hits[0][1], json_out)
        return
    if broken:
        raise broken[0]
    known = ", ".join(p.name for p, _ in packs)
    raise NotFoundError(
        _("no pack or table {name!r}; packs: {known}").format(name=name, known=known),
        hint=_("companion tables list shows every table"),
    )


def _show_pack(env: Env, p: Pack, json_out: bool) -> None:
    if json_out:
        env.print_json(
            {
                "pack": p.name,
                "title": p.title,
                "read_only": p.builtin,
                "path": None if p.builtin else p.path,
                "tables": {t.name: _table_json(t) for t in p.tables.values()},
                "checks": {
                    c.name: {"title": c.title, "dice": c.dice, "target": c.target_text} for c in p.checks.values()
                },
                "trackers": {
                    t.name: {"start": None if t.roll else t.start, "max": "start" if t.max_start else t.max, "hp": t.hp}
                    | ({"roll": t.roll} if t.roll else {})
                    for t in p.trackers.values()
                },
            }
        )
        return
    from companion.cli.env import styled
    from companion.cli.pack_odds import show_table_odds

    env.print(
        styled(
            "[bold]{title}[/bold] ({name}" + (_(", built-in, read-only)") if p.builtin else ")"),
            title=p.title,
            name=p.name,
        )
    )
    if not p.builtin:
        env.print(_("File: {path}").format(path=p.path), soft_wrap=True)
    if p.description:
        env.print(p.description)
    for t in p.tables.values():
        env.print("")
        show_table_odds(env, p, t, False)
    if p.checks:
        env.print("")
        for c in p.checks.values():
            env.print(
                styled(
                    _("[bold]check {name}[/bold]: {title}, {dice} {target}"),
                    name=c.name,
                    title=c.title,
                    dice=c.dice,
                    target=c.target_text,
                )
            )
    if p.trackers:
        env.print("")
        for t in p.trackers.values():
            top = _(", max {n}").format(n=t.max) if t.max is not None else ""
            if t.max_start:
                top = _(", max where it starts")
            if t.roll:
                start = _("rolled on {roll} at companion new").format(roll=t.roll)
            else:
                start = _("starts at {n}").format(n=t.start)
            env.print(
                styled("[bold]{name}[/bold]: ", name=t.name)
                + start
                + top
                + (" " + _("(the HP tracker)") if t.hp else "")
            )


def _table_json(t: PackTable) -> dict[str, Any]:
    return {"title": t.title, "dice": t.dice, "rows": [{"roll": r.span, "result": r.text} for r in t.rows]}


from companion.cli.table_io_cmds import export_cmd, import_cmd  # noqa: E402  (after tables_app: added to it)

tables_app.command("import")(import_cmd)
tables_app.command("export")(export_cmd)


@tables_app.command("validate")
def validate_cmd(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(help="The .toml table pack to check.", show_default=False)],
    json_out: JsonOpt = False,
) -> None:
    """Check a table pack and say what to fix (file:line: what, exit 2), or that it is ready."""
    env: Env = ctx.obj
    from companion.packs.pack import read_pack

    p = read_pack(file)
    if json_out:
        env.print_json(
            {
                "ok": True,
                "pack": p.name,
                "tables": sorted(p.tables),
                "checks": sorted(p.checks),
                "trackers": [t.name for t in p.trackers.values()],
            }
        )
        return
    counts = [_count(len(p.tables), "table"), _count(len(p.checks), "check"), _count(len(p.trackers), "tracker")]
    env.echo(_("{file}: ok, pack {name} ({counts})").format(file=file, name=p.name, counts=", ".join(counts)))


def _pack_names(ctx: typer.Context, incomplete: str) -> list[tuple[str, str]]:
    from companion.cli.complete import pack_names

    return pack_names(ctx, incomplete)


@tables_app.command("reset")
def reset_cmd(
    ctx: typer.Context,
    name: Annotated[
        str,
        typer.Argument(
            help='A table with draw = "unique" (deck, or PACK/deck), or a pack: all its unique tables.',
            show_default=False,
            autocompletion=_pack_names,
        ),
    ],
    json_out: JsonOpt = False,
) -> None:
    """Put a unique table's drawn rows back, so every row can come up again (undo takes it back)."""
    env: Env = ctx.obj
    from companion.cli.kit import opened
    from companion.cli.pack_use import available, lookup
    from companion.errors import InputError
    from companion.i18n import _

    found = available(env)
    key = name.strip().lower()
    pack = next((p for p in found.packs if p.name == key), None)
    if pack is not None:
        tables = [t for t in pack.tables.values() if t.draw == "unique"]
        if not tables:
            raise InputError(
                _('pack {pack} has no table with draw = "unique": nothing to reset').format(pack=pack.name)
            )
    else:
        pack, table = lookup(env, "dr", name, found)
        if table.draw != "unique":
            raise InputError(
                _('DR {table} rolls with repeats (it has no draw = "unique"): nothing to reset').format(
                    table=table.name
                )
            )
        tables = [table]
    with opened(env) as session:
        drawn = session.state.trackers.drawn
        keys = [f"{pack.name}/{t.name}" for t in tables if drawn.get(f"{pack.name}/{t.name}")]
        counts = {k.rpartition("/")[2]: len(drawn[k]) for k in keys}
        if keys:
            session.record({"t": "table_reset", "pack": pack.name, "tables": keys})
    if json_out:
        env.print_json({"pack": pack.name, "reset": counts, "session": session.name})
        return
    if not keys:
        shown = ", ".join(f"DR {t.name}" for t in tables)
        env.print(_("Nothing is drawn from {tables} yet: every row can come up.").format(tables=shown))
        return
    for table_name, n in counts.items():
        env.print(_rows_back(n).format(table=table_name, n=n))
    env.print("  " + _("recorded in {session}").format(session=session.name), style="dim")


def _rows_back(n: int) -> str:
    from companion.i18n import ngettext

    return ngettext(
        "DR {table}: {n} drawn row is back; every row can come up again.",
        "DR {table}: {n} drawn rows are back; every row can come up again.",
        n,
    )


def _count(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


def tracker(
    ctx: typer.Context,
    name: Annotated[
        str | None, typer.Argument(help="The tracker, as your pack names it (SKILL, LUCK).", show_default=False)
    ] = None,
    change: Annotated[
        str | None, typer.Argument(help="+N, -N or =N; nothing to just show it.", show_default=False)
    ] = None,
    why: Annotated[
        str | None, typer.Option("--why", help="What changed it (kept in the log).", show_default=False)
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Show or change a tracker your table pack declares: "tracker LUCK -1", "tracker SKILL =8"."""
    env: Env = ctx.obj
    from companion.cli.common import parse_change
    from companion.cli.kit import opened
    from companion.errors import InputError

    with opened(env) as session:
        counters = session.state.trackers.counters
        shown = {key: c.label or (key.upper() if len(key) <= 3 else key.capitalize()) for key, c in counters.items()}
        if name is None:
            if json_out:
                env.print_json({shown[k]: {"value": c.value, "max": c.max} for k, c in counters.items()})
                return
            for key, c in counters.items():
                env.echo(f"{shown[key]}: {c.value}" + (f"/{c.max}" if c.max is not None else ""))
            if not counters:
                env.echo(_("No trackers yet: start a session with companion new freeform --tables FILE."))
            return
        from companion.cli.names import resolve

        name = resolve(name, shown.values())  # by any unique start: tracker st -2 is STAMINA
        key = next((k for k, label in shown.items() if name.lower() in (k.lower(), label.lower())), None)
        if key is None:
            known = ", ".join(shown.values()) or "none"
            raise InputError(
                _("this session keeps no tracker {name!r}; its trackers: {known}").format(name=name, known=known)
            )
        if change is not None:
            op, value = parse_change(change, shown[key])
            event: dict[str, Any] = {"t": "counter", "name": key, "op": op, "value": value, "label": shown[key]}
            if why:
                event["why"] = why
            session.record(event)
        c = session.state.trackers.counters[key]
        if json_out:
            env.print_json({"name": shown[key], "value": c.value, "max": c.max})
            return
        env.echo(f"{shown[key]}: {c.value}" + (f"/{c.max}" if c.max is not None else ""))


app = typer.Typer(rich_markup_mode=None)
app.add_typer(tables_app, name="tables")
app.command("tracker", context_settings={"ignore_unknown_options": True})(tracker)
