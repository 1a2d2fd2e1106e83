"""What the player sees beside the prompts: the status panel and the odds before a choice or a roll.

Only the shells call these (``Game.status`` and ``Game.advise``); the engine never does, so a
simulator playing thousands of games pays nothing for the odds.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import TYPE_CHECKING

from companion.dice.render import fraction
from companion.games.adventure_in_the_dungeon import data as D
from companion.games.adventure_in_the_dungeon import odds as O
from companion.games.adventure_in_the_dungeon import rules as R
from companion.games.adventure_in_the_dungeon.data import HEROES
from companion.i18n import _, ngettext

if TYPE_CHECKING:
    from companion.contract.game import Chance
    from companion.engine.requests import Request
    from companion.session.state import State


def pct(p: Fraction) -> str:
    """A chance as a percentage that never rounds a possibility to 0% or a risk to 100%."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    if p < Fraction(1, 1000):
        return "<0.1%"
    if p > Fraction(999, 1000):
        return ">99.9%"
    return f"{float(p) * 100:.1f}%"


def _marks(state: State, i: int) -> list[str]:
    g = state.game
    b = 1 << i
    hero = HEROES[i]
    if hero.key in g.fates:
        return ["† " + g.fates[hero.key].removeprefix("is ")]
    marks = []
    if g.para & b:
        marks.append("paralysed")
    if g.twine & b:
        marks.append("entwined")
    if g.trap & b:
        marks.append("in the webs")
    if g.lock & b:
        marks.append("cannot attack this round")
    return marks


def status(state: State) -> list[tuple[str, str]]:
    """The party's tallies in the book's form, the monster's marks, the areas cleared, the Talisman."""
    from companion.games.adventure_in_the_dungeon.engine import living, monsters_left

    g = state.game
    tallies = state.trackers.tallies
    rows: list[tuple[str, str]] = []
    for i, hero in enumerate(HEROES):
        t = tallies.get(hero.name)
        text = t.book() if t is not None else f"{hero.name} – {hero.role}: hits from your book (asked at the first hit)"
        marks = _marks(state, i)
        rows.append(("Party" if i == 0 else "", text + (" · " + ", ".join(marks) if marks else "")))
    areas = R.areas(state.data)
    if g.area is not None and g.area in areas:
        area = areas[g.area]
        t = tallies.get(area.monster)
        rows.append((f"Area {g.area}", t.book() if t is not None else area.monster))
        rows.append(("Round", str(g.round)))
    elif g.hand is not None and g.hand in areas:
        area = areas[g.hand]
        t = tallies.get(area.monster)
        rows.append((f"Area {g.hand}", (t.book() if t is not None else area.monster) + " · at the table"))
    cleared = ", ".join(str(n) for n in sorted(g.cleared))
    rows.append(("Cleared", f"{len(g.cleared)} of {len(areas)} areas" + (f" ({cleared})" if cleared else "")))
    wounded = [
        f"{a.monster} {'I' * tallies[a.monster].hits}"
        for n, a in areas.items()
        if n not in g.cleared and n not in (g.area, g.hand) and a.monster in tallies and tallies[a.monster].hits
    ]
    if wounded:
        rows.append(("Wounded", ", ".join(wounded)))
    ts = state.trackers.talisman
    if ts.found:
        talisman = f"found on kill {ts.found_on_kill}: " + (
            "leave the dungeon!" if not g.over else "carried out" if living(state) else "lost with the party"
        )
    elif ts.held_by_last:
        talisman = f"held by the last monster (Area {monsters_left(state)[0]})" if monsters_left(state) else "held"
    else:
        rolls = ", ".join(str(r) for r in ts.rolls)
        talisman = ngettext("not found ({n} kill", "not found ({n} kills", ts.kills).format(n=ts.kills) + (
            f"; rolled {rolls})" if rolls else ")"
        )
    rows.append(("Talisman", talisman))
    if g.cure:
        cure = "spent"
    elif HEROES[0].key in g.fates:
        cure = "lost with Adelhardt"
    else:
        cure = "ready (once per game)"
    rows.append(("Cure", cure))
    source = state.data.get(D.SOURCE)
    unknown = "entered by the player" if source else "asked when a step needs them"
    rows.append(("Numbers", D.SOURCES.get(source, unknown)))
    return rows


