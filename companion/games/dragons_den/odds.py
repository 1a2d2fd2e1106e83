"""Exact odds for the Dragon's Den, as Fractions: a single attack, a breath save, a Shield, a move,
and a whole exchange of blows until one side falls.

An attack succeeds on a d6 at or under the attacker's *current* health, so a wounded figure hits
less often: the odds of an exchange change with every blow. :func:`exchange` solves that chain
exactly. A figure's miss leaves the state as it was with the other figure to strike, so each pair of
healths is a two-state loop; it is solved in closed form, and the healths only go down, so the whole
fight is a small dynamic program (a 24-against-24 fight is a few hundred states).

Pure functions, no I/O; :mod:`companion.games.dragons_den.engine.attacks` shows them before each roll and the
tests check them against icepool's absorbing Markov chains.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from companion.games.dragons_den import data
from companion.sim.fights import Chart, FightOutcome

ONE = Fraction(1)
ZERO = Fraction(0)


def attack_chance(health: int) -> Fraction:
    """P(an attack succeeds): a d6 at or under the attacker's current health."""
    if health <= 0:
        return ZERO
    return Fraction(min(health, data.ATTACK_DIE), data.ATTACK_DIE)


def breath_save_chance(health: int) -> Fraction:
    """P(a hero saves against a greater breath): the same roll, a d6 at or under his current health."""
    return attack_chance(health)


def shield_chance() -> Fraction:
    """P(the Shield Spell holds): a d6 of 1 to 5."""
    return Fraction(data.SHIELD_SAVES_UP_TO, 6)


def haste_chance() -> Fraction:
    """P(the Haste Spell works): a d6 of 1 to 5 (the roll is the number of extra squares)."""
    return Fraction(data.HASTE_WORKS_UP_TO, 6)


@dataclass(frozen=True, slots=True)
class Exchange:
    """The outcome of two figures trading blows until one of them is slain.

    ``first`` strikes first. ``win`` is the chance that ``first`` slays ``second``; ``first_left``
    and ``second_left`` give, for each side, the chance it wins with that much health left.
    """

    first: int
    second: int
    win: Fraction
    first_left: dict[int, Fraction]
    second_left: dict[int, Fraction]

    @property
    def lose(self) -> Fraction:
        return ONE - self.win


Dist = tuple[tuple[tuple[int, int], Fraction], ...]


def _add(out: dict[tuple[int, int], Fraction], dist: Dist, weight: Fraction) -> None:
    if not weight:
        return
    for key, p in dist:
        out[key] = out.get(key, ZERO) + weight * p


@lru_cache(maxsize=4096)
def _fight(a: int, b: int, first_to_strike: bool) -> Dist:
    """Terminal outcomes from healths (a, b): ((winner, health left), P); winner 0 is ``a``'s side."""
    if b <= 0:
        return (((0, a), ONE),)
    if a <= 0:
        return (((1, b), ONE),)
    p, q = attack_chance(a), attack_chance(b)
    # a hits: (a, b-1) with b to strike; b hits: (a-1, b) with a to strike.
    a_hits = _fight(a, b - 1, False)
    b_hits = _fight(a - 1, b, True)
    both_miss = (ONE - p) * (ONE - q)
    norm = ONE - both_miss  # > 0: a figure with health 1 or more hits on a 1
    out: dict[tuple[int, int], Fraction] = {}
    if first_to_strike:
        _add(out, a_hits, p / norm)
        _add(out, b_hits, (ONE - p) * q / norm)
    else:
        _add(out, b_hits, q / norm)
        _add(out, a_hits, (ONE - q) * p / norm)
    return tuple(sorted(out.items()))


def exchange(first: int, second: int) -> Exchange:
    """Exact odds of ``first`` (who strikes first) and ``second`` trading single blows until one is slain.

    Both healths must be at least 1. Each blow succeeds on a d6 at or under the striker's current health
    and takes 1 health; the figures strike in turn, as a hero and a monster do in alternate turns.
    """
    if first < 1 or second < 1:
        raise ValueError("both figures need at least 1 health")
    dist = _fight(first, second, True)
    first_left = {h: p for (side, h), p in dist if side == 0}
    second_left = {h: p for (side, h), p in dist if side == 1}
    return Exchange(first, second, sum(first_left.values(), ZERO), first_left, second_left)


def breath_loss(health: int, greater: bool, *, shield: bool = False) -> dict[int, Fraction]:
    """How much health one hero loses to a breath (with Ren's Shield cast if it is needed).

    Greater breath: 2, or 1 on a save (d6 at or under current health); lesser breath: 1. With the
    Shield, the breath does no harm on a d6 of 1-5 and the spell costs 1 either way.
    """
    if greater:
        save = breath_save_chance(health)
        base = {data.GREATER_BREATH_SAVED: save, data.GREATER_BREATH_DAMAGE: ONE - save}
    else:
        base = {data.LESSER_BREATH_DAMAGE: ONE}
    if not shield:
        return {k: v for k, v in base.items() if v}
    s = shield_chance()
    out: dict[int, Fraction] = {}
    for loss, p in base.items():
        for total, q in ((data.ABILITY_COST, s), (data.ABILITY_COST + loss, ONE - s)):
            out[total] = out.get(total, ZERO) + p * q
    return {k: v for k, v in sorted(out.items()) if v}


