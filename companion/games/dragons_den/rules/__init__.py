"""The Dragon's Den's rules as plain functions over :class:`Den`: no dice, no prompts, no I/O.

The action steps (:mod:`.engine.steps`) ask for dice and choices and then call these; the guided menu and
the one-shot commands both go through the steps, so there is one implementation of every rule.

Readings of the text that these functions encode are listed in ``docs/rules/dragons-den.md``; the
main ones: an ability's cost is paid as it is used, before its effect, and a figure dies only if its
health is 0 once the whole ability is over (so a troll at 1 health can regenerate); an attack at a
health of 6 or more cannot fail and needs no roll.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from companion.errors import InputError
from companion.games.dragons_den import data
from companion.games.dragons_den.model import (
    DRAGON,
    ESCAPED,
    HEROES,
    HIDDEN,
    IN,
    OVER,
    SETUP,
    SLAIN,
    TRAPPED,
    Den,
    Figure,
    Score,
)
from companion.i18n import ngettext

LONG, ONE_EACH = "long", "one-each"
#: A reading as a variant: Ren's Shield answers monsters' attacks only, not the dragon's breath.
SHIELD_ATTACKS_ONLY = "shield-attacks-only"


# ---- making a den -------------------------------------------------------------------------------


def new_den(variants: Iterable[str]) -> Den:
    """An empty den before setup: full cups, full hoard, no heroes, no dragon yet."""
    variants = set(variants)
    den = Den()
    den.countdown = data.LONG_COUNTDOWN if LONG in variants else data.COUNTDOWN
    den.one_each = ONE_EACH in variants
    den.room_cup = [f"M{n}" for n in range(1, data.MONSTER_CHITS + 1)] + [
        f"T{n}" for n in range(1, data.TREASURE_CHITS + 1)
    ]
    den.hoard = list(range(1, data.HOARD_CHITS + 1))
    den.cup = list(range(1, data.DRAGON_CHITS + 1))
    den.phase = SETUP
    return den


def hero_figure(card: data.HeroCard) -> Figure:
    return Figure(card.key, card.name, "hero", card.number, card.health, card.health, card.speed)


def monster_figure(note: data.MonsterNote, room: int) -> Figure:
    return Figure(monster_key(note), note.name, "monster", note.chit, note.health, note.health, note.speed, room=room)


def dragon_figure(note: data.DragonNote) -> Figure:
    return Figure("dragon", note.name, "dragon", note.chit, note.health, note.health, note.speed, status=HIDDEN)


def monster_key(note: data.MonsterNote) -> str:
    return note.name.lower().replace(" ", "-")


def dragon_note(den: Den) -> data.DragonNote:
    assert den.dragon is not None
    return data.DRAGON_BY_CHIT[den.dragon.number]


# ---- treasure -----------------------------------------------------------------------------------


def treasure_row(values: dict[str, Any], table: str, number: int) -> data.TreasureRow:
    """Row ``number`` of a treasure table, with the player's corrections from their game data.

    The player corrects a row (a garbled one, or one they changed as the rules invite) with the keys
    ``treasure.<table>.<n>.name`` and ``treasure.<table>.<n>.gp``; a corrected row is no longer a reading.
    """
    rows = data.TREASURE_TABLES[table]
    row = rows[number - 1]
    prefix = f"treasure.{table}.{number}."
    name = values.get(prefix + "name")
    gp = values.get(prefix + "gp")
    if name is None and gp is None:
        return row
    fixed = data.TreasureRow(number, str(name) if name is not None else row.name, int(gp) if gp is not None else row.gp)
    if (fixed.name, fixed.gp) == (row.name, row.gp):
        return row  # the player confirmed the printed (or read) row
    return fixed


def chit_table(chit: str) -> tuple[str, int]:
    """("dragon", 3) for "D3", ("monster", 7) for "T7" (a room treasure chit)."""
    return ("dragon" if chit[0] == "D" else "monster"), int(chit[1:])


def chit_value(values: dict[str, Any], chit: str) -> int:
    table, n = chit_table(chit)
    return treasure_row(values, table, n).gp


def chit_text(values: dict[str, Any], chit: str) -> str:
    """``Jade amulet (1,750 gp, a reading)`` for a treasure chit; ``Goblin`` for a monster chit."""
    if chit[0] == "M":
        return data.MONSTER_BY_CHIT[int(chit[1:])].name
    table, n = chit_table(chit)
    row = treasure_row(values, table, n)
    reading = ", read from the garbled text" if row.reading else ""
    return f"{row.name} ({row.gp:,} gp{reading})"


def chit_name(chit: str) -> str:
    """``monster chit 3``, ``treasure chit 9``, ``dragon treasure 2``: a chit by its number."""
    kind = {"M": "monster chit", "T": "treasure chit", "D": "dragon treasure"}[chit[0]]
    return f"{kind} {chit[1:]}"


def chit_label(values: dict[str, Any], chit: str) -> str:
    """``monster chit 3: Goblin``, ``treasure chit 9: Jade amulet (...)``, ``dragon treasure 2: ...``."""
    return f"{chit_name(chit)}: {chit_text(values, chit)}"


_CHIT_RE = re.compile(r"^(m|monster|t|treasure)\s*#?\s*(\d{1,2})$")


def parse_room_chit(text: str) -> str:
    """What a player typed for a room chit: ``m7``, ``monster 7``, ``T12``, ``treasure 12`` or a monster's name."""
    t = " ".join(text.strip().lower().split())
    m = _CHIT_RE.match(t)
    if m:
        n = int(m.group(2))
        kind = "M" if m.group(1).startswith("m") else "T"
        top = data.MONSTER_CHITS if kind == "M" else data.TREASURE_CHITS
        if not 1 <= n <= top:
            raise InputError(f"there is no {'monster' if kind == 'M' else 'treasure'} chit {n}; they run 1 to {top}")
        return f"{kind}{n}"
    names = [note for note in data.MONSTERS if note.name.lower() == t or monster_key(note) == t.replace(" ", "-")]
    if len(names) == 1:
        return f"M{names[0].chit}"
    raise InputError(f"{text!r} is not a room chit; type m1 to m20 for a monster chit or t1 to t20 for a treasure chit")


