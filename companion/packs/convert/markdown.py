"""Obsidian markdown tables (the dice-roller plugin's lookup tables, Iron Vault's homebrew oracles) to a
pack's data.

A lookup table's first header cell is a dice formula (``| dice: 1d20 | Heading |``); its rows are
``1-2``, ``13,14`` or ``01–50``; a cell may roll another table, `` `dice: [[Note^block-id]]` ``, or
several times, `` `dice: 3d[[Note^block-id]]` ``. A table without a dice column is a pick of one row
(1dN). A table's name is its ``^block-id``, else the slug of the heading above it. A reference to
another note is followed when that note is in the same import.

companion's own export adds Obsidian comments (``%% companion-…: {json} %%``, hidden in Obsidian)
with what markdown cannot hold (effects, draws, checks, trackers), so its import is the same pack.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from companion.errors import InputError
from companion.i18n import _
from companion.packs.convert.common import Imported, Origin, one_line, slug, text_only, unique

SUFFIXES = (".md", ".markdown")

_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_BLOCK = re.compile(r"^\s*\^([A-Za-z0-9][A-Za-z0-9-]*)\s*$")
_META = re.compile(r"^\s*%%\s*companion-(pack|table):\s*(\{.*\})\s*%%\s*$")
_DICE_LINK = re.compile(r"`dice[+-]?:\s*([^`]*)`")
_LINK = re.compile(r"^(\d*)d?\[\[([^\]|#^]*)(?:#?\^([A-Za-z0-9][A-Za-z0-9-]*))?(?:\|[^\]]*)?\]\](\|.*)?$")
_WIKI = re.compile(r"\[\[([^\]|]*)(?:\|([^\]]*))?\]\]")
_PIECE = re.compile(r"^\s*(\d{1,5})\s*(?:[-–—]\s*(\d{1,5})|(\+))?\s*$")
_D66 = {"d66", "1d66%", "d66%", "1d6*10+1d6", "d6*10+d6", "(1d6*10)+1d6", "1d6x10+1d6"}


@dataclass
class _Table:
    shown: str
    line: int  # the header row's line
    note: str  # the note's name (the file's stem)
    heading: str
    header: list[str]
    rows: list[tuple[int, list[str]]]  # (line, cells)
    block: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    name: str = ""


def read(files: list[tuple[str, str, str]], imported: Imported) -> None:
    """Read ``(text, shown, note name)`` for each file into ``imported``."""
    tables: list[_Table] = []
    for text, shown, note in files:
        tables += _tables(text, shown, note, imported)
    if not tables:
        raise InputError(
            _("{file}: no markdown table in it; a table has a header row, then a | --- | line").format(file=files[0][1])
        )
    taken: set[str] = set()
    for t in tables:
        base = t.meta.get("name") or (t.block.lower() if t.block else slug(t.heading or t.note))
        t.name = unique(base[:40], taken)
        if t.name != base:
            imported.note(_("two tables would be named {base}: the second is {name}").format(base=base, name=t.name))
        taken.add(t.name)
    by_block = {(t.note.lower(), t.block.lower()): t for t in tables if t.block}
    for t in tables:
        imported.data["tables"][t.name] = _table(t, by_block, imported)
        imported.origins[("tables", t.name)] = Origin(t.shown, t.line)


def _tables(text: str, shown: str, note: str, imported: Imported) -> list[_Table]:
    lines = text.splitlines()
    start, named = _front_matter(lines, imported)
    out: list[_Table] = []
    heading = named  # an Iron Vault oracle note names its table in its front matter
    i = start
    while i < len(lines):
        line = lines[i]
        h = _HEADING.match(line)
        meta = _META.match(line)
        if meta and meta.group(1) == "pack":
            _pack_meta(meta.group(2), shown, i + 1, imported)
        if h:
            heading = h.group(2).strip()
        elif "|" in line and i + 1 < len(lines) and _SEPARATOR.match(lines[i + 1]) and "-" in lines[i + 1]:
            table = _Table(shown, i + 1, note, heading, _cells(line), [])
            i += 2
            while i < len(lines) and "|" in lines[i] and lines[i].strip():
                table.rows.append((i + 1, _cells(lines[i])))
                i += 1
            j = i
            while j < len(lines) and not lines[j].strip() and j < i + 2:
                j += 1
            if j < len(lines) and _BLOCK.match(lines[j]):
                table.block = _BLOCK.match(lines[j]).group(1)  # type: ignore[union-attr]
                i = j + 1
                if i < len(lines) and (m := _META.match(lines[i])) and m.group(1) == "table":
                    table.meta = _json(m.group(2), shown, i + 1)
                    i += 1
            out.append(table)
            continue
        i += 1
    return out


def _front_matter(lines: list[str], imported: Imported) -> tuple[int, str]:
    """Where the note's text starts after its front matter, and the name the front matter gives."""
    if not lines or lines[0].strip() != "---":
        return 0, ""
    for end in range(1, min(len(lines), 200)):
        if lines[end].strip() in ("---", "..."):
            break
    else:
        return 0, ""
    head = imported.data["pack"]
    named = ""
    for line in lines[1:end]:
        key, sep, value = line.partition(":")
        value = _scalar(value.strip())
        if not sep or not value:
            continue
        key = key.strip().lower()
        if key in ("title", "description", "book", "license") and not head.get(key):
            head[key] = one_line(value)
        elif key == "name":
            named = one_line(value)
        elif key == "type" and value == "oracle_rollable":
            imported.version = "an Iron Vault homebrew oracle (markdown)"
    return end + 1, named


