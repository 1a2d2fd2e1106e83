"""Every die a session rolled, one face at a time, with its source: what the dice audit counts.

Rolls live in several kinds of event (see docs/architecture.md): a one-shot ``roll``, an ``answer`` to
a guided game's roll request, the Talisman search, a game event's ``roll`` or ``rolls``. An amended
roll counts with the faces the player corrected it to, as physical dice (they are what the die
showed). A roll whose event does not say which dice it used is counted in ``unknown`` and left out.

A draw from a cup or a deck (the game declares which rolls are draws: its contract's ``draws``,
asked through ``Game.is_draw``) is no die: it is kept apart, in ``draws``, and never counted as a
face of a d39.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from companion.dice.expr import parse
from companion.errors import CompanionError


@dataclass(frozen=True, slots=True)
class Face:
    """One die of one roll: ``die`` is its name (d6, d10, dt), ``face`` the stored face (1..sides)."""

    die: str
    face: int
    source: str  # "physical" or "virtual"
    event: int


@dataclass(frozen=True, slots=True)
class Drawn:
    """One draw from a cup or a deck: the ``n``-th of the ``of`` chits or cards left."""

    n: int
    of: int
    source: str
    event: int


@dataclass
class Rolls:
    faces: list[Face] = field(default_factory=list)
    #: Draws from a cup or a deck (a chit, a card): not dice, left out of the audit.
    draws: list[Drawn] = field(default_factory=list)
    #: Rolls left out because the event does not say which dice they were.
    unknown: int = 0
    #: Physical rolls the player corrected with ``companion amend`` (counted with the corrected faces).
    amended: int = 0


def _source(src: str | None) -> str:
    return "virtual" if src == "virtual" else "physical"


def _payloads(event: dict[str, Any]) -> Iterator[tuple[str | None, dict[str, Any]]]:
    """(expression, payload) for each roll an event holds."""
    t = event.get("t")
    if t == "roll":
        yield event.get("expr"), event
    elif t == "answer":
        v = event.get("v")
        if isinstance(v, dict) and ("faces" in v or "total" in v):
            yield event.get("expr"), v
    elif t == "talisman" and ("faces" in event or "total" in event):
        yield "talisman", event
    if t not in ("roll", "answer", "talisman", "amend"):
        roll = event.get("roll")
        if isinstance(roll, dict):
            yield roll.get("expr") or event.get("expr"), roll
        for payload in event.get("rolls", ()) or ():
            if isinstance(payload, dict):
                yield payload.get("expr"), payload


def collect(events: Iterable[dict[str, Any]], game: Any = None) -> Rolls:
    """Every face rolled in ``events``, in order; ``game`` (the session's) says which rolls are draws."""
    events = list(events)
    amends = {int(e["target"]): e for e in events if e.get("t") == "amend" and "target" in e}
    out = Rolls()
    for event in events:
        eid = int(event.get("id", 0))
        for expr_text, payload in _payloads(event):
            faces = payload.get("faces")
            src = _source(payload.get("src"))
            amend = amends.get(eid)
            if amend is not None and isinstance(amend.get("roll"), dict):
                faces = amend["roll"].get("faces", faces)
                src = "physical"
                out.amended += 1
            try:
                dice = parse(expr_text).dice if expr_text else None
            except CompanionError:
                dice = None
            if game is not None and game.is_draw(event, payload):
                sides = int(dice[0].name[1:]) if dice and len(dice) == 1 and dice[0].name[1:].isdigit() else 0
                n = faces[0] if faces else payload.get("total", 0)
                out.draws.append(Drawn(int(n), sides, src, eid))
                continue
            if faces is None:
                continue  # a total typed without its faces: nothing to count per face
            if dice is None or len(dice) != len(faces):
                out.unknown += 1
                continue
            for die, face in zip(dice, faces, strict=True):
                out.faces.append(Face(die.name, int(face), src, eid))
    return out


def session_rolls(game: str, events: Iterable[dict[str, Any]]) -> Rolls:
    """Every face a session of ``game`` rolled, its draws kept apart as the game declares them."""
    from companion.contract.registry import load

    return collect(events, load(game))
