"""What a roll is checked against, in words (``5+``, ``a natural 6``): no odds, no fractions.

Kept apart from :mod:`companion.dice.odds` so that showing a roll does not import ``fractions``.
"""

from __future__ import annotations

from companion.dice.expr import DC_TARGET, Expr
from companion.i18n import _


def target_text(expr: Expr, modifier: int = 0) -> str | None:
    """What a roll is checked against, in words: ``5+``, ``a natural 6``, ``7+``, ``12``."""
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
    if expr.op is None:
        return None
    t = expr.target
    if expr.op == ">=":
        return f"{t}+"
    if expr.op == "<=":
        return _("{n} or less").format(n=t)
    if expr.op == ">":
        return _("more than {n}").format(n=t)
    if expr.op == "<":
        return _("less than {n}").format(n=t)
    return _("exactly {n}").format(n=t)
