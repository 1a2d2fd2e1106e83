"""A table pack: a player's own book's roll tables, checks and trackers, read from TOML and checked.

``read_pack(path)`` parses a file and checks all of it before anything uses it: every total the dice
can give maps to exactly one row, every ``[reference]`` names a table, references never loop, stop
within :data:`MAX_DEPTH` tables and lead to at most :data:`MAX_ROLLS` rolls, every effect and check
names a tracker, every dice expression rolls. A refusal is one :class:`PackError` line:
``FILE:LINE: what is wrong; what to change``.

The top-level blocks are read by the readers in :data:`BLOCKS`, in order (``[trackers]`` before the
tables and checks whose effects name them); a new kind of block is a new entry there and a module of
its own beside ``read_tables`` and ``read_checks``. The format is documented key by key in
``docs/tables.md``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.i18n import _
from companion.packs import bounds, read_checks
from companion.packs.errors import PackError
from companion.packs.model import (  # noqa: F401  (the names the rest of companion imports from here)
    BUILTIN_TRACKERS,
    MAX_DEPTH,
    Check,
    Effect,
    Pack,
    PackRow,
    PackTable,
    Ref,
    TrackerSpec,
)
from companion.packs.reader import Reader
from companion.packs.refs import MAX_ROLLS  # noqa: F401

PACK_KEYS = ("name", "title", "description", "book", "license")


def _head(r: Reader, data: Any, found: dict[str, Any]) -> None:
    head = r.keys(data, ("pack",), PACK_KEYS, "[pack]") if data is not None else None
    if head is None:
        raise r.fail((), _('a pack starts with [pack] and name = "..." (a short name, e.g. ruined-keep)'))
    name = r.text(head.get("name"), ("pack", "name"), required=True)
    if not read_checks.NAME.match(name):
        raise r.fail(
            ("pack", "name"), _("pack name {name!r}: use letters, digits, - and _ (e.g. ruined-keep)").format(name=name)
        )
    found["pack"] = {
        "name": name,
        "title": r.text(head.get("title"), ("pack", "title")) or name,
        "description": r.text(head.get("description"), ("pack", "description")),
        "book": r.text(head.get("book"), ("pack", "book")),
        "license": r.text(head.get("license"), ("pack", "license")),
    }


def _trackers(r: Reader, data: Any, found: dict[str, Any]) -> None:
    found["trackers"] = read_checks.trackers(r, {} if data is None else data)


def _tables(r: Reader, data: Any, found: dict[str, Any]) -> None:
    from companion.packs.read_tables import read_table
    from companion.packs.refs import check_refs

    data = {} if data is None else data
    if not isinstance(data, dict):
        raise r.fail(("tables",), _("tables must be sections: [tables.NAME]"))
    tables: dict[str, PackTable] = {}
    for tname, tdata in data.items():
        table = read_table(r, tname, tdata, found["trackers"])
        if table.name in tables:
            raise r.fail(("tables", tname), _("two tables are named {tname!r} (names ignore case)").format(tname=tname))
        tables[table.name] = table
    check_refs(r, tables, data)
    found["tables"] = tables


def _checks(r: Reader, data: Any, found: dict[str, Any]) -> None:
    data = {} if data is None else data
    if not isinstance(data, dict):
        raise r.fail(("checks",), _("checks must be sections: [checks.NAME]"))
    found["checks"] = {}
    for cname, cdata in data.items():
        check = read_checks.check(r, cname, cdata, found["trackers"])
        found["checks"][check.name] = check


def _fights(r: Reader, data: Any, found: dict[str, Any]) -> None:
    from companion.packs.read_fights import read_fight

    data = {} if data is None else data
    if not isinstance(data, dict):
        from companion.i18n import _

        raise r.fail(("fights",), _("fights must be sections: [fights.NAME]"))
    fights = {}
    for fname, fdata in data.items():
        fight, _check = read_fight(r, fname, fdata, found["trackers"], found["checks"])
        if fight.name in fights:
            from companion.i18n import _

            raise r.fail(("fights", fname), _("two fights are named {name!r} (names ignore case)").format(name=fname))
        fights[fight.name] = fight
    found["fights"] = fights


def _foes(r: Reader, data: Any, found: dict[str, Any]) -> None:
    from companion.packs.read_fights import read_foes

    found["foes"] = read_foes(r, data, found["fights"])


#: Each top-level key and its reader, in the order they are read. A reader puts what it read in
#: ``found`` under its key; :class:`Pack` gets the four below by name, and any other block in ``extra``.
BLOCKS: dict[str, Callable[[Reader, Any, dict[str, Any]], None]] = {
    "pack": _head,
    "trackers": _trackers,
    "tables": _tables,
    "checks": _checks,
    "fights": _fights,
    "foes": _foes,
}


def read_pack(path: str | Path, *, shown: str | None = None) -> Pack:
    """Read and check the pack at ``path``; ``shown`` is the name messages use for the file."""
    where = shown or str(path)
    return parse_pack(bounds.read_source(path, where), where)


def parse_pack(source: str, where: str) -> Pack:
    import tomllib

    bounds.check_source(source, where, lambda line, message: PackError(where, line, message))
    try:
        data = tomllib.loads(source)
    except tomllib.TOMLDecodeError as exc:
        text = str(exc)
        m = re.search(r"\(at line (\d+), column (\d+)\)", text)
        what = re.sub(r"\s*\(at line \d+, column \d+\)|\s*\(at end of document\)", "", text)
        line = int(m.group(1)) if m else source.count("\n") + 1
        what = what[:1].lower() + what[1:]
        advice = "put text in double quotes" if what.startswith("invalid value") else "see docs/tables.md"
        raise PackError(where, line, _("TOML syntax: {what}; {advice}").format(what=what, advice=advice)) from None
    except (RecursionError, ValueError) as exc:  # bounds.check_source refuses what leads here first
        raise PackError(
            where, None, _("TOML cannot be read ({name}); see docs/tables.md").format(name=type(exc).__name__)
        ) from None
    return pack_from(data, source, where)


def pack_from(data: dict[str, Any], source: str, where: str) -> Pack:
    """The pack ``data`` (what ``tomllib`` read from ``source``) describes, checked."""
    r = Reader(source, where)
    r.keys(data, (), tuple(BLOCKS), "top-level")
    bounds.check_data(r.fail, data)  # how many tables and rows, how long each text: before any is read
    found: dict[str, Any] = {}
    for key, reader in BLOCKS.items():
        reader(r, data.get(key), found)
    if not found["tables"] and not found["checks"] and not found["fights"]:
        raise r.fail(
            ("pack",), _("the pack has no [tables.NAME], no [checks.NAME] and no [fights.NAME]; add at least one")
        )
    head = found["pack"]
    return Pack(
        name=head["name"],
        title=head["title"],
        path=where,
        source=source,
        tables=found["tables"],
        checks=found["checks"],
        trackers=found["trackers"],
        description=head["description"],
        book=head["book"],
        license=head["license"],
        extra={k: v for k, v in found.items() if k not in ("pack", "tables", "checks", "trackers")},
    )