def _scalar(value: str) -> str:
    """A YAML scalar as a front matter line writes it: bare, 'single' or "double" (JSON's escapes)."""
    if value.startswith('"') and value.endswith('"') and len(value) > 1:
        try:
            return str(json.loads(value))
        except ValueError:
            return value[1:-1]
    if value.startswith("'") and value.endswith("'") and len(value) > 1:
        return value[1:-1].replace("''", "'")
    return value


def _json(text: str, shown: str, line: int) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        raise InputError(
            _("{file}:{line}: a companion comment that is not a JSON object").format(file=shown, line=line)
        )
    return value


def _pack_meta(text: str, shown: str, line: int, imported: Imported) -> None:
    meta = _json(text, shown, line)
    imported.data["pack"].update({k: v for k, v in meta.get("pack", {}).items() if k != "name"})
    for key in ("trackers", "checks"):
        if meta.get(key):
            imported.data[key] = meta[key]
            imported.origins[(key,)] = Origin(shown, line)


def _cells(line: str) -> list[str]:
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", body)]


def dice_of(formula: str) -> str | None:
    """A table's dice from a dice-roller formula (``1d20``, ``d%``, ``1d66%``), or None."""
    text = formula.strip().strip("`").replace(" ", "").lower()
    if text in _D66:
        return "d66"
    from companion.dice.expr import parse

    try:
        expr = parse(text)
    except InputError:
        return None
    if expr.kind != "sum" or expr.op is not None or expr.has_dt:
        return None
    return text


def _table(t: _Table, by_block: dict, imported: Imported) -> dict[str, Any]:
    head = t.header[0].strip().strip("`") if t.header else ""
    lookup = re.match(r"^dice[+-]?:\s*(.*)$", head, re.IGNORECASE)
    out: dict[str, Any] = {"title": t.heading or (t.header[1] if lookup and len(t.header) > 1 else head) or t.name}
    if lookup:
        dice = dice_of(lookup.group(1))
        if dice is None:
            raise InputError(
                _(
                    "{file}:{line}: dice: {formula} is a roll companion's tables cannot read; "
                    "write dice such as 1d6, 2d6, d% or 1d66% (tens and units)"
                ).format(file=t.shown, line=t.line, formula=lookup.group(1).strip())
            )
        out["dice"] = dice
        if len(t.header) > 2:
            imported.note(
                _("table {name}: {n} result columns, kept in one result, joined by ·").format(
                    name=t.name, n=len(t.header) - 1
                )
            )
    else:
        out["dice"] = f"1d{len(t.rows)}" if len(t.rows) > 1 else "1d1"
        imported.note(
            _("table {name} has no dice column: companion rolls 1d{n} for one of its rows").format(
                name=t.name, n=len(t.rows)
            )
        )
    for key in ("draw", "duplicates", "description"):
        if t.meta.get(key):
            out[key] = t.meta[key]
    rows = []
    for i, (line, cells) in enumerate(t.rows):
        path = ("tables", t.name, "rows", i)
        imported.origins[path] = Origin(t.shown, line)
        if lookup:
            row: dict[str, Any] = {"roll": _roll(cells[0] if cells else "", out["dice"], t, line)}
            texts = cells[1:]
        else:
            row = {"roll": str(i + 1)}
            texts = cells
        row["result"] = _result(" · ".join(c for c in texts if c), t, by_block, imported, line)
        rows.append(row)
    if t.meta.get("weights"):
        for row in rows:
            lo, _sep, hi = row.pop("roll").partition("-")
            row_weight = int(hi or lo) - int(lo) + 1
            row_result = row.pop("result")
            row.update(weight=row_weight, result=row_result)
        out.pop("dice", None)
    for index, extra in (t.meta.get("rows") or {}).items():
        if not (str(index).isdigit() and int(index) < len(rows) and isinstance(extra, dict)):
            continue
        line, cells = t.rows[int(index)]
        if extra.get("cell") != " · ".join(c for c in (cells[1:] if lookup else cells) if c):
            imported.note(
                _("table {name}: row {row} was edited after companion wrote it: read as it is now").format(
                    name=t.name, row=int(index) + 1
                )
            )
            continue
        rows[int(index)].update({k: v for k, v in extra.items() if k in ("result", "then", "effect")})
    out["rows"] = rows
    return out


