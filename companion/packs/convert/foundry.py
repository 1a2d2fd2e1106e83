"""Foundry VTT roll tables (the RollTable document's JSON) to a pack's data, and a pack back to them.

A RollTable has ``name``, ``formula``, ``replacement`` and ``results``, each ``{type, text, weight,
range: [lo, hi]}`` (Foundry 13 writes ``name`` and ``description`` for a text result, older exports
``text``; 10-11 number the types 0, 1, 2). ``range`` decides; ``weight`` only counts in a table whose
results have no ranges. ``replacement: false`` is ``draw = "unique"``. A result that links another
RollTable of the same import rolls it (Foundry draws such a table in turn).

companion's own export keeps what a roll table cannot hold (effects, references in a row's text, the
pack's checks and trackers) in the table's ``flags.companion``, with the results they were written
for: a table edited in Foundry afterwards is read as Foundry has it.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from typing import Any

from companion.errors import InputError
from companion.i18n import _
from companion.packs.convert.common import Imported, Origin, one_line, slug, text_only, unique

_TAG = re.compile(r"<[^>]*>")
_ENRICHED = re.compile(r"@(?:UUID|Compendium|RollTable|Item|Actor|JournalEntry)\[([^\]]*)\](?:\{([^}]*)\})?")
_D66 = {"1d6*10+1d6", "(1d6*10)+1d6", "1d6*10 + 1d6", "d66", "1d66"}
_LINK_TYPES = {1, 2, "document", "pack", "compendium"}


def read(docs: list[tuple[Any, str, str]], imported: Imported) -> None:
    """Read ``(JSON value, text, shown)`` of each file (one RollTable, or a list of them) into ``imported``."""
    from companion.packs.convert.jsonlines import nearest_line

    tables: list[tuple[dict, str, str, tuple]] = []
    for value, text, shown in docs:
        if isinstance(value, list):
            tables += [(d, text, shown, (i,)) for i, d in enumerate(value)]
        else:
            tables.append((value, text, shown, ()))
    taken: set[str] = set()
    names: dict[str, str] = {}  # Foundry _id → table name
    for doc, *_where in tables:
        mine = _ours(doc)
        base = (mine or {}).get("name") or slug(str(doc.get("name") or "table"))
        name = unique(base, taken)
        if name != base:
            imported.note(_("two tables would be named {base}: the second is {name}").format(base=base, name=name))
        taken.add(name)
        doc["\0name"] = name
        if doc.get("_id"):
            names[str(doc["_id"])] = name
    imported.version = _version([d for d, *_rest in tables])
    if len(tables) == 1 and not _ours(tables[0][0]) and isinstance(tables[0][0].get("name"), str):
        imported.data["pack"]["title"] = one_line(tables[0][0]["name"])
    for doc, text, shown, at in tables:
        name = doc.pop("\0name")
        path = ("tables", name)
        imported.origins[path] = Origin(shown, locate=lambda t=text, a=at: nearest_line(t, (*a, "name")))
        imported.data["tables"][name] = _table(doc, name, names, imported, text, shown, at)


def _ours(doc: dict) -> dict | None:
    flags = doc.get("flags")
    mine = flags.get("companion") if isinstance(flags, dict) else None
    return mine if isinstance(mine, dict) else None


def _version(docs: list[dict]) -> str:
    results = [r for d in docs for r in d.get("results", []) if isinstance(r, dict)]
    if any("resultId" in r or "collection" in r for r in results):
        return "Foundry VTT roll tables (0.8-9 fields)"
    if any(isinstance(r.get("type"), int) for r in results):
        return "Foundry VTT roll tables (10-11 fields)"
    if results and all("text" not in r and ("name" in r or "description" in r) for r in results):
        return "Foundry VTT roll tables (13 fields)"
    return "Foundry VTT roll tables (12 fields)"


def _text(value: Any) -> str:
    """Foundry's HTML as plain text: tags dropped, entities read, ``@UUID[...]{Label}`` as its label."""
    if not isinstance(value, str):
        return ""
    value = _ENRICHED.sub(lambda m: m.group(2) or m.group(1).rsplit(".", 1)[-1], value)
    value = re.sub(r"<br\s*/?>|</p>\s*<p[^>]*>", "\n", value, flags=re.IGNORECASE)
    return one_line(html.unescape(_TAG.sub("", value)))


