"""Datasworn JSON (the Ironsworn family's oracle data) to a pack's data.

A package (``type`` ruleset or expansion) holds ``oracles{}``: collections (``type``
``oracle_collection``) with tables in ``contents{}`` and collections in ``collections{}``, nested.
A table (``type`` ``oracle_rollable``) has ``dice`` (``1d100`` when left out) and ``rows[]``: Datasworn
0.1 and later write a row's range as ``roll: {min, max}`` (``null`` for a row only shown, never
rolled), older data as ``min`` and ``max`` on the row itself. ``oracle_rolls`` on a row roll other
tables (``oracle: null`` is the same table), ``number_of_rolls`` times, with ``duplicates`` ``reroll``,
``keep`` or ``make_it_worse``: a pack keeps ``duplicates`` on the table rolled. A table's name is its
key in its collection. ``_source.license`` and ``_source.title`` go to the pack's ``license`` and
``book``.
"""

from __future__ import annotations

import re
from typing import Any

from companion.errors import InputError
from companion.i18n import _
from companion.packs.convert.common import Imported, Origin, one_line, text_only, unique

#: A markdown link in Datasworn text: ``[Theme](id:classic/oracles/...)`` or ``(datasworn:...)``.
_LINK = re.compile(r"\[([^\]]*)\]\((?:id|datasworn):[^)]*\)")
_TEMPLATE = re.compile(r"\{\{text>([^}]*)\}\}")
_CONTENT = ("moves", "assets", "npcs", "atlas", "truths", "rarities", "delve_sites", "site_themes", "site_domains")


class _Node:
    def __init__(self, key: str, value: dict, path: tuple, text: str, shown: str, parent: tuple) -> None:
        self.key, self.value, self.path, self.text, self.shown, self.parent = key, value, path, text, shown, parent
        self.name = ""


def read(docs: list[tuple[Any, str, str]], imported: Imported) -> None:
    """Read ``(JSON value, text, shown)`` of each file into ``imported``."""
    nodes: list[_Node] = []
    versions: set[str] = set()
    licenses: list[str] = []
    for value, text, shown in docs:
        if not isinstance(value, dict):
            raise InputError(_("{shown}: a Datasworn file is one JSON object").format(shown=shown))
        version = value.get("datasworn_version")
        if isinstance(version, str):
            versions.add(version)
        _head(value, imported, licenses)
        if "oracles" in value:
            oracles = value["oracles"]
            if isinstance(oracles, dict):
                for key, collection in oracles.items():
                    _walk(key, collection, ("oracles", key), text, shown, nodes)
                    _head(collection if isinstance(collection, dict) else {}, imported, licenses, title=False)
            skipped = [k for k in _CONTENT if value.get(k)]
            if skipped:
                imported.note(
                    _("the package's {parts} are not tables, and are not imported").format(parts=", ".join(skipped))
                )
        else:
            _walk(str(value.get("_id", "table")).rsplit("/", 1)[-1], value, (), text, shown, nodes)
    if not nodes:
        raise InputError(_("{file}: no oracle tables (oracle_rollable) in it").format(file=docs[0][2]))
    _name(nodes, imported)
    by_id: dict[str, Any] = {}
    for value, _text, _shown in docs:
        _collections(value, by_id)
    for node in nodes:
        for ident in _ids(node.value.get("_id")):
            by_id[ident] = node
    shapes: set[str] = set()
    for node in nodes:
        imported.data["tables"][node.name] = _table(node, by_id, imported, shapes, licenses)
    # duplicates belong to the table rolled: set them from the rolls that name each table
    for node in nodes:
        for roll in _rolls(node):
            target = by_id.get(roll.get("oracle")) if roll.get("oracle") else node
            rule = roll.get("duplicates")
            times = roll.get("number_of_rolls", 1)
            if (
                target is None
                or rule not in ("reroll", "keep", "make_it_worse")
                or not (isinstance(times, int) and times > 1)
            ):
                continue  # a rule for repeats means nothing to a table rolled once
            table = imported.data["tables"][target.name]
            if table.get("duplicates", rule) != rule:
                imported.note(
                    _(
                        "table {name}: rolled with duplicates {kept} and {rule}; a pack keeps one rule a table: {kept}"
                    ).format(name=target.name, kept=table["duplicates"], rule=rule)
                )
                continue
            table["duplicates"] = rule
    grouped = {
        "blank": _("rows with no roll (shown in the book, never rolled) are left out of: {tables}"),
        "match": _("what a match (doubles) means is not kept: {tables}"),
        "column": _(
            "these tables are columns of one table, sharing one roll in the book; companion rolls each alone: {tables}"
        ),
    }
    for kind, text in grouped.items():
        if imported.grouped.get(kind):
            imported.note(text.format(tables=", ".join(imported.grouped[kind])))
    shown_version = ", ".join(sorted(versions)) or "no datasworn_version"
    rows = " and ".join(sorted(shapes)) or "no rows"
    imported.version = f"Datasworn {shown_version}, rows with {rows}"
    distinct = list(dict.fromkeys(licenses))
    if distinct:
        imported.data["pack"]["license"] = "; ".join(distinct)
        if len(distinct) > 1:
            imported.note(_("the tables come under {n} licences; the pack names all of them").format(n=len(distinct)))


