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
    target = target_text(roll.expr, roll.modifier - roll.expr.const)
    return roll_data(
        expr=str(roll.expr),
        dice=dice_text(roll),
        mods=modifier_text(roll),
        # A check shows what the dice show, against what they must show (one meaning everywhere);
        # any other roll its total, modifiers counted.
        total=roll.total - roll.modifier if target is not None and not roll.expr.has_dt else roll.total,
        outcome=outcome_text(roll, row),
        target=target,
        source=roll.source,
        why=why,
        natural=natural_text(roll),
        amended_from=amended_from,
        reason=reason,
    )


def draw_line(line: dict[str, Any]) -> dict[str, Any]:
    """A roll's log data as a draw from a cup or a deck: the 1dN over the N chits or cards left picked
    the ``total``-th (no natural face, no outcome of its own; the game names what was drawn with
    :meth:`companion.log.model.Log.drew`)."""
    out = {k: v for k, v in line.items() if k not in ("natural", "target", "mods")}
    out["draw"] = True
    return out
