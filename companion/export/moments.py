"""The big moments of a session: where the player's chance was lowest or changed most, and what turned it.

A game plugs in a *probe* (its contract's ``moments``, :class:`companion.contract.game.Game`): the
replay asks it before and after every event for the player's chances under way, from the game's own
exact odds (never sampled), as :class:`~companion.sim.fights.Reading` s that name the position (its
words, and the ``companion odds`` arguments that give the same fraction), and whether each is over
(won, lost or fled). A reading's chance is of winning a fight, of a hero coming through one standing
(the page shows its chance to fall), or of a check passing: each is a timeline of its own. For every
timeline (a "fight" below) this module finds:

- **the lowest chance** met in it, where, and in what position;
- **what turned it**: between two readings of the fight, the stretch of play (one roll or choice,
  or the rolls of a round where the game reads only at its choices) that moved the chance most: in
  a won fight the biggest rise after the low point, in a lost one the biggest fall, otherwise the
  biggest change either way. The end of a fight counts as a reading: 1 when won, 0 when lost.

A game still in play gets its fights so far. Chances counted as floats (The Adventure in the
Dungeon's, at every choice) pick the moments; the moments shown are counted again exactly.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from companion.export.replay import Replay, Step
from companion.sim.fights import WIN, Position, Reading


def probe_for(game: str, packs: list[Any] | None = None) -> Any:
    """A fresh probe for one replay of ``game``'s session, or None (a game with no fight odds); a
    probe that reads a table pack's fights (freeform's) is given the session's copies (``packs``)."""
    from companion.contract.registry import load

    probe = load(game).probe()
    if probe is not None and hasattr(probe, "packs"):
        probe.packs = list(packs or [])
    return probe


@dataclass(frozen=True)
class At:
    """A chance to win at one moment: after ``step`` actions (the page says "after action ``step``")."""

    step: int
    chance: Fraction
    position: Position


@dataclass(frozen=True)
class Turn:
    """The stretch of play (steps ``first`` to ``last``) between two readings that moved the chance most."""

    first: int
    last: int
    before: At
    #: The reading after it; None when the fight ended with it (``end`` says how).
    after: At | None
    end: str | None
    #: What was done in it, one item a step: a roll as the log keeps it (``{"roll": ...}``, see
    #: companion/log/model.py), a choice (``{"choice": "Drink a potion (heal to Max HP)"}``) or a
    #: game's action without a roll (``{"action": "Sam attacks the Goblin: hit"}``).
    done: list[dict[str, Any]] = field(default_factory=list)

    @property
    def rolls(self) -> list[dict[str, Any]]:
        return [d["roll"] for d in self.done if "roll" in d]

    @property
    def change(self) -> Fraction:
        return (self.after.chance if self.after is not None else _END[self.end or ""]) - self.before.chance


@dataclass(frozen=True)
class Fight:
    """One timeline of the player's chance: a fight's chance to win, a hero's to stand, a check's."""

    title: str
    #: The first and last step of play the fight was read at.
    first: int
    last: int
    #: "won", "lost", "fled", or None (still on when the session was exported, or ended otherwise).
    result: str | None
    lowest: At
    turn: Turn | None
    #: What the chance is of (companion.sim.fights: WIN, STAND, PASS).
    of: str = WIN

    @property
    def swing(self) -> Fraction:
        """How far the chance moved in what turned it (0 where nothing did)."""
        return abs(self.turn.change) if self.turn is not None else Fraction(0)


#: A change of the player's chance worth a big moment of its own: five points.
MOVED = Fraction(1, 20)


def shown(fights: list[Fight], most: int = 3) -> list[Fight]:
    """The big moments a page shows first, lowest chance first: the ``most`` timelines where the
    player's chance was lowest, and the one where it changed most (by five points or more) if that is
    not among them."""
    ranked = sorted(fights, key=lambda f: (f.lowest.chance, f.first))
    out = ranked[:most]
    swung = max(fights, key=lambda f: (f.swing, -f.first), default=None)
    if swung is not None and swung.swing >= MOVED and swung not in out:
        out.append(swung)
    return sorted(out, key=lambda f: (f.lowest.chance, f.first))


@dataclass(frozen=True)
class Moments:
    fights: list[Fight]
    #: False where the game has no fight odds to read (the page says so).
    probed: bool

    @property
    def lowest(self) -> Fight | None:
        """The fight with the lowest chance met (the first of equals)."""
        return min(self.fights, key=lambda f: f.lowest.chance, default=None)


