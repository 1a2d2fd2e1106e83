"""A rename a kill interrupted, finished (or forgotten) at the next open: the folder's name says whether
it happened (:meth:`companion.store.sessions.Store.rename`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.errors import StoreError
from companion.store.atomic import read_bytes

#: A rename's intent, written in the session's folder before the folder is renamed.
RENAME_FILE = "renaming.json"


def finish_rename(files: Any) -> None:  # a SessionFiles (the store imports this module)
    """Finish (or forget) a rename a kill interrupted: the folder's name says whether it happened."""
    intent = files.dir / RENAME_FILE
    try:
        data = read_json_plain(intent)
    except StoreError:
        data = None
    if data is None:
        return
    if data.get("slug") == files.slug:
        doc = files.read_meta()
        doc["meta"]["name"] = data["name"]
        doc["meta"]["slug"] = files.slug
        files.write_meta(doc)  # the log's head names the session: the next open writes it
    intent.unlink(missing_ok=True)


def read_json_plain(path: Path) -> dict[str, Any] | None:
    import json

    try:
        raw = read_bytes(path)  # never through a link, never a FIFO's wait
    except StoreError:
        return None
    if raw is None:
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None
