"""The player's own game data, entered once and reused: numbers their book prints, cards they own.

The rule texts leave numbers out (the 1979 book's to-hit tables, the Haunted Tower's hero cards, the
Dark Tower's cards). companion never invents them: the player enters them once, they are kept in
``<data>/gamedata/<game>.json``, and every new session of that game starts with a copy of them (a
``gamedata`` event), so an old session replays the same even if the catalogue changes later.

Engines keep such values in ``state.data``; an answer whose request key starts with ``data.`` is
merged back into the catalogue after it is recorded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.errors import StoreError
from companion.i18n import _

DATA_PREFIX = "data."


def path(data_dir: Path, game: str) -> Path:
    return data_dir / "gamedata" / f"{game}.json"


def load(data_dir: Path, game: str) -> dict[str, Any]:
    """The catalogue of ``game`` ({} if the player has entered nothing yet)."""
    from companion.store.atomic import CorruptFileError, read_bytes  # never through a link or a FIFO

    p = path(data_dir, game)
    try:
        raw = read_bytes(p)
        if raw is None:
            return {}
        data = json.loads(raw)
    except CorruptFileError as exc:
        raise StoreError(
            _("{path} cannot be read ({why}); fix or remove it to re-enter your game data").format(path=p, why=exc.why)
        ) from None
    except (StoreError, ValueError) as exc:
        raise StoreError(
            _("{path} cannot be read ({why}); fix or remove it to re-enter your game data").format(path=p, why=exc)
        ) from None
    if not isinstance(data, dict) or data.get("format") != "companion-gamedata":
        raise StoreError(_("{path} is not a companion game-data file; companion will not overwrite it").format(path=p))
    values = data.get("values", {})
    return values if isinstance(values, dict) else {}


def save(data_dir: Path, game: str, values: dict[str, Any]) -> Path:
    """Replace the catalogue of ``game`` (atomically, under a lock)."""
    from companion.store.atomic import WriteError, write_atomic  # only when a catalogue is written
    from companion.store.locks import acquire

    p = path(data_dir, game)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WriteError(p.parent, exc) from None
    busy = _("another companion is writing {path}").format(path=p)
    lock = acquire(p.with_name(p.name + ".lock"), 5, busy, _("wait a moment and try again"))
    try:
        payload = {"format": "companion-gamedata", "game": game, "values": values}
        write_atomic(p, json.dumps(payload, ensure_ascii=False, indent=2, sort_keys=True) + "\n")
    finally:
        lock.release()
    return p


def merge(data_dir: Path, game: str, values: dict[str, Any]) -> None:
    """Add or replace some values in the catalogue."""
    if not values:
        return
    current = load(data_dir, game)
    current.update(values)
    save(data_dir, game, current)


#: An event that changed the catalogue says so (``"catalogue": {"key": ..., "was": ..., "now": ...}``):
#: undoing it puts back what was there (nothing, if it was new), redoing it sets it again.
MARK = "catalogue"


def follow(data_dir: Path, game: str, event: dict[str, Any], *, back: bool) -> None:
    """Undo (``back``) or redo what ``event`` did to the catalogue, if it did anything."""
    mark = event.get(MARK)
    if not isinstance(mark, dict) or not isinstance(mark.get("key"), str):
        return
    current = load(data_dir, game)
    value = mark.get("was") if back else mark.get("now")
    if value is None:
        if mark["key"] not in current:
            return
        current.pop(mark["key"])
    else:
        current[mark["key"]] = value
    save(data_dir, game, current)


def take_back(data_dir: Path, game: str, before: dict[str, Any], after: dict[str, Any]) -> None:
    """An undone action's game data out of the catalogue again: each value the session had ``before`` the
    undo and not ``after`` it goes back to what the session has now (or away), unless the catalogue
    holds another value by now (entered since, in another session: that one is kept)."""
    gone = {k: v for k, v in before.items() if after.get(k) != v}
    if not gone:
        return
    current = load(data_dir, game)
    changed = False
    for key, value in gone.items():
        if current.get(key) != value:
            continue
        if key in after:
            current[key] = after[key]
        else:
            del current[key]
        changed = True
    if changed:
        save(data_dir, game, current)