_END = {"won": Fraction(1), "lost": Fraction(0)}


@dataclass
class _Point:
    """A reading on a fight's timeline: ``t`` is 2i just before step i, 2i + 1 just after it."""

    t: int
    value: float | Fraction
    reading: Reading | None  # None: the fight's end


#: Events that change a tracker by hand (not a roll, a choice or a game's action).
_BY_HAND = frozenset(("note", "mode", "amend", "tally", "counter", "xp", "item", "room", "floor", "talisman",
                      "hero", "gamedata", "end"))  # fmt: skip


def _done(step: Step) -> list[dict[str, Any]]:
    """What a step did, for "what turned it": its rolls, else its choice, else a game's action."""
    rolls = [{"roll": e["r"]} for e in step.entries if e["k"] == "roll"]
    if rolls:
        return rolls
    kind = step.event.get("t")
    if kind == "answer":
        from companion.export.lonelog import choice_line

        line = choice_line(step.request, step.event)
        return [{"choice": line[2:]}] if line else []
    if kind in _BY_HAND:
        return []
    said = next((e.get("t", "") for e in step.entries if e["k"] in ("line", "text") and e.get("t")), "")
    return [{"action": said}] if said else []


def _at(point: _Point) -> At:
    assert point.reading is not None
    return At((point.t + 1) // 2, point.reading.fraction(), point.reading.position)


def moments(replay: Replay) -> Moments:
    """Every fight the probe read in ``replay`` (in the order they began), with its big moments."""
    timelines: dict[Any, list[_Point]] = {}
    titles: dict[Any, str] = {}
    kinds: dict[Any, str] = {}
    results: dict[Any, str] = {}
    read = False
    for i, step in enumerate(replay.steps):
        for t, readings in ((2 * i, step.before), (2 * i + 1, step.after)):
            for reading in readings:
                read = True
                timelines.setdefault(reading.fight, []).append(_Point(t, reading.chance, reading))
                titles[reading.fight] = reading.title  # the last: a group of monsters may grow
                kinds[reading.fight] = reading.of
        for key, how in step.ended.items():
            if key in timelines:
                results[key] = how
                if how in _END:
                    timelines[key].append(_Point(2 * i + 1, _END[how], None))
    fights = [_fight(replay, titles[k], points, results.get(k), kinds[k]) for k, points in timelines.items()]
    probed = replay.probed if replay.probed is not None else _probed(replay.meta.game)
    return Moments([f for f in fights if f is not None], probed=read or probed)


def _probed(game: str) -> bool:
    from companion.contract.registry import load

    return load(game).provides("moments")


def _fight(replay: Replay, title: str, points: list[_Point], result: str | None, of: str = WIN) -> Fight | None:
    readings = [p for p in points if p.reading is not None]
    if not readings:
        return None
    low = min(readings, key=lambda p: (p.value, p.t))
    best: tuple[float | Fraction, _Point, _Point, int, int] | None = None
    for p, q in itertools.pairwise(points):
        first, last = (p.t + 1) // 2, (q.t - 1) // 2
        delta = q.value - p.value
        if first > last or delta == 0:
            continue
        if not any(_done(s) for s in replay.steps[first : last + 1]):
            continue
        if result == "won":
            wanted, size = delta > 0 and p.t >= low.t, delta
        elif result == "lost":
            wanted, size = delta < 0, -delta
        else:
            wanted, size = True, abs(delta)
        if wanted and (best is None or size > best[0]):
            best = (size, p, q, first, last)
    turn = None
    if best is not None:
        _, p, q, first, last = best
        steps = replay.steps[first : last + 1]
        turn = Turn(
            first,
            last,
            _at(p),
            _at(q) if q.reading is not None else None,
            result if q.reading is None else None,
            [d for s in steps for d in _done(s)],
        )
    return Fight(title, readings[0].t // 2, points[-1].t // 2, result, _at(low), turn, of)


def outcome(finished: str | None) -> str | None:
    """ "won" or "lost" from how a game ended, or None (not over, or neither)."""
    if not finished:
        return None
    head = finished.strip().lower()
    if head.startswith(("won", "victory", "win")):
        return "won"
    if head.startswith(("lost", "dead", "died", "defeat", "lose")):
        return "lost"
    return None
