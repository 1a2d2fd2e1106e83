"""What every importer and exporter shares: a source file read within bounds, names made from titles,
a pack's data written as TOML, and the made pack checked, its refusals naming the source's line."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.errors import InputError

#: A file bigger than this is refused before it is read (16 MiB; a whole Datasworn ruleset is ~3 MiB).
MAX_BYTES = 16 * 2**20
#: At most this many files in one import (a folder of notes).
MAX_FILES = 500

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


@dataclass
class Origin:
    """Where a part of the made pack came from: a file and its line (found only when a refusal needs it)."""

    shown: str
    line: int | None = None
    locate: Callable[[], int | None] | None = None

    def where(self) -> tuple[str, int | None]:
        if self.line is None and self.locate is not None:
            self.line = self.locate()
        return self.shown, self.line


@dataclass
class Imported:
    """A source read into a pack's data (the shape ``tomllib`` gives), and what could not be kept."""

    fmt: str  # "markdown", "datasworn" or "foundry"
    data: dict[str, Any] = field(default_factory=lambda: {"pack": {}, "tables": {}})
    version: str = ""  # what was read, e.g. "Datasworn 0.1.0 (rows with roll: {min, max})"
    notes: list[str] = field(default_factory=list)
    #: A path in ``data`` (``("tables", "room", "rows", 2)``) → where it came from.
    origins: dict[tuple[str | int, ...], Origin] = field(default_factory=dict)

    #: Notes said once for many tables: a kind → the tables (see :meth:`later`).
    grouped: dict[str, list[str]] = field(default_factory=dict)

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    def later(self, kind: str, table: str) -> None:
        """Note ``table`` under ``kind``, to be said in one line naming every such table."""
        tables = self.grouped.setdefault(kind, [])
        if table not in tables:
            tables.append(table)


# ---- reading a source ------------------------------------------------------------------------------


