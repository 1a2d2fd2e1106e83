"""The fight rules as pure functions on a small immutable value: no I/O, no dice, no session.

The engine (which asks for the dice) and the odds (which count every outcome) call the same step
functions, so the odds shown before a choice are the odds of the rules being played:

- :func:`begin_round`, :func:`can_strike_first`, :func:`targets`, :func:`may_attack`: who acts;
- :func:`monster_damage`, :func:`hero_damage`: what a 2d6 total scores;
- :func:`monster_hits`, :func:`hero_strikes`, :func:`web`, :func:`cure`, :func:`flee`, :func:`leave`:
  what follows from it;
- :func:`outcome`: whether the fight is over.

A :class:`Fight` keeps the heroes as bit masks (bit 0 the Paladin ... bit 3 the Wizard) so that the
odds can memoise millions of them cheaply. Every reading of an unclear rule is in
``docs/rules/adventure-in-the-dungeon.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from companion.games.adventure_in_the_dungeon import data as D
from companion.games.adventure_in_the_dungeon.data import FIGHTER, PALADIN, RANGERESS, WIZARD, Area

#: How many of the 36 rolls of 2d6 give each total.
TWO_D6 = {t: 6 - abs(t - 7) for t in range(2, 13)}

# Variants (named readings; see docs/rules/adventure-in-the-dungeon.md).
GORGON_EACH = "gorgon-one-hit-each"
MAGIC_TWO_SKELETONS = "magic-two-skeletons"
FLEE_WITH_ALL = "flee-with-all"

# Fight outcomes.
SLAIN, WIPED, STUCK = "slain", "wiped", "stuck"


class Fight(NamedTuple):
    """Everything a fight's next step depends on. Masks hold one bit per hero, in the book's order."""

    #: Hits the monster has taken (for the skeletons: how many are destroyed).
    m: int
    #: Hits each hero has taken.
    hs: tuple[int, int, int, int]
    #: Heroes dead by something other than hits (drowned, eaten, the Creeper's poison).
    dead: int = 0
    #: Paralysed by the Cadaver Creeper until the Paladin's cure (kept from area to area).
    para: int = 0
    #: Caught in the spider's webs.
    trap: int = 0
    #: Entwined by the octopus: a miss on their next attack drowns them.
    twine: int = 0
    #: Cannot attack this round (they missed the Remorhaz last round).
    lock: int = 0
    #: Will not attack next round (missed the Remorhaz this round).
    nlock: int = 0
    #: The Paladin's cure is spent.
    cure: bool = False
    #: Heroes who attacked the monster this round (it attacks them first).
    att: int = 0
    #: Heroes the monster hit this round (the Wizard's spells then fail).
    struck: int = 0
    #: The Rangeress hit the monster before it attacked this round (the Gorgon then loses its power).
    sfirst: bool = False


def bit(h: int) -> int:
    return 1 << h


@dataclass(frozen=True, slots=True, eq=False)
class Model:
    """An area's monster against the party's numbers, with every roll's outcomes counted once.

    Compared by identity (hashing it is then free): callers cache one model per area and party.

    ``mon[h][sfirst]`` lists ``(ways out of 36, hits scored on hero h)`` for one attack of the monster;
    ``hit[h][magic]`` lists ``(ways, hits scored on the monster)`` for one attack of hero h.
    """

    area: Area
    maxh: tuple[int, int, int, int]
    to_hit: tuple[int, int, int, int]
    be_hit: tuple[int, int, int, int]
    variants: frozenset[str]
    can_hit: int
    only: int
    mon: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]
    hit: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]

    @property
    def rules(self) -> frozenset[str]:
        return self.area.rules

    @property
    def spells(self) -> bool:
        return D.NO_SPELLS not in self.area.rules

    @property
    def flee_ok(self) -> bool:
        return D.NO_FLEE not in self.area.rules


class Numbers(NamedTuple):
    """The heroes' numbers in the book's order: hits withstood, to hit, to be hit."""

    maxh: tuple[int, int, int, int]
    to_hit: tuple[int, int, int, int]
    be_hit: tuple[int, int, int, int]


def numbers(values: dict[str, Any]) -> Numbers | None:
    """The party's numbers from the text and the player's data; None while any is missing."""
    maxh, to_hit, be_hit = [], [], []
    for hero in D.HEROES:
        got = []
        for fld, given in (("hits", hero.hits), ("to_hit", hero.to_hit), ("be_hit", hero.be_hit)):
            value = given if given is not None else values.get(f"{hero.key}.{fld}")
            if not isinstance(value, int) or isinstance(value, bool):
                return None
            got.append(value)
        maxh.append(got[0])
        to_hit.append(got[1])
        be_hit.append(got[2])
    return Numbers(tuple(maxh), tuple(to_hit), tuple(be_hit))  # type: ignore[arg-type]


def area12(values: dict[str, Any]) -> Area | None:
    """Area 12 as the player entered it, or None when it holds no monster (or is not entered yet)."""
    if values.get(D.AREA12_KIND) != "monster":
        return None
    try:
        name = str(values["area12.name"]).strip() or "Area 12's monster"
        return Area(
            12,
            name,
            name,
            int(values["area12.hits"]),
            attacks=D.EVERY if int(values["area12.attacks"]) >= 4 else int(values["area12.attacks"]),
            bonus=int(values["area12.bonus"]),
            penalty=int(values["area12.penalty"]),
            damage=int(values["area12.damage"]),
            form=str(values["area12.form"]) if values.get("area12.form") in D.FORMS else "normal",
            summary="as the player entered it from the book",
        )
    except (KeyError, TypeError, ValueError):
        return None


def areas(values: dict[str, Any]) -> dict[int, Area]:
    """Every area with a monster, by number (Area 12 only if the player's book gives it one)."""
    out = {a.number: a for a in D.AREAS}
    twelve = area12(values)
    if twelve is not None:
        out[12] = twelve
    return dict(sorted(out.items()))


# ---- what a roll scores ---------------------------------------------------------------------------


def monster_roll(area: Area, be_hit: tuple[int, ...], h: int) -> tuple[int, int, tuple[tuple[str, int], ...]]:
    """The monster's attack on hero ``h``: (2d6 total needed, modifier, labelled parts of the modifier)."""
    parts: list[tuple[str, int]] = []
    if area.bonus:
        parts.append((area.monster, area.bonus))
    if h == FIGHTER and area.form in ("magic", "poison"):
        parts.append(("dwarf resists " + area.form, -1))
    return be_hit[h], sum(v for _, v in parts), tuple(parts)


def monster_damage(model: Model, h: int, total: int, sfirst: bool = False) -> int:
    """Hits scored on hero ``h`` by an attack whose total (dice and modifiers) is ``total``; 0 for a miss."""
    if total < model.be_hit[h]:
        return 0
    area = model.area
    rules = area.rules
    if D.DOUBLE_ON_12 in rules:
        return 2 if total >= 12 else 1
    if D.GORGON in rules and sfirst:
        return 1
    if D.DWARF_ONE_HIT in rules and h == FIGHTER:
        return 1
    return area.damage


def hero_roll(area: Area, to_hit: tuple[int, ...], h: int, magic: bool) -> tuple[int, int, tuple[tuple[str, int], ...]]:
    """Hero ``h``'s attack: (2d6 total needed, modifier, labelled parts)."""
    need = D.MAGIC_TO_HIT if magic else to_hit[h]
    parts = ((area.monster, -area.penalty),) if area.penalty else ()
    return need, -area.penalty, parts


def hero_damage(model: Model, h: int, total: int, magic: bool) -> int:
    """Hits scored on the monster by hero ``h``'s attack totalling ``total``; 0 for a miss."""
    need = D.MAGIC_TO_HIT if magic else model.to_hit[h]
    if total < need:
        return 0
    if not magic:
        return 1
    if D.SKELETONS in model.area.rules and MAGIC_TWO_SKELETONS not in model.variants:
        return 1  # the spell's two hits fall on one skeleton, which one hit destroys
    return D.MAGIC_HITS


def _outcomes(counter: Any, mod: int) -> tuple[tuple[int, int], ...]:
    """Group the 36 rolls of 2d6 by what they score: ((ways, hits), ...), misses first."""
    ways: dict[int, int] = {}
    for dice, n in TWO_D6.items():
        dmg = counter(dice + mod)
        ways[dmg] = ways.get(dmg, 0) + n
    return tuple((ways[d], d) for d in sorted(ways))


def compile_model(area: Area, nums: Numbers, variants: frozenset[str] | set[str] = frozenset()) -> Model:
    """Count every roll's outcomes for this monster and party once (the engine and the odds share it)."""
    only = 0
    for h in area.only:
        only |= bit(h)
    can_hit = only or 0b1111
    variants = frozenset(variants)
    shell = Model(area, nums.maxh, nums.to_hit, nums.be_hit, variants, can_hit, only, (), ())
    mon = []
    hit = []
    for h in range(4):
        _, mod, _ = monster_roll(area, nums.be_hit, h)
        mon.append(tuple(_outcomes(lambda t, h=h, sf=sf: monster_damage(shell, h, t, sf), mod) for sf in (False, True)))
        per = []
        for magic in (False, True):
            _, hmod, _ = hero_roll(area, nums.to_hit, h, magic)
            per.append(_outcomes(lambda t, h=h, mg=magic: hero_damage(shell, h, t, mg), hmod))
        hit.append(tuple(per))
    return Model(area, nums.maxh, nums.to_hit, nums.be_hit, variants, can_hit, only, tuple(mon), tuple(hit))


# ---- who is standing, who acts --------------------------------------------------------------------


def alive(model: Model, s: Fight) -> int:
    """The mask of living heroes."""
    hs, mx = s.hs, model.maxh
    return ((hs[0] < mx[0]) | (hs[1] < mx[1]) << 1 | (hs[2] < mx[2]) << 2 | (hs[3] < mx[3]) << 3) & ~s.dead


def settle(model: Model, s: Fight) -> Fight:
    """Apply what deaths cause, and drop the flags of the dead.

    - the Paladin dead with his cure unspent: a cure will never come, so the paralysed die;
    - in the spider's nest, when no untrapped hero lives, the spider eats the trapped ones.
    """
    dead = s.dead
    live = alive(model, s)
    if s.para & live and not s.cure and not live & 1:
        dead |= s.para & live
        live &= ~s.para
    if s.trap & live and not live & ~s.trap and D.WEBS in model.area.rules:
        dead |= s.trap & live
        live &= ~s.trap
    if dead == s.dead and not ((s.para | s.trap | s.twine | s.lock | s.nlock) & ~live):
        return s
    return Fight(
        s.m,
        s.hs,
        dead,
        s.para & live,
        s.trap & live,
        s.twine & live,
        s.lock & live,
        s.nlock & live,
        s.cure,
        s.att,
        s.struck,
        s.sfirst,
    )


def outcome(model: Model, s: Fight) -> str | None:
    """``slain``, ``wiped`` (every hero dead), ``stuck`` (no living hero can hurt it), or None."""
    if s.m >= model.area.hits:
        return SLAIN
    live = alive(model, s)
    if not live:
        return WIPED
    if not live & model.can_hit:
        return STUCK
    return None


def begin_round(s: Fight) -> Fight:
    """A new round: last round's misses against the Remorhaz lock those heroes out of this one."""
    return Fight(s.m, s.hs, s.dead, s.para, s.trap, s.twine, s.nlock, 0, s.cure, 0, 0, False)


def _busy(s: Fight) -> int:
    return s.para | s.trap | s.lock | s.att


def can_strike_first(model: Model, s: Fight) -> bool:
    """The Rangeress may attack before the monster: alive, free to act, and able to hurt it."""
    r = bit(RANGERESS)
    return bool(alive(model, s) & r & model.can_hit and not _busy(s) & r)


def may_attack(model: Model, s: Fight, h: int) -> bool:
    """Hero ``h`` attacks in the heroes' turn: alive, free, able to hurt it, and not attacked already."""
    b = bit(h)
    return bool(alive(model, s) & b & model.can_hit and not _busy(s) & b)


def magic(model: Model, s: Fight, h: int) -> bool:
    """The Wizard casts when spells work here and the monster did not strike him this round."""
    return h == WIZARD and model.spells and not s.struck & bit(WIZARD)


def targets(model: Model, s: Fight) -> tuple[int, ...]:
    """The heroes the monster attacks this round, in order: its attackers first, then down the list."""
    live = alive(model, s)
    pool = live
    if model.only and live & model.only:
        pool = live & model.only  # it fights only those who can fight it, while any of them lives
    order = [h for h in range(4) if pool & s.att & bit(h)] + [h for h in range(4) if pool & ~s.att & bit(h)]
    if not order:
        return ()
    area = model.area
    rules = area.rules
    if D.GORGON in rules:
        n = 1 if (s.sfirst and GORGON_EACH not in model.variants) else len(order)
    elif D.SKELETONS in rules:
        n = area.hits - s.m
    elif area.attacks == D.EVERY:
        n = len(order)
    else:
        n = area.attacks
    if area.repeat:
        return tuple(order[i % len(order)] for i in range(n))
    return tuple(order[:n])


# ---- what follows from a roll ---------------------------------------------------------------------


def monster_hits(model: Model, s: Fight, h: int, dmg: int) -> Fight:
    """The monster's attack on hero ``h`` scored ``dmg`` hits (0: it missed)."""
    if not dmg:
        return s
    b = bit(h)
    hs = list(s.hs)
    hs[h] += dmg
    para, twine, dead = s.para, s.twine, s.dead
    if hs[h] < model.maxh[h]:
        rules = model.area.rules
        if D.PARALYSE in rules:
            paladin_alive = hs[PALADIN] < model.maxh[PALADIN] and not dead & 1
            if not s.cure and paladin_alive:
                para |= b  # until the Paladin's cure removes this hit
            else:
                dead |= b  # the cure is spent (or can never come): the poison kills
        if D.ENTWINE in rules:
            twine |= b
    new = Fight(
        s.m,
        (hs[0], hs[1], hs[2], hs[3]),
        dead,
        para,
        s.trap,
        twine,
        s.lock,
        s.nlock,
        s.cure,
        s.att,
        s.struck | b,
        s.sfirst,
    )
    return settle(model, new)


def hero_strikes(model: Model, s: Fight, h: int, dmg: int, cast: bool = False, first: bool = False) -> Fight:
    """Hero ``h`` attacked and scored ``dmg`` hits (0: a miss); ``first`` for the Rangeress's first strike."""
    b = bit(h)
    if dmg:
        sfirst = s.sfirst or (first and D.GORGON in model.area.rules)
        return Fight(
            min(model.area.hits, s.m + dmg),
            s.hs,
            s.dead,
            s.para,
            s.trap,
            s.twine & ~b,
            s.lock,
            s.nlock,
            s.cure,
            s.att | b,
            s.struck,
            sfirst,
        )
    dead, nlock = s.dead, s.nlock
    if s.twine & b:
        dead |= b  # entwined and missed: dragged into the water
    if D.LOCKOUT in model.area.rules and not cast:
        nlock |= b
    new = Fight(s.m, s.hs, dead, s.para, s.trap, s.twine & ~b, s.lock, nlock, s.cure, s.att | b, s.struck, s.sfirst)
    return settle(model, new) if dead != s.dead else new


def web(model: Model, s: Fight, h: int, cut: bool) -> Fight:
    """Hero ``h``'s roll against the webs on entering the spider's nest (a miss traps them)."""
    if cut:
        return s
    new = Fight(s.m, s.hs, s.dead, s.para, s.trap | bit(h), s.twine, s.lock, s.nlock, s.cure, s.att, s.struck, s.sfirst)
    return settle(model, new)


def web_rolls(model: Model, s: Fight, h: int) -> bool:
    """Hero ``h`` rolls against the webs: alive and not paralysed (the paralysed are caught without one)."""
    return bool(alive(model, s) & bit(h) and not s.para & bit(h))


def cure_ok(model: Model, s: Fight) -> bool:
    """The Paladin can still cure: alive and his cure unspent."""
    return not s.cure and bool(alive(model, s) & bit(PALADIN))


def cure(model: Model, s: Fight, h: int) -> Fight:
    """The Paladin removes one hit from hero ``h`` (and with it the Creeper's paralysis); once per game.

    Once it is spent, any other hero still waiting on it for the Creeper's paralysis dies.
    """
    hs = list(s.hs)
    hs[h] = max(0, hs[h] - 1)
    new = Fight(
        s.m,
        (hs[0], hs[1], hs[2], hs[3]),
        s.dead,
        s.para & ~bit(h),
        s.trap,
        s.twine,
        s.lock,
        s.nlock,
        True,
        s.att,
        s.struck,
        s.sfirst,
    )
    if new.para:
        new = Fight(
            new.m,
            new.hs,
            new.dead | new.para,
            0,
            new.trap,
            new.twine,
            new.lock,
            new.nlock,
            True,
            new.att,
            new.struck,
            new.sfirst,
        )
    return settle(model, new)


def flee(model: Model, s: Fight) -> Fight:
    """The party leaves: the entwined drown and the trapped are left to the spider (unless FLEE_WITH_ALL)."""
    dead = s.dead
    if FLEE_WITH_ALL not in model.variants:
        dead |= (s.twine | s.trap) & alive(model, s)
    return leave(model, Fight(s.m, s.hs, dead, s.para, s.trap, s.twine, 0, 0, s.cure, 0, 0, False))


def leave(model: Model, s: Fight) -> Fight:
    """The party is out of the area: webs, tentacles and lock-outs stay behind (the paralysis does not)."""
    return settle(model, Fight(s.m, s.hs, s.dead, s.para, 0, 0, 0, 0, s.cure, 0, 0, False))


# ---- the score ------------------------------------------------------------------------------------


def score(survivors: int, slain: int) -> tuple[int, int, str | None]:
    """(the heroes' points, the monsters' points, the book's chart's word for the heroes' points)."""
    heroes = D.HERO_POINTS * survivors
    return heroes, D.MONSTER_POINTS * slain, D.VERDICTS.get(heroes)


def victory(survivors: int) -> bool:
    """The party that leaves with the Talisman wins unless it lost three of its four members: "the
    scoring is set up to allow victory for the adventurers unless they lose three of their four"."""
    return survivors >= D.VICTORY_SURVIVORS