def _head(value: dict, imported: Imported, licenses: list[str], *, title: bool = True) -> None:
    """The pack's title, book and licence from a package (or a collection's ``_source``)."""
    head = imported.data["pack"]
    if title and isinstance(value.get("title"), str) and not head.get("title"):
        head["title"] = one_line(value["title"])
    if title and isinstance(value.get("license"), str):
        licenses.append(value["license"])
    source = value.get("_source")
    if isinstance(source, dict):
        if isinstance(source.get("title"), str) and not head.get("book"):
            page = source.get("page")
            head["book"] = one_line(source["title"]) + (f", p. {page}" if isinstance(page, int) else "")
        if isinstance(source.get("license"), str):
            licenses.append(source["license"])


def _walk(key: str, value: Any, path: tuple, text: str, shown: str, nodes: list[_Node], parent: tuple = ()) -> None:
    """Every table under ``value``, each with the keys of the collections it is in (``parent``)."""
    if not isinstance(value, dict):
        return
    if value.get("type") == "oracle_rollable" or ("rows" in value and "contents" not in value):
        nodes.append(_Node(key, value, path, text, shown, parent))
        return
    for part in ("contents", "collections"):
        inner = value.get(part)
        if isinstance(inner, dict):
            for k, v in inner.items():
                _walk(k, v, (*path, part, k), text, shown, nodes, (*parent, key))


def _collections(value: Any, found: dict[str, Any]) -> None:
    """Each collection's id → its name (a roll may name a collection of columns, one per region)."""
    if not isinstance(value, dict):
        return
    if value.get("type") == "oracle_collection":
        name = str(value.get("name") or value.get("_id"))
        for ident in _ids(value.get("_id")):
            ident = ident.replace("oracle_collection:", "")
            found[ident] = name
            found[ident.replace("/collections/oracles/", "/oracles/")] = name  # how 0.0 names it in a roll
    for part in ("oracles", "contents", "collections"):
        inner = value.get(part)
        if isinstance(inner, dict):
            for v in inner.values():
                _collections(v, found)


def _ids(ident: Any) -> list[str]:
    """The ids a table answers to: ``oracle_rollable:classic/action_and_theme/action`` (0.1 and later) and
    ``classic/oracles/action_and_theme/action`` (0.0)."""
    if not isinstance(ident, str):
        return []
    return [ident, ident.removeprefix("oracle_rollable:")]


def _name(nodes: list[_Node], imported: Imported) -> None:
    """Each table's name: its key, or where several tables share a key, the keys of the collections it
    is in before it, as many as make it one of a kind (``jungle-settlements-terminus``)."""
    by_key: dict[str, list[_Node]] = {}
    for node in nodes:
        by_key.setdefault(node.key.lower(), []).append(node)
    taken: set[str] = set()
    renamed = []
    for key, group in by_key.items():
        depth = 0
        while len(group) > 1 and depth < 6:
            names = (
                ["-".join([*n.parent[len(n.parent) - depth :], key]).lower() for n in group]
                if depth
                else [key] * len(group)
            )
            if len(set(names)) == len(names):
                break
            depth += 1
        for node in group:
            base = ("-".join([*node.parent[len(node.parent) - depth :], key]) if depth else key).lower()[:40]
            node.name = unique(base, taken)
            taken.add(node.name)
            if node.name != key:
                renamed.append(node.name)
            imported.origins[("tables", node.name)] = _origin(node, node.path)
    if renamed:
        imported.note(
            _("{n} tables share a key with another table, and are named after their collections too: {names}").format(
                n=len(renamed), names=", ".join(renamed)
            )
        )


def _origin(node: _Node, path: tuple) -> Origin:
    from companion.packs.convert.jsonlines import nearest_line

    return Origin(node.shown, locate=lambda: nearest_line(node.text, path))


def _rolls(node: _Node) -> list[dict]:
    rows = node.value.get("rows")
    out = []
    for row in rows if isinstance(rows, list) else []:
        if isinstance(row, dict) and isinstance(row.get("oracle_rolls"), list):
            out += [r for r in row["oracle_rolls"] if isinstance(r, dict)]
    return out


