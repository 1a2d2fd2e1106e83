"""``odds DR NAME`` and ``odds check NAME`` from a table pack: each row's exact chance (of what is left,
on a ``draw = "unique"`` table in a session), and a check's chance to pass now."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.errors import InputError
from companion.i18n import _

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.packs.model import Pack, PackTable

Segment = tuple[str, str]


def odds(env: Env, words: list[str], *, mod: int, json_out: bool) -> bool:
    """``odds DR NAME``: each row's exact chance; ``odds check NAME``: the chance to pass now."""
    from companion.cli.pack_roll import print_lines, tracker_value
    from companion.cli.pack_use import _game_table, available, lookup

    kind, name = words[0].lower(), " ".join(words[1:])
    if kind == "dr" and _game_table(env, name.lower(), None):
        return _builtin_odds(env, name.lower(), json_out)
    found = available(env, kind, name)
    if kind == "dr" and not found.packs and not found.broken:
        return False
    pack, obj = lookup(env, kind, name, found)
    from companion.cli.kit import active_name, opened

    if kind == "dr":
        if mod:
            raise InputError(_("DR {table} takes no modifier: a table reads the bare dice").format(table=obj.name))
        drawn: list[str] = []
        if obj.draw == "unique" and active_name(env) is not None:
            from companion.cli.pack_roll import drawn_in

            with opened(env, read=True) as s:
                drawn = drawn_in(s, pack).get(obj.name, [])
        show_table_odds(env, pack, obj, json_out, drawn)
        return True
    from companion.dice.odds import odds as exact
    from companion.dice.render import fraction
    from companion.packs.rolling import check_expr

    if active_name(env) is not None:
        with opened(env, read=True) as s:
            value, note = tracker_value(obj, s)
    else:
        value, note = tracker_value(obj, None)
    expr = check_expr(obj, value)
    o = exact(expr, mod)
    if json_out:
        data = {
            "pack": pack.name,
            "check": obj.name,
            "expr": str(expr),
            "modifier": mod,
            "target": o.target,
            "success": f"{o.success.numerator}/{o.success.denominator}",
            "percent": round(float(o.success) * 100, 3),
        }
        if obj.tracker is not None:
            data["tracker"] = {"name": obj.tracker.name, "value": value}
        if note:
            data["note"] = note
        env.print_json(data)
        return True
    against = f" ({obj.tracker.name} {value})" if obj.tracker is not None else ""
    modtext = f" {mod:+d}".replace("-", "−") if mod else ""
    lines: list[list[Segment]] = [
        [
            (f"check {obj.name}", "bold"),
            (f": {obj.dice}{modtext} {obj.target_text}{against}", ""),
            (_(" → passes on {target}: ").format(target=o.target), ""),
            (fraction(o.success), "bold green"),  # type: ignore[arg-type]
        ]
    ]
    if note:
        lines.append([(f"  ({note})", "dim")])
    print_lines(env, lines)
    return True


def show_table_odds(env: Env, pack: Pack, table: PackTable, json_out: bool, drawn: list[str] | None = None) -> None:
    """Each row's exact chance; with ``drawn`` rows (a unique table's, in a session), of what is left."""
    from companion.dice.odds import percent
    from companion.i18n import _
    from companion.packs.rolling import table_odds

    gone = set(drawn or ())
    rows = table_odds(table, gone)
    if json_out:
        out = []
        for r, p in rows:
            entry = {"roll": r.span, "result": r.text, "chance": f"{p.numerator}/{p.denominator}"}
            if r.weight is not None:
                entry["weight"] = r.weight
            if r.span in gone:
                entry["drawn"] = True
            out.append(entry)
        data = {"pack": pack.name, "table": table.name, "dice": table.dice, "rows": out}
        if table.draw == "unique":
            data["draw"] = "unique"
            data["drawn"] = sorted(gone, key=lambda s: next(i for i, r in enumerate(table.rows) if r.span == s))
        env.print_json(data)
        return
    from rich.table import Table
    from rich.text import Text

    head = Text(f"DR {table.name}", style="bold").append(f" ({table.dice}): {table.title}", style="")
    env.print(head)
    if table.draw == "unique" and gone:
        env.print(
            _(
                "{n} of {rows} rows drawn (draw = unique): the chances are of what is left; "
                "companion tables reset {table} puts them back"
            ).format(n=len(gone), rows=len(table.rows), table=table.name)
        )
    grid = Table(box=None, pad_edge=False, show_header=True)
    grid.add_column(_("roll"), justify="right", no_wrap=True)
    grid.add_column(_("chance"), justify="right", no_wrap=True)
    grid.add_column("", justify="right", no_wrap=True)
    grid.add_column(_("result"), overflow="fold")
    for r, p in rows:
        if r.span in gone:
            grid.add_row(r.span, _("drawn"), "", Text(r.text, style="dim"))
        else:
            grid.add_row(r.span, f"{p.numerator}/{p.denominator}", percent(p), Text(r.text))
    env.print(grid)


def _builtin_odds(env: Env, name: str, json_out: bool) -> bool:
    from companion.cli.kit import active_game
    from companion.packs.find import builtin_packs

    for pack in builtin_packs([active_game(env)]):
        for candidate in (name, name.removesuffix("s"), name + "s"):
            if candidate in pack.tables:
                show_table_odds(env, pack, pack.tables[candidate], json_out)
                return True
    return False