def _roll(cell: str, dice: str, t: _Table, line: int) -> str:
    """``13,14`` → ``13-14``; ``01–50`` → ``1-50``; ``00`` on d% is 100."""
    runs: list[list[int]] = []
    for piece in cell.replace("`", "").split(","):
        m = _PIECE.match(piece)
        if m is None:
            raise InputError(
                _("{file}:{line}: {cell!r} is not a roll; write 4, 1-2 or 13,14").format(
                    file=t.shown, line=line, cell=cell
                )
            )
        lo = int(m.group(1))
        hi = lo if m.group(2) is None else int(m.group(2))
        if dice in ("d%", "1d100"):
            lo, hi = lo or 100, hi or 100
        if m.group(3):
            return ", ".join([*(_run(a, b) for a, b in runs), f"{lo}+"])
        if runs and runs[-1][1] + 1 == lo:
            runs[-1][1] = hi
        else:
            runs.append([lo, hi])
    return ", ".join(_run(a, b) for a, b in runs)


def _run(a: int, b: int) -> str:
    return str(a) if a == b else f"{a}-{b}"


def _result(cell: str, t: _Table, by_block: dict, imported: Imported, line: int) -> str:
    parts: list[str] = []
    at = 0
    for m in _DICE_LINK.finditer(cell):
        parts.append(_plain(cell[at : m.start()], imported))
        parts.append(_dice_link(m.group(1).strip(), t, by_block, imported, line))
        at = m.end()
    parts.append(_plain(cell[at:], imported))
    text = one_line("".join(parts))
    if not text:
        imported.note(_("table {name}: an empty result is kept as —").format(name=t.name))
        return "—"
    return text


def _plain(text: str, imported: Imported) -> str:
    def wiki(m: re.Match) -> str:
        imported.note(_("links to other notes ([[Note]]) are kept as their text"))
        return m.group(2) or m.group(1)

    text = _WIKI.sub(wiki, text)
    text = re.sub(r"<br\s*/?>", "\n", text, flags=re.IGNORECASE)
    return text_only(text.replace("\\[", "[").replace("\\]", "]"))


def _dice_link(inner: str, t: _Table, by_block: dict, imported: Imported, line: int) -> str:
    m = _LINK.match(inner)
    if m is None:
        imported.note(_("dice rolled inside a result (`dice: 2d6`) are kept as their formula"))
        return text_only(inner)
    count, note, block, column = m.groups()
    target_note = note.strip().rsplit("/", 1)[-1].removesuffix(".md") or t.note
    if column:
        imported.note(_("a roll on one column of a table (|Header) rolls the whole row"))
    if block is None:
        imported.note(
            _("`dice: [[{note}]]` picks a random block of a note, which packs cannot: kept as text").format(note=note)
        )
        return text_only(note)
    target = by_block.get((target_note.lower(), block.lower()))
    if target is None:
        raise InputError(
            _(
                "{file}:{line}: `dice: [[{link}]]` names a table that is not in this import; import {note}.md with it"
            ).format(file=t.shown, line=line, link=f"{note}^{block}", note=target_note)
        )
    times = int(count) if count else 1
    return f"[{target.name}]" if times == 1 else f"[{target.name} x{times}]"


