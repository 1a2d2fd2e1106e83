"""How much of a table pack companion reads, and how much work one pack or one roll may make.

A pack is text anyone can share, so every bound below is checked *before* the work it bounds, and a
pack beyond one is refused in one :class:`~companion.packs.errors.PackError` line with the file, the
line and what to change, as any other mistake in a pack is. What each check costs is about the size
of the file, whatever its shape, so a refusal takes well under a second and a pack in the player's
folder cannot slow a roll that does not use it. The figures, and why each is what it is, are in
``docs/tables.md`` ("How big a pack may be").

In the order they are met:

1. :func:`read_source`: the file itself. Only a regular file is opened for reading (a folder, a
   device such as ``/dev/zero`` or a FIFO is refused, never read or waited on), and only up to
   :data:`MAX_BYTES`.
2. :func:`check_source`: the text, before TOML reads it: its size, how deep its lists and tables
   nest (:data:`MAX_NESTING`; Python's TOML reader recurses once per level) and how long its numbers
   are (:data:`MAX_DIGITS`; Python refuses to read a number of over 4,300 digits).
3. :func:`check_data`: what TOML read, before a row is checked: how many tables, checks, trackers
   and rows, how long each text and each list.
4. :func:`check_dice`: the totals a table's or a check's dice can give (:data:`MAX_TOTALS`), and the
   steps their exact odds take, counted over the whole pack (:data:`MAX_ODDS_WORK`).
5. what one roll leads to is bounded in :mod:`companion.packs.refs` (chains of references never
   loop, stop within ``MAX_DEPTH`` tables, and lead to at most ``MAX_ROLLS`` rolls), which visits
   each table once, so it costs about the size of the pack even where a roll would fan out to
   millions of rolls.

An importer of another format reads its file with :func:`read_source` and goes through the same
checks by handing its TOML (or its data) to :func:`companion.packs.pack.parse_pack`.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.controls import CONTROL
from companion.errors import InputError
from companion.i18n import N_, _, number

if TYPE_CHECKING:
    from companion.dice.expr import Expr
    from companion.packs.errors import PackError

#: The largest pack file companion reads (bytes): ten thousand rows of a hundred characters.
MAX_BYTES = 1_048_576
#: How deep lists and inline tables nest (``rows = [ { effect = [ ... ] } ]`` is 3).
MAX_NESTING = 16
#: The longest number companion reads from a pack, in digits.
MAX_DIGITS = 100
#: Tables in one pack; checks in one pack.
MAX_TABLES = 500
#: Rows in one pack, all tables together.
MAX_ROWS = 10_000
#: Trackers in one pack.
MAX_TRACKERS = 100
#: Items in any other list (a row's effects).
MAX_ITEMS = 100
#: The totals a table's (or a check's) dice can give: d1000, 10d100.
MAX_TOTALS = 1_000
#: Steps of exact odds for every table and check of a pack (a d6 is 6, a d% 100, 10d100 about 5,500).
MAX_ODDS_WORK = 200_000
#: Rows, tables, checks and trackers written in braces or under ``[[ ]]`` headers, counted in the text
#: before TOML reads it: more than a pack within the bounds above can hold.
MAX_ENTRIES = MAX_ROWS + 2 * MAX_TABLES + MAX_TRACKERS + 900
#: The longest text under each key, in characters; any other text: :data:`MAX_TEXT`.
TEXT_LIMITS = {
    **dict.fromkeys(("name", "title", "dice", "roll", "target", "table", "draw", "duplicates"), 200),
    **dict.fromkeys(("description", "book", "license"), 10_000),
}
#: A row's result, a check's pass and fail texts, an effect.
MAX_TEXT = 2_000

#: ``fail(path, message)``: the refusal at the line ``path`` is written on.
Fail = Callable[[tuple[str | int, ...], str], "PackError"]
#: ``refuse(line, message)``: the refusal at ``line``.
Refuse = Callable[[int, str], "PackError"]


# ---- 1. the file -------------------------------------------------------------------------------


def read_source(path: str | Path, where: str) -> str:
    """The text of the pack file at ``path``: a regular file of at most :data:`MAX_BYTES`, UTF-8."""
    try:
        # O_NONBLOCK: opening a FIFO does not wait for a writer (it is refused just below).
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputError(_("{where}: no such file; give the path of a .toml table pack").format(where=where)) from None
    except OSError as exc:
        raise InputError(_("{where}: cannot be read ({why})").format(where=where, why=exc.strerror or exc)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputError(
                _("{where}: is not a file (a folder, a device or a pipe); give the path of a .toml table pack").format(
                    where=where
                )
            )
        if info.st_size > MAX_BYTES:
            raise _too_big(where, info.st_size)
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise InputError(_("{where}: cannot be read ({why})").format(where=where, why=exc.strerror or exc)) from None
    finally:
        os.close(fd)
    if len(data) > MAX_BYTES:  # it grew while it was read
        raise _too_big(where, len(data))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].decode("utf-8").count("\n") + 1  # all valid up to the bad byte
        byte = hex(data[exc.start])
        raise InputError(
            _("{where}:{line}: not UTF-8 text (byte {byte}); save the pack as UTF-8").format(
                where=where, line=line, byte=byte
            )
        ) from None


def _too_big(where: str, size: int) -> InputError:
    return InputError(
        _("{where}: {size} is more than a table pack may be ({limit}); split the book into several packs").format(
            where=where, size=_megabytes(size), limit=_megabytes(MAX_BYTES)
        )
    )


def _megabytes(size: int) -> str:
    return f"{size / 1_048_576:.1f} MB" if size % 1_048_576 else f"{size // 1_048_576} MB"


# ---- 2. the text ---------------------------------------------------------------------------------

#: Strings and comments (skipped), brackets (counted), and numbers too long to read, outside strings.
_TOKEN = re.compile(
    r'"""[^"\\]*(?:(?:\\[\s\S]|"(?!""))[^"\\]*)*"""'
    r"|'''[\s\S]*?'''"
    r'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"'
    r"|'[^'\n]*'"
    r"|#[^\n]*"
    r"|[\[\]{}]"
    rf"|[0-9][0-9_]{{{MAX_DIGITS},}}"
)