def movement(speed: int, *, run: bool = False, haste: bool = False) -> dict[int, Fraction]:
    """The chance of each number of squares: advance 1d6 + speed, run 1d6 + 1d10 + speed, and Haste's extra 1d6.

    Haste adds the d6 it rolls on a 1-5 and nothing on a 6.
    """
    from companion.dice.expr import parse
    from companion.dice.odds import sum_counts

    counts, n = sum_counts(parse(data.RUN_DICE if run else data.ADVANCE_DICE))
    dist = {t + speed: Fraction(c, n) for t, c in counts.items()}
    if haste:
        extra = {k: Fraction(1, 6) for k in range(1, data.HASTE_WORKS_UP_TO + 1)}
        extra[0] = ONE - haste_chance()
        mixed: dict[int, Fraction] = {}
        for t, p in dist.items():
            for e, q in extra.items():
                mixed[t + e] = mixed.get(t + e, ZERO) + p * q
        dist = mixed
    return dict(sorted(dist.items()))


def at_least(dist: dict[int, Fraction], squares: int) -> Fraction:
    """P(the move reaches at least ``squares``)."""
    return sum((p for t, p in dist.items() if t >= squares), ZERO)


def reach_text(dist: dict[int, Fraction], points: int = 6) -> str:
    """``at least 6: 97%, 8: 85%, ...``: the chance a move reaches a few distances, spread over its range."""
    lo, hi = min(dist), max(dist)
    if hi == lo:
        return f"always {lo}"
    step = max(1, (hi - lo) // points)
    marks = list(range(lo + step, hi + 1, step))[:points]
    return "at least " + ", ".join(f"{n}: {pct(at_least(dist, n))}" for n in marks)


def pct(p: Fraction) -> str:
    """A chance as a short percentage: ``83%``, ``99.5%``, ``100%``; a possible outcome never reads 0%
    (``<0.1%``), nor one short of certain 100% (``>99.9%``): every game's rule."""
    value = float(p) * 100
    if ZERO < p < ONE and (value < 0.05 or value > 99.95):
        from companion.dice.odds import percent

        return percent(p)
    if p in (ONE, ZERO) or abs(value - round(value)) < 0.05:
        return f"{round(value)}%"
    return f"{value:.1f}%"


def chance_text(p: Fraction) -> str:
    """``5/6 (83.3%)``; ``never (0%)`` and ``always (100%)`` for the sure things."""
    if p in (ONE, ZERO):
        return f"{'always' if p == ONE else 'never'} ({pct(p)})"
    return f"{p.numerator}/{p.denominator} ({pct(p)})"


# ---- every game's fight odds: companion odds fight dragons-den -----------------------------------


def fight_outcome(
    health: int,
    against: int,
    *,
    first: bool = True,
    name: str = "the striker",
    other: str = "the other side",
) -> FightOutcome:
    """:func:`exchange` as the shells show every game's fight (``companion odds fight dragons-den``):
    ``name`` at ``health`` trades single blows with ``other`` at ``against`` until one falls, striking
    first unless ``first`` is False. Win, lose, and each side's health at the end."""
    if health < 1 or against < 1:
        raise ValueError("both figures need at least 1 health")
    if first:
        ex = exchange(health, against)
        win, mine, theirs = ex.win, ex.first_left, ex.second_left
    else:
        ex = exchange(against, health)
        win, mine, theirs = ex.lose, ex.second_left, ex.first_left
    lose = ONE - win
    hp_left = sum((h * p for h, p in mine.items()), ZERO)
    who = f"{name} (health {health}) against {other} (health {against})"
    who += f", {name} striking first" if first else f", {other} striking first"
    mine_rows = (("slain", lose), *((str(h), p) for h, p in sorted(mine.items())))
    theirs_rows = (("slain", win), *((str(h), p) for h, p in sorted(theirs.items())))
    return FightOutcome(
        game="dragons-den",
        fight=who[0].upper() + who[1:],
        win=win,
        lose=lose,
        death=lose,
        hp_left=hp_left,
        hp_if_win=hp_left / win if win else None,
        hp_name="health",
        words={
            "win": f"{name} wins",
            "lose": f"{name} is slain",
            "death": f"{name} is slain",
            "hp_if_win": f"when {name} wins",
        },
        more=(
            (f"{name}'s first blow hits", attack_chance(health)),
            (f"{other}'s first blow hits", attack_chance(against)),
        ),
        charts=(
            Chart(f"{name[0].upper() + name[1:]}'s health at the end", tuple(r for r in mine_rows if r[1])),
            Chart(f"{other[0].upper() + other[1:]}'s health at the end", tuple(r for r in theirs_rows if r[1])),
        ),
        notes=(
            "Single blows in turn until one falls, each hitting on a d6 at or under the striker's current health "
            "(always at 6 or more) and taking 1 health; no abilities, Shield or breath counted.",
        ),
        inputs={"health": health, "against": against, "first": first, "name": name, "other": other},
        shown_denominator=None,  # whole, as companion dragon odds gives them
    )
