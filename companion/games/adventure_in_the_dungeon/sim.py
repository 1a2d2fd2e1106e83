"""The Adventure in the Dungeon in the simulator: three parties (policies) and the figures of a run.

A run is a ``companion play`` game whose player presses Enter at every roll and answers the choices
as the policy says (:mod:`companion.sim.runner`). The heroes' numbers and Area 12 are the player's
(the catalogue is copied into every run, as ``companion new`` copies it); a run that meets a number
still missing stops the simulation with one line (:func:`~companion.sim.runner.need_data`): nothing
is invented.

The three policies share how they end a game and how they spend the Paladin's cure:

- the party leaves the dungeon as soon as the Talisman is found, and gives up when every monster left
  is one that no living hero can hurt (the quest can no longer be won);
- the cure (once a game) goes to a paralysed hero at once (the Cadaver Creeper's paralysis: the hero
  cannot fight, and dies if the Paladin falls), else to a hero down to their last hit.

They differ where the issue asks:

- ``steady`` (the default): enters the areas in the board's order (the lowest number left), Krylla
  strikes first whenever she can, and the party fights every fight to the end (it flees only when no
  one left can hurt the monster). The player of the example log, with the cure.
- ``cautious``: enters the area whose monster has the fewest hits left to slay first, and flees a fight
  (twice a game at most) when a hero is down to their last hit and the monster has more than one left.
- ``waiting``: as ``steady``, but Krylla never strikes first (a monster attacks its attackers first).

Each policy reads the state and never changes it, and answers only with offered values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError
from companion.sim.runner import HISTOGRAM, MEAN, RATE, Metric, PolicySpec, RunInfo, Simulator, need_data

from . import data as D
from . import rules as R
from .engine import living

if TYPE_CHECKING:
    from companion.engine.requests import Choice, Request
    from companion.session.state import State

#: Flights a game the ``cautious`` party allows itself (a bound, so that every run ends).
FLIGHTS = 2


def _has(request: Choice, value: str) -> bool:
    for o in request.options:  # noqa: SIM110  (a plain loop: this runs on every choice)
        if o.value == value:
            return True
    return False


def _cure(state: State, request: Choice) -> str | None:
    """The cure the policies give: a paralysed hero at once, else a hero down to their last hit."""
    g = state.game
    if g.cure:
        return None
    tallies = state.trackers.tallies
    for i, hero in enumerate(D.HEROES):
        if g.para & (1 << i) and _has(request, f"cure:{hero.key}"):
            return f"cure:{hero.key}"
    for hero in D.HEROES:
        t = tallies.get(hero.name)
        if t is not None and t.left == 1 and _has(request, f"cure:{hero.key}"):
            return f"cure:{hero.key}"
    return None


def _winnable(state: State, request: Choice) -> list[tuple[int, R.Area]]:
    """The areas offered whose monster a living hero can still hurt, in the board's order."""
    live = living(state)
    out = []
    for number, area in R.areas(state.data).items():
        if not _has(request, str(number)):
            continue
        if area.only and not live & sum(1 << h for h in area.only):
            continue
        out.append((number, area))
    return out


def _hits_left(state: State, area: R.Area) -> int:
    t = state.trackers.tallies.get(area.monster)
    return area.hits - (t.hits if t is not None else 0)


def _flights(state: State) -> int:
    """Flights so far in this game: areas entered and left with their monster alive (this one not counted)."""
    g = state.game
    inside = 1 if g.area is not None else 0
    return g.visits - inside - len(g.cleared)


