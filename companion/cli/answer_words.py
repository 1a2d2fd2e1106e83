"""An answer to a guided step in the words ``undo`` and ``redo`` say it (and the page's undo button)."""

from __future__ import annotations

from typing import Any


def answer_words(event: dict[str, Any]) -> str:
    """An answer to a guided step: ``the roll 4 5 (room.dc)``, ``the choice fight (combat.choice)``."""
    v, key = event.get("v") or {}, event.get("key")
    if "faces" in v:
        what = "the roll " + " ".join(str(f) for f in v["faces"])
    elif "total" in v:
        what = f"the roll ={v['total']}"
    elif "choice" in v:
        what = f"the choice {v['choice']}"
    elif "n" in v:
        what = f"the number {v['n']}"
    elif "text" in v:
        what = f"the answer {str(v['text'])!r}"
    else:
        return f"answer to {key}"
    return f"{what} ({key})"
