"""What the shell shows for The Inverted Tower: the status panel rows, the fight odds, the hero line.

Called only by shells (never by the engine), so the odds are computed here and nowhere in the
engine. rich is imported inside :func:`status` only: the game package is loaded by one-shot
commands that must start fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.dice.odds import dc_chance
from companion.i18n import _
from companion.sim.chart import spark

from . import data as d
from . import rules
from .model import Fight, Tower
from .odds import FightOdds, fight_odds, percent, summary

if TYPE_CHECKING:
    from companion.contract.game import Chance
    from companion.engine.requests import Request
    from companion.session.state import State


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def status(state: State) -> list[tuple[str, Any]]:
    """The always-on panel: HP bar, XP and the next level, floor and rooms, attributes and kit."""
    from rich.text import Text

    from companion.shell.panels import bar

    g: Tower = state.game
    t = state.trackers
    hp = t.counter("hp")
    xp = t.counter("xp")
    need = rules.xp_to_next(t.level)
    filled = min(10, xp.value * 10 // need) if need else 0
    xp_text = Text("▰" * filled, style="cyan").append("▱" * (10 - filled), style="dim")
    xp_text.append(f" {xp.value}/{need} to level {t.level + 1} (level {t.level})")
    rows: list[tuple[str, Any]] = [
        ("Hero", state.hero or "Hero"),
        ("HP", bar(hp.value, hp.max or hp.value)),
        ("XP", xp_text),
    ]
    floor = f"{t.floor} of {d.LAST_FLOOR}"
    where = f"room {g.at}" if g.at else "at the foot of the stairs"
    rows.append(("Floor", f"{floor} · {where} · {len(g.rooms)}/{d.MAX_ROOMS} rooms used"))
    room = rules.find_room(state, g.floor, g.at) if g.at else None
    if room is not None:
        rows.append(("Room", room.line()))
    found = [
        f"{rules.room_title(g, k)} (room {i})" for i, k in enumerate(g.rooms, 1) if k in d.EVENT_KINDS or k == d.LAIR
    ]
    if found:
        rows.append(("Found", ", ".join(found)))
    attrs = " · ".join(f"{a} {g.attributes[a]}" for a in d.ATTRIBUTES)
    if g.points:
        attrs += f" · {_plural(g.points, 'point')} to place"
    rows.append(("Attributes", attrs))
    items = t.items
    rows.append(
        (
            "Kit",
            f"{_plural(items.get(d.DAGGER, 0), 'dagger')} · {_plural(items.get(d.POTION, 0), 'potion')} · "
            f"{t.counter('gold').value} gp",
        )
    )
    f = g.fight
    if f is not None and state.finished is None:
        text = f"{rules.foe_name(f, f.killed + 1)}" if f.killed < f.foes else "over"
        text += f" · {f.killed}/{f.foes} killed"
        if f.attribute:
            text += f" · with {f.attribute}"
        rows.append(("Fight", text))
    if state.meta.variants:
        rows.append(("Variants", ", ".join(state.meta.variants)))
    return rows


def _foes_text(normal: int, strong: str) -> str:
    parts = []
    if normal:
        parts.append(_plural(normal, d.NORMAL_NAME))
    if strong:
        parts.append(("the " if strong == "necromancer" else "a ") + rules.strong_title(strong))
    return " + ".join(parts) or "nobody"


def remaining_odds(
    state: State, f: Fight, attribute: int, daggers: int | tuple[int, ...] = 0, hp: int | None = None
) -> FightOdds:
    """The odds of the rest of fight ``f`` with this attribute value and dagger plan (at ``hp``, or
    the hero's HP now), counting no further potions."""
    normal_left = max(0, f.normal - f.killed)
    strong_left = bool(f.strong) and f.killed < f.foes
    return fight_odds(
        state.trackers.counter("hp").value if hp is None else hp,
        attribute,
        state.trackers.floor,
        normal_left,
        elite=strong_left and f.strong == "elite",
        boss=strong_left and f.strong in ("boss", "necromancer"),
        daggers=daggers,
        variants=state.meta.variants,
    )


def advise(state: State, request: Request) -> list[str]:
    """Fight odds before the choices they inform: the fight's attribute, and daggers on each roll."""
    g: Tower = state.game
    key = request.key
    f = g.fight
    if key == "room.event":
        taken = {k for k in g.rooms if k in d.EVENT_KINDS}
        lines = []
        if taken:
            names = ", ".join(d.ROOM_TITLES[k] for k in d.EVENT_KINDS if k in taken)
            again = "rolls again" if d.REROLL_DUPLICATES in state.meta.variants else "leaves the room empty"
            lines.append(f"This floor already has: {names} (a second one {again}).")
        if g.floor >= d.LAST_FLOOR and d.BOSS_GUARDS_STAIRS not in state.meta.variants:
            lines.append(f"Floor {d.LAST_FLOOR} has no stairs: a 6 finds nothing; its last room is the lair.")
        return lines
    if f is None or key not in ("combat.attribute", "combat.daggers"):
        if key == "turn":
            p = dc_chance(0)
            chance = f"{p.numerator}/{p.denominator}"
            return [
                f"New room: an event on a DC pass ({chance}), else an encounter · "
                f"going back: wandering monsters on a pass ({chance})"
            ]
        return []
    t = state.trackers
    hp = t.counter("hp").value
    owned = t.items.get(d.DAGGER, 0)
    foes = _foes_text(max(0, f.normal - f.killed), f.strong if f.killed < f.foes else "")
    head = f"Fight odds vs {foes} (HP {hp}, floor {t.floor}, counting no further potions):"
    if key == "combat.attribute":
        lines = [head]
        best = None
        for a in d.ATTRIBUTES:
            value = g.attributes[a]
            o = remaining_odds(state, f, value)
            if best is None or o.win > best[1].win:
                best = (a, o)
            line = f"  {a} {value:+d}: {summary(o)}"
            if owned:
                spent = remaining_odds(state, f, value, owned)
                first = "the first roll" if owned == 1 else f"each of the first {owned} rolls"
                line += f"; a dagger on {first}: win {percent(spent.win)}"
            lines.append(line)
        if best is not None and hp > 0:
            a, o = best
            lines.append(f"  HP at the end with {a}: dead {spark([o.hp.get(h, 0) for h in range(hp + 1)])} {hp}")
        return lines
    value = g.attributes[f.attribute]
    base = value - rules.floor_penalty(t.floor)
    lines = [head]
    for option in request.options:  # type: ignore[union-attr]
        if not option.value.isdigit():
            continue
        n = int(option.value)
        o = remaining_odds(state, f, value, (n,))
        lines.append(f"  {option.label}: this roll {percent(dc_chance(base + n))} · fight {summary(o)}")
    return lines


def risk(state: State, request: Request) -> dict[str, float]:
    """The chance of death of each option of a fight's choices (no further potions counted): the
    shell asks once more before Enter takes one that kills the hero half the time or more."""
    g: Tower = state.game
    f = g.fight
    if f is None or request.key not in ("combat.attribute", "combat.daggers"):
        return {}
    hp = state.trackers.counter("hp")
    owned = state.trackers.items.get(d.DAGGER, 0)
    chances: dict[str, float] = {}
    if request.key == "combat.attribute":
        for a in d.ATTRIBUTES:
            chances[a] = float(remaining_odds(state, f, g.attributes[a]).death)
        if any(o.value == "potion" for o in request.options):  # type: ignore[union-attr]
            full = hp.max or hp.value
            chances["potion"] = min(
                float(remaining_odds(state, f, g.attributes[a], owned, hp=full).death) for a in d.ATTRIBUTES
            )
        return chances
    value = g.attributes[f.attribute]
    for option in request.options:  # type: ignore[union-attr]
        if option.value.isdigit():
            chances[option.value] = float(remaining_odds(state, f, value, (int(option.value),)).death)
        elif option.value == "potion":
            full = hp.max or hp.value
            chances["potion"] = float(remaining_odds(state, f, value, owned, hp=full).death)
    return chances


def hero(state: State) -> str | None:
    """The log's front-matter hero line: name, level and attributes."""
    g: Tower | None = state.game
    if g is None or not g.created:
        return state.hero
    attrs = " ".join(f"{a} {g.attributes[a]}" for a in d.ATTRIBUTES)
    return f"{state.hero or 'Hero'} (level {state.trackers.level}; {attrs})"


# ---- the shell's bar ---------------------------------------------------------------------------


def board(state: State) -> Any:
    """The table for the shell's bar: the hero's HP, daggers and potions; the fight's foes left."""
    from companion.engine.board import Board, Figure

    g: Tower = state.game
    t = state.trackers
    hp = t.counter("hp")
    kit = f"{_plural(t.items.get(d.DAGGER, 0), 'dagger')}, {_plural(t.items.get(d.POTION, 0), 'potion')}"
    hero = Figure(state.hero or "Hero", f"{hp.value}/{hp.max or hp.value}", kit, turn=True, out=hp.value <= 0)
    fight: tuple[Figure, ...] = ()
    title = ""
    f = g.fight
    if f is not None and state.finished is None and f.killed < f.foes:
        fight = tuple(Figure(rules.foe_name(f, i)) for i in range(f.killed + 1, f.foes + 1))
        title = _("{killed}/{foes} killed").format(killed=f.killed, foes=f.foes)
        if f.attribute:
            title += _(", with {attribute}").format(attribute=f.attribute)
    where = _("room {n}").format(n=g.at) if g.at else _("at the stairs")
    rest = [
        _("floor {n}/{last}, {where}").format(n=t.floor, last=d.LAST_FLOOR, where=where),
        _("level {n}, XP {xp}").format(n=t.level, xp=t.counter("xp").value),
    ]
    return Board((hero,), fight, title, tuple(rest))


def chances(state: State, request: Request) -> list[Chance]:
    """Each fight choice shown with odds and its chance to win (no further potions counted): a fight
    is to the end, so the chance to win is the chance not to die."""
    from companion.contract.game import Chance

    return [Chance(value, 1 - death) for value, death in risk(state, request).items()]