def read_text(path: Path, shown: str) -> str:
    """The text of ``path``, refused in one line when it is missing, not a file, too big or not UTF-8."""
    from companion.i18n import _

    try:
        st = path.stat()
    except FileNotFoundError:
        raise InputError(_("{file}: no such file or folder").format(file=shown)) from None
    except OSError as exc:
        raise InputError(_("{file}: cannot be read ({why})").format(file=shown, why=exc.strerror or exc)) from None
    import stat

    if not stat.S_ISREG(st.st_mode):
        raise InputError(
            _("{file}: not a regular file; give a .md or .json file, or a folder of them").format(file=shown)
        )
    too_big = _("{file}: {size} MiB is too big for a file of tables; companion imports files up to {most} MiB")
    if st.st_size > MAX_BYTES:
        raise InputError(too_big.format(file=shown, size=st.st_size // 2**20, most=MAX_BYTES // 2**20))
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise InputError(_("{file}: cannot be read ({why})").format(file=shown, why=exc.strerror or exc)) from None
    if len(raw) > MAX_BYTES:
        raise InputError(too_big.format(file=shown, size=len(raw) // 2**20, most=MAX_BYTES // 2**20))
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(
            _("{file}: byte {at} is not UTF-8 text; save the file as UTF-8").format(file=shown, at=exc.start + 1)
        ) from None


def read_json(text: str, shown: str) -> Any:
    """The JSON value of ``text``, or one line naming the line where it breaks off."""
    from companion.i18n import _

    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        cut = exc.pos >= len(text.rstrip())
        advice = _("the file ends too early: it may be cut short") if cut else _("fix the JSON there")
        raise InputError(
            _("{file}:{line}: not JSON ({what}, column {column}); {advice}").format(
                file=shown, line=exc.lineno, what=exc.msg, column=exc.colno, advice=advice
            )
        ) from None
    except RecursionError:
        raise InputError(_("{file}: the JSON is nested too deeply to be a file of tables").format(file=shown)) from None
    except ValueError as exc:  # e.g. a number of more digits than Python reads
        raise InputError(_("{file}: not JSON companion can read ({what})").format(file=shown, what=exc)) from None


def source_files(paths: list[Path], shown: list[str], suffixes: tuple[str, ...]) -> list[tuple[Path, str]]:
    """The files to import: each file given, and the files of each folder given (with those suffixes)."""
    from companion.i18n import _

    out: list[tuple[Path, str]] = []
    for path, name in zip(paths, shown, strict=True):
        try:
            folder = path.is_dir()
        except OSError:  # a name too long to be a file's: reading it says so in one line
            folder = False
        if folder:
            found = sorted(p for p in path.rglob("*") if p.suffix.lower() in suffixes and not p.name.startswith("."))
            if not found:
                raise InputError(_("{folder}: no {kinds} files in it").format(folder=name, kinds=" or ".join(suffixes)))
            out += [(p, str(Path(name) / p.relative_to(path))) for p in found]
        else:
            out.append((path, name))
        if len(out) > MAX_FILES:
            raise InputError(_("more than {n} files in one import; import fewer at a time").format(n=MAX_FILES))
    return out


# ---- names and text --------------------------------------------------------------------------------


def slug(text: str, fallback: str = "table") -> str:
    """A table or pack name from a title: ``"Pay the Price!"`` → ``pay-the-price``."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    out = re.sub(r"[^a-z0-9_]+", "-", ascii_text.lower()).strip("-_")[:40].strip("-_")
    return out or fallback


def unique(name: str, taken: set[str] | dict[str, Any]) -> str:
    if name not in taken:
        return name
    n = 2
    while f"{name[:36]}-{n}" in taken:
        n += 1
    return f"{name[:36]}-{n}"


def text_only(text: str) -> str:
    """Imported text as a pack row keeps it: brackets are text (``\\[``), not references."""
    return text.replace("[", "\\[").replace("]", "\\]")


def one_line(text: str) -> str:
    return " ".join(text.split())


# ---- TOML ------------------------------------------------------------------------------------------


def _key(k: str) -> str:
    return k if _BARE.match(k) else json.dumps(k, ensure_ascii=False)


def toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {toml_value(x)}" for k, x in v.items()) + " }" if v else "{}"
    raise TypeError(f"no TOML for {type(v).__name__}")


#: The keys of a table written before its rows, in this order (any other key after them).
_TABLE_ORDER = ("title", "description", "dice", "draw", "duplicates")


def to_toml(data: dict[str, Any], header: str = "") -> tuple[str, list[tuple[str | int, ...]]]:
    """The pack ``data`` as TOML text, and for each line the path of what it holds."""
    lines: list[str] = []
    paths: list[tuple[str | int, ...]] = []

    def put(text: str, path: tuple[str | int, ...]) -> None:
        lines.append(text)
        paths.append(path)

    for comment in header.splitlines():
        put(f"# {comment}".rstrip(), ())
    put("[pack]", ("pack",))
    head = data.get("pack", {})
    for k, v in sorted(head.items(), key=lambda kv: kv[0] != "name"):
        if v not in ("", None):
            put(f"{_key(k)} = {toml_value(v)}", ("pack", k))
    if data.get("trackers"):
        put("", ())
        put("[trackers]", ("trackers",))
        for k, v in data["trackers"].items():
            put(f"{_key(k)} = {toml_value(v)}", ("trackers", k))
    for name, table in data.get("tables", {}).items():
        path = ("tables", name)
        put("", ())
        put(f"[tables.{_key(name)}]", path)
        keys = [k for k in _TABLE_ORDER if k in table] + [k for k in table if k not in _TABLE_ORDER and k != "rows"]
        for k in keys:
            if table[k] not in ("", None):
                put(f"{_key(k)} = {toml_value(table[k])}", (*path, k))
        put("rows = [", (*path, "rows"))
        for i, row in enumerate(table.get("rows", [])):
            put(f"  {toml_value(row)},", (*path, "rows", i))
        put("]", (*path, "rows"))
    for name, check in data.get("checks", {}).items():
        path = ("checks", name)
        put("", ())
        put(f"[checks.{_key(name)}]", path)
        for k, v in check.items():
            put(f"{_key(k)} = {toml_value(v)}", (*path, k))
    return "\n".join(lines) + "\n", paths


# ---- the made pack ---------------------------------------------------------------------------------


def make_pack(imported: Imported, where: str, header: str = "") -> tuple[Any, str]:
    """Write ``imported`` as TOML and read it back as a pack, checked like any pack; a refusal names the
    line of the source the refused part came from."""
    from companion.packs.bounds import MAX_ROWS as most
    from companion.packs.errors import PackError
    from companion.packs.pack import parse_pack

    first = next(iter(imported.origins.values())).shown if imported.origins else where
    rows = sum(len(t.get("rows", ())) for t in imported.data.get("tables", {}).values())
    if rows > most:  # refused before the pack is written out, with the figure a pack is bounded by
        from companion.i18n import _

        raise InputError(_("{file}: {n} rows; a pack holds at most {most}").format(file=first, n=rows, most=most))
    text, paths = to_toml(imported.data, header)
    try:
        return parse_pack(text, where), text
    except PackError as exc:
        path = paths[exc.line - 1] if exc.line and exc.line <= len(paths) else ()
        for cut in range(len(path), -1, -1):
            origin = imported.origins.get(path[:cut])
            if origin is not None:
                shown, line = origin.where()
                raise PackError(shown, line, exc.what) from None
        raise PackError(first, None, exc.what) from None


def pack_data(pack: Any) -> dict[str, Any]:
    """A pack's own TOML data, as ``tomllib`` reads it from the pack's source (for an export); a built-in
    game's tables (no source) as the rows they hold."""
    import tomllib

    if pack.source:
        return tomllib.loads(pack.source)
    tables = {
        name: {"title": t.title, "dice": t.dice, "rows": [{"roll": r.span, "result": r.result} for r in t.rows]}
        for name, t in pack.tables.items()
    }
    return {"pack": {"name": pack.name, "title": pack.title}, "tables": tables}
