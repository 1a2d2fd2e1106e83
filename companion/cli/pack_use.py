"""Table packs at the command line: finding them (the session's copies, the player's folder), a table
or check by name, ``new --tables``.

``companion roll`` and ``companion odds`` hand a ``DR NAME`` or ``check NAME`` to
:mod:`companion.cli.pack_roll` and :mod:`companion.cli.pack_odds` first (see :func:`wants`); a table
the session's own game has is left to them, so the built-in games read their tables exactly as
before. Only these modules and :mod:`companion.packs` import ``tomllib``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import InputError, NotFoundError
from companion.i18n import _

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.packs.find import Found
    from companion.packs.pack import Pack
    from companion.session.service import Session


def wants(words: list[str]) -> bool:
    """``DR NAME`` or ``check NAME``: a roll a table pack may answer."""
    return len(words) >= 2 and words[0].lower() in ("dr", "check")


# ---- finding packs ---------------------------------------------------------------------------


def available(env: Env, kind: str | None = None, wanted: str | None = None) -> Found:
    """The active session's copies first, then the player's folder.

    With ``kind`` and ``wanted`` (a table or check name), the folder is not read when a session's copy
    has it (the session's copy would win anyway), and otherwise only the packs that name it are read.
    """
    from companion.cli.kit import active_name, store
    from companion.packs.find import Found, config_dir, scan, session_dir

    found = Found()
    name = active_name(env)
    if name is not None:
        scan(session_dir(store(env).files(name).dir), found, origin="session")
        if kind is not None and wanted is not None and _hits(found, kind, wanted):
            return found
    folder = config_dir(env.data_dir)
    if kind is not None and wanted is not None:
        # First only the folder's packs that name the table: a pack that does not cannot answer, and
        # however big or broken, it does not slow the roll. Nothing found: all of them, for the message.
        quick = Found(list(found.packs), list(found.broken), dict(found.origin))
        scan(folder, quick, origin="folder", mentioning=wanted.strip().rpartition("/")[2])
        if _hits(quick, kind, wanted):
            return quick
    scan(folder, found, origin="folder")
    return found


def _hits(found: Found, kind: str, name: str) -> list[tuple[Pack, Any]]:
    """The packs (and their table or check) that answer ``DR name`` (``kind`` "dr") or ``check name``."""
    pack_name, _, item = name.strip().lower().rpartition("/")
    hits = []
    for pack in found.packs:
        if pack_name and pack.name != pack_name:
            continue
        obj = pack.table(item) if kind == "dr" else pack.check(item)
        if obj is not None:
            hits.append((pack, obj))
    return hits


def names_for_completion(kind: str, data: Path, override: Path | None, session: str | None) -> list[tuple[str, str]]:
    """Table (``kind`` "dr") or check names for Tab: the session's packs, the player's folder, its game."""
    from companion.packs.find import Found, config_dir, scan, session_dir

    found = Found()
    if session:
        scan(session_dir(data / "sessions" / session), found, origin="session")
    scan(config_dir(override), found)
    out = [(n, p.title) for p in found.packs for n in (p.tables if kind == "dr" else p.checks)]
    if kind == "dr" and session:
        from companion.games import load
        from companion.store.sessions import Store

        spec = load(Store(data).files(session).read_meta()["meta"]["game"])
        out += [(n, spec.title) for n in spec.tables]
    return out


def packs_for_completion(
    data: Path, override: Path | None, session: str | None, *, unique: bool = False
) -> list[tuple[str, str]]:
    """Pack names for Tab (``tables export``), or with ``unique`` each pack's unique tables too (reset)."""
    from companion.packs.find import Found, config_dir, scan, session_dir

    found = Found()
    if session:
        scan(session_dir(data / "sessions" / session), found, origin="session")
    scan(config_dir(override), found)
    if not unique:
        return [(p.name, p.title) for p in found.packs]
    out = []
    for p in found.packs:
        tables = [t for t in p.tables.values() if t.draw == "unique"]
        if tables:
            out.append((p.name, p.title))
            out += [(t.name, t.title) for t in tables]
    return out


def _game_table(env: Env, name: str, game: str | None) -> bool:
    """True when the game (--game, else the active session's) has a table of this name."""
    if game is None:
        from companion.cli.kit import active_game

        game = active_game(env)
    if game is None:
        return False
    from companion.games import load

    tables = load(game).tables
    return any(c in tables for c in (name, name.removesuffix("s"), name + "s"))


def _leave_to_game(env: Env) -> bool:
    """Whether a DR no pack answers is the active game's to refuse (any game but freeform)."""
    from companion.cli.kit import active_game

    return active_game(env) not in ("freeform",)


def lookup(env: Env, kind: str, name: str, found: Found | None = None) -> tuple[Pack, Any]:
    """The pack and the table (``kind`` "dr") or check ("check") called ``name`` or ``PACK/NAME``."""
    found = found if found is not None else available(env, kind, name)
    item = name.strip().lower().rpartition("/")[2]
    hits = _hits(found, kind, name)
    what = "table" if kind == "dr" else "check"
    if not hits:
        if found.broken:
            raise found.broken[0]
        known = sorted(f"{p.name}/{n}" for p in found.packs for n in (p.tables if kind == "dr" else p.checks))
        if not found.packs:
            message = f"no {what} {item!r}: no table pack is in use"
        else:
            message = f"no {what} {item!r} in your table packs; " + (
                f"{what}s: {', '.join(known)}" if known else f"they have no {what}s"
            )
        raise NotFoundError(
            message,
            hint=_("companion tables list shows every pack; start a session with companion new freeform --tables FILE"),
        )
    if len(hits) > 1 and found.origin.get(hits[0][0].name) != "session":
        names = " or ".join(f"{p.name}/{item}" for p, _ in hits)
        raise InputError(
            _("{n} packs have a {what} {item!r}: write {names}").format(n=len(hits), what=what, item=item, names=names)
        )
    return hits[0]


def prepare(env: Env, tables: list[str], game: str, got: str | None, physical: bool) -> tuple[list[Pack], list[Any]]:
    """``companion new --tables ... [--got ...]``: the packs, read and checked, and the rolls of the
    starting scores they roll (typed or given), all before anything is created: a bad pack or a wrong
    die leaves no session behind."""
    packs = [resolve(env, t) for t in tables]
    check_packs(packs, game)
    if not packs and got is None:
        return packs, []
    from companion.cli.pack_start import read_first

    return packs, read_first(env, packs, got, physical)


def resolve(env: Env, text: str) -> Pack:
    """``--tables`` value: a file, or the name of a pack in the player's folder."""
    from companion.packs.find import config_dir, scan
    from companion.packs.pack import read_pack

    path = Path(text).expanduser()
    try:
        there = path.exists()
    except OSError:  # a name too long to be a file's: read_pack says so in one line
        there = True
    if path.suffix == ".toml" or there or "/" in text:
        return read_pack(path, shown=text)
    folder = config_dir(env.data_dir)
    found = scan(folder)
    for pack in found.packs:
        if pack.name == text:
            return pack
    names = ", ".join(p.name for p in found.packs) or f"none in {folder}"
    raise NotFoundError(
        _("no table pack {text!r}: give a .toml file, or one of your packs: {names}").format(text=text, names=names),
        hint=_example_hint(text),
    )


def _example_hint(name: str) -> str | None:
    """``--tables ashen-keep`` where companion's own examples hold ashen-keep.toml: say its path."""
    import os

    if not name.replace("-", "").replace("_", "").isalnum():
        return None
    example = Path(__file__).resolve().parents[2] / "examples" / "tables" / f"{name}.toml"
    if not example.is_file():
        return None
    shown = os.path.relpath(example)
    return _("companion's example pack: --tables {path}").format(path=shown if not shown.startswith("..") else example)


def attach(
    env: Env, session: Session, packs: list[Pack], rolls: list[Any] | None = None
) -> tuple[list[Any], dict[str, int]]:
    """Keep a copy of each pack in the session, and start the trackers the packs declare (``rolls``: the
    rolled trackers' rolls, from :func:`companion.cli.pack_start.read_first`). The log entries of the
    rolls of character creation (to show) and the scores they gave."""
    from companion.cli.kit import opened
    from companion.packs.find import session_dir
    from companion.store.atomic import write_atomic

    folder = session_dir(session.files.dir)
    folder.mkdir(parents=True, exist_ok=True)
    for pack in packs:
        write_atomic(folder / f"{pack.name}.toml", pack.source)
    given = list(rolls or ())
    with opened(env, name=session.files.slug) as s:
        before = len(s.state.log.entries)
        for pack in packs:
            for t in pack.trackers.values():
                if t.roll:  # character creation: the start is rolled (companion/cli/pack_start.py)
                    from companion.cli.pack_start import record

                    s.record(record(s, pack, t, given.pop(0) if given else None))
                    continue
                event: dict[str, Any] = {"t": "counter", "name": t.key, "op": "set", "value": t.start, "label": t.name}
                if t.max is not None or t.max_start:
                    event["max"] = t.start if t.max_start else t.max
                event["why"] = f"{pack.title}: starting value"
                s.record(event)
        created = [e for e in s.state.log.entries[before:] if e["k"] == "roll"]
        counters = s.state.trackers.counters
        return created, {t.name: counters[t.key].value for p in packs for t in p.trackers.values() if t.roll}


def check_packs(packs: list[Pack], game: str) -> None:
    """Refuse two packs with one name, two packs with one tracker, and trackers in a game with rules of its own."""
    seen: dict[str, Pack] = {}
    kept: dict[str, Pack] = {}
    for pack in packs:
        if pack.name in seen:
            raise InputError(
                _("two --tables packs are both named {name!r}; give each pack once").format(name=pack.name)
            )
        seen[pack.name] = pack
        if pack.trackers and game != "freeform":
            names = ", ".join(t.name for t in pack.trackers.values())
            raise InputError(
                _(
                    "{path}: {name} declares trackers ({names}), and only a freeform session keeps a "
                    "pack's trackers (the {game} rules keep their own); use companion new freeform "
                    "--tables, or a pack without [trackers]"
                ).format(path=pack.path, name=pack.name, names=names, game=game)
            )
        for t in pack.trackers.values():
            if t.key in kept:
                other = next(o for o in kept[t.key].trackers.values() if o.key == t.key)
                what = f"an HP tracker ({other.name} and {t.name})" if t.hp or other.hp else f"the tracker {t.name}"
                raise InputError(
                    _("{name} and {name2} both declare {what}; keep it in one pack").format(
                        name=kept[t.key].name, name2=pack.name, what=what
                    )
                )
            kept[t.key] = pack
