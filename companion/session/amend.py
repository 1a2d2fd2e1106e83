"""Find the roll an ``amend`` corrects, and what dice it was rolled with."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.dice.expr import TALISMAN, Expr, parse
from companion.errors import CompanionError, InputError

if TYPE_CHECKING:
    from companion.session.service import Session

ROLL_EVENTS = ("roll", "answer", "talisman")


def _roll_fields(event: dict[str, Any]) -> dict[str, Any] | None:
    """The faces/total/src of a roll-bearing event, or None if it holds no roll."""
    if event.get("t") == "answer":
        v = event.get("v", {})
        return v if ("faces" in v or "total" in v) else None
    if event.get("t") in ("roll", "talisman") and ("faces" in event or "total" in event):
        return event
    game_roll = event.get("roll")  # a game's own event that carries its dice (see Fold._game_roll)
    if isinstance(game_roll, dict) and "expr" in game_roll and ("faces" in game_roll or "total" in game_roll):
        return game_roll
    return None


def _expr(event: dict[str, Any]) -> tuple[Expr, int]:
    if event["t"] == "talisman":
        return TALISMAN, 0
    if "expr" not in event and isinstance(event.get("roll"), dict):
        return parse(event["roll"]["expr"]), int(event["roll"].get("mod", 0))
    return parse(event["expr"]), int(event.get("mod", 0))


def amend_event(session: Session, roll_id: int | None) -> tuple[dict[str, Any], Expr, int]:
    """The amend event (without its new roll) for ``roll_id``, or for the last physical roll."""
    events = session.files.read_events()
    target = None
    if roll_id is not None:
        for event in events:
            if event["id"] == roll_id:
                target = event
        if target is None or _roll_fields(target) is None:
            raise InputError(f"event #{roll_id} is not a roll of this session")
    else:
        for event in reversed(events):
            if any(r.get("src") == "physical" for r in event.get("rolls", ())):
                # A game action carrying its own dice (one event, several rolls): not amendable one by one.
                raise CompanionError(
                    f"the last physical roll is part of action #{event['id']} ({event['t']}), "
                    "which cannot be amended roll by roll",
                    hint="undo it and run it again with the right dice",
                )
            fields = _roll_fields(event)
            if fields is not None and fields.get("src") != "virtual":
                target = event
                break
        if target is None:
            raise CompanionError(
                "there is no physical roll to amend", hint="a virtual roll cannot be amended; use undo"
            )
    fields = _roll_fields(target)
    assert fields is not None
    if fields.get("src") == "virtual":
        raise CompanionError(f"roll #{target['id']} was virtual; only physical rolls can be amended", hint="use undo")
    expr, mod = _expr(target)
    return {"t": "amend", "target": target["id"]}, expr, mod
