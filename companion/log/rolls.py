"""Turn a roll into the log's roll data (text only, so the log renders without the dice code)."""

from __future__ import annotations

from typing import Any

from companion.dice.odds import target_text
from companion.dice.render import dice_text, modifier_text, natural_text, outcome_text
from companion.dice.roll import Roll
from companion.log.model import roll_data


def roll_line(
    roll: Roll,
    why: str = "",
    *,
    row: str | None = None,
    amended_from: str | None = None,
    reason: str | None = None,
) -> dict[str, Any]:
    return roll_data(
        expr=str(roll.expr),
        dice=dice_text(roll),
        mods=modifier_text(roll),
        total=roll.total,
        outcome=outcome_text(roll, row),
        target=_target(roll),
        source=roll.source,
        why=why,
        natural=natural_text(roll),
        amended_from=amended_from,
        reason=reason,
    )


def _target(roll: Roll) -> str | None:
    """What the logged number is checked against.

    The log shows a Dice Check's total (``[3] = 4``), and a total is read against the DC's own 5+;
    the face a modifier makes necessary (``4+``) belongs to the odds shown before the roll, and beside
    a total it would read as "4 vs 4+ → fail".
    """
    if roll.expr.kind == "DC" and roll.faces is not None and roll.modifier != roll.expr.const:
        return target_text(roll.expr, -roll.expr.const)
    return target_text(roll.expr, roll.modifier - roll.expr.const)