# ---- export ----------------------------------------------------------------------------------------


def write(pack: Any, note: str) -> str:
    """``pack`` as an Obsidian note named ``note``: a heading, a lookup table and a ``^block-id`` per table,
    references as `` `dice: [[note^id]]` ``; importing the note gives the same pack back."""
    from companion.packs.convert.common import pack_data

    data = pack_data(pack)
    blocks: dict[str, str] = {}
    for name in pack.tables:
        block = re.sub(r"[^A-Za-z0-9-]", "-", name).strip("-") or "table"
        blocks[name] = unique(block, set(blocks.values()))
    cells = {name: [_row_cell(row, note, blocks) for row in t.rows] for name, t in pack.tables.items()}
    overrides: dict[str, dict[int, dict[str, Any]]] = {}
    text = _note(pack, data, blocks, cells, overrides)
    again = _reimport(text, note)
    for name, table in pack.tables.items():
        for i, (row, back) in enumerate(zip(table.rows, again.tables[name].rows, strict=True)):
            if row != back:
                raw = _raw_rows(data, name)[i]
                keep = {k: raw[k] for k in ("result", "then", "effect") if k in raw}
                overrides.setdefault(name, {})[i] = {**keep, "cell": cells[name][i]}
    return _note(pack, data, blocks, cells, overrides) if overrides else text


def _raw_rows(data: dict[str, Any], name: str) -> list[dict[str, Any]]:
    raw = next(v for k, v in data.get("tables", {}).items() if k.lower() == name)
    return raw["rows"]


def _reimport(text: str, note: str) -> Any:
    from companion.packs.convert.common import make_pack

    imported = Imported("markdown")
    read([(text, f"{note}.md", note)], imported)
    imported.data["pack"]["name"] = "export-check"
    return make_pack(imported, f"{note}.md")[0]


def _row_cell(row: Any, note: str, blocks: dict[str, str]) -> str:
    """A row's result as a table cell: its references as `` `dice: [[note^id]]` ``, then its ``then`` rolls."""
    from companion.packs.model import REF

    def link(target: str, times: int) -> str:
        return f"`dice: {f'{times}d' if times > 1 else ''}[[{note}^{blocks[target.lower()]}]]`"

    cell = REF.sub(lambda m: link(m.group(1), int(m.group(2) or 1)), _cell(row.result))
    in_text = len(REF.findall(row.result))
    return cell + "".join(" " + link(c.table, c.rolls) for c in row.calls[in_text:])


def _note(pack: Any, data: dict[str, Any], blocks: dict[str, str], cells: dict, overrides: dict) -> str:
    out = ["---"]
    for key in ("title", "description", "book", "license"):
        value = getattr(pack, key)
        if value:
            out.append(f"{key}: {json.dumps(value, ensure_ascii=False)}")
    out += ["---", ""]
    extra = {k: data[k] for k in ("trackers", "checks") if data.get(k)}
    if extra:
        out += [f"%% companion-pack: {json.dumps(extra, ensure_ascii=False)} %%", ""]
    for name, table in pack.tables.items():
        raw = next(v for k, v in data.get("tables", {}).items() if k.lower() == name)
        dice = {"d66": "1d6*10+1d6"}.get(table.dice, table.dice)
        out += [f"## {table.title}", "", f"| dice: {dice} | {_cell(table.title)} |", "| --- | --- |"]
        out += [f"| {row.span} | {cell} |" for row, cell in zip(table.rows, cells[name], strict=True)]
        out += ["", f"^{blocks[name]}"]
        meta: dict[str, Any] = {}
        if blocks[name] != name:
            meta["name"] = name
        for key in ("draw", "duplicates", "description"):
            if raw.get(key):
                meta[key] = raw[key]
        if table.read == "weights":
            meta["weights"] = True
        if overrides.get(name):
            meta["rows"] = {str(i): v for i, v in overrides[name].items()}
        if meta:
            out.append(f"%% companion-table: {json.dumps(meta, ensure_ascii=False)} %%")
        out.append("")
    return "\n".join(out)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", "<br>")