def _result_text(r: dict) -> str:
    if isinstance(r.get("text"), str) and r["text"].strip():
        return r["text"]
    name, desc = r.get("name"), r.get("description")
    parts = [p for p in (name, desc) if isinstance(p, str) and p.strip()]
    return ": ".join(parts)


def _linked(r: dict) -> str | None:
    """The _id of the RollTable a result links, if it links one."""
    if r.get("type") not in _LINK_TYPES:
        return None
    uuid = r.get("documentUuid")
    if isinstance(uuid, str) and ".RollTable." in f".{uuid}":
        return uuid.rsplit(".", 1)[-1]
    collection = r.get("documentCollection") or r.get("collection")
    if isinstance(collection, str) and collection.split(".")[-1] == "RollTable":
        return str(r.get("documentId") or r.get("resultId") or "") or None
    return None


def _table(doc: dict, name: str, names: dict[str, str], imported: Imported, text: str, shown: str, at: tuple) -> dict:
    from companion.packs.convert.jsonlines import nearest_line

    results = doc.get("results")
    if not isinstance(results, list) or not all(isinstance(r, dict) for r in results) or not results:
        line = nearest_line(text, (*at, "results"))
        raise InputError(
            _("{file}:{line}: table {name} has no results to roll").format(file=shown, line=line, name=name)
        )
    mine = _ours(doc)
    if mine and mine.get("results") == _fingerprint(results) and isinstance(mine.get("table"), dict):
        _pack_flags(mine, imported, shown)
        return mine["table"]
    if mine:
        imported.note(
            _("table {name} was edited after companion wrote it: read as Foundry has it now").format(name=name)
        )
    out: dict[str, Any] = {"title": one_line(str(doc.get("name") or name))}
    description = _text(doc.get("description"))
    if description:
        out["description"] = description
    if doc.get("replacement") is False:
        out["draw"] = "unique"
    order = sorted(range(len(results)), key=lambda i: _range(results[i]) or (0, 0))
    ranged = [i for i in order if _range(results[i]) is not None]
    if ranged and len(ranged) != len(results):
        missing = next(i for i in order if _range(results[i]) is None)
        line = nearest_line(text, (*at, "results", missing))
        raise InputError(
            _("{file}:{line}: table {name}: some results have a range and this one has none; give each one").format(
                file=shown, line=line, name=name
            )
        )
    formula = str(doc.get("formula") or "").replace(" ", "").lower()
    imported.origins[("tables", name, "rows")] = Origin(shown, locate=lambda: nearest_line(text, (*at, "results")))
    rows = []
    for k, i in enumerate(order):
        r = results[i]
        imported.origins[("tables", name, "rows", k)] = Origin(
            shown, locate=lambda a=(*at, "results", i): nearest_line(text, a)
        )
        row: dict[str, Any] = {}
        if ranged:
            lo, hi = _range(r)  # type: ignore[misc]
            row["roll"] = str(lo) if lo == hi else f"{lo}-{hi}"
        else:
            weight = r.get("weight", 1)
            if not isinstance(weight, int) or isinstance(weight, bool) or weight < 0:
                line = nearest_line(text, (*at, "results", i, "weight"))
                raise InputError(
                    _("{file}:{line}: table {name}: weight {weight!r} is not a whole number").format(
                        file=shown, line=line, name=name, weight=weight
                    )
                )
            if weight == 0:
                imported.note(
                    _("table {name}: a result of weight 0 can never come up, and is left out").format(name=name)
                )
                continue
            row["weight"] = weight
        target = _linked(r)
        label = _text(_result_text(r))
        if target is not None and target in names:
            row["result"] = f"[{names[target]}]"
        else:
            if target is not None or r.get("type") in _LINK_TYPES:
                imported.note(
                    _(
                        "table {name}: a result that links a Foundry document outside this import is kept as its name"
                    ).format(name=name)
                )
            if _ENRICHED.search(_result_text(r)):
                imported.note(_("links in a result's text (@UUID[...]) are kept as their label"))
            row["result"] = text_only(label) or "—"
        if r.get("drawn"):
            imported.note(_("results Foundry marks drawn start undrawn: draws are kept by a companion session"))
        rows.append(row)
    if ranged:
        out["dice"] = _dice(formula, rows, name, shown, nearest_line(text, (*at, "formula")), imported)
    out["rows"] = rows
    return out


