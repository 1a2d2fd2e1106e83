"""An import from start to end, short of writing: find the files, tell their format, read them into a
pack's data, and make the pack (checked like any pack)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.errors import InputError
from companion.packs.convert.common import Imported, make_pack, read_json, read_text, source_files

FORMATS = ("markdown", "datasworn", "foundry")
#: How each format is named to the player.
LABELS = {"markdown": "Obsidian markdown tables", "datasworn": "Datasworn JSON", "foundry": "Foundry VTT roll tables"}
_SUFFIXES = {"markdown": (".md", ".markdown"), "datasworn": (".json",), "foundry": (".json",)}


def kind_of(value: Any) -> str | None:
    """ "datasworn" or "foundry" for a JSON value of that format, else None."""
    docs = value if isinstance(value, list) else [value]
    if docs and all(isinstance(d, dict) and isinstance(d.get("results"), list) for d in docs):
        return "foundry"
    if isinstance(value, dict) and (
        "oracles" in value
        or "datasworn_version" in value
        or value.get("type") in ("oracle_rollable", "oracle_collection")
    ):
        return "datasworn"
    return None


def load(paths: list[Path], shown: list[str], fmt: str | None, name: str) -> tuple[Imported, Any, str]:
    """Read ``paths`` (files or folders) as ``fmt`` (told from them when None) into the pack ``name``:
    what was read, the pack, and its TOML text."""
    from companion.i18n import _

    suffixes = _SUFFIXES[fmt] if fmt else (".md", ".markdown", ".json")
    files = source_files(paths, shown, suffixes)
    read: list[tuple[str, str, str, Any, str]] = []  # (format, text, shown, JSON value, note name)
    for path, label in files:
        text = read_text(path, label)
        is_json = path.suffix.lower() == ".json" or (
            path.suffix.lower() not in (".md", ".markdown") and text.lstrip()[:1] in "{["
        )
        if fmt == "markdown" or (fmt is None and not is_json):
            read.append(("markdown", text, label, None, path.stem))
            continue
        value = read_json(text, label)
        kind = kind_of(value)
        if fmt is not None and kind != fmt:
            raise InputError(
                _("{file}: not {what}; companion reads it as {other}").format(
                    file=label, what=LABELS[fmt], other=LABELS[kind] if kind else _("no table format it knows")
                )
            )
        if kind is None:
            raise InputError(
                _("{file}: JSON, but neither Datasworn (oracles) nor a Foundry roll table (results)").format(file=label)
            )
        read.append((kind, text, label, value, path.stem))
    kinds = sorted({r[0] for r in read})
    if len(kinds) > 1:
        raise InputError(
            _("these files are in {n} formats ({kinds}); import each format on its own").format(
                n=len(kinds), kinds=", ".join(LABELS[k] for k in kinds)
            )
        )
    kind = kinds[0]
    imported = Imported(kind)
    if kind == "markdown":
        from companion.packs.convert import markdown

        markdown.read([(text, label, note) for _k, text, label, _v, note in read], imported)
    elif kind == "foundry":
        from companion.packs.convert import foundry

        foundry.read([(value, text, label) for _k, text, label, value, _n in read], imported)
    else:
        from companion.packs.convert import datasworn

        datasworn.read([(value, text, label) for _k, text, label, value, _n in read], imported)
    imported.data["pack"]["name"] = name
    if not imported.version:
        imported.version = LABELS[kind]
    header = f"Imported by companion tables import from {', '.join(shown)} ({imported.version})."
    pack, toml = make_pack(imported, f"{name}.toml", header)
    return imported, pack, toml
