"""``companion tables import`` and ``companion tables export``: tables players already keep (Obsidian
markdown, Datasworn, Foundry VTT) to a pack in the player's folder, and a pack back out.

The commands are added to ``companion tables`` by :mod:`companion.cli.table_cmds`; the converting is
:mod:`companion.packs.convert`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.cli.common import JsonOpt

if TYPE_CHECKING:
    from companion.cli.env import Env


def _packs(ctx: typer.Context, incomplete: str) -> list[tuple[str, str]]:
    from companion.cli.complete import pack_names

    return pack_names(ctx, incomplete)


def import_cmd(
    ctx: typer.Context,
    files: Annotated[
        list[str],
        typer.Argument(
            help="The files to import: .md notes, Datasworn or Foundry .json, or a folder of them.",
            metavar="FILE...",
            show_default=False,
        ),
    ],
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format", help="markdown, datasworn or foundry (told from the files when left out).", show_default=False
        ),
    ] = None,
    name: Annotated[
        str | None, typer.Option("--name", help="The pack's name (default: the file's name).", show_default=False)
    ] = None,
    replace: Annotated[bool, typer.Option("--replace", help="Overwrite a pack of that name in your folder.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Turn tables you already have into a pack in your folder, checked like any pack."""
    env: Env = ctx.obj
    from companion.errors import InputError
    from companion.i18n import _
    from companion.packs.convert.common import slug
    from companion.packs.convert.load import FORMATS, LABELS, load
    from companion.packs.find import config_dir, scan
    from companion.packs.read_checks import NAME

    if fmt is not None and fmt.strip().lower() not in FORMATS:
        raise InputError(_("--format {fmt!r}: write markdown, datasworn or foundry").format(fmt=fmt))
    fmt = fmt.strip().lower() if fmt else None
    paths = [Path(f).expanduser() for f in files]
    pack_name = name.strip() if name else slug(paths[0].stem if paths[0].suffix else paths[0].name, "tables")
    if not NAME.match(pack_name):
        raise InputError(_("--name {name!r}: use letters, digits, - and _ (e.g. ruined-keep)").format(name=pack_name))
    imported, pack, toml = load(paths, list(files), fmt, pack_name)
    folder = config_dir(env.data_dir)
    target = folder / f"{pack.name}.toml"
    same = [p for p in scan(folder).packs if p.name == pack.name]
    if (same or target.exists()) and not replace:
        where = same[0].path if same else str(target)
        raise InputError(
            _("a pack named {name} is in your folder already ({where}); give --name NEW, or --replace").format(
                name=pack.name, where=where
            )
        )
    from companion.store.atomic import write_atomic

    folder.mkdir(parents=True, exist_ok=True)
    write_atomic(target, toml)
    for old in same:
        if Path(old.path) != target:
            Path(old.path).unlink(missing_ok=True)  # --replace: one file per pack name
    if json_out:
        env.print_json(
            {
                "pack": pack.name,
                "path": str(target),
                "format": imported.fmt,
                "read": imported.version,
                "tables": list(pack.tables),
                "notes": imported.notes,
            }
        )
        return
    from companion.i18n import ngettext

    rows = sum(len(t.rows) for t in pack.tables.values())
    env.print(
        ngettext(
            "{files} ({what}): pack {name}, {tables} table, {rows} rows, checked and written to {path}",
            "{files} ({what}): pack {name}, {tables} tables, {rows} rows, checked and written to {path}",
            len(pack.tables),
        ).format(
            files=", ".join(files),
            what=imported.version or LABELS[imported.fmt],
            name=pack.name,
            tables=len(pack.tables),
            rows=rows,
            path=target,
        ),
    )
    for note in imported.notes:
        env.print("  " + _("note: {note}").format(note=note))