class Party:
    """A policy: the shared ending and cure, and its own order of areas, flights and first strike."""

    __slots__ = ("first", "flee", "order")

    def __init__(self, order: str, first: bool, flee: bool) -> None:
        self.order = order
        self.first = first
        self.flee = flee

    def enter(self, state: State, request: Choice) -> str:
        if _has(request, "leave"):
            return "leave"
        cure = _cure(state, request)
        if cure is not None:
            return cure
        areas = _winnable(state, request)
        if not areas:
            return "abandon"  # no monster left can be slain: the quest can no longer be won
        if self.order == "weakest":
            return str(min(areas, key=lambda a: (_hits_left(state, a[1]), a[0]))[0])
        return str(areas[0][0])

    def action(self, state: State, request: Choice) -> str:
        cure = _cure(state, request)
        if cure is not None:
            return cure
        if not _has(request, "fight"):
            return "flee"  # no one left can hurt it: the only way out
        if self.flee and _has(request, "flee") and _flights(state) < FLIGHTS and self._in_danger(state):
            return "flee"
        return "fight"

    @staticmethod
    def _in_danger(state: State) -> bool:
        """A hero is down to their last hit, and the monster has more than one hit left."""
        g = state.game
        area = R.areas(state.data)[g.area]
        if _hits_left(state, area) <= 1:
            return False
        tallies = state.trackers.tallies
        live = living(state)
        return any(live & (1 << i) and tallies[h.name].left == 1 for i, h in enumerate(D.HEROES))

    def __call__(self, state: State, request: Request) -> Any:
        key = request.key
        if key == "round.action":
            return self.action(state, request)  # type: ignore[arg-type]
        if key == "round.first":
            return "strike" if self.first else "wait"
        if key == "area.enter":
            return self.enter(state, request)  # type: ignore[arg-type]
        if key.startswith("data."):
            need_data(request)  # a number from the player's book that is not in their catalogue
        raise CompanionError(f"the simulator's party does not know the request {key!r}")


STEADY = Party("board", first=True, flee=False)
CAUTIOUS = Party("weakest", first=True, flee=True)
WAITING = Party("board", first=False, flee=False)

POLICIES = (
    PolicySpec("steady", "areas in the board's order; Krylla strikes first; fights every fight to the end", STEADY),
    PolicySpec(
        "cautious",
        "the weakest monster first; flees (twice a game at most) when a hero is down to the last hit",
        CAUTIOUS,
    ),
    PolicySpec("waiting", "as steady, but Krylla never strikes first", WAITING),
)


def record(state: State, run: RunInfo) -> dict[str, Any]:
    g = state.game
    ts = state.trackers.talisman
    finished = state.finished or ""
    won = finished.startswith("won")  # one survivor is "pyrrhic": out with the Talisman, no victory
    out = won or finished.startswith("pyrrhic")
    lost = finished.startswith("lost")
    survivors = bin(living(state)).count("1") if g.started else 4
    return {
        "won": won,
        "pyrrhic": out and not won,
        "talisman": ts.found,
        "kills_before_talisman": ts.found_on_kill if ts.found else None,
        "survivors": survivors,
        "points": D.HERO_POINTS * survivors if out else None,
        "death_area": g.last if lost else None,
        "gave_up": finished.startswith("abandoned"),
        "kills": len(g.cleared),
        "areas": g.visits,
        "flights": g.visits - len(g.cleared) - (1 if lost else 0),  # the fatal visit is no flight
        "rolls": run.rolls,
        "choices": run.choices,
    }


METRICS = (
    Metric("won", "Won: out with the Talisman, two heroes or more", RATE, examples=("a won game", "a lost game")),
    Metric("pyrrhic", "Out with the Talisman, one hero left (no victory)", RATE),
    Metric("talisman", "The Talisman found", RATE),
    Metric("kills_before_talisman", "Kills until the Talisman", HISTOGRAM, value="kill {}", among="runs that found it"),
    Metric("survivors", "Heroes alive at the end", HISTOGRAM, value="{} alive"),
    Metric(
        "points",
        "The heroes' points (the book's chart)",
        HISTOGRAM,
        value="{} points",
        among="runs out with the Talisman",
    ),
    Metric("death_area", "Area where the party falls", HISTOGRAM, value="area {}", among="lost runs"),
    Metric("gave_up", "Gave up (no monster left it can hurt)", RATE),
    Metric("kills", "Monsters slain", MEAN),
    Metric("areas", "Length: areas entered", MEAN),
    Metric("flights", "Areas fled", MEAN),
    Metric("rolls", "Length: dice rolls", MEAN),
    Metric("choices", "Length: choices made", MEAN),
)

SIMULATOR = Simulator(game="talisman", policies=POLICIES, metrics=METRICS, record=record, hero=None)
