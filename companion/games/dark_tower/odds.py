"""Exact odds of the Dark Tower's two rolls, as fractions, from the dice core's ``dt_pool``.

- An obstacle check: roll ``dice`` (3, one more per "+1 кубик" item) and count the numbers only; it
  is passed when the sum is *more than* the check value. Each ♥ heals 1.
- A fight: roll ``dice`` (4, plus extra dice) and add the numbers to the heroes' ``bonus``; each ★
  is 1 energy the roller may spend on activated spells (``boosts``, each ``(bonus, cost)``) in this
  same fight. The monster (or the group, by the sum of its strengths) is beaten when the total is
  more than its ``strength``; otherwise it deals the difference (0 on a tie, when it is not beaten).

Pure functions, no I/O; these are the groundwork for whole-game simulation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from companion.dice.odds import dt_pool
from companion.games.dark_tower import data
from companion.sim.fights import Chart, FightOutcome

Boost = tuple[int, int]  # an activated spell: (bonus, cost in ★)


@dataclass(frozen=True)
class CheckOdds:
    """An obstacle check: the chance to pass, and how many hearts heal."""

    check: int
    dice: int
    passed: Fraction
    hearts: dict[int, Fraction]

    @property
    def failed(self) -> Fraction:
        return 1 - self.passed


@dataclass(frozen=True)
class FightOdds:
    """A fight's outcome distribution.

    ``outcomes`` maps (margin, hearts, stars) to its chance, where margin is the final total (dice,
    bonus and the best use of the stars on ``boosts``) minus the strength: above 0 the monster is
    beaten; otherwise it deals ``-margin`` damage.
    """

    bonus: int
    strength: int
    dice: int
    boosts: tuple[Boost, ...]
    outcomes: dict[tuple[int, int, int], Fraction]

    @property
    def win(self) -> Fraction:
        return sum((p for (m, _, _), p in self.outcomes.items() if m > 0), Fraction(0))

    @property
    def tie(self) -> Fraction:
        """Equal totals: the monster is not beaten and deals 0 damage."""
        return sum((p for (m, _, _), p in self.outcomes.items() if m == 0), Fraction(0))

    @property
    def loss(self) -> Fraction:
        """The monster is not beaten (a tie included)."""
        return 1 - self.win

    @property
    def damage(self) -> dict[int, Fraction]:
        """Damage dealt → chance, over the outcomes where the monster is not beaten (0 is a tie)."""
        out: dict[int, Fraction] = {}
        for (m, _, _), p in self.outcomes.items():
            if m <= 0:
                out[-m] = out.get(-m, Fraction(0)) + p
        return dict(sorted(out.items()))

    @property
    def hearts(self) -> dict[int, Fraction]:
        return _marginal(self.outcomes, 1)

    @property
    def energy(self) -> dict[int, Fraction]:
        """★ rolled (the energy gained), before any is spent."""
        return _marginal(self.outcomes, 2)

    @property
    def mean_damage(self) -> Fraction:
        return sum((d * p for d, p in self.damage.items()), Fraction(0))


def _marginal(outcomes: dict[tuple[int, int, int], Fraction], index: int) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for k, p in outcomes.items():
        out[k[index]] = out.get(k[index], Fraction(0)) + p
    return dict(sorted(out.items()))


@cache
def _pool(dice: int) -> dict[tuple[int, int, int], Fraction]:
    return dt_pool(dice)


def check_odds(check: int, dice: int = data.CHECK_DICE) -> CheckOdds:
    """P(the numbers on ``dice`` Dark Tower dice sum to more than ``check``), and the hearts."""
    passed = Fraction(0)
    hearts: dict[int, Fraction] = {}
    for (s, h, _), p in _pool(dice).items():
        if s > check:
            passed += p
        hearts[h] = hearts.get(h, Fraction(0)) + p
    return CheckOdds(check, dice, passed, dict(sorted(hearts.items())))


def check_chance(check: int, dice: int = data.CHECK_DICE) -> Fraction:
    """The chance to pass an obstacle whose check value is ``check``."""
    return check_odds(check, dice).passed


def boost_table(boosts: Sequence[Boost], most: int) -> list[int]:
    """``table[e]``: the most bonus ``e`` energy buys (0 ≤ e ≤ ``most``), each spell cast at most once.

    A 0/1 knapsack over the spells (bonus as the value, ★ as the weight): ``len(boosts) × most`` steps,
    so sixteen spells cost no more than a few (trying every subset doubled the time with each spell).
    """
    table = [0] * (most + 1)
    for bonus, cost in boosts:
        if bonus <= 0:
            continue  # a spell that adds nothing is never worth its energy
        cost = max(0, cost)
        for e in range(most, cost - 1, -1):
            if table[e - cost] + bonus > table[e]:
                table[e] = table[e - cost] + bonus
    return table


def best_boost(stars: int, boosts: Sequence[Boost]) -> int:
    """The most bonus ``stars`` energy buys, each activated spell cast at most once in a fight."""
    return boost_table(boosts, max(0, stars))[max(0, stars)]


def fight_odds(bonus: int, strength: int, dice: int = data.FIGHT_DICE, boosts: Sequence[Boost] = ()) -> FightOdds:
    """The exact outcome of a fight: heroes' ``bonus`` + ``dice`` (+ the best use of ★) vs ``strength``."""
    boosts = tuple(boosts)
    outcomes: dict[tuple[int, int, int], Fraction] = {}
    bought = boost_table(boosts, dice)  # at most one ★ a die
    for (s, h, st), p in _pool(dice).items():
        margin = bonus + s + bought[min(st, dice)] - strength
        k = (margin, h, st)
        outcomes[k] = outcomes.get(k, Fraction(0)) + p
    return FightOdds(bonus, strength, dice, boosts, outcomes)


