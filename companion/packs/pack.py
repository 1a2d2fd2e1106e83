"""A table pack: a player's own book's roll tables, checks and trackers, read from TOML and checked.

``read_pack(path)`` parses a file and checks all of it before anything uses it: every total the dice
can give maps to exactly one row, every ``[reference]`` names a table, references never loop and stop
within :data:`MAX_DEPTH` tables, every effect and check names a tracker, every dice expression rolls.
A refusal is one :class:`PackError` line: ``FILE:LINE: what is wrong; what to change``.

The format is documented key by key in ``docs/tables.md``.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.dice.expr import Expr
from companion.errors import InputError

#: How many tables deep ``[references]`` are followed (the table rolled on first is depth 1).
MAX_DEPTH = 6
#: Trackers every session has, so an effect may name them without declaring them.
BUILTIN_TRACKERS = {"hp": "HP", "gold": "Gold", "xp": "XP"}

PACK_KEYS = ("name", "title", "description", "book")
TABLE_KEYS = ("title", "dice", "rows", "description")
ROW_KEYS = ("roll", "result", "effect")
CHECK_KEYS = ("title", "dice", "target", "pass", "fail", "effect", "pass_effect", "fail_effect")
TRACKER_KEYS = ("start", "max", "hp")
TOP_KEYS = ("pack", "tables", "checks", "trackers")

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")
_RANGE = re.compile(r"^\s*(\d{1,4})\s*(?:([-–—])\s*(\d{1,4})|(\+))?\s*$")
_REF = re.compile(r"\[([A-Za-z0-9][A-Za-z0-9_-]*)\]")
_EFFECT = re.compile(r"^\s*(?:(item)\s+([\w-]+)|([A-Za-z][\w-]*))\s+([+=\-−]?)\s*(\d{1,6})\s*$", re.IGNORECASE)
_TARGET = re.compile(r"^\s*(<=|>=|==|=|<|>)\s*(?:(-?\d{1,6})|([A-Za-z][\w-]*)\s*(?:([+-])\s*(\d{1,4}))?)\s*$")


class PackError(InputError):
    """A table pack that cannot be used, with the file and line to fix (exit code 2)."""

    def __init__(self, where: str, line: int | None, message: str) -> None:
        super().__init__(f"{where}:{line}: {message}" if line else f"{where}: {message}")
        self.where = where
        self.line = line


@dataclass(frozen=True)
class Effect:
    """A tracker change a row or a check applies: ``gold +1``, ``STAMINA -2``, ``item rope +1``."""

    kind: str  # "counter", "xp" or "item"
    name: str  # the counter's key, or the item's name
    op: str  # "add" or "set"
    value: int
    label: str  # how the log names the tracker
    text: str  # as the pack writes it

    def event(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "op": self.op, "value": self.value, "label": self.label}


@dataclass(frozen=True)
class PackRow:
    lo: int
    hi: int
    result: str
    effects: tuple[Effect, ...] = ()

    @property
    def span(self) -> str:
        return str(self.lo) if self.lo == self.hi else f"{self.lo}-{self.hi}"

    @property
    def refs(self) -> tuple[str, ...]:
        return tuple(m.lower() for m in _REF.findall(self.result))


@dataclass(frozen=True)
class PackTable:
    name: str
    title: str
    dice: str
    expr: Expr
    rows: tuple[PackRow, ...]
    description: str = ""

    def lookup(self, total: int) -> PackRow:
        for row in self.rows:
            if row.lo <= total <= row.hi:
                return row
        raise KeyError(total)


@dataclass(frozen=True)
class TrackerSpec:
    name: str  # as the pack writes it: SKILL
    key: str  # the session counter it is kept in: "skill" (or "hp" for the hp tracker)
    start: int
    max: int | None
    hp: bool = False


@dataclass(frozen=True)
class Check:
    """A roll against a target: ``2d6`` ``<=`` SKILL (a tracker's current value) or a number."""

    name: str
    title: str
    dice: str
    expr: Expr
    op: str
    number: int | None  # the target when it is a number
    tracker: TrackerSpec | None  # the target when it is a tracker (plus ``offset``)
    offset: int = 0
    pass_text: str = ""
    fail_text: str = ""
    effects: tuple[Effect, ...] = ()
    pass_effects: tuple[Effect, ...] = ()
    fail_effects: tuple[Effect, ...] = ()

    @property
    def target_text(self) -> str:
        if self.tracker is None:
            return f"{self.op} {self.number}"
        off = f" {'+' if self.offset > 0 else '-'} {abs(self.offset)}" if self.offset else ""
        return f"{self.op} {self.tracker.name}{off}"


@dataclass(frozen=True)
class Pack:
    name: str
    title: str
    path: str  # as shown in messages
    source: str  # the TOML text (a session keeps a copy of it)
    tables: dict[str, PackTable]
    checks: dict[str, Check]
    trackers: dict[str, TrackerSpec]
    description: str = ""
    builtin: bool = False

    def table(self, name: str) -> PackTable | None:
        return self.tables.get(name.lower())

    def check(self, name: str) -> Check | None:
        return self.checks.get(name.lower())


# ---- reading ---------------------------------------------------------------------------------


def read_pack(path: str | Path, *, shown: str | None = None) -> Pack:
    """Read and check the pack at ``path``; ``shown`` is the name messages use for the file."""
    where = shown or str(path)
    try:
        source = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{where}: no such file; give the path of a .toml table pack") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{where}: cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    return parse_pack(source, where)


def parse_pack(source: str, where: str) -> Pack:
    import tomllib

    try:
        data = tomllib.loads(source)
    except tomllib.TOMLDecodeError as exc:
        text = str(exc)
        m = re.search(r"\(at line (\d+), column (\d+)\)", text)
        what = re.sub(r"\s*\(at line \d+, column \d+\)|\s*\(at end of document\)", "", text)
        line = int(m.group(1)) if m else source.count("\n") + 1
        what = what[:1].lower() + what[1:]
        advice = "put text in double quotes" if what.startswith("invalid value") else "see docs/tables.md"
        raise PackError(where, line, f"TOML syntax: {what}; {advice}") from None
    return _Reader(source, where).pack(data)


class _Reader:
    def __init__(self, source: str, where: str) -> None:
        self.source = source
        self.where = where

    def fail(self, path: tuple[str | int, ...], message: str) -> PackError:
        from companion.packs.lines import find_line

        return PackError(self.where, find_line(self.source, path), message)

    def keys(self, value: Any, path: tuple[str | int, ...], allowed: tuple[str, ...], what: str) -> dict:
        if not isinstance(value, dict):
            raise self.fail(path, f"{_dotted(path)} must be a table of keys ({what}: {', '.join(allowed)})")
        for key in value:
            if key not in allowed:
                raise self.fail(
                    (*path, key), f"{_dotted(path)} has an unknown key {key!r}; {what} keys: {', '.join(allowed)}"
                )
        return value

    def text(self, value: Any, path: tuple[str | int, ...], *, required: bool = False) -> str:
        if value is None and not required:
            return ""
        if not isinstance(value, str) or (required and not value.strip()):
            raise self.fail(path, f'{_dotted(path)} must be a text in quotes, e.g. {path[-1]} = "..."')
        return value.strip()

    # ---- the whole pack ----
    def pack(self, data: dict[str, Any]) -> Pack:
        self.keys(data, (), TOP_KEYS, "top-level")
        head = self.keys(data.get("pack"), ("pack",), PACK_KEYS, "[pack]") if "pack" in data else None
        if head is None:
            raise self.fail((), 'a pack starts with [pack] and name = "..." (a short name, e.g. ruined-keep)')
        name = self.text(head.get("name"), ("pack", "name"), required=True)
        if not _NAME.match(name):
            raise self.fail(("pack", "name"), f"pack name {name!r}: use letters, digits, - and _ (e.g. ruined-keep)")
        trackers = self.trackers(data.get("trackers", {}))
        tables_data = data.get("tables", {})
        if not isinstance(tables_data, dict):
            raise self.fail(("tables",), "tables must be sections: [tables.NAME]")
        checks_data = data.get("checks", {})
        if not isinstance(checks_data, dict):
            raise self.fail(("checks",), "checks must be sections: [checks.NAME]")
        if not tables_data and not checks_data:
            raise self.fail(("pack",), "the pack has no [tables.NAME] and no [checks.NAME]; add at least one")
        tables: dict[str, PackTable] = {}
        for tname, tdata in tables_data.items():
            table = self.table(tname, tdata, trackers)
            if table.name in tables:
                raise self.fail(("tables", tname), f"two tables are named {tname!r} (names ignore case)")
            tables[table.name] = table
        checks: dict[str, Check] = {}
        for cname, cdata in checks_data.items():
            check = self.check(cname, cdata, trackers)
            checks[check.name] = check
        self.references(tables, tables_data)
        return Pack(
            name=name,
            title=self.text(head.get("title"), ("pack", "title")) or name,
            path=self.where,
            source=self.source,
            tables=tables,
            checks=checks,
            trackers=trackers,
            description=self.text(head.get("description"), ("pack", "description")),
        )

    # ---- trackers ----
    def trackers(self, data: Any) -> dict[str, TrackerSpec]:
        if not isinstance(data, dict):
            raise self.fail(("trackers",), "[trackers] lists NAME = { start = N, max = N } lines")
        out: dict[str, TrackerSpec] = {}
        hp_seen = None
        for name, value in data.items():
            path = ("trackers", name)
            if not _NAME.match(name):
                raise self.fail(path, f"tracker name {name!r}: use letters, digits, - and _ (e.g. SKILL)")
            if isinstance(value, int) and not isinstance(value, bool):
                value = {"start": value}
            spec = self.keys(value, path, TRACKER_KEYS, "tracker")
            start = spec.get("start", 0)
            top = spec.get("max")
            hp = spec.get("hp", False)
            for key, v in (("start", start), ("max", top)):
                if v is not None and (not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 999_999):
                    raise self.fail((*path, key), f"trackers.{name}.{key} must be a whole number from 0 to 999999")
            if not isinstance(hp, bool):
                raise self.fail((*path, "hp"), f"trackers.{name}.hp must be true or false")
            if top is not None and start > top:
                raise self.fail(
                    path, f"tracker {name} starts at {start}, above its max {top}; lower start or raise max"
                )
            if hp:
                if hp_seen:
                    raise self.fail((*path, "hp"), f"{hp_seen} and {name} both say hp = true; only one tracker is HP")
                hp_seen = name
            key = "hp" if hp else name.lower()
            if key in {t.key for t in out.values()}:
                raise self.fail(path, f"tracker {name} is kept where another tracker is ({key}); rename one")
            out[name.lower()] = TrackerSpec(name, key, start, top, hp)
        return out

    def effects(self, value: Any, path: tuple[str | int, ...], trackers: dict[str, TrackerSpec]) -> tuple[Effect, ...]:
        if value is None:
            return ()
        items = value if isinstance(value, list) else [value]
        if not all(isinstance(v, str) for v in items):
            raise self.fail(path, f'{_dotted(path)} must be a text such as "gold +1" (or a list of them)')
        out = []
        for item in items:
            for part in item.split(";"):
                if part.strip():
                    out.append(self.effect(part.strip(), path, trackers))
        return tuple(out)

    def effect(self, text: str, path: tuple[str | int, ...], trackers: dict[str, TrackerSpec]) -> Effect:
        m = _EFFECT.match(text)
        if not m:
            raise self.fail(
                path, f"effect {text!r} is not a tracker change; write NAME +N, NAME -N or NAME =N (e.g. gold +1)"
            )
        is_item, item_name, name, sign, digits = m.groups()
        value = int(digits)
        op = "set" if sign == "=" else "add"
        if sign in ("-", "−"):
            value = -value
        if is_item:
            if op == "set":
                raise self.fail(path, f"effect {text!r}: items change by +N or -N")
            return Effect("item", item_name.lower(), "add", value, item_name.lower(), text)
        spec = trackers.get(name.lower())
        if spec is None and name.lower() == "hp":
            spec = next((t for t in trackers.values() if t.hp), None)
        if spec is not None:
            return Effect("counter", spec.key, op, value, spec.name, text)
        if name.lower() == "xp":
            if op == "set":
                raise self.fail(path, f"effect {text!r}: XP changes by +N or -N")
            return Effect("xp", "xp", "add", value, "XP", text)
        if name.lower() in BUILTIN_TRACKERS:
            return Effect("counter", name.lower(), op, value, BUILTIN_TRACKERS[name.lower()], text)
        raise self.fail(
            path, f"effect {text!r} names no tracker; {_known_trackers(trackers)}, or add {name} to [trackers]"
        )

    # ---- tables ----
    def dice(self, value: Any, path: tuple[str | int, ...], default: str) -> tuple[str, Expr]:
        from companion.dice.expr import parse

        text = default if value is None else value
        if not isinstance(text, str) and isinstance(text, int):
            text = str(text)
        if not isinstance(text, str):
            raise self.fail(path, f'{_dotted(path)} must be dice in quotes, e.g. dice = "2d6"')
        try:
            expr = parse(text)
        except InputError:
            expr = None
        if expr is None or expr.kind != "sum" or expr.op is not None or expr.has_dt:
            raise self.fail(
                path, f"dice {text!r} cannot be rolled on a table; write dice such as 1d6, 2d6, 1d6+1, d20 or d%"
            )
        return text.strip(), expr

    def table(self, name: str, data: Any, trackers: dict[str, TrackerSpec]) -> PackTable:
        from companion.dice.odds import sum_counts

        path = ("tables", name)
        if not _NAME.match(name):
            raise self.fail(path, f"table name {name!r}: use letters, digits, - and _ (e.g. room)")
        data = self.keys(data, path, TABLE_KEYS, "table")
        dice, expr = self.dice(data.get("dice"), (*path, "dice"), "1d6")
        rows_data = data.get("rows")
        if not isinstance(rows_data, list) or not rows_data:
            raise self.fail(path, f'table {name} needs rows = [ {{ roll = "1-3", result = "..." }}, ... ]')
        rows = []
        for i, rdata in enumerate(rows_data):
            rpath = (*path, "rows", i)
            rdata = self.keys(rdata, rpath, ROW_KEYS, "row")
            lo, hi = self.span(rdata.get("roll"), (*rpath, "roll"), name)
            result = self.text(rdata.get("result"), (*rpath, "result"), required=True)
            rows.append(PackRow(lo, hi, result, self.effects(rdata.get("effect"), (*rpath, "effect"), trackers)))
        counts, _n = sum_counts(expr)
        totals = sorted(t + expr.const for t, c in counts.items() if c)
        low, high = totals[0], totals[-1]
        order = sorted(range(len(rows)), key=lambda i: (rows[i].lo, rows[i].hi))
        for a, b in itertools.pairwise(order):
            ra, rb = rows[a], rows[b]
            if rb.lo <= ra.hi:
                shared = rb.lo if rb.lo == min(ra.hi, rb.hi) else f"{rb.lo}-{min(ra.hi, rb.hi)}"
                raise self.fail(
                    (*path, "rows", b, "roll"),
                    f"table {name}: rows {ra.span} and {rb.span} both cover {shared}; give each total one row",
                )
        for i, row in enumerate(rows):
            if row.hi == 10_000:  # "N+": up to the highest total
                rows[i] = row = PackRow(row.lo, max(high, row.lo), row.result, row.effects)
            if row.hi < low or row.lo > high:
                raise self.fail(
                    (*path, "rows", i, "roll"),
                    f"table {name}: row {row.span} can never be rolled on {dice} ({low}-{high}); fix its roll",
                )
        missing = [t for t in totals if not any(r.lo <= t <= r.hi for r in rows)]
        if missing:
            raise self.fail(
                (*path, "rows"),
                f"table {name}: no row for {_spans(missing)} ({dice} rolls {low}-{high}); add a row or widen one",
            )
        return PackTable(
            name=name.lower(),
            title=self.text(data.get("title"), (*path, "title")) or name,
            dice=dice,
            expr=expr,
            rows=tuple(rows),
            description=self.text(data.get("description"), (*path, "description")),
        )

    def span(self, value: Any, path: tuple[str | int, ...], table: str) -> tuple[int, int]:
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        m = _RANGE.match(value) if isinstance(value, str) else None
        if m is None:
            raise self.fail(path, f'table {table}: roll = {value!r} is not a roll; write "4", "1-3" or "11+"')
        lo = int(m.group(1))
        if m.group(4):
            return lo, 10_000
        hi = int(m.group(3)) if m.group(3) else lo
        if hi < lo:
            raise self.fail(path, f'table {table}: roll "{value}" runs backwards; write "{hi}-{lo}"')
        return lo, hi

    def references(self, tables: dict[str, PackTable], raw: dict[str, Any]) -> None:
        for table in tables.values():
            for i, row in enumerate(table.rows):
                for ref in row.refs:
                    if ref not in tables:
                        raw_name = next(k for k in raw if k.lower() == table.name)
                        known = ", ".join(sorted(tables))
                        raise self.fail(
                            ("tables", raw_name, "rows", i, "result"),
                            f"table {table.name}: [{ref}] names no table; tables: {known}",
                        )

        def deepest(name: str, trail: tuple[str, ...]) -> tuple[str, ...]:
            if name in trail:
                loop = " → ".join((*trail[trail.index(name) :], name))
                raw_name = next(k for k in raw if k.lower() == trail[-1])
                row = next(i for i, r in enumerate(tables[trail[-1]].rows) if name in r.refs)
                raise self.fail(
                    ("tables", raw_name, "rows", row, "result"),
                    f"tables loop: {loop}; a table cannot lead back to itself, end the chain with a plain result",
                )
            best = (*trail, name)
            for row in tables[name].rows:
                for ref in row.refs:
                    chain = deepest(ref, (*trail, name))
                    if len(chain) > len(best):
                        best = chain
            return best

        for name in sorted(tables):
            chain = deepest(name, ())
            if len(chain) > MAX_DEPTH:
                raw_name = next(k for k in raw if k.lower() == name)
                raise self.fail(
                    ("tables", raw_name),
                    f"the chain {' → '.join(chain)} is {len(chain)} tables deep; companion follows at most {MAX_DEPTH}",
                )

    # ---- checks ----
    def check(self, name: str, data: Any, trackers: dict[str, TrackerSpec]) -> Check:
        path = ("checks", name)
        if not _NAME.match(name):
            raise self.fail(path, f"check name {name!r}: use letters, digits, - and _ (e.g. skill)")
        data = self.keys(data, path, CHECK_KEYS, "check")
        dice, expr = self.dice(data.get("dice"), (*path, "dice"), "2d6")
        target = data.get("target")
        m = _TARGET.match(target) if isinstance(target, str) else None
        if m is None:
            raise self.fail(
                (*path, "target"), f'check {name}: target {target!r} is not a target; write "<= SKILL" or ">= 7"'
            )
        op, number, tracker_name, sign, off = m.groups()
        op = "==" if op == "=" else op
        tracker = None
        offset = 0
        if tracker_name is not None:
            tracker = trackers.get(tracker_name.lower())
            if tracker is None:
                raise self.fail(
                    (*path, "target"),
                    f"check {name}: target names {tracker_name}, which is not in [trackers]; "
                    f"{_known_trackers(trackers, builtin=False)}",
                )
            offset = (-1 if sign == "-" else 1) * int(off) if off else 0
        return Check(
            name=name.lower(),
            title=self.text(data.get("title"), (*path, "title")) or name,
            dice=dice,
            expr=expr,
            op=op,
            number=int(number) if number is not None else None,
            tracker=tracker,
            offset=offset,
            pass_text=self.text(data.get("pass"), (*path, "pass")),
            fail_text=self.text(data.get("fail"), (*path, "fail")),
            effects=self.effects(data.get("effect"), (*path, "effect"), trackers),
            pass_effects=self.effects(data.get("pass_effect"), (*path, "pass_effect"), trackers),
            fail_effects=self.effects(data.get("fail_effect"), (*path, "fail_effect"), trackers),
        )


def _dotted(path: tuple[str | int, ...]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out or "the pack"


def _spans(totals: list[int]) -> str:
    runs: list[list[int]] = []
    for t in totals:
        if runs and runs[-1][1] == t - 1:
            runs[-1][1] = t
        else:
            runs.append([t, t])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def _known_trackers(trackers: dict[str, TrackerSpec], *, builtin: bool = True) -> str:
    names = [t.name for t in trackers.values()]
    if builtin:
        names += [n for n in ("hp", "gold", "xp") if n not in trackers]
        return "trackers: " + ", ".join(names) + ", item NAME"
    return ("trackers: " + ", ".join(names)) if names else "the pack has no [trackers]"
