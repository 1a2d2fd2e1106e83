"""A toy game with one rule on the generic commands (tests/test_contract.py): ``Game.allows`` refuses a
floor changed by hand."""

from __future__ import annotations

from typing import Any

from tests.contract_support import toy_game


def allows(state: Any, event: dict[str, Any]) -> str | None:
    if event.get("t") == "floor":
        return "the stairs move the hero one floor at a time: take them with the game's own command"
    return None


GAME = toy_game(name="toy-rules", title="Toy rules", allows=allows)
