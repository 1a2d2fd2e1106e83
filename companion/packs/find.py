"""Where table packs live: the player's folder, a session's own copies, and the built-in games.

- ``<config>/companion/tables/*.toml`` (platformdirs' user config folder). ``COMPANION_TABLES``
  names another folder; with ``--data-dir``/``COMPANION_HOME`` (tests, portable installs) the folder
  is ``tables/`` inside the data folder, so one override keeps everything together.
- ``sessions/<slug>/tables/*.toml``: the copies a session made at ``companion new --tables``, so a later
  edit of the original does not rewrite the session's history.
- the built-in games' DR tables (``Game.tables``), listed read-only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from companion.errors import InputError
from companion.packs.bounds import read_source
from companion.packs.pack import Pack, PackRow, PackTable, parse_pack, read_pack

SESSION_FOLDER = "tables"


def config_dir(data_override: Path | None) -> Path:
    env = os.environ.get("COMPANION_TABLES")
    if env:
        return Path(env).expanduser()
    if data_override is not None:
        return Path(data_override).expanduser() / "tables"
    import platformdirs

    return Path(platformdirs.user_config_dir("companion", appauthor=False)) / "tables"


def session_dir(session_folder: Path) -> Path:
    return session_folder / SESSION_FOLDER


@dataclass
class Found:
    """The packs found in some folders, and the files that were refused (kept to report them)."""

    packs: list[Pack] = field(default_factory=list)
    broken: list[InputError] = field(default_factory=list)
    #: Pack name → where it was found: "session" (the session's copy) or "folder" (the player's folder).
    origin: dict[str, str] = field(default_factory=dict)


def scan(folder: Path, found: Found | None = None, *, origin: str = "folder", mentioning: str | None = None) -> Found:
    """The packs in ``folder`` (and the files refused), added to ``found``.

    ``mentioning``: only the packs whose text names it (a table or check wanted): the others cannot
    have it, and are neither checked nor reported, so a big or broken pack beside them costs a read.
    """
    found = found if found is not None else Found()
    try:
        files = sorted(p for p in folder.iterdir() if p.suffix == ".toml" and p.is_file())
    except OSError:
        return found
    names = {p.name for p in found.packs}  # a pack already found (a session's copy) wins
    for path in files:
        try:
            if mentioning is None:
                pack = read_pack(path)
            else:
                source = read_source(path, str(path))
                if not _mentions(source, mentioning):
                    continue
                pack = parse_pack(source, str(path))
        except InputError as exc:
            found.broken.append(exc)
            continue
        if pack.name in names:
            continue
        names.add(pack.name)
        found.packs.append(pack)
        found.origin[pack.name] = origin
    return found


def _mentions(source: str, name: str) -> bool:
    """Whether a pack's text may name ``name`` (a TOML escape such as \\u0072 could spell it: then yes)."""
    return name.lower() in source.lower() or "\\u" in source or "\\U" in source


def builtin_packs(games: list[str | None] | None = None) -> list[Pack]:
    """The built-in games' DR tables (of ``games``, else of every game), one read-only pack per game."""
    from companion.games import GAMES, load

    out = []
    for game in GAMES if games is None else [g for g in games if g]:
        spec = load(game)
        if not spec.tables:
            continue
        tables = {}
        for key, t in spec.tables.items():
            from companion.dice.expr import parse

            rows = tuple(PackRow(r.lo, r.hi, f"{r.name} ({r.detail})" if r.detail else r.name) for r in t.rows)
            tables[key] = PackTable(key, t.title, t.die, parse(t.die), rows)
        out.append(Pack(game, spec.title, "built-in", "", tables, {}, {}, builtin=True))
    return out