@functools.lru_cache(maxsize=4)
def at_choice(model: R.Model, s: R.Fight) -> O.FightOdds:
    """The whole fight's odds at "fight or flee" (the advice and the best option read the same, once)."""
    return O.fight_odds(model, s, at="choice", detail=True, exact=False)


def fight_lines(state: State) -> list[str]:
    """Before "fight or flee": each hero's chance to hit now, and the exact odds of fighting on."""
    from companion.games.adventure_in_the_dungeon.engine import model_for, snapshot

    g = state.game
    areas = R.areas(state.data)
    if g.area is None or g.area not in areas:
        return []
    area = areas[g.area]
    model = model_for(state, area)
    s = snapshot(state, model)
    ro = O.round_odds(model, s, at_choice=True)
    who = []
    for h, p in enumerate(ro.hero):
        if p is not None:
            spell = " (a spell, 2 hits)" if R.magic(model, s, h) and D.SKELETONS not in area.rules else ""
            spell = spell or (" (a spell)" if R.magic(model, s, h) else "")
            who.append(f"{HEROES[h].name} {fraction(p)}{spell}")
    penalty = f" (−{area.penalty} on the dice)" if area.penalty else ""
    lines = [f"To hit the {area.monster} now{penalty}: " + (" · ".join(who) if who else "no one can attack this round")]
    odds = at_choice(model, s)
    words = O.policy(model, s)
    policy = f" ({', '.join(words)})" if words else ""
    text = (
        f"Fighting on to the end{policy}: the {area.monster} {area.says('is', 'are')} slain {pct(odds.slain)}"
        f" · every hero falls {pct(odds.wiped)}"
    )
    if odds.stuck:
        text += f" · no one left can hurt it {pct(odds.stuck)}"
    lines.append(text)
    lines.extend(standing_lines(model, s, odds))
    return lines


def standing_lines(model: R.Model, s: R.Fight, odds: O.FightOdds) -> list[str]:
    """Who is standing when the fight ends: a one-line chart of 0 to 4 heroes standing, the party's
    hits left, and each hero's chance to fall."""
    from companion.sim.chart import spark

    if odds.survivors is None or odds.falls is None or odds.hits_left is None:
        return []
    live = R.alive(model, s)
    risks = [(HEROES[h].name, odds.falls[h]) for h in range(4) if live >> h & 1 and odds.falls[h] > 0]
    shown = [f"{name} {pct(p)}" for name, p in risks if p >= 0.001]
    lines = [
        f"Heroes standing at the end: none {spark(odds.survivors)} 4 · "
        f"the party's hits left {float(odds.hits_left):.1f} on average"
    ]
    if shown:
        rest = " · any other hero <0.1%" if len(shown) < len(risks) else ""
        lines.append("Chance to fall: " + " · ".join(shown) + rest)
    elif risks:
        lines.append("Chance to fall: under 0.1% for every hero")
    return lines


def talisman_lines(state: State) -> list[str]:
    """Before a Talisman roll: this roll's chance, and the chance to have found it after k kills."""
    from companion.games.adventure_in_the_dungeon.engine import monsters_left

    ts = state.trackers.talisman
    kill = ts.kills + 1
    left = len(monsters_left(state))
    total = len(R.areas(state.data))
    lines = [
        f"A 12 finds the Talisman: {fraction(O.TALISMAN_ROLL)}.",
        f"Chance to have found it within {kill} kill{'s' if kill != 1 else ''}, from the start: "
        f"{fraction(O.talisman_within(kill, total))}.",
    ]
    if left == 1:
        lines.append("If not, the one monster left holds it.")
    elif left > 1:
        lines.append(f"If not, {left} monsters are left, and the last of them holds it for certain.")
    return lines


