"""Exact fight odds for The Inverted Tower, as fractions (groundwork for the simulator's advice).

Our combat reading (``docs/rules/inverted-tower.md``): the foes are fought one at a time, the
Skeleton Warriors first and the strong foe (a Lich, or a boss after its minions) last. Each roll is a
DC with the chosen attribute, minus the floor (not on floor 1), plus the daggers spent on that roll;
a natural 6 always passes and a natural 1 always fails. A pass kills the foe in front; a fail costs
1 HP (2 against the strong foe with the ``elites-deal-2`` variant). The fight goes on until every foe
is dead (a win) or the hero reaches 0 HP (death): there is no retreat, and no potion is counted.

Daggers: ``daggers`` is either how many the player plans to spend, one on each roll from the first
roll of the fight until they run out, or an explicit plan: how many to spend on the 1st, 2nd, ...
roll (rolls past the plan get none).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from companion.dice.odds import dc_faces_needed
from companion.sim.fights import Chart, FightOutcome

from . import data as d
from .rules import floor_penalty


@dataclass(frozen=True)
class FightOdds:
    #: The chance to kill every foe.
    win: Fraction
    #: The chance to die (1 - win: a fight ends only in one or the other).
    death: Fraction
    #: The expected HP when the fight ends, counting 0 for a death.
    hp_left: Fraction
    #: The expected HP left given a win (None when a win is impossible).
    hp_if_win: Fraction | None
    #: The chance of each HP at the end of the fight (0: dead).
    hp: dict[int, Fraction]


def plan_of(daggers: int | Sequence[int]) -> tuple[int, ...]:
    """A dagger plan: ``3`` → one on each of the first three rolls; a sequence is taken as it is."""
    if isinstance(daggers, int):
        if daggers < 0:
            raise ValueError("daggers cannot be negative")
        return (1,) * daggers
    plan = tuple(int(x) for x in daggers)
    if any(x < 0 for x in plan):
        raise ValueError("daggers cannot be negative")
    return plan


def fight_odds(
    hp: int,
    attribute: int,
    floor: int,
    normal: int,
    *,
    elite: bool = False,
    boss: bool = False,
    daggers: int | Sequence[int] = 0,
    variants: Collection[str] = (),
) -> FightOdds:
    """The exact odds of a fight.

    ``hp``: the hero's HP now; ``attribute``: the value of the attribute chosen for the fight;
    ``floor``: the floor (its penalty applies from floor 2); ``normal``: how many Skeleton Warriors
    (a boss's minions are Skeleton Warriors); ``elite``/``boss``: one strong foe more, fought last
    (they fight alike; only the XP and log differ); ``daggers``: see the module docstring;
    ``variants``: the session's variants (``elites-deal-2`` is the one that changes a fight).
    """
    if hp < 0 or normal < 0:
        raise ValueError("hp and normal cannot be negative")
    if elite and boss:
        raise ValueError("a fight has one strong foe at most: an elite or a boss")
    strong = elite or boss
    strong_damage = d.STRONG_DAMAGE_VARIANT if d.ELITES_DEAL_2 in variants else d.DAMAGE
    damages = (d.DAMAGE,) * normal + ((strong_damage,) if strong else ())
    dist = _fight(hp, attribute - floor_penalty(floor), damages, plan_of(daggers))
    win = sum((p for h, p in dist.items() if h > 0), Fraction(0))
    hp_left = sum((h * p for h, p in dist.items()), Fraction(0))
    return FightOdds(
        win=win,
        death=dist.get(0, Fraction(0)),
        hp_left=hp_left,
        hp_if_win=(hp_left / win) if win else None,
        hp=dict(sorted(dist.items())),
    )


@lru_cache(maxsize=4096)
def _fight(hp: int, base: int, damages: tuple[int, ...], plan: tuple[int, ...]) -> dict[int, Fraction]:
    """The distribution of the HP left (0 = dead) after fighting ``damages`` in order.

    A forward pass over the rolls, in integers: after ``r`` rolls, every (foes killed, HP) state
    holds how many of the ``6**r`` equally likely face sequences lead to it. Each roll kills the foe
    in front or costs HP, so a fight ends within ``foes + hp`` rolls; the ends are counted over
    ``6**(foes + hp)`` and turned into fractions once. The roll number is the layer, so a dagger
    plan (a bonus for the 1st, 2nd, ... roll) costs nothing extra. A 20-HP fight against 20 foes
    takes a few milliseconds.
    """
    foes = len(damages)
    if hp <= 0:
        return {0: Fraction(1)}
    if foes == 0:
        return {hp: Fraction(1)}
    last = len(plan)
    passing = [7 - dc_faces_needed(base + x) for x in plan]  # faces of six that pass each planned roll
    bare = 7 - dc_faces_needed(base)
    most = foes + hp
    ends: dict[int, int] = {}
    layer: dict[tuple[int, int], int] = {(0, hp): 1}
    r = 0
    while layer:
        good = passing[r] if r < last else bare
        bad = 6 - good  # a natural 6 always passes and a natural 1 always fails: both are at least 1
        r += 1
        scale = 6 ** (most - r)
        nxt: dict[tuple[int, int], int] = {}
        for (k, h), c in layer.items():
            if k + 1 == foes:
                ends[h] = ends.get(h, 0) + c * good * scale
            else:
                key = (k + 1, h)
                nxt[key] = nxt.get(key, 0) + c * good
            left = h - damages[k]
            if left <= 0:
                ends[0] = ends.get(0, 0) + c * bad * scale
            else:
                key = (k, left)
                nxt[key] = nxt.get(key, 0) + c * bad
        layer = nxt
    total = 6**most
    return {h: Fraction(c, total) for h, c in ends.items()}


def percent(p: Fraction) -> str:
    """``67.1%``; a possible outcome never reads 0.0% (``<0.1%``): every game's rule."""
    from companion.dice.odds import percent as shown

    return shown(p)


def summary(o: FightOdds) -> str:
    """``win 67.1% · die 32.9% · HP left 2.4 on a win``."""
    text = f"win {percent(o.win)} · die {percent(o.death)}"
    if o.hp_if_win is not None:
        text += f" · HP left {float(o.hp_if_win):.1f} on a win"
    return text


def foes_text(normal: int, elite: bool = False, boss: bool = False, floor: int = 1) -> str:
    """``2 Skeleton Warriors + a Lich``; the boss of the last floor is the Necromancer himself."""
    text = f"{normal} {d.NORMAL_NAME}{'s' if normal != 1 else ''}"
    if elite:
        text += f" + a {d.ELITE_NAME}"
    if boss:
        text += f" + the {d.FINAL_BOSS_NAME}" if floor >= d.LAST_FLOOR else f" + a {d.BOSS_NAME}"
    return text


def fight_outcome(
    hp: int,
    attribute: int,
    floor: int,
    normal: int,
    *,
    elite: bool = False,
    boss: bool = False,
    daggers: int | Sequence[int] = 0,
    variants: Collection[str] = (),
    label: str = "attribute",
) -> FightOutcome:
    """:func:`fight_odds` as the shells show every game's fight (``companion odds fight``, ``tower odds``).

    ``label`` names the attribute in the fight's description (``STR``, ``best attribute``).
    """
    o = fight_odds(hp, attribute, floor, normal, elite=elite, boss=boss, daggers=daggers, variants=variants)
    plan = plan_of(daggers)
    fight = f"{foes_text(normal, elite, boss, floor)} on floor {floor}, HP {hp}, {label} {attribute:+d}"
    if isinstance(daggers, int) and daggers:
        fight += ", a dagger on the first roll" if daggers == 1 else f", a dagger on each of the first {daggers} rolls"
    elif not isinstance(daggers, int) and any(plan):
        fight += ", daggers on the rolls: " + " ".join(str(x) for x in plan)
    variant_list = sorted(v for v in variants if v in d.VARIANTS)
    rows = tuple((("dead" if h == 0 else str(h)), p) for h, p in sorted(o.hp.items()))
    notes = ["No potion counted: a potion drunk before a roll heals to Max HP and changes these odds."]
    if d.ELITES_DEAL_2 in variant_list and (elite or boss):
        notes.append(f"Variant {d.ELITES_DEAL_2}: a failed roll against the {'Lich' if elite else 'boss'} costs 2 HP.")
    return FightOutcome(
        game="inverted-tower",
        fight=fight,
        win=o.win,
        lose=o.death,
        death=o.death,
        hp_left=o.hp_left,
        hp_if_win=o.hp_if_win,
        words={"lose": "die"},
        charts=(Chart("HP at the end of the fight", rows),),
        notes=tuple(notes),
        inputs={
            "hp": hp,
            "attribute": attribute,
            "floor": floor,
            "mobs": normal,
            "elite": elite,
            "boss": boss,
            "daggers": list(plan) if not isinstance(daggers, int) else daggers,
            "variants": variant_list,
        },
    )
