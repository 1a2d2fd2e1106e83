"""The odds of a fight and of the Talisman search. Nothing is sampled.

A fight is a Markov chain over :class:`~.rules.Fight` values, one step per round. A round has two
phases, enumerated with the same step functions the engine plays (:mod:`.phases`):

- phase A: the Rangeress's first strike, then the monster's attacks;
- phase B: the heroes' attacks, top of the list down.

Each phase counts its rolls as integer weights over ``36 ** slots`` (a roll that does not happen in a
branch counts 36 ways, so every branch of a phase has the same total). :func:`round_ends` gives one
round exactly; :func:`fight_odds` the whole fight, from the absorbing chain of :mod:`.fight_chain` pushed
forward by :mod:`.forward`: the distribution of every way the fight ends, in floats at the table or
exact (integer numerators over one denominator, returned as Fractions), from which the chances, who
stands at the end and the hits left are read.

The policy behind the fight odds is stated with them: the party fights every round (no flight), the
Rangeress strikes first whenever she can (``first_strike``), and the Paladin keeps his cure.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from companion.games.adventure_in_the_dungeon.data import HEROES, PALADIN, RANGERESS
from companion.games.adventure_in_the_dungeon.odds.phases import phase_a, phase_b
from companion.games.adventure_in_the_dungeon.rules import (
    SLAIN,
    STUCK,
    WIPED,
    Fight,
    Model,
    alive,
    begin_round,
    bit,
    can_strike_first,
    flee,
    magic,
    may_attack,
    outcome,
    targets,
)
from companion.sim.fights import Chart, FightOutcome

#: Rolls in phase A (one first strike and at most four monster attacks) and in phase B (four heroes).
SLOTS_A = 5
SLOTS_B = 4
T_A = 36**SLOTS_A
T_B = 36**SLOTS_B
T_ROUND = T_A * T_B

#: A value: numerators over one denominator, its last item. The chances alone are
#: ``(slain, wiped, denominator)``; a value in detail has ``WIDTH`` numerators, in this order:
SLAIN_AT = 0  # the monster is slain
WIPED_AT = 1  # every hero has fallen
STANDING_AT = 2  # 2..5: each hero (in the book's order) is standing at the end
HITS_AT = 6  # the party's hits left at the end (a fallen hero's count 0)
HITS_SLAIN_AT = 7  # the same on a kill only
SURVIVORS_AT = 8  # 8..11: 1, 2, 3 or 4 heroes are standing at the end
WIDTH = 12
Value = tuple[int, ...]


# ---- one round, as weights ------------------------------------------------------------------------


def canon(model: Model, s: Fight) -> Fight:
    """A round-start state with what cannot matter any more forgotten (the hits of the dead, a cure
    that can never be given), so equal situations share one entry in the memo."""
    live = alive(model, s)
    hs = tuple(s.hs[h] if live & (1 << h) else model.maxh[h] for h in range(4))
    cure = s.cure or not live & 1
    m = min(s.m, model.area.hits)
    if hs == s.hs and cure == s.cure and not s.dead and m == s.m:
        return s
    return Fight(m, hs, 0, s.para, s.trap, s.twine, s.lock, s.nlock, cure, s.att, s.struck, s.sfirst)  # type: ignore[arg-type]


def round_ends(model: Model, s: Fight, *, at: str = "begun", first_strike: bool = True) -> dict[Fight, Fraction]:
    """The exact distribution of where the rest of the round leads from ``s``: the next round's start
    (begun, in :func:`canon` form; :func:`~.rules.outcome` says if the fight is over there).

    ``at`` is where ``s`` stands, as for :func:`fight_odds`: ``start``, ``begun`` or ``choice`` (the
    monster has attacked: only the heroes' attacks are left).
    """
    if at == "choice":
        mids = {canon(model, s): T_A}
    else:
        begun = begin_round(s) if at == "start" else s
        mids = phase_a(model, canon(model, begun), first_strike)
    out: dict[Fight, Fraction] = {}
    for mid, wa in mids.items():
        for end, wb in phase_b(model, mid).items():
            n = canon(model, begin_round(end))
            out[n] = out.get(n, Fraction(0)) + Fraction(wa * wb, T_ROUND)
    return out


def round_kernel(model: Model, s: Fight, first_strike: bool = True) -> dict[Fight | str, Fraction]:
    """The exact distribution of where one whole round leads from ``s`` (a round that has begun): the
    next round's start (begun), or ``slain``/``wiped``/``stuck``. Checks the solver and the engine."""
    out: dict[Fight | str, Fraction] = {}
    for n, p in round_ends(model, s, first_strike=first_strike).items():
        key: Fight | str = outcome(model, n) or n
        out[key] = out.get(key, Fraction(0)) + p
    return out


# ---- the whole fight --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FightOdds:
    """How a fight fought to the end turns out: exact fractions, or floats (``exact=False``).

    ``stuck``: no living hero can hurt the monster any more (or nothing can ever change), so the party
    flees. The fields after ``states`` are given in detail only (None otherwise); there, a stuck fight
    is counted after that flight (the entwined and the trapped are left behind).
    """

    slain: Any
    wiped: Any
    stuck: Any
    #: Situations (round starts) visited to get there.
    states: int
    #: The chance each hero (in the book's order) is standing when the fight ends.
    standing: tuple[Any, ...] | None = None
    #: The chance that 0, 1, 2, 3 or 4 heroes are standing when it ends (0 is ``wiped``).
    survivors: tuple[Any, ...] | None = None
    #: The party's hits left at the end, on average (a fallen hero's count 0).
    hits_left: Any = None
    #: The same when the monster is slain (None if it cannot be).
    hits_left_slain: Any = None
    #: The chance each hero falls (summed directly: a float keeps a risk far below 1e-16).
    falls: tuple[Any, ...] | None = None


def end_value(model: Model, s: Fight, o: str) -> Value:
    """A fight over in ``s`` with outcome ``o``, in detail (``WIDTH`` integers: see ``SLAIN_AT`` ...).

    A fight no one left can win (``stuck``) ends with the party fleeing, the only choice the engine
    then offers: the entwined and the trapped are left behind (unless ``flee-with-all``), so they are
    not counted as standing.
    """
    v = [0] * WIDTH
    if o == WIPED:
        v[WIPED_AT] = 1
        return tuple(v)
    if o == STUCK and model.flee_ok:
        s = flee(model, s)
    live = alive(model, s)
    left = standing = 0
    for h in range(4):
        if live >> h & 1:
            v[STANDING_AT + h] = 1
            left += model.maxh[h] - s.hs[h]
            standing += 1
    v[SLAIN_AT] = int(o == SLAIN)
    v[HITS_AT] = left
    v[HITS_SLAIN_AT] = left if o == SLAIN else 0
    if standing:
        v[SURVIVORS_AT + standing - 1] = 1
    else:
        v[WIPED_AT] = 1  # a flight that leaves no one standing (the entwined all drown)
    return tuple(v)


_CHAINS: dict[tuple[Model, bool], Any] = {}


def chain(model: Model, first_strike: bool = True) -> Any:
    """The round kernels of ``model`` (:class:`.fight_chain.Chain`), kept for the last few models in use."""
    from companion.games.adventure_in_the_dungeon.odds.fight_chain import Chain

    key = (model, first_strike)
    got = _CHAINS.get(key)
    if got is None:
        if len(_CHAINS) >= 4:
            _CHAINS.pop(next(iter(_CHAINS)))
        got = _CHAINS[key] = Chain(model, first_strike)
    return got


def _certain_or_not(p: float, others: float) -> float:
    """A float chance whose sum may miss 1 by a hair either way: 1.0 when no other end is possible,
    and below 1.0 (the largest float there) when one is, however small, so the table shows >99.99%
    and never a certainty that is not one."""
    if not others:
        return 1.0
    return min(p, math.nextafter(1.0, 0.0))


def _as_fractions(o: FightOdds) -> FightOdds:
    """Float odds as the fractions the shells print (their binary values: shown as percentages)."""
    if isinstance(o.slain, Fraction):
        return o

    def f(x: Any) -> Any:
        return None if x is None else Fraction(x)

    return FightOdds(
        f(o.slain),
        f(o.wiped),
        f(o.stuck),
        o.states,
        None if o.standing is None else tuple(map(f, o.standing)),
        None if o.survivors is None else tuple(map(f, o.survivors)),
        f(o.hits_left),
        f(o.hits_left_slain),
        None if o.falls is None else tuple(map(f, o.falls)),
    )


def fight_odds(
    model: Model,
    s: Fight,
    *,
    at: str = "start",
    first_strike: bool = True,
    detail: bool = False,
    exact: bool = True,
) -> FightOdds:
    """The odds of fighting on to the end from ``s``: exact fractions, or floats with ``exact=False``
    (the table's: the same chain, a fraction of the time).

    ``at`` says where ``s`` stands: ``start`` (between rounds: the round has not begun), ``begun`` (the
    round has begun: last round's lock-outs are in force) or ``choice`` (the party chooses to fight or
    flee: the monster has attacked this round, the heroes have not). ``detail`` adds who stands at the
    end and with how many hits (free: the chain's pass gives every end situation).
    """
    if at not in ("start", "begun", "choice"):
        raise ValueError(f"unknown point of the round {at!r}")
    one: Any = Fraction(1) if exact else 1.0
    o = outcome(model, s)
    if o:
        return _odds(model, {0: (o, one)}, 1, 0, detail, lambda _: s)
    ch = chain(model, first_strike)
    starts: dict[Fight, Any] = {}
    if at == "choice":
        for end, w in phase_b(model, s).items():
            n = begin_round(end)
            starts[n] = starts.get(n, 0) + w
        starts = {n: (Fraction(w, T_B) if exact else w / T_B) for n, w in starts.items()}
    else:
        starts = {begin_round(s) if at == "start" else s: one}
    ends, den, visited = ch.run(starts, keys=detail)  # the chances alone need only each outcome's sum
    return _odds(model, ends, den, visited, detail, ch.decode)


def _odds(
    model: Model, ends: dict[int, tuple[str, Any]], den: Any, states: int, detail: bool, decode: Any
) -> FightOdds:
    """Read the figures off the distribution of how the fight ends: numerators over ``den`` (integers
    over one common denominator when exact, floats over 1 at the table), summed before any division."""
    exact = not isinstance(next(iter(ends.values()))[1], float)

    def value(x: Any) -> Any:
        return Fraction(x, den) if exact else x + 0.0

    if not detail:  # the chances alone: a flight that leaves no one standing is still a flight
        by = {SLAIN: 0, WIPED: 0, STUCK: 0}
        for o, p in ends.values():
            by[o] += p
        slain = by[SLAIN]
        if not exact and slain:
            slain = _certain_or_not(slain, by[WIPED] + by[STUCK])
        return FightOdds(value(slain), value(by[WIPED]), value(by[STUCK]), states)
    by_value: dict[Value, Any] = {}  # ends that count alike, summed first (a few hundred of thousands)
    wiped_value = end_value(model, Fight(0, (0, 0, 0, 0)), WIPED)
    fled: Any = 0  # a flight with someone standing, summed directly (not 1 - slain - wiped: see below)
    for key, (o, p) in ends.items():
        v = wiped_value if o == WIPED else end_value(model, decode(key), o)
        by_value[v] = by_value.get(v, 0) + p
        if not v[SLAIN_AT] and not v[WIPED_AT]:
            fled += p
    total = [0] * WIDTH
    other = [0] * WIDTH  # the chance of the other ends, for each yes-or-no figure
    for v, p in by_value.items():
        for c in range(WIDTH):
            if v[c]:
                total[c] += p * v[c]
            else:
                other[c] += p
    if not exact:
        for c in range(WIDTH):
            if c not in (HITS_AT, HITS_SLAIN_AT) and total[c]:
                total[c] = _certain_or_not(total[c], other[c])
    figures = [value(t) for t in total]
    falls = [value(t) for t in other]
    slain = figures[SLAIN_AT]
    wiped = figures[WIPED_AT]  # in detail: every hero fallen, however
    # Every chance is a sum of positive terms, never a difference: a float keeps a risk of 1e-20 as
    # a risk (the table shows <0.01%), where 1 - slain - wiped would round it to 0 or below.
    stuck = value(fled)
    return FightOdds(
        slain,
        wiped,
        stuck,
        states,
        standing=tuple(figures[STANDING_AT : STANDING_AT + 4]),
        survivors=(wiped, *figures[SURVIVORS_AT : SURVIVORS_AT + 4]),
        hits_left=figures[HITS_AT],
        hits_left_slain=figures[HITS_SLAIN_AT] / slain if slain else None,
        falls=tuple(falls[STANDING_AT : STANDING_AT + 4]),
    )


@dataclass(frozen=True, slots=True)
class RoundOdds:
    """The chances of one round's rolls: the monster's attack on each hero, and each hero's attack.

    ``monster[h]`` is None when the monster does not attack hero ``h`` this round; ``hero[h]`` is None
    when hero ``h`` does not attack. ``double[h]`` is the chance of the spider's two-hit 12.
    """

    monster: tuple[Fraction | None, ...]
    hero: tuple[Fraction | None, ...]
    double: tuple[Fraction, ...]


def chance(outcomes: tuple[tuple[int, int], ...], at_least: int = 1) -> Fraction:
    """The chance that one roll scores ``at_least`` hits, from a model's outcome table."""
    return Fraction(sum(w for w, d in outcomes if d >= at_least), 36)


def round_odds(model: Model, s: Fight, *, at_choice: bool = False) -> RoundOdds:
    """Per-roll chances for the round starting at ``s`` (or, ``at_choice``, the heroes' turn of it)."""
    who = set(targets(model, s)) if not at_choice else set()
    mon = tuple(chance(model.mon[h][s.sfirst]) if h in who else None for h in range(4))
    dbl = tuple(chance(model.mon[h][s.sfirst], 2) for h in range(4))
    heroes = tuple(chance(model.hit[h][magic(model, s, h)]) if may_attack(model, s, h) else None for h in range(4))
    return RoundOdds(mon, heroes, dbl)


# ---- the Talisman ---------------------------------------------------------------------------------

TALISMAN_ROLL = Fraction(1, 36)


def talisman_within(kills: int, monsters: int) -> Fraction:
    """P(the Talisman is found within the first ``kills`` kills), in a dungeon of ``monsters`` monsters.

    Each kill but the last rolls 2d6 and finds it on a 12; the last monster left always holds it.
    """
    if kills <= 0:
        return Fraction(0)
    if kills >= monsters:
        return Fraction(1)
    return 1 - Fraction(35, 36) ** kills


def talisman_schedule(monsters: int) -> list[Fraction]:
    """P(found within k kills) for k = 1 .. ``monsters``."""
    return [talisman_within(k, monsters) for k in range(1, monsters + 1)]


def talisman_found_on(kills_done: int, left: int) -> dict[int, Fraction]:
    """Given it is not found after ``kills_done`` kills with ``left`` monsters alive: P(found on kill k)."""
    out: dict[int, Fraction] = {}
    miss = Fraction(1)
    for j in range(1, left + 1):
        k = kills_done + j
        if j == left:
            out[k] = miss  # the last monster holds it
        else:
            out[k] = miss * TALISMAN_ROLL
            miss *= 1 - TALISMAN_ROLL
    return out


# ---- every game's fight odds: companion odds fight talisman ---------------------------------------


def party_hits(model: Model, s: Fight) -> int:
    """The hits the living heroes can still take, all together (a fallen hero's count 0)."""
    live = alive(model, s)
    return sum(model.maxh[h] - s.hs[h] for h in range(4) if live >> h & 1)


def policy(model: Model, s: Fight, first_strike: bool = True, long: bool = False) -> list[str]:
    """The policy behind the whole-fight odds, as it stands in ``s``: Krylla striking first (while
    she can: alive, able to hurt it, not caught in the webs nor paralysed), the cure kept (while it
    can still be given)."""
    out = []
    r = bit(RANGERESS)
    if first_strike and model.can_hit & r and alive(model, s) & r and not (s.trap | s.para) & r:
        out.append("Krylla strikes first whenever she can" if long else "Krylla striking first")
    if not s.cure and alive(model, s) & bit(PALADIN):
        out.append("the Paladin keeps his cure" if long else "the cure kept")
    return out


def _policy(model: Model, s: Fight, first_strike: bool) -> str:
    words = policy(model, s, first_strike, long=True)
    return "; ".join(words) if words else "every hero who can attacks every round"


def fight_outcome(
    area: int,
    values: Mapping[str, Any],
    *,
    hits: Sequence[int] = (0, 0, 0, 0),
    monster_hits: int = 0,
    variants: Collection[str] = (),
    first_strike: bool = True,
    one_round: bool = False,
    fight: Fight | None = None,
    at: str = "start",
    exact: bool = True,
) -> FightOutcome:
    """The exact odds of a fight against area ``area``'s monster, as the shells show every game's fight.

    ``values`` are the player's numbers (the catalogue's, or a session's ``state.data``); the party has
    taken ``hits`` (in the book's order) and the monster ``monster_hits``, or ``fight`` gives the whole
    situation (a session's, with its webs, tentacles and paralysis), standing at ``at`` (see
    :func:`fight_odds`). The whole fight is fought to the end, Krylla striking first whenever she can
    (unless ``first_strike`` is False) and the Paladin keeping his cure; ``one_round`` gives the rest of
    this round instead.
    """
    from companion.games.adventure_in_the_dungeon.rules import areas, compile_model, numbers

    nums = numbers(dict(values))
    if nums is None:
        raise ValueError("the heroes' numbers are not entered yet")
    where = areas(dict(values))
    if area not in where:
        raise ValueError(f"there is no monster in area {area}")
    spec = where[area]
    model = compile_model(spec, nums, frozenset(variants))
    if fight is None:
        if len(hits) != 4 or any(h < 0 for h in hits) or monster_hits < 0:
            raise ValueError("give the hits each of the four heroes has taken, and the monster's, as counts from 0")
        fight = Fight(min(monster_hits, spec.hits), tuple(min(h, m) for h, m in zip(hits, nums.maxh, strict=True)))  # type: ignore[arg-type]
    title = f"Area {area}: the {spec.monster} ({spec.hits} hits to slay"
    title += f", {fight.m} taken)" if fight.m else ")"
    names = [h.name for h in HEROES]
    left_now = party_hits(model, fight)
    party = f"the party with {left_now} hits left"
    inputs: dict[str, Any] = {
        "area": area,
        "monster": spec.monster,
        "monster_hits": fight.m,
        "hits": list(fight.hs),
        "party_hits_left": left_now,
        "from": at,
        "first_strike": first_strike,
        "variants": sorted(variants),
        "round": one_round,
        "numbers": {
            "hits": list(nums.maxh),
            "to_hit": list(nums.to_hit),
            "be_hit": list(nums.be_hit),
            "source": values.get("source"),
        },
    }
    notes = []
    if values.get("source") == "house":
        notes.append("The heroes' numbers are house numbers, not the book's.")
    if one_round:
        return _round_outcome(model, spec, fight, at, first_strike, title, party, names, inputs, notes)
    odds = _as_fractions(fight_odds(model, fight, at=at, first_strike=first_strike, detail=True, exact=exact))
    assert odds.survivors is not None and odds.falls is not None and odds.hits_left is not None
    monster = spec.monster
    rows = [("none", odds.survivors[0])] + [(str(k), odds.survivors[k]) for k in range(1, 5)]
    more = tuple((f"{names[h]} falls", odds.falls[h]) for h in range(4) if alive(model, fight) >> h & 1)
    notes.insert(0, f"Fought to the end: {_policy(model, fight, first_strike)}. {odds.states:,} situations counted.")
    if odds.stuck:
        notes.append(
            f"No one left can hurt it: the party must flee, and the {monster} keeps its hits "
            "(who stands is counted after the flight)."
        )
    return FightOutcome(
        game="talisman",
        fight=f"{title}, {party}",
        win=odds.slain,
        lose=odds.wiped,
        flee=odds.stuck if odds.stuck else None,
        death=odds.wiped,
        hp_left=odds.hits_left,
        hp_if_win=odds.hits_left_slain,
        hp_name="the party's hits",
        words={
            "win": f"the {monster} {spec.says('is', 'are')} slain",
            "lose": "every hero falls",
            "flee": "no one left can hurt it: flee",
            "death": "every hero falls",
            "hp_if_win": f"when the {monster} {spec.says('is', 'are')} slain",
        },
        more=more,
        charts=(Chart("Heroes standing when the fight ends", tuple(rows)),),
        notes=tuple(notes),
        inputs=inputs,
    )


def _round_outcome(
    model: Model,
    spec: Any,
    s: Fight,
    at: str,
    first_strike: bool,
    title: str,
    party: str,
    names: list[str],
    inputs: dict[str, Any],
    notes: list[str],
) -> FightOutcome:
    """The rest of one round: the monster slain, every hero fallen, or the fight going on."""
    ends = round_ends(model, s, at=at, first_strike=first_strike)
    ended = {SLAIN: Fraction(0), WIPED: Fraction(0), STUCK: Fraction(0), None: Fraction(0)}
    left: dict[int, Fraction] = {}
    taken: dict[int, Fraction] = {}
    hp = Fraction(0)
    for n, p in ends.items():
        ended[outcome(model, n)] += p
        h = party_hits(model, n)
        hp += h * p
        left[h] = left.get(h, Fraction(0)) + p
        m = min(n.m, model.area.hits) - s.m
        taken[m] = taken.get(m, Fraction(0)) + p
    monster = spec.monster
    begun = begin_round(s) if at == "start" else s
    live = alive(model, begun)
    more: list[tuple[str, Fraction]] = []
    heroes_turn = begun
    if at != "choice" and first_strike and can_strike_first(model, begun):
        more.append((f"{names[RANGERESS]}'s first strike hits", chance(model.hit[RANGERESS][0])))
        heroes_turn = begun._replace(att=begun.att | bit(RANGERESS))  # she does not attack again
    if at != "choice":
        for h in range(4):
            if live >> h & 1:
                more.append((f"an attack of the {monster} hits {names[h]}", chance(model.mon[h][begun.sfirst])))
    for h in range(4):
        if may_attack(model, heroes_turn, h):
            cast = magic(model, heroes_turn, h)
            spell = " (a spell)" if at == "choice" else " (a spell, unless he is struck first)"
            more.append((f"{names[h]}'s attack hits" + (spell if cast else ""), chance(model.hit[h][cast])))
    how = {"start": "a round", "begun": "this round", "choice": "the heroes' attacks this round"}[at]
    if heroes_turn is not begun:
        notes.insert(0, "Krylla strikes first, so the monster attacks her first, and she does not attack again.")
    if ended[STUCK]:
        notes.append("After this round no one left can hurt it: the party must flee.")
    slain_word = f"the {monster} {spec.says('is', 'are')} slain"
    return FightOutcome(
        game="talisman",
        fight=f"{title}, {party}: {how}",
        win=ended[SLAIN],
        lose=ended[WIPED],
        flee=ended[STUCK] if ended[STUCK] else None,
        draw=ended[None],
        death=ended[WIPED],
        hp_left=hp,
        hp_name="the party's hits",
        words={
            "win": slain_word,
            "lose": "every hero falls",
            "flee": "no one left can hurt it: flee",
            "draw": "the fight goes on",
            "death": "every hero falls",
        },
        more=tuple(more),
        charts=(
            Chart(
                f"Hits on the {monster} after the round ({spec.hits} slay {spec.says('it', 'them')})",
                tuple((f"{s.m + m}" + (" slain" if s.m + m >= spec.hits else ""), p) for m, p in sorted(taken.items())),
            ),
            Chart(
                "The party's hits left after the round",
                tuple(("none" if h == 0 else str(h), p) for h, p in sorted(left.items())),
            ),
        ),
        notes=tuple(notes),
        inputs=inputs,
    )
