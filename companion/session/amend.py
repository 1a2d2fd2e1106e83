"""Find the roll an ``amend`` corrects, and what dice it was rolled with."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

from companion.dice.expr import TALISMAN, Expr, parse
from companion.errors import CompanionError, InputError
from companion.i18n import _

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
    target = None
    if roll_id is not None:
        if 1 <= roll_id <= session.count:
            target = session.files.events.event(roll_id)
        if target is None or _roll_fields(target) is None:
            raise InputError(_("event #{n} is not a roll of this session").format(n=roll_id))
    else:
        for event in _newest_first(session):
            if any(r.get("src") == "physical" for r in event.get("rolls", ())):
                # A game action carrying its own dice (one event, several rolls): not amendable one by one.
                raise CompanionError(
                    _("the last physical roll is part of action #{n}, which cannot be amended roll by roll").format(
                        n=event["id"]
                    ),
                    hint=_("undo it and run it again with the right dice"),
                )
            fields = _roll_fields(event)
            if fields is not None and fields.get("src") != "virtual":
                target = event
                break
        if target is None:
            raise CompanionError(
                _("there is no physical roll to amend"), hint=_("a virtual roll cannot be amended; use undo")
            )
    fields = _roll_fields(target)
    assert fields is not None
    if fields.get("src") == "virtual":
        raise CompanionError(
            _("roll #{n} was virtual; only physical rolls can be amended").format(n=target["id"]), hint=_("use undo")
        )
    expr, mod = _expr(target)
    return {"t": "amend", "target": target["id"]}, expr, mod


def _newest_first(session: Session):
    """The session's events from the last one back, read only as far as they are needed."""
    events = session.files.events
    start = session.count
    while start > 0:
        first = max(0, start - 256)
        chunk = events.read(first)[: start - first]
        yield from reversed(chunk)
        start = first


def amendable_ids(events: list[dict[str, Any]]) -> set[int]:
    """The event numbers of the physical rolls ``amend --roll N`` accepts."""
    out = set()
    for event in events:
        fields = _roll_fields(event)
        if fields is not None and fields.get("src") != "virtual" and not event.get("rolls"):
            out.add(int(event["id"]))
    return out


def physical_rolls(session: Session, limit: int | None = None) -> list[dict[str, Any]]:
    """The session's physical rolls, oldest first, numbered by their event (the number ``--roll`` takes),
    each with the log's own words: ``n``, ``why``, ``expr``, ``dice``, ``total``, ``outcome``.

    ``amend`` (without ``--roll``) and ``log --rolls`` both list these, so they show the same numbers."""
    ids = amendable_ids(session.files.read_events())
    out = [
        {"n": entry["e"], **entry["r"]}
        for entry in session.full().log.entries
        if entry.get("k") == "roll" and entry.get("e") in ids
    ]
    return out[-limit:] if limit else out


def roll_words(roll: dict[str, Any]) -> str:
    """One roll as the player reads it: ``#3 treasure: DR [4] → Dagger``."""
    result = roll.get("outcome") or roll.get("total")
    why = roll.get("why") or _("roll")
    return _("#{n}").format(n=roll["n"]) + f" {why}: {roll['expr']} {roll['dice']} → {result}"


def preview(session: Session, event: dict[str, Any]) -> str:
    """What the amendment changes, tried on a copy of the session first: the expression, the old and
    the new faces, and the result before and after. Refused, in the player's words, if the game would
    have taken another path with the new dice."""
    from companion.session import amending
    from companion.session.fold import Fold, amendments
    from companion.session.state import new_state

    target = int(event["target"])
    try:
        tried = amending.trial(session, event)
    except amending.Refused as exc:
        _refuse(target, event, amending.roll_entry(exc.now, target))
    if tried is not None:
        before = amending.roll_entry(tried.now, target)
        after = amending.roll_entry(tried.after, target)
        return _change(target, event, before, after)
    events = session.files.read_events()
    before = next((r for r in physical_rolls(session) if r["n"] == target), None)
    trial = [*events, {**event, "id": len(events) + 1}]
    fold = Fold(session.spec, new_state(session.spec, session.meta), amended=amendments(trial))
    try:
        for e in trial:
            fold.apply(e)
    except CompanionError:
        _refuse(target, event, before)
    after = next((e["r"] for e in fold.state.log.entries if e.get("k") == "roll" and e.get("e") == target), None)
    return _change(target, event, before, after)


def _refuse(target: int, event: dict[str, Any], before: dict | None) -> NoReturn:
    what = f" ({before.get('why') or _('roll')}: {before['expr']} {before['dice']})" if before else ""
    new = event["roll"].get("faces") or event["roll"].get("total")
    raise CompanionError(
        _("cannot amend roll #{n}{what}: with {new} the game would have gone another way after it").format(
            n=target, what=what, new=new
        ),
        hint=_("undo back to that roll, then roll again with the right dice"),
    )


def _change(target: int, event: dict[str, Any], before: dict | None, after: dict | None) -> str:
    if before is None or after is None:
        return _("roll #{n} → {roll}").format(n=target, roll=event["roll"])
    text = f"{before.get('why') or _('roll')} {before['expr']} {before['dice']} → {after['dice']}"
    old, new = before.get("outcome") or before.get("total"), after.get("outcome") or after.get("total")
    if old != new:
        text += _(": {new} instead of {old}").format(new=new, old=old)
    else:
        text += _(": still {new}").format(new=new)
    return text
