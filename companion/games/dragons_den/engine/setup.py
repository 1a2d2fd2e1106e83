"""The Dragon's Den's action steps: the setup (the heroes, how chits are drawn, the dragon drawn in
secret).

One of the action steps shared by guided play and the one-shot commands: see :mod:`.engine.steps`.
"""

from __future__ import annotations

from typing import Any

from companion.errors import InputError
from companion.games.dragons_den import data, rules
from companion.games.dragons_den.engine.common import Steps, den_of, open_line, say
from companion.games.dragons_den.engine.cups import draw_number
from companion.games.dragons_den.engine.turns import new_round
from companion.session.state import State


def setup(state: State, args: dict[str, Any]) -> Steps:
    """Choose the heroes, how chits are drawn, then the dragon player draws the dragon in secret."""
    den = den_of(state)
    if den.phase != "setup":
        raise InputError("the game is already set up")
    numbers = [int(n) for n in args.get("heroes", [])]
    if not numbers:
        raise InputError("choose at least one hero (1 to 7)")
    if len(set(numbers)) != len(numbers) or any(n not in data.HERO_BY_NUMBER for n in numbers):
        raise InputError(f"heroes are numbered 1 to 7, each at most once; got {', '.join(map(str, numbers))}")
    chits = args.get("chits", "virtual")
    if chits not in ("virtual", "physical"):
        raise InputError(f"chits are drawn 'virtual' (by companion) or 'physical' (you type them), not {chits!r}")
    entered = chits == "physical"
    den.chits = chits
    den.heroes = [rules.hero_figure(data.HERO_BY_NUMBER[n]) for n in sorted(numbers, reverse=True)]
    state.log.heading("Setting up the den")
    open_line(state, "Heroes, in turn order: " + ", ".join(f"#{h.number} {h.name}" for h in den.heroes))
    got = yield from draw_number(
        state,
        lambda: den_of(state).cup,
        "dd.draw.dragon",
        "dragon chit",
        data.DRAGON_CHITS,
        "the dragon player's chit, typed unseen",
        entered=entered,
        secret=True,
    )
    assert got is not None
    chit, how = got
    den = den_of(state)
    den.cup.remove(chit)
    den.dragon = rules.dragon_figure(data.DRAGON_BY_CHIT[chit])
    den.dragon_draw = how
    discards = data.DRAGON_CHITS - 1 - den.countdown
    for _ in range(discards):
        got = yield from draw_number(
            state,
            lambda: den_of(state).cup,
            "dd.draw.discard",
            "dragon chit to set aside",
            data.DRAGON_CHITS,
            "a chit set aside, typed unseen",
            entered=entered,
            secret=True,
        )
        assert got is not None
        den = den_of(state)
        den.cup.remove(got[0])
        den.discards.append(got[0])
    aside = f"; {discards} more set aside unseen" if discards else " (the longer game: none set aside)"
    say(
        state,
        f"The dragon player draws the dragon in secret and lays it face down in the lair{aside}. "
        f"{len(den.cup)} countdown chits stay in the dragon cup.",
        f"Room chits: {'typed by the players as they are revealed' if entered else 'drawn by companion'}"
        + (" (one monster and one treasure in each room)." if den.one_each else " (two in each of rooms 1-20)."),
        f"The hoard: {len(den.hoard)} dragon treasure chits face down in the lair.",
    )
    new_round(state)
