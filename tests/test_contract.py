"""The game contract's own rules (companion/contract/): the best option, the one filter for each viewer,
the generic commands asking the game first, and a game loaded by name through the registry."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import pytest

from companion.contract.game import Chance, NotApplicable, Refresh
from companion.contract.secrets import HIDDEN, PUBLIC, WITHHELD, Secret, view_for
from companion.engine.requests import Choice, Option
from tests.contract_support import toy_game
from tests.helpers import cli

MENU = Choice("fight.turn", "Your turn", (Option("attack:", "Attack"), Option("run", "Run away"), Option("menu", "…")))


def _best(*chances: Chance) -> str | None:
    game = toy_game(name="t", title="T", chances=lambda state, request: list(chances))
    return game.best(None, MENU)


def test_the_best_option_is_the_highest_chance_shown_running_away_included():
    assert _best(Chance("attack:", Fraction(1, 1000)), Chance("run", Fraction(1, 2), "get away")) == "run"
    assert _best(Chance("attack:", Fraction(9, 10)), Chance("run", Fraction(1, 2), "get away")) == "attack:"
    # a win within a point of an escape is starred over it (a run gives up what winning takes)
    assert _best(Chance("attack:", 0.995), Chance("run", 1.0, "get away")) == "attack:"
    assert _best(Chance("attack:", 0.98), Chance("run", 1.0, "get away")) == "run"
    # nothing can end well: no star; an option the menu does not offer is not compared
    assert _best(Chance("attack:", 0), Chance("run", 0, "get away")) is None
    assert _best(Chance("flee", 1.0, "get away"), Chance("attack:", 0.5)) == "attack:"
    # a game that does not compare says so, and stars nothing
    assert toy_game(name="t", title="T").best(None, MENU) is None


def test_a_member_of_the_wrong_kind_does_not_build():
    with pytest.raises(TypeError, match="chances"):
        toy_game(name="t", title="T", chances="not a function")
    with pytest.raises(TypeError, match="seats"):
        toy_game(name="t", title="T", seats=NotApplicable("every game has a seat"))
    assert toy_game(name="t", title="T", refresh=True).refresh == Refresh()


class _Den:
    def __init__(self) -> None:
        self.dragon = "Aged Black Dragon"
        self.aside = [2, 5]
        self.revealed = False


@dataclass
class _State:
    game: _Den = field(default_factory=_Den)


def _mask_dragon(den: _Den) -> None:
    den.dragon = "the dragon"


def _mask_aside(den: _Den) -> None:
    den.aside = []


SECRETS = (
    Secret(
        "the dragon",
        "dragon",
        lambda s: not s.game.revealed,
        _mask_dragon,
        ("dd.draw.dragon",),
        lambda s: ("Aged Black Dragon",),
    ),
    Secret("the chits set aside", HIDDEN, lambda s: True, _mask_aside, ("dd.draw.discard",), lambda s: ()),
)


def test_each_viewer_sees_what_the_rules_let_it():
    state = _State()
    public = view_for(SECRETS, state, PUBLIC)
    dragon = view_for(SECRETS, state, "dragon")
    heroes = view_for(SECRETS, state, "heroes")
    assert [s.what for s in public.withheld] == ["the dragon", "the chits set aside"]
    assert [s.what for s in dragon.withheld] == ["the chits set aside"]  # its own secret, not the hidden one
    assert heroes.withheld == public.withheld
    assert public.state(state).game.dragon == "the dragon" and state.game.dragon == "Aged Black Dragon"
    assert dragon.state(state).game.dragon == "Aged Black Dragon" and dragon.state(state).game.aside == []
    assert public.text("Sam meets the Aged Black Dragon.") == f"Sam meets the {WITHHELD}."
    events = [
        {"id": 1, "t": "answer", "key": "dd.draw.dragon", "v": {"faces": [1]}, "expr": "1d12"},
        {"id": 2, "t": "answer", "key": "dd.menu", "v": {"choice": "move"}},
    ]
    shown = public.events(events)
    assert shown[0]["v"] == {"withheld": "the dragon"} and "expr" not in shown[0]
    assert shown[1] == events[1] and events[0]["v"] == {"faces": [1]}  # a copy: the events as recorded stay
    state.game.revealed = True  # the game reveals it: from now on the public may see it
    assert [s.what for s in view_for(SECRETS, state, PUBLIC).withheld] == ["the chits set aside"]
    assert view_for(NotApplicable("nothing is hidden"), state).state(state) is state


def test_a_generic_command_asks_the_game_first(tmp_path):
    """Game.allows: the game's refusal is one line, exit 2, and nothing is recorded (issue 35 fills the
    rules of each game; the call site is here for every generic tracker command)."""
    from companion.contract import registry

    registry.register("toy-rules", "tests.toy_rules")
    try:
        assert cli("new", "toy-rules", "--name", "r", "--seed", "1").exit_code == 0
        refused = cli("floor", "5")
        assert refused.exit_code == 2
        assert "the stairs move the hero one floor at a time" in refused.stderr
        assert cli("hp", "+1").exit_code == 0  # what the rule allows is recorded
        assert cli("status", "--json").stdout.count('"floor": 1') >= 1
    finally:
        registry.GAMES.pop("toy-rules", None)
