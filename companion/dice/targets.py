"""What a roll is checked against, in words (``5+``, ``a natural 6``): no odds, no fractions.

Kept apart from :mod:`companion.dice.odds` so that showing a roll does not import ``fractions``.
"""

from __future__ import annotations

from companion.dice.expr import DC_TARGET, Expr
from companion.i18n import _


def dice_range(expr: Expr) -> tuple[int, int]:
    """The least and the most the dice of ``expr`` can show, added up (no modifier)."""
    lo = hi = 0
    for term in expr.terms:
        low, high = (0, 3) if term.die.custom else (1, term.die.sides)
        if term.sign > 0:
            lo, hi = lo + term.count * low, hi + term.count * high
        else:
            lo, hi = lo - term.count * high, hi - term.count * low
    return lo, hi


def target_text(expr: Expr, modifier: int = 0) -> str | None:
    """What the player's dice must show for the roll to pass, in words: ``5+``, ``a natural 6``,
    ``7+``, ``12``, ``3 or less``.

    One meaning everywhere (the prompt, the log, the odds): the dice as they fall, before any
    modifier. A ``2d6>=6`` roll at −1 passes on 7+, because the dice must show 7 for the total to be 6.
    """
    mod = expr.const + modifier
    if expr.kind == "DC":
        need = DC_TARGET - mod
        if need > 6:
            return _("a natural 6")
        return f"{max(2, need)}+"
    if expr.kind == "EC":
        return _("a natural 6")
    if expr.kind == "talisman":
        return "12"
    if expr.op is None or expr.target is None:
        return None
    need = expr.target - mod
    lo, hi = dice_range(expr)
    # A target every roll meets reads as the lowest the dice show; one no roll meets keeps its number
    # (``3dt>20`` passes on more than 20, never: not "more than 9", a target the player never wrote).
    if expr.op == ">=":
        return f"{max(lo, need)}+"
    if expr.op == "<=":
        return _("{n} or less").format(n=min(hi, need))
    if expr.op == ">":
        return _("more than {n}").format(n=max(lo - 1, need))
    if expr.op == "<":
        return _("less than {n}").format(n=min(hi + 1, need))
    return _("exactly {n}").format(n=need)
