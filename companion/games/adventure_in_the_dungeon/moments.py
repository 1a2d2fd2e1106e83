"""The Adventure in the Dungeon's fights as the exports' big moments read them (companion/export/moments.py).

A fight is one entry into an area with a monster, until the monster is slain (won), every hero has
fallen (lost) or the party flees. The chance to win is read where the play screen shows it: at each
"fight or flee" choice, fighting on to the end (Krylla striking first whenever she can). Beside it,
each hero standing is read too: his chance to come through the fight standing, the complement of the
chance to fall that ``companion odds fight talisman`` lists for him (a timeline of its own, over when
he falls or the fight ends). Both are counted in floats at every choice (the table's way, a fraction
of the time) and exactly only for the moments a page shows. Each reading names the position as
``companion odds fight talisman`` takes it (``--hits``, ``--monster-hits``, ``--at``, ``--mark``), so
that command gives the same fraction.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

from companion.games.adventure_in_the_dungeon.data import HEROES
from companion.sim.fights import STAND, Position, Reading

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
    def before(self, state: Any, request: Any, event: Any) -> list[Reading]:
        return self._readings(state, request)

    def _readings(self, state: Any, request: Any) -> list[Reading]:
        """The fight's chance to win and each standing hero's chance to come through it standing."""
        if getattr(request, "key", None) != "round.action":
            return []
        from companion.games.adventure_in_the_dungeon import odds as O
        from companion.games.adventure_in_the_dungeon import rules as R
        from companion.games.adventure_in_the_dungeon.engine import living, model_for, snapshot

        g = state.game
        areas = R.areas(state.data)
        if g.area is None or g.area not in areas:
            return []
        area = areas[g.area]
        model = model_for(state, area)
        s = snapshot(state, model)
        odds = O.fight_odds(model, s, at="choice", exact=False, detail=True)

        @functools.cache
        def exact() -> Any:
            return O.fight_odds(model, s, at="choice", exact=True, detail=True)

        args = ["talisman", str(g.area), "--hits", ",".join(map(str, s.hs)), "--monster-hits", str(s.m)]
        args += ["--at", "choice"]
        for mark in marks(s):
            args += ["--mark", mark]
        for v in sorted(state.meta.variants):
            args += ["-V", v]
        position = Position(words(area, s, "choice"), tuple(args))
        fight = (g.visits, g.area)
        title = f"Area {g.area}: the {area.monster}"
        out = [Reading(fight, title, odds.slain, position, lambda: Fraction(exact().slain))]
        standing = living(state)
        for h, hero in enumerate(HEROES):
            if not standing >> h & 1 or odds.falls is None:
                continue
            title = f"{hero.name} against the {area.monster} (area {g.area})"
            chance = 1 - odds.falls[h]

            def stands(h: int = h) -> Fraction:
                return 1 - Fraction(exact().falls[h])

            out.append(Reading((*fight, hero.name), title, chance, position, stands, of=STAND))
        return out

    def after(self, reading: Reading, state: Any, request: Any) -> Reading | None:
        g = state.game
        if (g.visits, g.area) != reading.fight[:2]:
            return None
        return next((r for r in self._readings(state, request) if r.fight == reading.fight), None)

    def result(self, reading: Reading, state: Any) -> str | None:
        from companion.games.adventure_in_the_dungeon.engine import living

        g = state.game
        visit, area = reading.fight[:2]
        if reading.of == STAND:  # a hero: fallen the moment he falls, standing when the fight is over
            h = next(i for i, hero in enumerate(HEROES) if hero.name == reading.fight[2])
            if not living(state) >> h & 1:
                return "lost"
            return "won" if (g.visits, g.area) != (visit, area) else None
        if (g.visits, g.area) == reading.fight:
            return None
        if area in g.cleared:
            return "won"
        return "lost" if living(state) == 0 else "fled"
