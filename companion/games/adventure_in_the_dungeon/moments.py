"""The Adventure in the Dungeon's fights as the exports' big moments read them (companion/export/moments.py).

A fight is one entry into an area with a monster, until the monster is slain (won), every hero has
fallen (lost) or the party flees. The chance to win is read where the play screen shows it: at each
"fight or flee" choice, fighting on to the end (Krylla striking first whenever she can). It is
counted in floats at every choice (the table's way, a fraction of the time) and exactly only for the
moments a page shows. Each reading names the position as ``companion odds fight talisman`` takes it
(``--hits``, ``--monster-hits``, ``--at``, ``--mark``), so that command gives the same fraction.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

from companion.games.adventure_in_the_dungeon.data import HEROES
from companion.sim.fights import Position, Reading

#: The fight's hero masks (:class:`.rules.Fight`) as ``--mark`` names them.
MASKS = {
    "dead": "dead",
    "para": "paralysed",
    "trap": "webbed",
    "twine": "entwined",
    "lock": "locked",
    "nlock": "locked_next",
    "att": "attacked",
    "struck": "struck",
}
#: The fight's yes/no flags as ``--mark`` names them.
FLAGS = {"cure": "cure_spent", "sfirst": "struck_first"}


#: The same, as the page says them.
SAID = {
    "dead": "{heroes} dead",
    "para": "{heroes} paralysed",
    "trap": "{heroes} in the webs",
    "twine": "{heroes} entwined",
    "lock": "{heroes} locked out this round",
    "nlock": "{heroes} locked out next round",
    "att": "{heroes} attacked this round",
    "struck": "{heroes} struck this round",
    "cure": "the cure spent",
    "sfirst": "Krylla struck first",
}


def marks(s: Any) -> list[str]:
    """The ``--mark`` values of a fight situation: ``struck:Krylla,Ibli``, ``cure_spent``."""
    out = []
    for field, word in MASKS.items():
        mask = getattr(s, field)
        if mask:
            out.append(f"{word}:" + ",".join(h.name for i, h in enumerate(HEROES) if mask >> i & 1))
    out += [word for field, word in FLAGS.items() if getattr(s, field)]
    return out


def words(spec: Any, s: Any, at: str) -> str:
    """``the Xorn with 2 of 6 hits taken; hits taken: Adelhardt 3, Krylla 0, ...; at the choice``."""
    taken = ", ".join(f"{h.name} {n}" for h, n in zip(HEROES, s.hs, strict=True))
    text = f"the {spec.monster} with {s.m} of {spec.hits} hits taken; the heroes' hits taken: {taken}"
    for field, said in SAID.items():
        mask = getattr(s, field)
        if isinstance(mask, bool):
            if mask:
                text += f"; {said}"
        elif mask:
            text += "; " + said.format(heroes=" and ".join(h.name for i, h in enumerate(HEROES) if mask >> i & 1))
    where = {"choice": "at the fight-or-flee choice", "begun": "as the round begins", "start": "between rounds"}
    return f"{text}; {where[at]}"


class Probe:
    def before(self, state: Any, request: Any, event: Any) -> Reading | None:
        return self._reading(state, request)

    def _reading(self, state: Any, request: Any) -> Reading | None:
        if getattr(request, "key", None) != "round.action":
            return None
        from companion.games.adventure_in_the_dungeon import odds as O
        from companion.games.adventure_in_the_dungeon import rules as R
        from companion.games.adventure_in_the_dungeon.engine import model_for, snapshot

        g = state.game
        areas = R.areas(state.data)
        if g.area is None or g.area not in areas:
            return None
        area = areas[g.area]
        model = model_for(state, area)
        s = snapshot(state, model)
        chance = O.fight_odds(model, s, at="choice", exact=False).slain

        @functools.cache
        def exact() -> Fraction:
            return Fraction(O.fight_odds(model, s, at="choice", exact=True).slain)

        args = ["talisman", str(g.area), "--hits", ",".join(map(str, s.hs)), "--monster-hits", str(s.m)]
        args += ["--at", "choice"]
        for mark in marks(s):
            args += ["--mark", mark]
        for v in sorted(state.meta.variants):
            args += ["-V", v]
        title = f"Area {g.area}: the {area.monster}"
        return Reading((g.visits, g.area), title, chance, Position(words(area, s, "choice"), tuple(args)), exact)

    def after(self, reading: Reading, state: Any, request: Any) -> Reading | None:
        g = state.game
        if (g.visits, g.area) != reading.fight:
            return None
        return self._reading(state, request)

    def result(self, reading: Reading, state: Any) -> str | None:
        g = state.game
        _visit, area = reading.fight
        if (g.visits, g.area) == reading.fight:
            return None
        if area in g.cleared:
            return "won"
        from companion.games.adventure_in_the_dungeon.engine import living

        return "lost" if living(state) == 0 else "fled"
