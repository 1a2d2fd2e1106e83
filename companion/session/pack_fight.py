"""Folding a table pack's fight (``"t": "fight"`` events) into the state and the log.

The command worked out everything from the pack (the rolls, the round's result, the effects, whether
the fight is over) and keeps it in the event, as a table roll keeps its rows' text, so the session
replays the same without the pack. Here the events are only applied:

- ``start``: the fight in progress (:class:`~companion.session.trackers.PackFight`), the foe's numbers;
- ``round``, ``luck``, ``flee``: their rolls logged (their virtual dice counted), their effects applied:
  yours as counter changes (kept within 0 and the counter's max), the foe's to its numbers (within 0
  and what it started with);
- an ``end`` in any of them (or ``op: "end"``, a fight stopped by hand) closes the fight.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from companion.errors import InputError
from companion.session.trackers import PackFight

if TYPE_CHECKING:
    from companion.session.state import State


class Folding(Protocol):
    """What a fight's events use of the fold (:class:`companion.session.fold.Fold`, which folds them
    here): its state, and its own ways to count a virtual roll and to change a counter, the XP and an
    item, so a fight's changes are folded and logged as the same changes by hand are. Declared here, so
    this module, which the fold imports, never imports the fold."""

    state: State

    def _count_virtual(self, payload: dict[str, Any]) -> None: ...

    def _counter(self, event: dict[str, Any]) -> None: ...

    def _xp(self, event: dict[str, Any]) -> None: ...

    def _item(self, event: dict[str, Any]) -> None: ...


def fold_fight(fold: Folding, event: dict[str, Any]) -> None:
    from companion.i18n import _

    t = fold.state.trackers
    log = fold.state.log
    op = event["op"]
    eid = event.get("id")
    if op == "start":
        if t.fight is not None:
            raise InputError(
                _("a fight is in progress already (against {foe}); fight end ends it").format(foe=t.fight.foe)
            )
        values = event["values"]
        t.fight = PackFight(
            pack=event["pack"],
            fight=event["fight"],
            title=event.get("title", event["fight"]),
            foe=event["foe"],
            values={k: int(v) for k, _label, v in values},
            labels={k: label for k, label, _v in values},
            maxes={k: int(v) for k, _label, v in values},
            yours={k: label for k, label in event.get("you", ())},
            bounds=list(event.get("bounds", ())),
        )
        numbers = ", ".join(f"{label} {v}" for _k, label, v in values)
        log.text(
            _("Fight ({title}): {foe}, {numbers}").format(title=t.fight.title, foe=t.fight.foe, numbers=numbers),
            event=eid,
        )
        return
    fight = t.fight
    if fight is None:
        raise InputError(_("no fight is in progress; start one with companion fight start NAME --foe NAME"))
    _rolls(fold, event)
    if op == "round":
        fight.rounds += 1
        fight.last = event["result"]
        fight.tested = False
        log.text(_round_text(fight, event), event=eid)
    elif op == "luck":
        fight.tested = True
        log.text(
            (
                _("LUCK test after round {n}: lucky.") if event["passed"] else _("LUCK test after round {n}: unlucky.")
            ).format(n=fight.rounds),
            event=eid,
        )
    elif op == "flee":
        log.text(_("You flee from {foe}.").format(foe=fight.foe), event=eid)
    _effects(fold, fight, event)
    end = "stopped" if op == "end" else event.get("end")
    if end:
        log.text(end_text(end, fight.foe, fight.rounds), event=eid)
        t.fight = None


def _rolls(fold: Folding, event: dict[str, Any]) -> None:
    from companion.dice.expr import parse
    from companion.dice.roll import evaluate, evaluate_total
    from companion.log.rolls import roll_line

    for r in event.get("rolls", ()):
        payload = {k: r[k] for k in ("faces", "total", "src") if k in r}
        fold._count_virtual(payload)
        parts = tuple((str(a), int(b)) for a, b in r.get("parts", ()))
        expr, mod, src = parse(r["expr"]), int(r.get("mod", 0)), r.get("src", "virtual")
        if r.get("faces") is not None:
            roll = evaluate(expr, tuple(r["faces"]), mod, source=src, parts=parts)
        else:
            roll = evaluate_total(expr, int(r["total"]), mod, source=src, parts=parts)
        fold.state.log.roll(roll_line(roll, r.get("why", "")), event=event.get("id"))
        fold.state.rolls += 1


def _effects(fold: Folding, fight: PackFight, event: dict[str, Any]) -> None:
    changed = []
    why = f"{fight.title}, {fight.foe}"
    for e in event.get("effects", ()):
        kind = e["kind"]
        sub: dict[str, Any] = {"id": event.get("id")}
        if kind == "foe":
            key = e["name"]
            v = int(e["value"]) if e["op"] == "set" else fight.values.get(key, 0) + int(e["value"])
            fight.values[key] = max(0, min(v, fight.maxes.get(key, v)))
            if key not in changed:
                changed.append(key)
        elif kind == "xp":
            fold._xp({**sub, "n": e["value"]})
        elif kind == "item":
            fold._item({**sub, "name": e["name"], "delta": e["value"]})
        else:
            change = f"={e['value']}" if e["op"] == "set" else f"{e['value']:+d}"
            fold._counter(
                {**sub, "name": e["name"], "op": e["op"], "value": e["value"], "label": e["label"],
                 "why": f"{why}: {e['label']} {change}"}
            )  # fmt: skip
    if changed:
        shown = ", ".join(
            f"{fight.labels.get(k, k)} {fight.values[k]}/{fight.maxes.get(k, fight.values[k])}" for k in changed
        )
        fold.state.log.text(f"{fight.foe}: {shown}", event=event.get("id"))


def _round_text(fight: PackFight, event: dict[str, Any]) -> str:
    from companion.i18n import _

    n = fight.rounds
    if "totals" in event:
        you, foe = event["totals"]
        if event["result"] == "win":
            return _("Round {n}: you win it, {you} to {foe_total}.").format(n=n, you=you, foe_total=foe)
        if event["result"] == "lose":
            return _("Round {n}: {foe} wins it, {foe_total} to {you}.").format(
                n=n, foe=fight.foe, you=you, foe_total=foe
            )
        return _("Round {n}: a tie, {you} to {foe_total}.").format(n=n, you=you, foe_total=foe)
    t = event["table"]
    return _("Round {n}: ratio {ratio} (column {column}), row {row}: {cell}.").format(
        n=n, ratio=f"{t['ratio']:+d}", column=t["column"], row=t["reading"], cell=t["cell"]
    )


def end_text(end: str, foe: str, rounds: int) -> str:
    """How a fight ended, for the log and the command's line."""
    from companion.i18n import ngettext

    if end == "win":
        text = ngettext(
            "{foe} is down: you win the fight, in {n} round.",
            "{foe} is down: you win the fight, in {n} rounds.",
            rounds,
        )
    elif end == "lose":
        text = ngettext(
            "You are down: {foe} wins the fight, in {n} round.",
            "You are down: {foe} wins the fight, in {n} rounds.",
            rounds,
        )
    elif end == "both":
        text = ngettext(
            "You and {foe} fall together, in {n} round.", "You and {foe} fall together, in {n} rounds.", rounds
        )
    elif end == "flee":
        text = ngettext(
            "You got away from {foe}, after {n} round.", "You got away from {foe}, after {n} rounds.", rounds
        )
    else:
        text = ngettext(
            "The fight with {foe} is ended, after {n} round.",
            "The fight with {foe} is ended, after {n} rounds.",
            rounds,
        )
    return text.format(foe=foe, n=rounds)