# ---- health ---------------------------------------------------------------------------------------


def attack_target(health: int) -> int:
    """The highest d6 face that succeeds: the attacker's current health, at most 6."""
    return max(0, min(health, data.ATTACK_DIE))


def automatic(health: int) -> bool:
    """An attack (or a breath save) at a health of 6 or more cannot fail: no roll is needed."""
    return health >= data.ATTACK_DIE


def health_text(f: Figure, before: int) -> str:
    return f"{f.name} {before} → {f.health}/{f.max_health}"


def change(f: Figure, delta: int, cap: int | None = None) -> str:
    """Add ``delta`` to a figure's health (never below 0, never above ``cap`` or its health score)."""
    before = f.health
    top = f.max_health if cap is None else min(cap, f.max_health)
    value = before + delta
    if delta > 0:
        value = min(value, max(top, before))
    f.health = max(0, value)
    return health_text(f, before)


def pay(f: Figure, ability: str, cost: int = data.ABILITY_COST) -> str:
    """Pay an ability's cost and count its use (the cost is paid before its effect)."""
    f.uses[ability] = f.uses.get(ability, 0) + 1
    before = f.health
    f.health = max(0, f.health - cost)
    return f"{f.name} pays {cost} health: {before} → {f.health}/{f.max_health}"


