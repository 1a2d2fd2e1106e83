"""``companion dice verify FILE``: check a session's virtual dice from its JSON export, by anyone.

A session's virtual dice are one seeded stream (companion.dice.source: ``random.Random(seed)``, one
``random()`` a die, the face ``int(random() * sides) + 1``), drawn in the order of its events. Given
the export of a sealed session whose seed is revealed, :func:`verify`:

1. checks the seed and its salt against the commitment shown from the start (companion.dice.seal);
2. checks the events are all there (ids 1, 2, 3 ... with none missing);
3. draws the stream again and compares every virtual die of every event, in order (each roll as the
   fold counts it: companion.export.rolls reads them where each kind of event keeps them), and at the
   reveal that the stream had drawn as many dice as the rolls before it hold (none left out);
4. checks every roll undo took back (the export's ``undone``: each one with where the stream stood)
   against the stream at its place, and tells whether the same dice were drawn again after it.

Physical rolls are listed as the player's own (nobody can check a die at the table). The first
difference found stops the check (:class:`NotVerified`), named by its event.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.dice.expr import parse
from companion.dice.seal import commitment
from companion.dice.source import VirtualDice
from companion.errors import CompanionError, InputError
from companion.export.rolls import _payloads
from companion.i18n import _, ngettext

FORMAT = "companion-session/1"


class NotVerified(CompanionError):
    """The export does not hold what its seed gives: the first difference, in words."""


@dataclass
class Drawn:
    """One roll of virtual dice: its event, its dice, the faces the file shows, where in the stream."""

    event: int
    expr: str
    faces: list[int]
    start: int
    why: str = ""

    def shown(self, faces: list[int] | None = None) -> str:
        return " ".join(f"[{f}]" for f in (self.faces if faces is None else faces))


@dataclass
class Undone:
    """A virtual roll undo took back: checked at its place in the stream, and what drew it again."""

    roll: Drawn
    at: str
    #: The kept rolls that drew the same dice of the stream after it (none: never drawn again).
    again: list[Drawn] = field(default_factory=list)

    @property
    def same(self) -> bool:
        """Whether it was drawn again as the same roll with the same faces (an undo, then the same roll)."""
        return (
            len(self.again) == 1 and self.again[0].faces == self.roll.faces and self.again[0].start == self.roll.start
        )


@dataclass
class Report:
    session: str
    game: str
    sealed: str | None
    seed: int
    salt: str | None
    virtual: list[Drawn] = field(default_factory=list)
    physical: list[tuple[int, str, list[int] | None]] = field(default_factory=list)
    undone: list[Undone] = field(default_factory=list)
    #: The reveal's event id (None: not sealed), and the virtual rolls made after it.
    revealed: int | None = None
    after_reveal: int = 0
    #: Dice whose roll does not name them (its faces drawn from the stream, not checked one by one).
    unnamed: int = 0

    @property
    def dice(self) -> int:
        return sum(len(d.faces) for d in self.virtual)

    def as_json(self) -> dict[str, Any]:
        return {
            "verified": True,
            "session": self.session,
            "sealed": self.sealed,
            "seed": self.seed,
            "salt": self.salt,
            "revealed": self.revealed,
            "virtual": {"rolls": len(self.virtual), "dice": self.dice, "after_reveal": self.after_reveal},
            "physical": [{"event": e, "expr": x, "faces": f} for e, x, f in self.physical],
            "undone": [
                {
                    "event": u.roll.event,
                    "expr": u.roll.expr,
                    "faces": u.roll.faces,
                    "undone_at": u.at,
                    "drawn_again_by": [a.event for a in u.again],
                    "same_dice_again": u.same,
                }
                for u in self.undone
            ],
        }


def load(text: str) -> dict[str, Any]:
    """The export in ``text`` (InputError: not JSON, or not a session's export)."""
    import json

    try:
        doc = json.loads(text)
    except ValueError as exc:
        why = _("the file is not JSON ({why}); give a file from companion export -f json").format(why=exc)
        raise InputError(why) from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or not isinstance(doc.get("events"), list):
        raise InputError(_("the file is not a session's export; give a file from companion export -f json"))
    return doc


def verify(doc: dict[str, Any]) -> Report:
    """Check ``doc`` (see the module's docstring); raises :class:`NotVerified` at the first difference."""
    session = doc.get("session") if isinstance(doc.get("session"), dict) else {}
    events = [e for e in doc["events"] if isinstance(e, dict)]
    sealed = session.get("sealed") if isinstance(session.get("sealed"), dict) else None
    commit = sealed.get("commitment") if sealed else None
    reveal = next((e for e in events if e.get("t") == "reveal"), None)
    if commit:
        if reveal is None:
            raise NotVerified(_("the seed is still sealed: companion dice reveal shows it (or the game's end)"))
        seed, salt = reveal.get("seed"), reveal.get("salt")
        if not isinstance(seed, int) or not isinstance(salt, str):
            raise NotVerified(_("#{n} reveals no seed and salt").format(n=reveal.get("id")))
        if commitment(seed, salt) != commit:
            raise NotVerified(
                _(
                    "the seed {seed} and its salt do not match the commitment {commitment} (SHA-256 of SEED:SALT)"
                ).format(seed=seed, commitment=commit)
            )
    else:
        seed, salt = session.get("seed"), None
        if not isinstance(seed, int):
            raise NotVerified(_("the file gives no seed"))
    report = Report(str(session.get("name", "")), str(session.get("game", "")), commit, seed, salt)
    report.revealed = reveal.get("id") if reveal else None
    _check_ids(events)
    stream = VirtualDice(seed)
    at: dict[int, Drawn] = {}  # stream position of each kept roll's first die
    for event in events:
        if event.get("t") == "reveal":
            _check_reveal(event, stream.draws)
            continue
        if isinstance(event.get("v"), dict) and "withheld" in event["v"]:
            raise NotVerified(
                _("#{n} is withheld (a secret the game still keeps): the dice after it cannot be checked").format(
                    n=event.get("id")
                )
            )
        for expr_text, payload in _payloads(event):
            drawn = _draw(stream, event, expr_text, payload, report)
            if drawn is not None:
                at[drawn.start] = drawn
                report.virtual.append(drawn)
                if report.revealed is not None and int(event["id"]) > report.revealed:
                    report.after_reveal += 1
    for record in doc.get("undone") or ():
        if isinstance(record, dict):
            _check_undone(record, seed, at, report)
    return report


def _check_ids(events: list[dict[str, Any]]) -> None:
    for n, event in enumerate(events, start=1):
        if event.get("id") != n:
            if isinstance(event.get("id"), int) and event["id"] > n:
                raise NotVerified(
                    _("#{n} is missing: the events go from #{before} to #{after}").format(
                        n=n, before=n - 1, after=event["id"]
                    )
                )
            raise NotVerified(_("the events are out of order at #{n}").format(n=n))


def _check_reveal(event: dict[str, Any], draws: int) -> None:
    told = event.get("draws")
    if isinstance(told, int) and told != draws:
        missing = told - draws
        raise NotVerified(
            ngettext(
                "a roll is missing before the reveal (#{n}): the seed had drawn {told} dice there, the rolls "
                "before it hold {held} ({k} die missing)",
                "a roll is missing before the reveal (#{n}): the seed had drawn {told} dice there, the rolls "
                "before it hold {held} ({k} dice missing)",
                abs(missing),
            ).format(n=event.get("id"), told=told, held=draws, k=missing)
            if missing > 0
            else _("the rolls before the reveal (#{n}) hold {held} dice, but the seed had drawn {told} there").format(
                n=event.get("id"), held=draws, told=told
            )
        )


def _draw(
    stream: VirtualDice, event: dict[str, Any], expr_text: str | None, payload: dict[str, Any], report: Report
) -> Drawn | None:
    """The next roll of the file checked against the stream (None: not a virtual roll with faces)."""
    faces = payload.get("faces")
    src = payload.get("src", "virtual")
    eid = int(event.get("id", 0))
    if src != "virtual" or faces is None:
        if src in ("physical", "amended") or (src != "virtual" and faces is not None):
            report.physical.append((eid, str(expr_text or ""), faces))
        return None
    if not isinstance(faces, list) or not all(isinstance(f, int) and not isinstance(f, bool) for f in faces):
        raise NotVerified(_("#{n}: its dice are not a list of faces").format(n=eid))
    drawn = Drawn(
        eid, str(expr_text or ""), list(faces), stream.draws, str(payload.get("why") or event.get("why") or "")
    )
    sides = _sides(expr_text, len(faces))
    if sides is None:  # a roll that does not name its dice: its draws are counted, its faces not read
        stream.skip(len(faces))
        report.unnamed += len(faces)
        return drawn
    expected = [int(stream.rng.random() * s) + 1 for s in sides]
    stream.draws += len(sides)
    if len(sides) != len(faces) or expected != faces:
        raise NotVerified(_difference(drawn, expected))
    return drawn


def _sides(expr_text: str | None, count: int) -> list[int] | None:
    if not expr_text:
        return None
    try:
        dice = parse(str(expr_text)).dice
    except CompanionError:
        return None
    return [d.sides for d in dice]


def _difference(drawn: Drawn, expected: list[int]) -> str:
    what = f"{drawn.expr}, {drawn.why}" if drawn.why else drawn.expr
    return _("#{n} ({what}): the file shows {shown}, the seed gives {expected}").format(
        n=drawn.event, what=what, shown=drawn.shown(), expected=drawn.shown(expected)
    )


def _check_undone(record: dict[str, Any], seed: int, kept: dict[int, Drawn], report: Report) -> None:
    position = record.get("draws")
    if not isinstance(position, int):
        return
    stream = VirtualDice(seed)
    stream.skip(position)
    scratch = Report(report.session, report.game, report.sealed, seed, report.salt)
    for event in record.get("events") or ():
        if not isinstance(event, dict):
            continue
        for expr_text, payload in _payloads(event):
            try:
                drawn = _draw(stream, event, expr_text, payload, scratch)
            except NotVerified as exc:
                raise NotVerified(_("undone {what}").format(what=exc.message)) from None
            if drawn is None:
                continue
            end = drawn.start + len(drawn.faces)
            again = [d for d in kept.values() if d.start < end and drawn.start < d.start + len(d.faces)]
            report.undone.append(Undone(drawn, str(record.get("at", "")), sorted(again, key=lambda d: d.start)))