def _table(node: _Node, by_id: dict, imported: Imported, shapes: set[str], licenses: list[str]) -> dict:
    value = node.value
    out: dict[str, Any] = {"title": one_line(str(value.get("name") or node.key))}
    summary = value.get("summary") or value.get("description")
    if isinstance(summary, str) and summary.strip():
        out["description"] = one_line(_LINK.sub(lambda m: m.group(1), summary))
    out["dice"] = str(value.get("dice") or "1d100").replace(" ", "")
    source = value.get("_source")
    if isinstance(source, dict) and isinstance(source.get("license"), str):
        licenses.append(source["license"])
    if value.get("match"):
        imported.later("match", node.name)
    if value.get("oracle_type", "").startswith("column"):
        imported.later("column", node.name)
    rows_data = value.get("rows")
    if not isinstance(rows_data, list) or not rows_data:
        raise InputError(_("{shown}: table {name} has no rows").format(shown=node.shown, name=node.name))
    imported.origins[("tables", node.name, "rows")] = _origin(node, (*node.path, "rows"))
    rows = []
    for i, row in enumerate(rows_data):
        if not isinstance(row, dict):
            continue
        span = _span(row, shapes)
        if span is None:
            imported.later("blank", node.name)
            continue
        imported.origins[("tables", node.name, "rows", len(rows))] = _origin(node, (*node.path, "rows", i))
        rows.append({"roll": span, "result": _text(row, node, by_id, imported), **_then(row, node, by_id, imported)})
    out["rows"] = rows
    return out


def _span(row: dict, shapes: set[str]) -> str | None:
    if "roll" in row:
        shapes.add("roll: {min, max}")
        roll = row["roll"]
        if not isinstance(roll, dict):
            return None
        lo, hi = roll.get("min"), roll.get("max")
    else:
        shapes.add("min and max on the row")
        lo, hi = row.get("min"), row.get("max")
    if not isinstance(lo, int) or not isinstance(hi, int):
        return None
    return str(lo) if lo == hi else f"{lo}-{hi}"


def _template(row: dict) -> str | None:
    template = row.get("template")
    if isinstance(template, dict) and isinstance(template.get("text"), str):
        return template["text"]
    return None


def _target(ident: Any, node: _Node, by_id: dict, what: str) -> _Node:
    target = node if ident is None else by_id.get(ident)
    if target is None:
        raise InputError(
            _("{file}: table {name}: {what} {oracle}, which is not in this import").format(
                file=node.shown, name=node.name, what=what, oracle=ident
            )
        )
    return target


def _text(row: dict, node: _Node, by_id: dict, imported: Imported) -> str:
    template = _template(row)
    text = template if template is not None else str(row.get("text") or row.get("result") or "")
    if _LINK.search(text):
        imported.note(_("links in a row's text are kept as their label"))
    text = text_only(_LINK.sub(lambda m: m.group(1), text))
    if template is not None:
        imported.note(_("a row written as a template ({{text>...}}) rolls each table it names, shown under it"))
        text = _TEMPLATE.sub(lambda m: f"[{_target(m.group(1), node, by_id, 'a template names').name}]", text)
    parts = [text]
    for extra in ("text2", "text3"):
        if isinstance(row.get(extra), str) and row[extra].strip():
            parts.append(text_only(_LINK.sub(lambda m: m.group(1), row[extra])))
            imported.note(_("a row's {extra} is kept in its result, after a ·").format(extra=extra))
    if row.get("embed_table") or row.get("oracles"):
        imported.note(_("a table shown inside a row (embed_table) is not kept"))
    return one_line(" · ".join(p for p in parts if p.strip())) or "—"


def _then(row: dict, node: _Node, by_id: dict, imported: Imported) -> dict[str, Any]:
    calls = []
    template = _template(row) or ""
    named = {_target(i, node, by_id, "a template names").name for i in _TEMPLATE.findall(template)}
    for roll in row.get("oracle_rolls") or []:
        if not isinstance(roll, dict):
            continue
        if isinstance(by_id.get(roll.get("oracle")), str):
            imported.note(
                _("table {name}: a row rolls {group}, a table of several columns: roll the column you want").format(
                    name=node.name, group=by_id[roll["oracle"]]
                )
            )
            continue
        target = _target(roll.get("oracle"), node, by_id, "a row rolls")
        if target.name in named:
            continue  # the template's [name] rolls it already
        if roll.get("auto") is False:
            imported.note(_("rolls Datasworn leaves to the player (auto: false) are made every time"))
        if roll.get("dice"):
            imported.note(_("a roll with dice of its own ({dice}) uses the table's dice").format(dice=roll["dice"]))
        times = roll.get("number_of_rolls", 1)
        times = times if isinstance(times, int) and not isinstance(times, bool) and times > 0 else 1
        calls.append({"table": target.name, "rolls": times} if times > 1 else target.name)
    return {"then": calls} if calls else {}
