"""Play a session's events again, one at a time, and keep what the exports need from each step.

The fold (:mod:`companion.session.fold`) is the only thing that turns events into a state; this
module drives a fresh fold over the saved events, exactly as ``Session.rebuild`` does, and after
each event writes down:

- the request the game was waiting on when the event answered it (for lonelog's ``@`` choices);
- with a game's probe (companion/export/moments.py), the chance to win the fight under way before
  the event and after it, and the fights the event ended;
- the log entries the event added (lonelog follows the log as it grew);
- the numbers the charts draw: HP and any other counter, each hero's hits left (tallies), each
  figure's health (a game's heroes, monsters and dragon), XP and level;
- whether a fight is on, and the floor or area headings the log opened.

Games are read by their shape, not by name: a figure is any object in the game's state with a name
(or a player) and a health (or hp); a fight is on while the game's ``fight`` (or ``area``) is set.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.contract.registry import load
from companion.contract.secrets import OPEN, View
from companion.engine.requests import Request
from companion.export.sheet import Sheet, sheet_of
from companion.i18n import _
from companion.log.model import Entry
from companion.session.fold import Fold, amendments
from companion.session.service import new_state
from companion.session.state import Meta, State
from companion.sim.fights import Reading

#: At most this many figures get a line in the health chart (heroes first).
MAX_FIGURES = 10


@dataclass
class Step:
    """One event and what it did."""

    event: dict[str, Any]
    #: The request the game was waiting on before this event (None outside guided play).
    request: Request | None
    #: The log entries this event added (the same dicts the final log holds).
    entries: list[Entry]
    #: Tracked numbers after the event: series name → value.
    values: dict[str, int]
    fight: bool
    #: What the probe read just before this event and just after it: each fight, or a hero in it, or a
    #: check (see export/moments.py).
    before: list[Reading] = field(default_factory=list)
    after: list[Reading] = field(default_factory=list)
    #: The fights this event ended: their key → "won", "lost" or "fled".
    ended: dict[Any, str] = field(default_factory=dict)
    #: Rooms, resources and foes after the event (what Lonelog's add-ons tag: companion/export/sheet.py).
    sheet: Sheet = field(default_factory=Sheet)


@dataclass
class Replay:
    meta: Meta
    state: State
    steps: list[Step] = field(default_factory=list)
    #: Series name → its kind: "hp", "hits" (a hero's hits left), "hero" (a hero's health), "health" (a
    #: foe's), "xp", "level", "counter".
    kinds: dict[str, str] = field(default_factory=dict)
    #: Series name → its maximum, where one is known (Max HP, a hero's hits).
    maxima: dict[str, int] = field(default_factory=dict)
    #: Rooms, resources and foes before the first event.
    start: Sheet = field(default_factory=Sheet)
    #: Whether a probe read the session's chances (None: no probe was asked; False: it had no rules to
    #: read by, a freeform session without a table pack).
    probed: bool | None = None

    def headings(self, top: bool = False) -> list[tuple[int, str]]:
        """(step index, text) of each heading the log opened; ``top``: only the floors and areas (a part
        of one, such as the Dragon's Den's dragon player's turn in a round, is no new area)."""
        out = []
        for i, step in enumerate(self.steps):
            for e in step.entries:
                if e["k"] == "heading" and (not top or e.get("lv", 2) <= 2):
                    out.append((i, e.get("t", "")))
        return out

    def fights(self) -> list[tuple[int, int]]:
        """(first step, last step) of each stretch of play a fight was on."""
        out: list[tuple[int, int]] = []
        start = None
        for i, step in enumerate(self.steps):
            if step.fight and start is None:
                start = i
            elif not step.fight and start is not None:
                out.append((start, i - 1))
                start = None
        if start is not None:
            out.append((start, len(self.steps) - 1))
        return out

    def series(self, kind: str) -> dict[str, list[int | None]]:
        """Every series of ``kind``, one value per step (None before it existed)."""
        names = [n for n, k in self.kinds.items() if k == kind]
        return {n: [s.values.get(n) for s in self.steps] for n in names}


def _name(obj: Any) -> str | None:
    for attr in ("name", "player"):
        value = getattr(obj, attr, None)
        if isinstance(value, str) and value:
            return value
    return None


def _health(obj: Any) -> tuple[int, int | None] | None:
    for attr, top in (("health", "max_health"), ("hp", "max_hp")):
        value = getattr(obj, attr, None)
        if isinstance(value, int) and not isinstance(value, bool):
            most = getattr(obj, top, None)
            return value, most if isinstance(most, int) else None
    return None


#: A game's fields that hold its heroes (the rest of its figures are foes: monsters, the dragon).
HERO_FIELDS = ("hero", "player", "party")


def figures(game: Any) -> list[tuple[str, int, int | None, int | None]]:
    """(name, health, max health, level) of every figure in a game's state."""
    return [f[:4] for f in cast(game)]


def cast(game: Any) -> list[tuple[str, int, int | None, int | None, bool, str]]:
    """(name, health, max health, level, whether a hero, its status) of every figure in a game's
    state: a hero is one its game keeps in a field named for heroes, players or the party; the status
    is the game's word for a figure out of play (slain, escaped, trapped), else ""."""
    if game is None or not hasattr(game, "__dataclass_fields__"):
        return []
    out = []
    for fname in game.__dataclass_fields__:
        value = getattr(game, fname, None)
        items = value if isinstance(value, list) else [value]
        for item in items:
            if item is None or isinstance(item, (str, int, float, dict, list)):
                continue
            name, health = _name(item), _health(item)
            if name and health is not None and health[1] != 0:  # no health to chart: a face-down stand-in
                level = getattr(item, "level", None)
                hero = fname.startswith(HERO_FIELDS)
                status = getattr(item, "status", "")
                status = status if isinstance(status, str) and status not in ("", "in", "hidden") else ""
                out.append((name, health[0], health[1], level if isinstance(level, int) else None, hero, status))
    return out


def fight_on(game: Any) -> bool:
    if game is None:
        return False
    if getattr(game, "fight", None):
        return True
    if getattr(game, "area", None) is not None:  # The Adventure in the Dungeon: in an area, fighting
        return True
    return "fight" in str(getattr(game, "phase", "") or "")


def _values(state: State, kinds: dict[str, str], maxima: dict[str, int]) -> dict[str, int]:
    out: dict[str, int] = {}
    t = state.trackers
    for name, c in t.counters.items():
        label = c.label or (name.upper() if len(name) <= 3 else name.capitalize())
        kind = "hp" if name == "hp" else "xp" if name == "xp" else "counter"
        kinds.setdefault(label, kind)
        out[label] = c.value
        if c.max is not None:
            maxima[label] = max(maxima.get(label, 0), c.max)
    if "xp" in t.counters or t.level != 1:
        kinds.setdefault(_("Level"), "level")
        out[_("Level")] = t.level
    for tally in t.tallies.values():
        if tally.monster:
            continue
        kinds.setdefault(tally.name, "hits")
        out[tally.name] = tally.left
        maxima[tally.name] = max(maxima.get(tally.name, 0), tally.max_hits)
    for name, health, most, level, hero, _status in cast(state.game):
        kinds.setdefault(name, "hero" if hero else "health")
        out[name] = health
        if most is not None:
            maxima[name] = max(maxima.get(name, 0), most)
        if level is not None:
            label = _("{name} level").format(name=name)
            kinds.setdefault(label, "level")
            out[label] = level
    return out


def replay(meta: Meta, events: list[dict[str, Any]], probe: Any = None, view: View = OPEN) -> Replay:
    """Fold ``events`` from the start, keeping every step; ``probe`` (a game's, see
    :func:`companion.export.moments.probe_for`) reads the fights along the way. What is kept of each
    step (the charts' numbers, Lonelog's sheet) is read through ``view``, the export's one filter: a
    secret kept at the end was kept at every step before it (a game reveals, it never hides again)."""
    spec = load(meta.game)
    fold = Fold(spec, new_state(spec, meta), amended=amendments(events))
    start = view.state(fold.state)
    result = Replay(meta, fold.state, start=sheet_of(start, _board(spec, start)))
    if probe is not None:
        result.probed = bool(getattr(probe, "rules", True))
    fights: dict[Any, Reading] = {}  # every fight read and not over: its last reading
    for event in events:
        request = fold.pending
        if event.get("t") == "answer" and fold.engine is None and spec.guided:
            fold.start()
            request = fold.pending
        readings = _readings(_read(probe.before, fold.state, request, event)) if probe is not None else []
        before = len(fold.state.log.entries)
        fold.apply(event)
        state = fold.state
        shown = view.state(state)
        after: list[Reading] = []
        ended: dict[Any, str] = {}
        if probe is not None:
            for reading in readings:
                then = _read(probe.after, reading, state, fold.pending)
                fights[reading.fight] = then or reading
                if then is not None:
                    after.append(then)
            for key, last in list(fights.items()):
                how = _read(probe.result, last, state)
                if how is not None:
                    ended[key] = how
                    del fights[key]
        result.steps.append(
            Step(
                event=event,
                request=request,
                entries=state.log.entries[before:],
                values=_values(shown, result.kinds, result.maxima),
                fight=fight_on(state.game) or state.trackers.fight is not None,  # a game's or a pack's fight
                before=readings,
                after=after,
                ended=ended,
                sheet=sheet_of(shown, _board(spec, shown)),
            )
        )
    _trim_figures(result)
    return result


def _board(spec: Any, state: State) -> Any:
    """The game's board for ``state`` (its own view of the table; ``state`` as the export may show
    it), or None where it has none."""
    if not spec.provides("board"):
        return None
    return _read(spec.board, state)


def _readings(found: Any) -> list[Reading]:
    """A probe's readings before an event: one, several (a fight and each hero in it), or none."""
    if found is None:
        return []
    return list(found) if isinstance(found, (list, tuple)) else [found]


def _read(method: Any, *args: Any) -> Any:
    """A probe's answer; None where it cannot read the state (a corner a one-shot command made):
    the page then leaves that moment out rather than fail the whole export (``COMPANION_DEBUG=1``
    raises instead)."""
    try:
        return method(*args)
    except Exception:
        import os

        if os.environ.get("COMPANION_DEBUG"):
            raise
        return None


def _trim_figures(result: Replay) -> None:
    """Keep the figures worth a line: every hero (an unhurt one too), then the foes whose health
    changed, at most MAX_FIGURES in all."""
    heroes = [n for n, k in result.kinds.items() if k == "hero"]
    foes = [n for n, k in result.kinds.items() if k == "health"]
    moved = [n for n in foes if len({s.values.get(n) for s in result.steps} - {None}) > 1]
    room = max(0, MAX_FIGURES - len(heroes))
    keep = set(moved[:room]) if moved or heroes else set(foes[:MAX_FIGURES])
    for n in foes:
        if n not in keep:
            del result.kinds[n]