_ARRAY_HEADER = re.compile(r"^[ \t]*\[\[", re.MULTILINE)
#: The longest text of all (a description), with its quotes.
_LONGEST = max(TEXT_LIMITS.values()) + 6


def check_source(source: str, where: str, refuse: Refuse) -> None:
    """Refuse a pack's text that is too long, nests too deep, holds too long a number or a text, or
    more rows than a pack may have: all before TOML reads it (its reader takes a step per character
    of a text, and recurses once per level of nesting)."""
    if len(source) > MAX_BYTES:
        raise _too_big(where, len(source.encode("utf-8")))
    for n, m in enumerate(_ARRAY_HEADER.finditer(source)):
        if n >= MAX_ENTRIES:
            raise _too_many(refuse, source, m.end() - 2)
    depth = 0
    entries = 0
    for m in _TOKEN.finditer(source):
        ch = source[m.start()]
        if ch in "\"'":
            if m.end() - m.start() > _LONGEST:
                raise refuse(
                    _line(source, m.start()),
                    _("a text of {n} characters; a pack's texts are at most {limit} (a description)").format(
                        n=number(m.end() - m.start(), group=True), limit=number(max(TEXT_LIMITS.values()), group=True)
                    ),
                )
            continue
        if ch == "{":
            entries += 1
            if entries > MAX_ENTRIES:
                raise _too_many(refuse, source, m.start())
        if ch in "[{":
            depth += 1
            if depth > MAX_NESTING:
                raise refuse(
                    _line(source, m.start()),
                    _(
                        "lists and tables nested more than {limit} deep; a pack needs a few (rows = [ {{ ... }} ] is 2)"
                    ).format(limit=MAX_NESTING),
                )
        elif ch in "]}":
            depth = max(0, depth - 1)
        elif ch.isdigit():
            digits = sum(c.isdigit() for c in m.group())
            if digits > MAX_DIGITS:
                raise refuse(
                    _line(source, m.start()),
                    _("a number of {n} digits; a number in a pack has at most {limit}").format(
                        n=number(digits, group=True), limit=MAX_DIGITS
                    ),
                )


def _too_many(refuse: Refuse, source: str, offset: int) -> PackError:
    return refuse(
        _line(source, offset),
        _("the pack has more than {limit} rows, tables and trackers; split the book into several packs").format(
            limit=number(MAX_ENTRIES, group=True)
        ),
    )


def _line(source: str, offset: int) -> int:
    return source.count("\n", 0, offset) + 1


# ---- 3. what TOML read -----------------------------------------------------------------------------


