"""A door's table as data: ``/state.json`` (the read-only feed at the host's door, each seat's at its
own), made through the same filter as its page.

It holds what ``status --json`` gives (the state as the door's viewer may see it, and what is withheld)
and what the page shows: the version, the step (the seat's: no option of another seat's step), whose it
is, the log's last lines, what undo takes back and the last undo's notice."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.serve.seats import Door
    from companion.serve.table import Table


def state_of(table: Table, door: Door) -> str:
    """``door``'s table now, as JSON text (every word that would name a withheld secret replaced)."""
    from companion.cli.common import dump_state
    from companion.cli.kit import opened

    view = table.page(door).view
    data: dict[str, Any] = {"version": table.version, "seat": door.seat or None}
    if table.name is not None:
        with opened(table._env(table.name), wait=0) as session:
            data |= dump_state(session, door.viewer)
    pending = view.pending if not view.finished else None
    data |= {
        "pending": pending.as_json() if pending is not None else None,
        "answers": view.answers,
        "waiting": view.waiting or None,
        "log": list(view.log),
        "undo": view.undo or None,
        "notice": view.notice or None,
        "finished": view.finished or None,
    }
    return view.shown(json.dumps(data, ensure_ascii=False))
