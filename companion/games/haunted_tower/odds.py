"""Exact odds for the Haunted Tower's fights, as fractions: one roll, the initiative, a whole duel.

A duel is hero against monster with initiative rolled every round, each side attacking once per
round, until the monster dies, the hero falls (HP to zero: a death, which ends the encounter), the
hero runs away, or the robber fly goes away. The hero may run when their HP are at or below a
threshold. The chain of states is absorbing: HP, items and the drain only go one way, and the only
loops are rounds where nothing changes, so each state is solved exactly as ``v = a / (1 - p_stay)``.

What the duel takes into account, from the listing: the pit viper's +1 and the zombie's lost
initiative, ties re-rolled; double damage; the 1d10 tables (the basilisk's stone ends the duel as a
fall; the carrion crawler's −2 on the next attack roll; the ghoul's lost move does not change the
fight); energy drain (1 or 2 HP and, once per encounter, −1 on the hero's attack from then on); the
robber fly (no damage; it takes an item per hit and goes away when it hits a hero with none); the
rust monster (no damage; the metal items it eats give no bonus against it anyway); monsters only some
attacks can damage (pass ``hero_damage=0``). It assumes the hero keeps attacking with the same
weapon, and that a limited-use weapon lasts the whole duel.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache

from companion.dice.odds import percent
from companion.games.haunted_tower.data import D6, D10
from companion.games.haunted_tower.monsters import CRAWLER_PENALTY, EFFECT_DAMAGE, Monster

ZERO = Fraction(0)
ONE = Fraction(1)

#: Where in a round a duel is: ``round`` (initiative next), the hero's turn with the monster still to
#: attack this round (``hero-first``) or last in it (``hero-last``), the same for the monster, and the
#: monster's extra attack after a failed run-away (``monster-extra``).
TURNS = ("round", "hero-first", "hero-last", "monster-first", "monster-last", "monster-extra")


def at_least(sides: int, target: int, mod: int = 0) -> Fraction:
    """The chance that 1d``sides`` + ``mod`` is ``target`` or more."""
    need = target - mod
    good = sides - max(1, need) + 1
    return Fraction(max(0, min(sides, good)), sides)


def hit_chance(attack: int, ac: int) -> Fraction:
    """One attack: 1d6 + attack number at or above the armor class."""
    return at_least(D6, ac, attack)


def run_chance(monster_att: int) -> Fraction:
    """Running away: 1d10 at or above the monster's attack number."""
    return at_least(D10, monster_att)


def initiative_chance(monster: Monster) -> Fraction:
    """The chance the hero attacks first in a round (ties are rolled again; the zombie always loses)."""
    if monster.initiative == "last":
        return ONE
    bonus = monster.initiative_bonus
    wins = ties = 0
    for h in range(1, D6 + 1):
        for m in range(1, D6 + 1):
            if h > m + bonus:
                wins += 1
            elif h == m + bonus:
                ties += 1
    return Fraction(wins, D6 * D6 - ties)


@dataclass(frozen=True, slots=True)
class DuelOdds:
    """How a duel ends, exactly; the five chances add up to 1."""

    #: The hero kills the monster.
    win: Fraction
    #: The hero's HP reach zero (or the basilisk turns them to stone): a death.
    fall: Fraction
    #: The hero runs away.
    escape: Fraction
    #: The robber fly goes away.
    away: Fraction
    #: Neither side can ever end it (no damage either way, and no running).
    endless: Fraction

    def as_dict(self) -> dict[str, Fraction]:
        return {
            "win": self.win,
            "fall": self.fall,
            "escape": self.escape,
            "away": self.away,
            "endless": self.endless,
        }


# A duel state: (hero HP, monster HP, −1 taken in this duel (0/1), may still drain, slowed, items).
_State = tuple[int, int, int, bool, bool, int]
_Vec = tuple[Fraction, Fraction, Fraction, Fraction, Fraction]
_WIN: _Vec = (ONE, ZERO, ZERO, ZERO, ZERO)
_FALL: _Vec = (ZERO, ONE, ZERO, ZERO, ZERO)
_ESCAPE: _Vec = (ZERO, ZERO, ONE, ZERO, ZERO)
_AWAY: _Vec = (ZERO, ZERO, ZERO, ONE, ZERO)
_ENDLESS: _Vec = (ZERO, ZERO, ZERO, ZERO, ONE)
_NONE: _Vec = (ZERO, ZERO, ZERO, ZERO, ZERO)


def _hit_effects(monster: Monster) -> tuple[tuple[Fraction, str], ...]:
    """What a monster's hit does, with the chance of each (the 1d10 tables read as tenths)."""
    if monster.on_hit == "table":
        return tuple((Fraction(hi - lo + 1, D10), effect) for lo, hi, effect in monster.table)
    return ((ONE, monster.on_hit),)


