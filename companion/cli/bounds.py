"""Bounds on every number a player types: a number beyond what any game needs is refused with its range.

typer reads an ``int`` option or argument with no bound as any integer: ``hp =5 --max 1000000000000000``
was taken, and a page's chart then had a billion marks to draw. Every command built for the root
(companion.cli.group) has each integer parameter without a maximum of its own given :data:`MOST` (and
``-MOST`` as its least, where it has none); the refusal is click's own line with the range
("1000000000000000 is not in the range 0<=x<=999999"), in the session's language. A seed is a number
of any size (it is not a quantity in the game).

The changes a tracker takes as text (``+2``, ``-1``, ``=5``) are bounded where they are read
(:func:`companion.cli.common.parse_change`).
"""

from __future__ import annotations

from typing import Any

#: The most any typed integer may be (no game needs a million of anything).
MOST = 999_999
#: Integers that are not quantities: any size.
UNBOUNDED = frozenset({"seed"})


def bound_numbers(command: Any) -> Any:
    """``command`` (a click command or group, and the commands in it) with every integer bounded."""
    from typer._click import types  # typer's own click (it vendors it): its parameters' types

    seen: set[int] = set()

    def walk(cmd: Any) -> None:
        if id(cmd) in seen:
            return
        seen.add(id(cmd))
        for param in getattr(cmd, "params", []):
            kind = param.type
            if param.name in UNBOUNDED or not isinstance(kind, types.IntParamType) or getattr(kind, "bounded", False):
                continue
            low, high = getattr(kind, "min", None), getattr(kind, "max", None)
            if high is not None and (low is not None or high < 0):
                continue
            param.type = _bounded(kind, -MOST if low is None else low, MOST if high is None else high)
        for sub in getattr(cmd, "commands", {}).values():
            walk(sub)

    walk(command)
    return command


def _bounded(kind: Any, low: int, high: int) -> Any:
    """``kind`` (click's integer type, or a range of it) that also refuses a number outside ``low``-``high``,
    in click's own words ("... is not in the range LOW<=x<=HIGH."). Its help stays as it was: the
    bound is beyond any game's need, so it is said when it is met, not in every option's help."""
    import copy

    base = type(kind)

    class Bounded(base):  # type: ignore[misc, valid-type]
        bounded = True

        def convert(self, value: Any, param: Any, ctx: Any) -> Any:
            number = super().convert(value, param, ctx)
            if number is not None and not low <= number <= high:
                # click's own words, said in the session's language by companion/cli/click_words.py
                words = f"{number} is not in the range {low}<=x<={high}."  # i18n: as is (click's words)
                self.fail(words, param, ctx)
            return number

    Bounded.__name__ = Bounded.__qualname__ = base.__name__
    bounded = copy.copy(kind)
    bounded.__class__ = Bounded
    return bounded