def export_cmd(
    ctx: typer.Context,
    name: Annotated[
        str,
        typer.Argument(
            help="The pack to export (companion tables list names them).", show_default=False, autocompletion=_packs
        ),
    ],
    path: Annotated[
        str | None,
        typer.Argument(help="Where to write (default: PACK.md, PACK.json, or a folder PACK/).", show_default=False),
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="markdown (Obsidian) or foundry (Foundry VTT).")] = "markdown",
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Replace a file that is there already with other text (without it, companion asks at a terminal "
            "and refuses elsewhere).",
        ),
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """Write a pack as Obsidian markdown tables or as Foundry VTT roll tables (JSON).

    A file that is there already is replaced only when it holds this very text, with --force, or with a
    yes at a terminal; a symbolic link, a save in the data folder or a system file never.
    """
    env: Env = ctx.obj
    from companion.errors import InputError, NotFoundError
    from companion.i18n import _, ngettext

    kind = fmt.strip().lower()
    if kind not in ("markdown", "foundry"):
        raise InputError(_("--format {fmt!r}: write markdown or foundry").format(fmt=fmt))
    from companion.cli.pack_use import available
    from companion.packs.find import builtin_packs

    found = available(env)
    packs = [*found.packs, *builtin_packs()]
    pack = next((p for p in packs if p.name == name.strip().lower()), None)
    if pack is None:
        known = ", ".join(p.name for p in packs)
        raise NotFoundError(_("no pack {name!r}; packs: {known}").format(name=name, known=known))
    from companion.cli.export_cmds import _asker
    from companion.cli.kit import store
    from companion.store.exports import write_export

    try:
        files = _files(pack, kind, Path(path).expanduser() if path else None)
        for target, _text in files:
            _check_target(target)
        if not force:
            force = _may_replace(env, [t for t, text in files if t.exists() and not _same(t, text)])
        for target, text in files:
            write_export(target, text, store(env).data, force=force or _same(target, text), ask=_asker(env))
    except OSError as exc:  # a name too long for a file, a folder that cannot be made
        from companion.errors import CompanionError

        raise CompanionError(
            _("cannot write {path}: {why}").format(path=exc.filename or path or "", why=exc.strerror or exc)
        ) from None
    if json_out:
        env.print_json({"pack": pack.name, "format": kind, "files": [str(t) for t, _text in files]})
        return
    where = str(files[0][0]) if len(files) == 1 else str(files[0][0].parent) + "/"
    env.print(
        ngettext(
            "pack {name}: {n} table written to {where} ({what})",
            "pack {name}: {n} tables written to {where} ({what})",
            len(pack.tables),
        ).format(
            name=pack.name,
            n=len(pack.tables),
            where=where,
            what=_("Obsidian markdown") if kind == "markdown" else _("Foundry VTT roll tables"),
        ),
    )
    if pack.checks or pack.trackers:
        env.print("  " + _("its checks and trackers ride along in a companion note the other tool does not show"))


def _files(pack: Any, kind: str, path: Path | None) -> list[tuple[Path, str]]:
    from companion.errors import InputError
    from companion.i18n import _

    if kind == "markdown":
        from companion.packs.convert import markdown

        target = path or Path(f"{pack.name}.md")
        if target.is_dir():
            target = target / f"{pack.name}.md"
        return [(target, markdown.write(pack, target.stem))]
    from companion.packs.convert import foundry

    docs = foundry.write(pack)
    if len(docs) == 1:
        target = path or Path(f"{pack.name}.json")
        if target.is_dir():
            target = target / f"{pack.name}.json"
        return [(target, next(iter(docs.values())))]
    folder = path or Path(pack.name)
    if folder.exists() and not folder.is_dir():
        raise InputError(
            _("{path} is a file; a pack of {n} tables is written as a folder of files, one a table").format(
                path=folder, n=len(docs)
            )
        )
    return [(folder / f"{table}.json", text) for table, text in docs.items()]


def _may_replace(env: Env, changed: list[Path]) -> bool:
    """Whether the files there already with other text may be replaced: asked once at a terminal, else
    refused before anything is written (a pack of many files is written whole or not at all)."""
    from companion.cli.export_cmds import _asker
    from companion.errors import InputError
    from companion.i18n import _

    if not changed:
        return False
    where = ", ".join(str(p) for p in changed[:3]) + (" …" if len(changed) > 3 else "")
    ask = _asker(env)
    if ask is not None and ask(_("{paths} is there already with other text; replace it?").format(paths=where)):
        return True
    raise InputError(
        _("{paths} is there already with other text; nothing was written").format(paths=where),
        hint=_("give another name, or add --force to replace it"),
    )


def _same(target: Path, text: str) -> bool:
    """Whether ``target`` holds ``text`` already (an export made again from the same pack)."""
    from companion.errors import CompanionError
    from companion.store.atomic import read_bytes

    try:
        return read_bytes(target) == text.encode("utf-8")
    except (CompanionError, OSError):
        return False


def _check_target(target: Path) -> None:
    """Write only to a regular file (never over a device, a FIFO or through a symlink)."""
    from companion.errors import InputError
    from companion.i18n import _

    if target.is_symlink() or (target.exists() and not target.is_file()):
        raise InputError(_("{path} is not a regular file; give the path of a file to write").format(path=target))
