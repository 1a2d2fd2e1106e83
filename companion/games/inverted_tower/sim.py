"""The Inverted Tower in the simulator: three players (policies) and the figures of a run.

The policies only answer the engine's choices (:mod:`.engine` asks, :mod:`companion.sim.runner`
plays); they read the state and never change it. They share how they build the hero and move (every
point in STR, fight with STR; explore new rooms while HP is above half of Max HP, then take the
stairs) and differ where the issue asks: when to spend a dagger, when to drink a potion, and what
to buy from the merchant.

- ``steady`` (the default): the player of the example logs. Drinks at a third of Max HP or less,
  spends a dagger on a roll when it has more than one or is down to 2 HP, buys potions.
- ``thrifty``: keeps potions and daggers for the roll that could kill. Drinks only when one more
  failed roll could take the last HP, and then spends every dagger that still helps; buys potions.
- ``eager``: spends a dagger on every roll while it has one, drinks at half Max HP, and buys a potion
  when it has none, else daggers.

Every policy is a plain function of (state, request), cheap enough for thousands of runs a second.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.sim.runner import HISTOGRAM, MEAN, RATE, Metric, PolicySpec, RunInfo, Simulator

from . import data as d

if TYPE_CHECKING:
    from companion.engine.requests import Choice
    from companion.session.state import State

ATTRIBUTE = "STR"


def _threat(state: State) -> int:
    """The HP the next failed roll costs: a strong foe's blow with ``elites-deal-2``, else 1 (a foe or a trap)."""
    f = state.game.fight
    if f is not None and f.strong and f.killed >= f.normal and d.ELITES_DEAL_2 in state.meta.variants:
        return d.STRONG_DAMAGE_VARIANT
    return d.DAMAGE


def _has(request: Choice, value: str) -> bool:
    # A plain loop: any() over a generator costs twice as much, and this runs on every choice.
    for o in request.options:  # noqa: SIM110
        if o.value == value:
            return True
    return False


def _offers_potion(request: Choice) -> bool:
    """The engine puts "Drink a potion" last in every choice that offers it."""
    return request.options[-1].value == "potion"


def _move(state: State, request: Choice) -> str:
    """Explore while HP is above half of Max HP; then go down the stairs, else explore on, else go back."""
    hp = state.trackers.counters["hp"]
    if hp.value * 2 > (hp.max or 0) and _has(request, "new"):
        return "new"
    for value in ("down", "stairs", "new", "back"):
        if _has(request, value):
            return value
    return request.options[0].value


class TowerPlayer:
    """A policy: the shared build and movement, and its own dagger, potion and merchant rules."""

    __slots__ = ("buy", "dagger", "drink")

    def __init__(self, drink: str, dagger: str, buy: str) -> None:
        self.drink = drink
        self.dagger = dagger
        self.buy = buy

    def wants_potion(self, state: State) -> bool:
        hp = state.trackers.counters["hp"]
        drink = self.drink
        if drink == "third":
            return hp.value * 3 <= (hp.max or 0)
        if drink == "half":
            return hp.value * 2 <= (hp.max or 0)
        # "last": only when one more blow could kill (a blow costs at most STRONG_DAMAGE_VARIANT)
        return hp.value <= d.STRONG_DAMAGE_VARIANT and hp.value <= _threat(state)

    def daggers(self, state: State, request: Choice) -> str:
        counts = [int(o.value) for o in request.options if o.value.isdigit() and o.value != "0"]
        if not counts:
            return "0"  # no dagger that helps (the choice only offers a potion)
        t = state.trackers
        owned = t.items.get(d.DAGGER, 0)
        rule = self.dagger
        one = "1" if counts[0] == 1 else "0"  # a single dagger, when one alone raises the chance
        if rule == "every":
            return one
        if rule == "spare":
            return one if owned > 1 or t.counters["hp"].value <= 2 else "0"
        # "last": every dagger that still helps, on the roll that could kill
        hp = t.counters["hp"].value
        if hp > d.STRONG_DAMAGE_VARIANT or hp > _threat(state):
            return "0"
        return str(counts[-1])

    def merchant(self, state: State, request: Choice) -> str:
        if self.buy == "potion" and _has(request, "buy-potion"):
            return "buy-potion"
        if self.buy == "mixed" and _has(request, "buy-potion"):
            return "buy-potion" if state.trackers.items.get(d.POTION, 0) == 0 else "buy-dagger"
        return "leave"

    def __call__(self, state: State, request: Choice) -> Any:
        key = request.key
        if key == "combat.daggers":
            if _offers_potion(request) and self.wants_potion(state):
                return "potion"
            return self.daggers(state, request)
        if key == "turn":
            if _offers_potion(request) and self.wants_potion(state):
                return "potion"
            return _move(state, request)
        if key in ("hero.attribute", "level.attribute", "combat.attribute"):
            return ATTRIBUTE
        if key == "merchant":
            if _offers_potion(request) and self.wants_potion(state):
                return "potion"
            return self.merchant(state, request)
        if key == "hero.name":
            return "Sim"
        return request.options[0].value  # turn.room: the first known room the menu lists


STEADY = TowerPlayer("third", "spare", "potion")
THRIFTY = TowerPlayer("last", "last", "potion")
EAGER = TowerPlayer("half", "every", "mixed")

POLICIES = (
    PolicySpec("steady", "drinks at 1/3 Max HP; a dagger when it has spares or is at 2 HP; buys potions", STEADY),
    PolicySpec("thrifty", "drinks and spends daggers only when one more failed roll could kill; buys potions", THRIFTY),
    PolicySpec(
        "eager", "a dagger on every roll; drinks at half Max HP; buys a potion if it has none, else daggers", EAGER
    ),
)


def xp_earned(level: int, xp: int) -> int:
    """Every XP the hero earned: the cost of each level up taken (10 + level) and the XP toward the next."""
    return sum(d.XP_BASE + lv for lv in range(d.START_LEVEL, level)) + xp


def record(state: State, run: RunInfo) -> dict[str, Any]:
    t = state.trackers
    won = state.finished == "won"
    return {
        "won": won,
        "death_floor": None if won else t.floor,
        "floor": t.floor,
        "rooms": len(t.rooms),
        "rolls": run.rolls,
        "choices": run.choices,
        "kills": state.game.kills,
        "level": t.level,
        "xp": xp_earned(t.level, t.counters["xp"].value),
    }


METRICS = (
    Metric("won", "Win rate (the Necromancer slain)", RATE, examples=("a won game", "a lost game")),
    Metric("death_floor", "Floor of death", HISTOGRAM, value="floor {}", among="lost runs"),
    Metric("floor", "Floor reached", MEAN),
    Metric("rooms", "Length: rooms entered", MEAN),
    Metric("rolls", "Length: dice rolls", MEAN),
    Metric("choices", "Length: choices made", MEAN),
    Metric("kills", "Monsters killed", MEAN),
    Metric("xp", "XP earned", MEAN),
    Metric("level", "Level at the end", HISTOGRAM, value="level {}"),
)

SIMULATOR = Simulator(game="inverted-tower", policies=POLICIES, metrics=METRICS, record=record, hero="Sim")
