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
from math import gcd
from typing import TYPE_CHECKING

from companion.dice.odds import percent
from companion.games.haunted_tower.data import D6, D10
from companion.games.haunted_tower.data.monsters import CRAWLER_PENALTY, EFFECT_DAMAGE, Monster
from companion.i18n import possessive
from companion.sim.fights import Chart, FightOutcome

if TYPE_CHECKING:
    from companion.games.haunted_tower.model import Item

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
#: How a duel ends, with the hero's HP then: ("win" | "fall" | "escape" | "away" | "endless", HP).
End = tuple[str, int]
#: Ends as integer numerators over one denominator (``math.gcd`` on ints is far cheaper than Fractions).
_Ends = tuple[dict[End, int], int]
ENDS = ("win", "fall", "escape", "away", "endless")
_NO_ENDS: _Ends = ({}, 1)


def _hit_effects(monster: Monster) -> tuple[tuple[Fraction, str], ...]:
    """What a monster's hit does, with the chance of each (the 1d10 tables read as tenths)."""
    if monster.on_hit == "table":
        return tuple((Fraction(hi - lo + 1, D10), effect) for lo, hi, effect in monster.table)
    return ((ONE, monster.on_hit),)


def _combine(terms: list[tuple[Fraction, _Ends]]) -> _Ends:
    """``sum(p * ends)`` with one common denominator, reduced."""
    lcm = 1
    for p, (_, d) in terms:
        q = p.denominator * d
        if lcm % q:
            lcm = lcm // gcd(lcm, q) * q
    out: dict[End, int] = {}
    for p, (nums, d) in terms:
        f = p.numerator * (lcm // (p.denominator * d))
        for k, v in nums.items():
            out[k] = out.get(k, 0) + f * v
    g = gcd(lcm, *out.values())
    if g > 1:
        return {k: v // g for k, v in out.items()}, lcm // g
    return out, lcm


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
    ends = duel_ends(
        monster,
        hero_hp=hero_hp,
        hero_attack=hero_attack,
        hero_ac=hero_ac,
        hero_damage=hero_damage,
        monster_hp=monster_hp,
        run_at=run_at,
        items=items,
        drained=drained,
        slowed=slowed,
        turn=turn,
        free_attack=free_attack,
    )
    total = dict.fromkeys(ENDS, ZERO)
    for (kind, _), p in ends:
        total[kind] += p
    return DuelOdds(**total)


@lru_cache(maxsize=512)
def duel_ends(
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
) -> tuple[tuple[End, Fraction], ...]:
    """:func:`duel` in full: each way the duel can end with the hero's HP then, and its chance, as
    ``((end, HP), chance)`` pairs (a fall leaves 0 HP). Same arguments as :func:`duel`."""
    if turn not in TURNS:
        raise ValueError(f"turn is one of {TURNS}")
    if hero_hp <= 0:
        return ((("fall", 0), ONE),)
    m_hp = monster.hp if monster_hp is None else monster_hp
    if m_hp <= 0:
        return ((("win", hero_hp), ONE),)
    p_first = initiative_chance(monster)
    p_run = run_chance(monster.att)
    effects = _hit_effects(monster)
    drains = monster.on_hit in ("drain", "double-drain")

    def p_hero_hit(s: _State) -> Fraction:
        return hit_chance(hero_attack - s[2] + (CRAWLER_PENALTY if s[4] else 0), monster.ac)

    p_monster_hit = hit_chance(monster.att, hero_ac)

    def hero_acts(s: _State) -> list[tuple[Fraction, _State | End, bool]]:
        """(chance, next state or end, failed run) for the hero's turn."""
        h, m, pen, may, _, it = s
        if run_at and h <= run_at:
            return [(p_run, ("escape", h), False), (1 - p_run, s, True)]
        p = p_hero_hit(s)
        after = (h, m, pen, may, False, it)
        if hero_damage <= 0 or p == 0:
            return [(ONE, after, False)]
        left = m - hero_damage
        hit: _State | End = ("win", h) if left <= 0 else (h, left, pen, may, False, it)
        return [(p, hit, False), (1 - p, after, False)]

    def monster_acts(s: _State) -> list[tuple[Fraction, _State | End]]:
        h, m, pen, may, slow, it = s
        out: list[tuple[Fraction, _State | End]] = [(1 - p_monster_hit, s)]
        for p, effect in effects:
            q = p_monster_hit * p
            if effect == "steal":
                out.append((q, (h, m, pen, may, slow, it - 1) if it > 0 else ("away", h)))
            elif effect == "rust":
                out.append((q, s))
            elif effect == "stone":
                out.append((q, ("fall", 0)))
            else:
                nh = h - EFFECT_DAMAGE[effect]
                npen, nmay = pen, may
                if drains and may:
                    npen, nmay = pen + 1, False
                nslow = slow or effect == "slow"
                out.append((q, ("fall", 0) if nh <= 0 else (nh, m, npen, nmay, nslow, it)))
        return out

    @cache
    def solve(s: _State) -> _Ends:
        """The ends from the start of a round in state ``s``."""
        ends, stay = node("round", s, s, True)
        if stay == 1:
            return {("endless", s[0]): 1}, 1
        return _combine([(1 / (1 - stay), ends)])

    @cache
    def node(pos: str, s: _State, root: _State, top: bool = False) -> tuple[_Ends, Fraction]:
        """(ends, weight of coming back to the start of a round in ``root``) from ``pos`` in ``s``."""
        if pos == "round" and not top:
            if s == root:
                return _NO_ENDS, ONE
            return solve(s), ZERO
        parts: list[tuple[Fraction, str, _State | End]] = []
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
        terms: list[tuple[Fraction, _Ends]] = []
        stay = ZERO
        for p, where, nxt in parts:
            if p == 0:
                continue
            if len(nxt) == 2:  # an end (a state has six fields)
                terms.append((p, ({nxt: 1}, 1)))  # type: ignore[dict-item]
                continue
            sub, w = node(where, nxt, root)  # type: ignore[arg-type]
            terms.append((p, sub))
            if w:
                stay += p * w
        return _combine(terms), stay

    start: _State = (hero_hp, m_hp, 0, not drained, slowed, items)
    if turn == "round":
        nums, den = solve(start)
    else:
        got, stay = node(turn, start, start)
        nums, den = _combine([(ONE, got), (stay, solve(start))]) if stay else got
    return tuple(sorted((k, Fraction(v, den)) for k, v in nums.items() if v))


def uses_note(weapon: Item | None) -> str:
    """What the whole-fight odds assume of a weapon with limited uses ("" for any other attack)."""
    if weapon is None or weapon.uses is None:
        return ""
    left = weapon.uses if weapon.left is None else weapon.left
    return f"counting {possessive(weapon.name)} {left} use{'s' if left != 1 else ''} left as lasting the whole fight"


def duel_text(odds: DuelOdds) -> str:
    """``win 63.2%, fall 36.8%`` (the ends that can happen, in a fixed order)."""
    names = {"win": "win", "fall": "fall", "escape": "get away", "away": "fly goes away", "endless": "no end"}
    return ", ".join(f"{names[k]} {percent(v)}" for k, v in odds.as_dict().items() if v)


# ---- every game's fight odds: companion odds fight haunted-tower ---------------------------------


def fight_outcome(
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
    hero: str = "The hero",
) -> FightOutcome:
    """:func:`duel` as the shells show every game's fight (``companion odds fight haunted-tower``):
    win, fall (a death), get away, and the hero's HP at the end. Same arguments as :func:`duel`;
    ``hero`` names the hero in the words."""
    args = {
        "hero_hp": hero_hp,
        "hero_attack": hero_attack,
        "hero_ac": hero_ac,
        "hero_damage": hero_damage,
        "monster_hp": monster_hp,
        "run_at": run_at,
        "items": items,
        "drained": drained,
        "slowed": slowed,
        "turn": turn,
        "free_attack": free_attack,
    }
    ends = duel_ends(monster, **args)  # type: ignore[arg-type]
    o = duel(monster, **args)  # type: ignore[arg-type]
    hp: dict[int, Fraction] = {}
    on_win = ZERO
    for (kind, h), p in ends:
        hp[h] = hp.get(h, ZERO) + p
        if kind == "win":
            on_win += h * p
    m_hp = monster.hp if monster_hp is None else monster_hp
    fight = f"{hero} (HP {hero_hp}, Att {hero_attack}, AC {hero_ac}) against the {monster.name} (HP {m_hp}"
    fight += f" of {monster.hp})" if m_hp != monster.hp else ")"
    if run_at:
        fight += f", running at {run_at} HP or less"
    more: list[tuple[str, Fraction]] = []
    who = "the hero" if hero == "The hero" else hero  # in the middle of a line
    if monster.initiative != "last":
        more.append((f"{who} attacks first in a round", initiative_chance(monster)))
    more.append((f"{possessive(who)} attack hits", hit_chance(hero_attack - (2 if slowed else 0), monster.ac)))
    more.append((f"the {monster.name}'s attack hits", hit_chance(monster.att, hero_ac)))
    more.append(("running away succeeds (each try)", run_chance(monster.att)))
    notes = [
        "Initiative is rolled every round (ties again); the hero attacks with the same weapon throughout, "
        "and a weapon with limited uses is counted as lasting the whole fight."
    ]
    if hero_damage <= 0:
        notes.append(
            f"{possessive(hero)} attack cannot damage the {monster.name}"
            + (" (only running ends it)." if run_at else ".")
        )
    elif monster.hurt_by is not None:
        notes.append(f"Only {monster.hurt_text()} can damage the {monster.name}: give --damage 0 for any other attack.")
    if monster.on_hit == "steal":
        notes.append(f"The {monster.name} takes an item on each hit and goes away on hitting a hero who has none.")
    draw = o.away + o.endless
    words = {"lose": "fall (a death)", "flee": "get away", "death": "fall (a death)"}
    if o.away and o.endless:
        words["draw"] = f"the {monster.name} goes away, or no end"
    elif o.away:
        words["draw"] = f"the {monster.name} goes away"
    else:
        words["draw"] = "neither side can ever end it"
    rows = tuple(("fallen" if h == 0 else str(h), p) for h, p in sorted(hp.items()))
    return FightOutcome(
        game="haunted-tower",
        fight=fight,
        win=o.win,
        lose=o.fall,
        flee=o.escape if run_at or o.escape else None,
        draw=draw if draw else None,
        death=o.fall,
        hp_left=sum((h * p for h, p in hp.items()), ZERO),
        hp_if_win=on_win / o.win if o.win else None,
        words=words,
        more=tuple(more),
        charts=(Chart(f"{possessive(hero)} HP at the end of the fight", rows),),
        notes=tuple(notes),
        inputs={"monster": monster.key, "hero": hero, **args, "monster_hp": m_hp},
    )
