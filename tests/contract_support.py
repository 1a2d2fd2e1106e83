"""Toy games for the tests of the plumbing: a :class:`companion.contract.game.Game` with the members a
test names, every other one declared not applicable. (Shipped games name every member themselves:
tests/test_every_game.py checks them.)"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from companion.contract.game import Game, NotApplicable, Refresh, anyone, one_table

#: The members that cannot be not applicable, and what a toy game takes for them.
_PROVIDED = {"variants": {}, "tables": {}, "ways": (), "reducers": {}, "lacks": {}, "seats": one_table, "turn": anyone}


def toy_game(**members: Any) -> Game:
    """A test's game: ``members`` as given (``refresh=True`` reads as ``Refresh()``, False as not
    applicable), the rest not applicable."""
    if members.get("refresh") is False:
        members["refresh"] = NotApplicable("a test's engine that does not take REFRESH")
    elif members.get("refresh") is True:
        members["refresh"] = Refresh()
    members.setdefault("log_title", members.get("title", "Toy"))
    for f in fields(Game):
        if f.name not in members:
            members[f.name] = _PROVIDED.get(f.name, NotApplicable("not part of this test's toy game"))
    return Game(**members)
