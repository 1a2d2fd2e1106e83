"""A tiny guided game used to test the engine plumbing (not shipped)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.dice.expr import dc
from companion.engine.requests import Number, RollRequest, Text, choice
from tests.contract_support import toy_game


@dataclass
class Toy:
    passes: int = 0
    fails: int = 0
    attribute: str = ""


def setup(state):
    state.game = Toy()
    state.trackers.counter("hp").max = 3
    state.trackers.counter("hp").value = 3


def play(state):
    toy: Toy = state.game
    name = yield Text("toy.name", "Your hero's name?")
    state.hero = name
    toy.attribute = yield choice("toy.attr", "Pick an attribute", ("STR", "Strength"), ("DEX", "Dexterity"))
    bonus = yield Number("toy.bonus", "Bonus from your book", 0, 3, where="page 1")
    state.log.heading("Trials")
    n = 0
    while toy.passes < 2 and state.trackers.counters["hp"].value > 0:
        n += 1
        state.log.line(f"trial-{n}", f"Trial {n}")
        roll = yield RollRequest("toy.trial", dc(), f"Trial {n}", bonus, ((toy.attribute, bonus),))
        if roll.success:
            toy.passes += 1
            state.log.update(f"trial-{n}", f"Trial {n}: passed")
        else:
            toy.fails += 1
            state.trackers.counters["hp"].add(-1)
            state.log.update(f"trial-{n}", f"Trial {n}: failed")
    state.finished = "won" if toy.passes >= 2 else "lost"


GAME = toy_game(
    name="toy",
    title="Toy Game",
    state_type=Toy,
    setup=setup,
    play=play,
    status=lambda s: [("HP", f"{s.trackers.counters['hp'].value}/3"), ("Passes", str(s.game.passes))],
)
