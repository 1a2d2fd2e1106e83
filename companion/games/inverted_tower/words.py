"""What each of the Inverted Tower's one-shot commands did, in the player's words (its ``words``
member): what undo, redo, ``history`` and the page say ("a Trap room: INT failed"), never
``tower-room``."""

from __future__ import annotations

from typing import Any

from companion.contract.words import Words
from companion.i18n import N_

EVENTS = {
    "xp": N_("XP {signed}"),
    "tower-hero": N_("the hero made: a point in {attribute}"),
    "tower-room": N_("a new room: {kind}{detail}"),
    "tower-back": N_("back to room {room}"),
    "tower-kill": N_("a monster of the fight killed"),
    "tower-fail": N_("a fight roll failed: the hero is hurt"),
    "tower-treasure": N_("treasure taken: {what}"),
    "tower-down": N_("down the stairs to the next floor"),
    "tower-level": N_("a level's point in {attribute}"),
    "tower-potion": N_("a potion drunk"),
    "tower-trade": N_("at the Merchant: {op} a {item}"),
}


def fields(state: Any, event: dict[str, Any]) -> dict[str, Any]:
    """A signed XP change, and a room's detail (a trap's attribute and result, an encounter's size)."""
    out: dict[str, Any] = {}
    if "n" in event:
        out["signed"] = f"{int(event['n']):+d}".replace("-", "−")
    detail = [str(event[k]) for k in ("attribute", "result", "mobs", "minions") if event.get(k) not in (None, "")]
    if event.get("elite"):
        detail.append("elite")
    out["detail"] = f" ({', '.join(detail)})" if detail and event.get("t") == "tower-room" else ""
    return out


WORDS = Words(events=EVENTS, fields=fields)
