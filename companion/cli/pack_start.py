"""Character creation from a table pack: the trackers whose start is rolled (``roll = "1d6+6"``).

At ``companion new --tables PACK`` each such tracker is rolled in the order the packs list them: the
faces given with ``--got`` (one roll after another, separated by ``/``), else typed at a terminal in a
session with physical dice, else the session's own virtual dice. Faces given or typed are read before
the session is made, so a mistake leaves no session behind. Each roll is a ``roll`` event (its dice
in the log, the audit and the seeded stream), then the tracker is set to its total (its max too,
where the pack says ``max = "start"``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.errors import InputError

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.dice.roll import Roll
    from companion.packs.model import Pack, TrackerSpec
    from companion.session.service import Session


def dice(spec: TrackerSpec) -> tuple[Any, int]:
    """The dice of a tracker's roll and the number added (``1d6+6``: ``1d6`` and 6), so that the log
    shows the total: ``1d6 +6 → [2] = 8``."""
    import dataclasses

    expr = spec.roll_expr
    assert expr is not None
    return dataclasses.replace(expr, const=0), expr.const


def rolled(packs: list[Pack]) -> list[tuple[Pack, TrackerSpec]]:
    """The trackers to roll, in order."""
    return [(p, t) for p in packs for t in p.trackers.values() if t.roll]


def read_first(env: Env, packs: list[Pack], got: str | None, physical: bool) -> list[Roll | None]:
    """Each rolled tracker's roll from ``--got`` or typed at a terminal (physical dice); None where the
    session's virtual dice roll it once the session is made."""
    from companion.dice.source import read_physical
    from companion.i18n import _

    todo = rolled(packs)
    if got is not None and not todo:
        raise InputError(_("--got gives the dice of the trackers a pack rolls, and these packs roll none"))
    parts = [g.strip() for g in got.split("/")] if got is not None else []
    if len(parts) > len(todo):
        raise InputError(
            _("--got gives {given} rolls and the packs roll {n} trackers ({names}); give one roll a tracker, "
              "separated by /").format(given=len(parts), n=len(todo), names=", ".join(t.name for _p, t in todo))
        )  # fmt: skip
    out: list[Roll | None] = []
    for i, (pack, spec) in enumerate(todo):
        why = _why(pack, spec)
        if i < len(parts) and parts[i]:
            try:
                out.append(read_physical(dice(spec)[0], parts[i], dice(spec)[1], allow_total=True))
            except InputError as exc:
                raise InputError(f"--got {parts[i]} ({spec.name}, {spec.roll}): {exc}") from None
        elif physical:
            from companion.cli.kit import ask_physical

            if not env.interactive:
                example = "/".join(",".join("3" for _d in t.roll_expr.dice) for _p, t in todo)  # type: ignore[union-attr]
                raise InputError(
                    _("this session uses physical dice: give the starting rolls with --got, one a tracker in "
                      "order ({names}), separated by / (e.g. --got {example})").format(
                        names=", ".join(t.name for _p, t in todo), example=example
                    )
                )  # fmt: skip
            out.append(ask_physical(env, *dice(spec), why))
        else:
            out.append(None)
    return out


def show(env: Env, created: list[Any]) -> None:
    """The rolls of character creation, as the log has them."""
    if created:
        from companion.cli.kit import print_entries

        print_entries(env, created)


def _why(pack: Pack, spec: TrackerSpec) -> str:
    from companion.i18n import _

    return _("{name}: your starting score").format(name=spec.name)  # the pack is named on the Tables line


def record(session: Session, pack: Pack, spec: TrackerSpec, roll: Roll | None) -> dict[str, Any]:
    """Roll (or take ``roll``) for ``spec`` and record it; the counter event that sets the tracker."""
    from companion.session.fold import roll_event

    if roll is None:
        roll = session.dice().roll(*dice(spec))
    session.record(roll_event(roll, _why(pack, spec)))
    value = roll.total
    event: dict[str, Any] = {"t": "counter", "name": spec.key, "op": "set", "value": value, "label": spec.name}
    top = value if spec.max_start else spec.max
    if top is not None:
        event["max"] = top
    from companion.i18n import _

    event["why"] = _("{title}: rolled {roll}").format(title=pack.title, roll=spec.roll)
    return event
