"""A session as one JSON document other tools can read: its events and its folded state.

Its shape is described by ``docs/session-export.schema.json`` (JSON Schema 2020-12). ``format``
names the shape and its version: a tool should check it, and a change that removes or renames a
field bumps the number (adding a field does not).
"""

from __future__ import annotations

from typing import Any

from companion import __version__
from companion.export.audit import audit
from companion.export.rolls import session_rolls
from companion.export.source import Source
from companion.session import codec

FORMAT = "companion-session/1"


def document(source: Source) -> dict[str, Any]:
    meta, state = source.meta, source.state
    folded = codec.dump(state)
    folded.pop("meta", None)  # the same as "session" below (a sealed seed and its salt withheld)
    log = folded.get("log")
    if isinstance(log, dict):  # keep the entries; the key index and flags are the store's business
        folded["log"] = {"entries": log.get("entries", [])}
    rolls = session_rolls(source.meta.game, source.events)
    shown = state.seed_shown
    out: dict[str, Any] = {
        "format": FORMAT,
        "companion": __version__,
        "session": {
            "name": meta.name,
            "slug": meta.slug,
            "game": meta.game,
            "title": source.title,
            "seed": meta.seed if shown else None,
            "sealed": {"commitment": meta.sealed, "salt": meta.salt if shown else None, "revealed": state.revealed}
            if meta.sealed
            else None,
            "dice": state.dice,
            "variants": list(meta.variants),
            "started": meta.created,
            "updated": state.updated or meta.created,
            "hero": source.hero,
            "finished": state.finished,
        },
        #: What the rules still hide (withheld below until the game reveals it).
        "withheld": [s.what for s in source.view.withheld],
        "events": source.events,
        "undone": source.undone,
        "state": folded,
        "dice_audit": [a.to_json() for a in audit(rolls.faces)],
    }
    if source.revealed:  # the owner's own backup (export --reveal-secrets): what is in it that the rules hide
        out["revealed_secrets"] = list(source.revealed)
    return out