def win_chance(bonus: int, strength: int, dice: int = data.FIGHT_DICE, boosts: Sequence[Boost] = ()) -> Fraction:
    """The chance the dice bring the heroes' total above the monster's strength."""
    return fight_odds(bonus, strength, dice, boosts).win


def fall_chance(odds: FightOdds, health: int, max_health: int, *, heals: bool = True) -> Fraction:
    """The chance a hero with ``health`` falls (reaches 0) in this fight.

    The roller (``heals``) first restores 1 per ♥, up to ``max_health``, then takes the damage; a
    helper takes the same damage without the hearts.
    """
    p = Fraction(0)
    for (m, h, _), q in odds.outcomes.items():
        if m > 0:
            continue
        after = min(max_health, health + h * data.HEAL_PER_HEART) if heals else health
        if after + m <= 0:
            p += q
    return p


def fight_outcome(
    bonus: int,
    strength: int | Sequence[int],
    dice: int = data.FIGHT_DICE,
    boosts: Sequence[Boost] = (),
    *,
    health: int | None = None,
    max_health: int | None = None,
    helper: tuple[int, int] | None = None,
) -> FightOutcome:
    """:func:`fight_odds` as the shells show every game's fight (``companion odds fight dark-tower``).

    ``strength`` is a monster's, or a group's strengths (summed). With ``health`` (and ``max_health``,
    which the ♥ heal up to), the roller's chance to fall and the health left; ``helper`` is a
    helper's (health, max health): the same damage, no hearts.
    """
    strengths = [strength] if isinstance(strength, int) else list(strength)
    total = sum(strengths)
    fo = fight_odds(bonus, total, dice, boosts)
    from companion.i18n import _, ngettext

    group = str(total)
    if len(strengths) > 1:
        group = ngettext("a group of {n} ({sum} = {total})", "a group of {n} ({sum} = {total})", len(strengths)).format(
            n=len(strengths), sum=" + ".join(map(str, strengths)), total=total
        )
    fight = ngettext(
        "{n} die {bonus} against strength {group}", "{n} dice {bonus} against strength {group}", fo.dice
    ).format(n=fo.dice, bonus=f"{bonus:+d}", group=group)
    if fo.boosts:
        fight += _(", ★ spells ") + ", ".join(_("+{b} for {c}★").format(b=b, c=c) for b, c in fo.boosts)
    rows: list[tuple[str, Fraction]] = [(_("beaten"), fo.win)]
    for dmg, p in fo.damage.items():
        rows.append((_("tie, no damage") if dmg == 0 else ngettext("{n} damage", "{n} damage", dmg).format(n=dmg), p))
    charts = [Chart(_("The outcome"), tuple(rows))]
    death = hp_left = None
    notes = [_("A fight is one roll: beaten when the total is more than the strength, else the difference is damage.")]
    if health is not None:
        top = max(health, max_health or 0)
        death = fall_chance(fo, health, top)
        after: dict[int, Fraction] = {}
        for (m, h, _s), q in fo.outcomes.items():
            healed = min(top, health + h * data.HEAL_PER_HEART)
            left = max(0, healed + m) if m <= 0 else healed
            after[left] = after.get(left, Fraction(0)) + q
        hp_left = sum((h * p for h, p in after.items()), Fraction(0))
        charts.append(
            Chart(
                _("The roller's health after the fight (from {health}/{max}, each ♥ heals 1 first)").format(
                    health=health, max=top
                ),
                tuple((_("fallen") if h == 0 else str(h), p) for h, p in sorted(after.items())),
            )
        )
        fight += _(", the roller at {health}/{max} health").format(health=health, max=top)
    more: list[tuple[str, Fraction]] = []
    if helper is not None:
        h_health, h_top = helper
        more.append(
            (
                _("the helper ({health}/{max}) falls").format(health=h_health, max=h_top),
                fall_chance(fo, h_health, h_top, heals=False),
            )
        )
        notes.append(_("A helper takes the same damage and heals nothing: the hearts are the roller's."))
    return FightOutcome(
        game="dark-tower",
        fight=fight,
        win=fo.win,
        lose=fo.loss - fo.tie,
        draw=fo.tie,
        death=death,
        hp_left=hp_left,
        hp_name=_("health"),
        words={
            "win": _("beaten"),
            "lose": _("not beaten, damage"),
            "draw": _("tie, no damage"),
            "death": _("the roller falls"),
        },
        more=tuple(more),
        charts=tuple(charts),
        notes=tuple(notes),
        inputs={
            "bonus": bonus,
            "strength": strengths,
            "dice": fo.dice,
            "boosts": [list(b) for b in fo.boosts],
            "health": health,
            "max_health": max(health, max_health or 0) if health is not None else None,
            "helper": list(helper) if helper else None,
        },
    )