def check_data(fail: Fail, data: dict[str, Any]) -> None:
    """Refuse too many tables, checks, trackers or rows, and too long a text or a list, before any row is
    read. ``fail(path, message)`` makes the refusal with the line of ``path``."""
    too_many = {
        "tables": (
            MAX_TABLES,
            N_("the pack has {n} tables; a pack has at most {limit} (split the book into several packs)"),
        ),
        "checks": (
            MAX_TABLES,
            N_("the pack has {n} checks; a pack has at most {limit} (split the book into several packs)"),
        ),
        "trackers": (MAX_TRACKERS, N_("the pack has {n} trackers; a pack has at most {limit}")),
        "fights": (MAX_TABLES, N_("the pack has {n} fights; a pack has at most {limit}")),
        "foes": (MAX_TABLES, N_("the pack has {n} foes; a pack has at most {limit}")),
    }
    for key, (limit, message) in too_many.items():
        block = data.get(key)
        if isinstance(block, dict) and len(block) > limit:
            raise fail((key, list(block)[limit]), _(message).format(n=number(len(block), group=True), limit=limit))
    rows = 0
    tables = data.get("tables")
    for name, table in tables.items() if isinstance(tables, dict) else ():
        listed = table.get("rows") if isinstance(table, dict) else None
        if not isinstance(listed, list):
            continue
        if len(listed) > MAX_TOTALS:
            raise fail(
                ("tables", name, "rows", MAX_TOTALS),
                _("table {table} has {n} rows; a table has at most {limit} (one per total its dice give)").format(
                    table=name, n=number(len(listed), group=True), limit=number(MAX_TOTALS, group=True)
                ),
            )
        if rows + len(listed) > MAX_ROWS:
            raise fail(
                ("tables", name, "rows", MAX_ROWS - rows),
                _("the pack has more than {limit} rows; split the book into several packs").format(
                    limit=number(MAX_ROWS, group=True)
                ),
            )
        rows += len(listed)
    # Every text and list, walked without recursion (the nesting is bounded already).
    todo: list[tuple[tuple[str | int, ...], Any]] = [((), data)]
    while todo:
        path, value = todo.pop()
        if isinstance(value, dict):
            todo.extend(((*path, k), v) for k, v in value.items())
        elif isinstance(value, list):
            if len(value) > MAX_ITEMS and path[-1:] != ("rows",):
                raise fail(
                    (*path, MAX_ITEMS),
                    _("{key} lists {n} items; at most {limit}").format(
                        key=_dotted(path), n=number(len(value), group=True), limit=MAX_ITEMS
                    ),
                )
            todo.extend(((*path, i), v) for i, v in enumerate(value))
        elif isinstance(value, str):
            key = next((p for p in reversed(path) if isinstance(p, str)), "")
            limit = TEXT_LIMITS.get(key, MAX_TEXT)
            if len(value) > limit:
                raise fail(
                    path,
                    _("{key} is {n} characters long; at most {limit}").format(
                        key=_dotted(path), n=number(len(value), group=True), limit=number(limit, group=True)
                    ),
                )
            control = CONTROL.search(value)
            if control is not None:  # text is data: a pack's row never drives the player's terminal
                raise fail(
                    path,
                    _("{key} holds a control character ({code}); a pack's text is plain text").format(
                        key=_dotted(path), code=f"U+{ord(control.group()):04X}"
                    ),
                )


def _dotted(path: tuple[str | int, ...]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out or "the pack"


# ---- 4. dice ---------------------------------------------------------------------------------------


def span(expr: Expr) -> tuple[int, int]:
    """The lowest and highest total of a sum of dice; every total between them can be rolled."""
    low = high = expr.const
    for term in expr.terms:
        if term.sign > 0:
            low, high = low + term.count, high + term.count * term.die.sides
        else:
            low, high = low - term.count * term.die.sides, high - term.count
    return low, high


def odds_work(expr: Expr) -> int:
    """The steps :func:`companion.dice.odds.sum_counts` takes for ``expr`` (one per total, per die added)."""
    work, width = 0, 1
    for term in expr.terms:
        for _n in range(term.count):
            width += term.die.sides - 1
            work += width
    return work


def check_dice(
    fail: Fail, path: tuple[str | int, ...], text: str, expr: Expr, spent: int, *, totals: bool = True
) -> int:
    """Refuse dice with more than :data:`MAX_TOTALS` totals (when ``totals``), or whose odds would take
    the pack past :data:`MAX_ODDS_WORK` steps (``spent`` by the tables before); the steps spent so far."""
    low, high = span(expr)
    if totals and high - low + 1 > MAX_TOTALS:
        raise fail(
            path,
            _("dice {dice!r} give {n} totals; a table's dice give at most {limit} (e.g. d1000, 10d100)").format(
                dice=text, n=number(high - low + 1, group=True), limit=number(MAX_TOTALS, group=True)
            ),
        )
    spent += odds_work(expr)
    if spent > MAX_ODDS_WORK:
        raise fail(
            path,
            _(
                "the pack's dice are too many for exact odds ({n} steps with {dice!r}, at most {limit}); "
                "use fewer or smaller dice"
            ).format(n=number(spent, group=True), dice=text, limit=number(MAX_ODDS_WORK, group=True)),
        )
    return spent