def advise(state: State, request: Request) -> list[str]:
    if request.key == "round.action":
        return fight_lines(state)
    if request.key == "talisman":
        return talisman_lines(state)
    return []


def chances(state: State, request: Request) -> list[Chance]:
    """At "fight or flee": fighting on, with its chance that the monster is slain (the odds shown
    before the choice). Fleeing is shown without odds (the party leaves the area), so it is not
    compared; nor is a cure."""
    from companion.contract.game import Chance
    from companion.games.adventure_in_the_dungeon.engine import model_for, snapshot

    if request.key != "round.action":
        return []
    g = state.game
    areas = R.areas(state.data)
    if g.area is None or g.area not in areas:
        return []
    model = model_for(state, areas[g.area])
    return [Chance("fight", at_choice(model, snapshot(state, model)).slain)]


def risk(state: State, request: Request) -> dict[str, float]:
    """At "fight or flee": the chance that fighting on ends with every hero fallen, and fleeing's
    (none while a hero can walk away): the shell asks once more before Enter takes a likely end."""
    if request.key != "round.action":
        return {}
    from companion.games.adventure_in_the_dungeon.engine import model_for, snapshot

    g = state.game
    areas = R.areas(state.data)
    if g.area is None or g.area not in areas:
        return {}
    model = model_for(state, areas[g.area])
    s = snapshot(state, model)
    odds = O.fight_odds(model, s, at="choice", exact=False)
    chances = {"fight": float(odds.wiped)}
    if model.flee_ok:
        live = R.alive(model, s)
        held = live & (s.twine | s.trap) if R.FLEE_WITH_ALL not in model.variants else 0
        chances["flee"] = 1.0 if live and held == live else 0.0
    return chances


def heroes_line(state: State) -> str:
    """The log's front matter ``hero``: the four heroes."""
    return "Adelhardt, Krylla, Ibli and Regalan"


# ---- the shell's bar ---------------------------------------------------------------------------


def board(state: State) -> object:
    """The table for the shell's bar: each hero's hits left (of the tally's hits), the monster of
    the area being fought with its hit marks, the areas cleared and the Talisman search."""
    from companion.engine.board import Board, Figure

    g = state.game
    tallies = state.trackers.tallies
    heroes = []
    for i, hero in enumerate(HEROES):
        t = tallies.get(hero.name)
        marks = ", ".join(_marks(state, i))
        health = f"{t.left}/{t.max_hits}" if t is not None else ""
        fallen = hero.key in g.fates or (t is not None and t.slain)
        heroes.append(Figure(hero.name, health, "" if fallen else marks, out=fallen))
    areas = R.areas(state.data)
    fight: tuple[Figure, ...] = ()
    title = ""
    where = g.area if g.area is not None else g.hand  # a guided fight, or one fought from the book
    if where is not None and where in areas:
        area = areas[where]
        t = tallies.get(area.monster)
        health = f"{t.left}/{t.max_hits}" if t is not None else ""
        marks = ("I" * t.hits) if t is not None and t.hits else ""
        fight = (Figure(area.monster, health, marks),)
        if g.area is not None:
            title = _("Area {n}, round {round}").format(n=g.area, round=g.round)
        else:
            title = _("Area {n}, at the table").format(n=where)
    ts = state.trackers.talisman
    talisman = (
        _("Talisman found")
        if ts.found
        else ngettext("Talisman: {n} kill", "Talisman: {n} kills", ts.kills).format(n=ts.kills)
    )
    rest = (_("{n} of {m} areas cleared").format(n=len(g.cleared), m=len(areas)), talisman)
    return Board(tuple(heroes), fight, title, rest)
