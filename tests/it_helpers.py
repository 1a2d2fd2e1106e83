"""Drive The Inverted Tower's engine with fixed dice and scripted choices, the way a save replays.

Every answer goes through :class:`companion.session.fold.Fold` as an ``answer`` event, so the key
checks, the roll logging and the state changes are the real ones. Two shortcuts keep scripts short:
a ``combat.daggers`` choice the script does not mention is answered "0" (no dagger), and a ``turn``
choice before a ``room.dc`` is answered "new".
"""

from __future__ import annotations

from typing import Any

from companion.dice.roll import evaluate
from companion.engine.requests import Choice, Number, RollRequest
from companion.games import load
from companion.games.inverted_tower import data as d
from companion.games.inverted_tower import rules
from companion.log.markdown import render
from companion.session.fold import Fold, answer_event
from companion.session.service import new_state
from companion.session.state import Meta, State

SPEC = load("inverted-tower")


def make_state(variants: tuple[str, ...] = (), hero: str | None = "Aria", seed: int = 1) -> State:
    meta = Meta(
        name="test", slug="test", game="inverted-tower", seed=seed, dice="virtual", variants=list(variants), hero=hero
    )
    return new_state(SPEC, meta)


class Game:
    """A guided game under test: ``g.play(("room.dc", 5), ("room.event", 6), ...)``."""

    def __init__(self, variants: tuple[str, ...] = (), hero: str | None = "Aria", state: State | None = None) -> None:
        self.state = state if state is not None else make_state(variants, hero)
        self.fold = Fold(SPEC, self.state)
        self.fold.start()
        self.events = 0
        #: The answer events applied so far: a save of this game.
        self.history: list[dict[str, Any]] = []

    @property
    def request(self) -> Any:
        return self.fold.pending

    @property
    def g(self) -> Any:
        return self.state.game

    @property
    def t(self) -> Any:
        return self.state.trackers

    @property
    def hp(self) -> tuple[int, int]:
        c = self.t.counters["hp"]
        return c.value, c.max

    def send(self, key: str, value: Any) -> None:
        request = self.fold.pending
        assert request is not None, f"the game is over ({self.state.finished}); the script wanted {key}"
        if request.key != key:
            if request.key == "combat.daggers" and key == "combat.roll":
                self.send("combat.daggers", "0")
                return self.send(key, value)
            if request.key == "turn" and key == "room.dc":
                self.send("turn", "new")
                return self.send(key, value)
            raise AssertionError(f"the game asks {request.key!r} ({_describe(request)}), the script answers {key!r}")
        if isinstance(request, RollRequest):
            answer = evaluate(request.expr, (int(value),), request.mod, source="physical", parts=request.parts)
        elif isinstance(request, Choice):
            assert value in request.values(), f"{value!r} is not offered at {key}: {request.values()}"
            answer = value
        elif isinstance(request, Number):
            answer = int(value)
        else:
            answer = str(value)
        self.events += 1
        event = answer_event(request, answer)
        event["id"] = self.events
        self.fold.apply(event)
        self.history.append(event)
        return None

    def play(self, *steps: tuple[str, Any]) -> Game:
        for key, value in steps:
            self.send(key, value)
        return self

    def options(self) -> tuple[str, ...]:
        assert isinstance(self.request, Choice), self.request
        return self.request.values()

    def log(self) -> str:
        return render(self.state, SPEC.log_title or SPEC.title, SPEC.hero(self.state) if SPEC.hero else None)

    def lines(self) -> list[str]:
        """The Dungeon Log's headings and room lines (no rolls), as the markdown shows them."""
        return [e["t"] for e in self.state.log.entries if e["k"] in ("heading", "line")]


def _describe(request: Any) -> str:
    if isinstance(request, Choice):
        return "choices " + ", ".join(request.values())
    if isinstance(request, RollRequest):
        return f"{request.expr} {request.mod:+d}: {request.why}"
    return type(request).__name__


def start(attr: str = "STR", variants: tuple[str, ...] = ()) -> Game:
    """A new hero with a point in ``attr``, standing at the foot of floor 1's stairs."""
    return Game(variants).play(("hero.attribute", attr))


def fight(*faces: int) -> list[tuple[str, Any]]:
    """Combat rolls with these faces (no dagger spent)."""
    return [("combat.roll", f) for f in faces]


def encounter(count_face: int, elite_face: int, attr: str, *faces: int) -> list[tuple[str, Any]]:
    """An encounter: the SR face (1-2 one mob, 3-4 two, 5-6 three), the EC face, the attribute, the fight."""
    return [
        ("encounter.count", count_face),
        ("encounter.elite", elite_face),
        ("combat.attribute", attr),
        *fight(*faces),
    ]


def at_floor(
    floor: int,
    *,
    attrs: dict[str, int] | None = None,
    hp: int = 5,
    max_hp: int = 5,
    daggers: int = 0,
    potions: int = 0,
    gold: int = 0,
    xp: int = 0,
    level: int = 1,
    rooms: list[str] | None = None,
    variants: tuple[str, ...] = (),
) -> Game:
    """A made hero on ``floor`` (its heading written), with the kit and rooms given, before the first turn."""
    state = make_state(variants)
    rules.create_hero(state, "STR")
    state.game.attributes.update(attrs or {"STR": 1})
    rules.enter_floor(state, floor)
    t = state.trackers
    t.counters["hp"].value, t.counters["hp"].max = hp, max_hp
    t.items.update({"dagger": daggers, "potion": potions})
    t.counters["gold"].value = gold
    t.counters["xp"].value = xp
    t.level = level
    for kind in rooms or []:
        n = len(state.game.rooms) + 1
        rules.open_room(state, n)
        rules.set_room(state, n, kind, d.ROOM_TITLES[kind])
    state.game.at = len(state.game.rooms)
    return Game(state=state)