def _range(r: dict) -> tuple[int, int] | None:
    rng = r.get("range")
    if isinstance(rng, list) and len(rng) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in rng):
        return (rng[0], rng[1]) if rng[0] <= rng[1] else (rng[1], rng[0])
    return None


def _dice(formula: str, rows: list[dict], name: str, shown: str, line: int | None, imported: Imported) -> str:
    from companion.packs.convert.markdown import dice_of

    if formula in _D66:
        return "d66"
    if not formula:
        top = max(int(r["roll"].split("-")[-1]) for r in rows)
        imported.note(
            _("table {name} has no formula: companion rolls 1d{top}, its highest range").format(name=name, top=top)
        )
        return f"1d{top}"
    dice = dice_of(formula)
    if dice is None:
        raise InputError(
            _("{file}:{line}: table {name}: formula {formula} is a roll companion's tables cannot read").format(
                file=shown, line=line, name=name, formula=formula
            )
        )
    return dice


def _pack_flags(mine: dict, imported: Imported, shown: str) -> None:
    for key, value in (mine.get("pack") or {}).items():
        if key in ("title", "description", "book", "license") and value:
            imported.data["pack"][key] = value
    for key in ("trackers", "checks"):
        if mine.get(key):
            imported.data[key] = mine[key]
            imported.origins[(key,)] = Origin(shown, 1)


def _fingerprint(results: list[dict]) -> str:
    seen = [[r.get("text") or r.get("name"), r.get("range"), r.get("weight"), r.get("documentId")] for r in results]
    return hashlib.sha1(json.dumps(seen, ensure_ascii=False).encode()).hexdigest()[:16]


# ---- export ----------------------------------------------------------------------------------------


def foundry_id(*parts: str) -> str:
    """A Foundry document id (16 letters and digits), the same for the same pack and table."""
    digest = hashlib.sha1("/".join(parts).encode()).digest()
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    return "".join(alphabet[b % len(alphabet)] for b in digest[:16])


def write(pack: Any) -> dict[str, str]:
    """Each table of ``pack`` as a Foundry RollTable document (JSON text), by table name."""
    from companion.packs.convert.common import pack_data
    from companion.packs.model import REF

    data = pack_data(pack)
    raw_tables = {k.lower(): v for k, v in data.get("tables", {}).items()}
    ids = {name: foundry_id(pack.name, name) for name in pack.tables}
    head = {k: getattr(pack, k) for k in ("title", "description", "book", "license") if getattr(pack, k)}
    out = {}
    for n, (name, table) in enumerate(pack.tables.items()):
        results = []
        for i, row in enumerate(table.rows):
            only = REF.fullmatch(row.result.strip())
            for lo, hi in row.runs:
                result: dict[str, Any] = {
                    "_id": foundry_id(pack.name, name, str(i), str(lo)),
                    "type": "text",
                    "text": _shown(row.result, pack, ids),
                    "img": "icons/svg/d20-black.svg",
                    "weight": hi - lo + 1,
                    "range": [lo, hi],
                    "drawn": False,
                }
                if only and not only.group(2) and len(row.calls) == 1:  # a row that is a roll on another table
                    target = only.group(1).lower()
                    result.update(
                        type="document",
                        documentCollection="RollTable",
                        documentId=ids[target],
                        documentUuid=f"RollTable.{ids[target]}",
                        text=pack.tables[target].title,
                    )
                results.append(result)
        mine: dict[str, Any] = {"name": name, "table": raw_tables[name], "results": _fingerprint(results)}
        if n == 0:
            mine["pack"] = head
            mine.update({k: data[k] for k in ("trackers", "checks") if data.get(k)})
        doc = {
            "_id": ids[name],
            "name": table.title,
            "description": table.description,
            "img": "icons/svg/d20-grey.svg",
            "formula": "1d6*10+1d6" if table.read == "d66" else table.dice,
            "replacement": table.draw != "unique",
            "displayRoll": True,
            "results": results,
            "flags": {"companion": mine},
        }
        out[name] = json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    return out


def _shown(result: str, pack: Any, ids: dict[str, str]) -> str:
    """A row's text for Foundry: ``[name]`` as a link to that table, ``\\[`` as a bracket."""
    from companion.packs.model import REF, shown_text

    def link(m: re.Match) -> str:
        target = m.group(1).lower()
        times = f" ×{m.group(2)}" if m.group(2) else ""
        return f"@UUID[RollTable.{ids[target]}]{{{pack.tables[target].title}}}{times}"

    return shown_text(REF.sub(link, result))
