"""The Dark Tower's guided engine: the small requests every step asks (a yes or no, a 1dN pick)
and the odds' percentages.

Part of the guided engine: see ``engine/__init__.py`` (the loop, and the keys every request is asked under).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from companion.dice.expr import Expr, parse
from companion.engine.requests import Choice, RollRequest, choice
from companion.games.dark_tower.rules.lookup import name_of
from companion.i18n import _

if TYPE_CHECKING:
    from companion.session.state import State


Flow = Generator[Any, Any, Any]


def pick_expr(n: int) -> Expr:
    """``1dN`` (N ≥ 2): one of N cards, picked with the session's dice (or the number the players picked)."""
    return parse(f"1d{n}")


def pct(p: Any) -> str:
    """``12.5%``; a possible outcome never reads 0.0% (``<0.1%``): the rule every game's odds follow."""
    from fractions import Fraction

    from companion.dice.odds import percent

    return percent(Fraction(p))


def yes_no(key: str, prompt: str, info: tuple[str, ...] = ()) -> Choice:
    return choice(key, prompt, ("yes", _("Yes")), ("no", _("No")), info=info)


def random_pick(state: State, what: str, candidates: list[str], why: str) -> Flow:
    """One of ``candidates``, by a ``1dN`` roll (none needed for a single one)."""
    if len(candidates) == 1:
        return candidates[0]
    roll = yield RollRequest(f"pick.{what}", pick_expr(len(candidates)), why)
    picked = candidates[roll.total - 1]
    state.log.drew(name_of(state, what, picked))
    return picked