def settle(den: Den, figures: Iterable[Figure], *, slayer: Figure | None = None) -> list[str]:
    """Mark every figure at 0 health dead; returns the log lines. The dragon's slayer takes the hoard."""
    lines: list[str] = []
    for f in figures:
        if f.health > 0 or f.status in (SLAIN, ESCAPED, TRAPPED):
            continue
        f.status = SLAIN
        if f.kind == "hero":
            carried = ""
            if f.treasure:
                n = len(f.treasure)
                chits = ngettext("the treasure chit", "the {n} treasure chits", n).format(n=n)
                carried = f" ({chits} carried {'is' if n == 1 else 'are'} lost to the heroes)"
            lines.append(f"{f.name} is slain{carried}.")
        elif f.kind == "monster":
            lines.append(f"The {f.name} is slain.")
        else:
            lines.append(f"The {f.name} is slain!")
            if slayer is not None and slayer.kind == "hero" and slayer.status == IN:
                den.slayer = slayer.key
                if den.hoard:
                    taken = [f"D{n}" for n in den.hoard]
                    slayer.treasure.extend(taken)
                    den.hoard = []
                    chits = ngettext("{n} chit", "{n} chits", len(taken)).format(n=len(taken))
                    lines.append(f"{slayer.name} takes the rest of the hoard: {chits}.")
                    lines.extend(raise_alarm(den))
    return lines


def raise_alarm(den: Den) -> list[str]:
    """The first treasure chit a hero garners sounds the alarm."""
    if den.alarm:
        return []
    den.alarm = True
    return [
        f"The alarm sounds! Monsters and the dragon may now leave their rooms; the dragon player draws a "
        f"countdown chit each dragon turn ({len(den.cup)} in the cup)."
    ]


def give(den: Den, hero: Figure, chit: str, values: dict[str, Any]) -> list[str]:
    """A hero garners a treasure chit (from a room, a monster or the hoard)."""
    hero.treasure.append(chit)
    den.loose.pop(chit, None)
    if chit[0] == "D" and int(chit[1:]) in den.hoard:
        den.hoard.remove(int(chit[1:]))
    return [f"{hero.name} takes {chit_label(values, chit)}.", *raise_alarm(den)]


def monster_treasures(den: Den, monster: Figure) -> list[str]:
    """The treasure chits a monster can give (Trickster, Charm): those still lying in its room."""
    return [chit for chit, room in den.loose.items() if room == monster.room]


# ---- who may do what ----------------------------------------------------------------------------


def require_playing(den: Den) -> None:
    if den.phase == SETUP:
        raise InputError("the game is not set up yet", hint="companion dragon setup (or companion play)")
    if den.phase == OVER:
        raise InputError("the game is over; companion dragon score shows the result")


def require_hero_turn(den: Den, hero: Figure) -> None:
    """A hero acts in his own turn, while he is in the den."""
    require_playing(den)
    if hero.kind != "hero":
        raise InputError(f"the {hero.name} is not a hero")
    if hero.status != IN:
        raise InputError(f"{hero.name} is {hero.status} and can no longer act")
    if den.phase != HEROES:
        raise InputError("it is the dragon player's turn", hint="companion dragon end-turn ends it")
    if den.turn != hero.key:
        current = den.figure(den.turn)
        raise InputError(
            f"it is {current.name if current else 'nobody'}'s turn, not {hero.name}'s",
            hint="companion dragon end-turn passes the turn on",
        )


def require_dragon_turn(den: Den) -> None:
    require_playing(den)
    if den.phase != DRAGON:
        who = den.figure(den.turn)
        raise InputError(
            f"it is {who.name if who else 'the heroes'}'s turn; monsters and the dragon act in the dragon player's turn"
        )


def paralysed(den: Den, hero: Figure) -> bool:
    return hero.paralysed == den.round


def require_free(den: Den, hero: Figure, what: str) -> None:
    if paralysed(den, hero):
        raise InputError(f"{hero.name} is paralysed this turn and may not {what}")


def require_attack_left(den: Den, f: Figure, what: str = "attack") -> None:
    """One attack a turn; an ability used instead of an attack takes its place; a hero who ran may not attack."""
    if f.key in den.acted:
        raise InputError(f"{f.name} has already attacked (or used an ability instead) this turn")
    if f.key in den.ran:
        raise InputError(f"{f.name} ran this turn and may not {what}")