@lru_cache(maxsize=512)
def duel(
    monster: Monster,
    *,
    hero_hp: int,
    hero_attack: int,
    hero_ac: int,
    hero_damage: int,
    monster_hp: int | None = None,
    run_at: int = 0,
    items: int = 0,
    drained: bool = False,
    slowed: bool = False,
    turn: str = "round",
    free_attack: bool = True,
) -> DuelOdds:
    """The exact chances of how a duel ends (cached: the menu asks the same question again).

    - ``hero_attack``, ``hero_ac``: the hero's numbers against this monster with the weapon used
      (every bonus and −1 chit counted, the carrion crawler's venom not: that is ``slowed``);
    - ``hero_damage``: HP one hit takes off the monster (0 if the attack cannot damage it);
    - ``monster_hp``: its HP now (default: the listing's);
    - ``run_at``: on their turn the hero runs away instead of attacking while their HP are at or
      below this (0: never runs);
    - ``items``: magic items the hero holds (only the robber fly cares);
    - ``drained``: the monster already gave its one −1 chit in this encounter (already in ``hero_attack``);
    - ``slowed``: the hero's next attack roll is at −2 (carrion crawler);
    - ``turn``: where in the round the duel starts (see ``TURNS``);
    - ``free_attack``: a failed run-away after the monster attacked this round gives it another
      attack at once (the default reading; False for the ``run-fail-turn`` variant).
    """
    if turn not in TURNS:
        raise ValueError(f"turn is one of {TURNS}")
    if hero_hp <= 0:
        return DuelOdds(*_FALL)
    m_hp = monster.hp if monster_hp is None else monster_hp
    if m_hp <= 0:
        return DuelOdds(*_WIN)
    p_first = initiative_chance(monster)
    p_run = run_chance(monster.att)
    effects = _hit_effects(monster)
    drains = monster.on_hit in ("drain", "double-drain")

    def p_hero_hit(s: _State) -> Fraction:
        return hit_chance(hero_attack - s[2] + (CRAWLER_PENALTY if s[4] else 0), monster.ac)

    p_monster_hit = hit_chance(monster.att, hero_ac)

    def hero_acts(s: _State) -> list[tuple[Fraction, _State | _Vec, bool]]:
        """(chance, next state or end, failed run) for the hero's turn."""
        h, m, pen, may, _, it = s
        if run_at and h <= run_at:
            return [(p_run, _ESCAPE, False), (1 - p_run, s, True)]
        p = p_hero_hit(s)
        after = (h, m, pen, may, False, it)
        if hero_damage <= 0 or p == 0:
            return [(ONE, after, False)]
        left = m - hero_damage
        hit: _State | _Vec = _WIN if left <= 0 else (h, left, pen, may, False, it)
        return [(p, hit, False), (1 - p, after, False)]

    def monster_acts(s: _State) -> list[tuple[Fraction, _State | _Vec]]:
        h, m, pen, may, slow, it = s
        out: list[tuple[Fraction, _State | _Vec]] = [(1 - p_monster_hit, s)]
        for p, effect in effects:
            q = p_monster_hit * p
            if effect == "steal":
                out.append((q, (h, m, pen, may, slow, it - 1) if it > 0 else _AWAY))
            elif effect == "rust":
                out.append((q, s))
            elif effect == "stone":
                out.append((q, _FALL))
            else:
                nh = h - EFFECT_DAMAGE[effect]
                npen, nmay = pen, may
                if drains and may:
                    npen, nmay = pen + 1, False
                nslow = slow or effect == "slow"
                out.append((q, _FALL if nh <= 0 else (nh, m, npen, nmay, nslow, it)))
        return out

    @cache
    def solve(s: _State) -> _Vec:
        """The chances from the start of a round in state ``s``."""
        vec, stay = node("round", s, s, True)
        if stay == 1:
            return _ENDLESS
        return tuple(v / (1 - stay) for v in vec)  # type: ignore[return-value]

    @cache
    def node(pos: str, s: _State, root: _State, top: bool = False) -> tuple[_Vec, Fraction]:
        """(chances, weight of coming back to the start of a round in ``root``) from ``pos`` in ``s``."""
        if pos == "round" and not top:
            if s == root:
                return _NONE, ONE
            return solve(s), ZERO
        parts: list[tuple[Fraction, str, _State | _Vec]] = []
        if pos == "round":
            parts = [(p_first, "hero-first", s), (1 - p_first, "monster-first", s)]
        elif pos in ("hero-first", "hero-last"):
            for p, nxt, failed in hero_acts(s):
                if failed and pos == "hero-last":
                    parts.append((p, "monster-extra" if free_attack else "round", nxt))
                else:
                    parts.append((p, "monster-last" if pos == "hero-first" else "round", nxt))
        else:
            for p, nxt in monster_acts(s):
                parts.append((p, "hero-last" if pos == "monster-first" else "round", nxt))
        vec = list(_NONE)
        stay = ZERO
        for p, where, nxt in parts:
            if p == 0:
                continue
            if len(nxt) == 5:  # an end (a state has six fields)
                sub, w = nxt, ZERO
            else:
                sub, w = node(where, nxt, root)  # type: ignore[arg-type]
            for i in range(5):
                vec[i] += p * sub[i]
            stay += p * w
        return tuple(vec), stay  # type: ignore[return-value]

    start: _State = (hero_hp, m_hp, 0, not drained, slowed, items)
    if turn == "round":
        return DuelOdds(*solve(start))
    vec, stay = node(turn, start, start)
    if stay:
        back = solve(start)
        vec = tuple(v + stay * b for v, b in zip(vec, back, strict=True))  # type: ignore[assignment]
    return DuelOdds(*vec)


def duel_text(odds: DuelOdds) -> str:
    """``win 63.2%, fall 36.8%`` (the ends that can happen, in a fixed order)."""
    names = {"win": "win", "fall": "fall", "escape": "get away", "away": "fly goes away", "endless": "no end"}
    return ", ".join(f"{names[k]} {percent(v)}" for k, v in odds.as_dict().items() if v)