def require_ability(hero: Figure, key: str) -> data.Ability:
    ability = data.ABILITIES.get(key)
    card = data.HERO_BY_KEY.get(hero.key)
    if ability is None or card is None or key not in card.abilities:
        have = ", ".join(data.ABILITIES[a].name for a in card.abilities) if card else "none"
        raise InputError(f"{hero.name} has no ability {key!r}; {hero.name}'s: {have}")
    if ability.max_uses is not None and hero.uses.get(key, 0) >= ability.max_uses:
        raise InputError(f"{hero.name} has used {ability.name} {ability.max_uses} times, its limit")
    return ability


def uses_left(hero: Figure, key: str) -> int | None:
    ability = data.ABILITIES[key]
    if ability.max_uses is None:
        return None
    return ability.max_uses - hero.uses.get(key, 0)


# ---- turns ----------------------------------------------------------------------------------------


def start_round(den: Den) -> None:
    """A new round: every figure may act again; the heroes move first, largest number first."""
    den.round += 1
    den.phase = HEROES
    den.acted, den.moved, den.ran, den.sneaking = [], [], [], []
    den.breathed = False
    order = den.heroes_in()
    den.turn = order[0].key if order else ""


def next_hero(den: Den, after: int) -> Figure | None:
    """The next hero in the den after hero number ``after`` (turn order runs from 7 down to 1)."""
    for h in den.heroes_in():
        if h.number < after:
            return h
    return None


def nobody_inside(den: Den) -> bool:
    return not den.heroes_in()


# ---- the end ------------------------------------------------------------------------------------


def final_score(den: Den, values: dict[str, Any]) -> Score:
    """Read the heroes' haul and the dragon's happiness against their charts."""
    escaped = [h for h in den.heroes if h.status == ESCAPED]
    lost = [h for h in den.heroes if h.status in (SLAIN, TRAPPED)]
    slain = sum(1 for h in den.heroes if h.status == SLAIN)
    trapped = sum(1 for h in den.heroes if h.status == TRAPPED)
    carried = sum(chit_value(values, c) for h in escaped for c in h.treasure)
    haul = carried - data.MONUMENT_GP * len(lost)
    dragon_slain = den.dragon is not None and den.dragon.status == SLAIN
    held = sum(1 for h in lost for c in h.treasure if c[0] == "D")
    happiness = len(lost) + len(den.hoard) + held
    hrow = heroes_row(haul, dragon_slain=dragon_slain, all_lost=not escaped)
    drow = dragon_row(happiness, dragon_slain=dragon_slain, all_lost=not escaped)
    return Score(
        haul=haul,
        carried=carried,
        slain=slain,
        trapped=trapped,
        escaped=len(escaped),
        heroes_result=hrow.result,
        heroes_outcome=hrow.outcome,
        happiness=happiness,
        hoard_left=len(den.hoard),
        held_by_lost=held,
        dragon_result=drow.result,
        dragon_outcome=drow.outcome,
    )


def heroes_row(haul: int, *, dragon_slain: bool, all_lost: bool) -> data.ChartRow:
    """The heroes' chart: a slain dragon first, then every hero lost, then the haul (below 0 reads as 0)."""
    chart = data.HEROES_CHART
    if dragon_slain:
        return chart[0]
    if all_lost:
        return chart[-1]
    return _band(chart, max(0, haul))


def dragon_row(points: int, *, dragon_slain: bool, all_lost: bool) -> data.ChartRow:
    """The dragon's chart: a slain dragon first (it cannot rule), then every hero lost, then the points."""
    chart = data.DRAGON_CHART
    if dragon_slain:
        return chart[-1]
    if all_lost:
        return chart[0]
    return _band(chart, points)


def _band(chart: tuple[data.ChartRow, ...], value: int) -> data.ChartRow:
    for row in chart:
        if row.lo is not None and value >= row.lo and (row.hi is None or value <= row.hi):
            return row
    raise ValueError(value)  # pragma: no cover - the bands cover 0 and up
