"""Exact odds of a fight and of the Talisman search, as fractions. Nothing is sampled.

A fight is a Markov chain over :class:`~.rules.Fight` values, one step per round. A round has two
phases, enumerated with the same step functions the engine plays:

- phase A (:func:`phase_a`): the Rangeress's first strike, then the monster's attacks;
- phase B (:func:`phase_b`): the heroes' attacks, top of the list down.

Each phase counts its rolls as integer weights over ``36 ** slots`` (a roll that does not happen in a
branch counts 36 ways, so every branch of a phase has the same total). :class:`FightSolver` then
solves the chain by dynamic programming over hit counts: hits only grow, so every round either moves
to a state with more hits, or stays among states with the same hits (a round of misses; with the
Remorhaz, a change of who is locked out). Those few states are solved as a small linear system,
everything else is a sum over states already solved. Phase B's results are memoised per state,
because many rounds share them.

The policy behind the fight odds is stated with them: the party fights every round (no flight), the
Rangeress strikes first whenever she can (``first_strike``), and the Paladin keeps his cure.

Values are kept as integer triples ``(slain, wiped, denominator)`` while summing (``math.gcd`` on
Python ints is far cheaper than :class:`~fractions.Fraction` arithmetic) and returned as Fractions.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from fractions import Fraction
from math import gcd

from companion.games.adventure_in_the_dungeon.data import RANGERESS, WIZARD
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
    hero_strikes,
    magic,
    may_attack,
    monster_hits,
    outcome,
    targets,
)

#: Rolls in phase A (one first strike and at most four monster attacks) and in phase B (four heroes).
SLOTS_A = 5
SLOTS_B = 4
T_A = 36**SLOTS_A
T_B = 36**SLOTS_B
T_ROUND = T_A * T_B

Triple = tuple[int, int, int]  # (slain numerator, wiped numerator, denominator)
_TERMINAL: dict[str, Triple] = {SLAIN: (1, 0, 1), WIPED: (0, 1, 1), STUCK: (0, 0, 1)}


# ---- one round, as weights ------------------------------------------------------------------------


def phase_a(model: Model, s: Fight, first_strike: bool = True) -> dict[Fight, int]:
    """The first strike and the monster's attacks from round start ``s``: states with weights over 36**5."""
    out: dict[Fight, int] = {}
    starts: list[tuple[int, Fight]]
    if first_strike and can_strike_first(model, s):
        starts = [(ways, hero_strikes(model, s, RANGERESS, dmg, False, True)) for ways, dmg in model.hit[RANGERESS][0]]
    else:
        starts = [(36, s)]
    hits = model.area.hits
    mon = model.mon
    for w0, u in starts:
        if u.m >= hits:
            out[u] = out.get(u, 0) + w0 * 36**4
            continue
        tg = targets(model, u)
        cur = {u: w0}
        for h in tg:
            b = bit(h)
            nxt: dict[Fight, int] = {}
            for v, w in cur.items():
                if not alive(model, v) & b:
                    nxt[v] = nxt.get(v, 0) + w * 36
                    continue
                for ways, dmg in mon[h][v.sfirst]:
                    x = monster_hits(model, v, h, dmg)
                    nxt[x] = nxt.get(x, 0) + w * ways
            cur = nxt
        pad = 36 ** (4 - len(tg))
        for v, w in cur.items():
            out[v] = out.get(v, 0) + w * pad
    return out


def phase_b(model: Model, s: Fight) -> dict[Fight, int]:
    """The heroes' attacks from ``s`` (after the monster's): end-of-round states with weights over 36**4."""
    cur = {s: 1}
    hits = model.area.hits
    for h in range(4):
        nxt: dict[Fight, int] = {}
        for u, w in cur.items():
            if u.m >= hits or not may_attack(model, u, h):
                nxt[u] = nxt.get(u, 0) + w * 36
                continue
            cast = magic(model, u, h)
            for ways, dmg in model.hit[h][cast]:
                v = hero_strikes(model, u, h, dmg, cast)
                nxt[v] = nxt.get(v, 0) + w * ways
        cur = nxt
    return cur


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


def round_kernel(model: Model, s: Fight, first_strike: bool = True) -> dict[Fight | str, Fraction]:
    """The exact distribution of where one whole round leads from ``s`` (a round that has begun): the
    next round's start (begun), or ``slain``/``wiped``/``stuck``. Checks the solver and the engine."""
    s = canon(model, s)
    out: dict[Fight | str, Fraction] = {}
    for mid, wa in phase_a(model, s, first_strike).items():
        for end, wb in phase_b(model, mid).items():
            n = canon(model, begin_round(end))
            key: Fight | str = outcome(model, n) or n
            out[key] = out.get(key, Fraction(0)) + Fraction(wa * wb, T_ROUND)
    return out


# ---- the solver -----------------------------------------------------------------------------------


def _combine(terms: list[tuple[int, Triple]], scale: int) -> Triple:
    """``sum(w * value) / scale`` over triples, with one common denominator (ints only)."""
    lcm = 1
    for _, (_, _, d) in terms:
        if lcm % d:
            lcm = lcm // gcd(lcm, d) * d
    a = b = 0
    for w, (x, y, d) in terms:
        f = w * (lcm // d)
        a += f * x
        b += f * y
    return _reduce(a, b, lcm * scale)


def _reduce(a: int, b: int, d: int) -> Triple:
    g = gcd(gcd(a, b), d)
    return (a // g, b // g, d // g) if g > 1 else (a, b, d)


class _Row:
    """One group member's equation, with integer weights over ``36 ** rolls``: constant terms (the
    values of situations already counted) and the weights of the group's members it leads back to."""

    __slots__ = ("coef", "terms")

    def __init__(self) -> None:
        self.terms: list[tuple[int, int, Triple]] = []  # (ways, rolls, value)
        self.coef: dict[Fight, list[tuple[int, int]]] = {}  # member -> [(ways, rolls)]

    def scaled(self) -> tuple[int, list[tuple[int, Triple]], dict[Fight, int]]:
        """Every weight over one power of 36: (that power, the terms, the members' weights)."""
        top = max([r for _, r, _ in self.terms] + [r for ws in self.coef.values() for _, r in ws] + [0])
        terms = [(w * 36 ** (top - r), v) for w, r, v in self.terms]
        coef = {m: sum(w * 36 ** (top - r) for w, r in ws) for m, ws in self.coef.items()}
        return 36**top, terms, coef


class OverBudget(Exception):
    """The count would need more situations than allowed; what is counted so far is kept."""


class FightSolver:
    """Exact chances that the monster is slain, that every hero dies, or that no one left can hurt it.

    Every step of a round is memoised on the state it starts from (with what no later step reads
    normalised away: who was struck matters only to the Wizard, the dead's hits not at all), so rounds
    that reach the same situation share the rest of the count. Only the steps of a round in which
    nothing has happened yet (the misses) can lead back to where the round started; for those the
    solver writes the equations of the group of states with the same hits and solves them exactly.

    One solver serves one model and keeps its memo, so the odds before the next round's choice come at
    once: that situation was counted the first time.
    """

    def __init__(self, model: Model, first_strike: bool = True) -> None:
        self.model = model
        self.first_strike = first_strike
        #: Stop (raise :class:`OverBudget`) once the memo holds this many situations.
        self.budget: int | None = None
        self.values: dict[Fight, Triple] = {}
        self.memo_a: dict[tuple[Fight, tuple[int, ...]], Triple] = {}
        self.memo_b: dict[tuple[Fight, int], Triple] = {}
        self._wizard = bit(WIZARD) if model.spells else 0

    @property
    def states(self) -> int:
        """How many situations have been counted so far."""
        return len(self.values) + len(self.memo_a) + len(self.memo_b)

    # ---- normal forms ----
    def _norm(self, s: Fight, att_from: int = 0) -> Fight:
        """``s`` with the dead's hits and a cure that can never come forgotten, only the Wizard's
        "struck this round" kept, and (in the heroes' turn, from hero ``att_from`` on) only the later
        heroes' "attacked already": equal situations then share one memo entry."""
        model = self.model
        hs, mx = s.hs, model.maxh
        live = ((hs[0] < mx[0]) | (hs[1] < mx[1]) << 1 | (hs[2] < mx[2]) << 2 | (hs[3] < mx[3]) << 3) & ~s.dead
        struck = s.struck & self._wizard
        att = s.att & ~((1 << att_from) - 1)
        if live == 0b1111 and not s.dead:
            if struck == s.struck and att == s.att:
                return s
            cure = s.cure
        else:
            hs = (
                hs[0] if live & 1 else mx[0],
                hs[1] if live & 2 else mx[1],
                hs[2] if live & 4 else mx[2],
                hs[3] if live & 8 else mx[3],
            )
            cure = s.cure or not live & 1
        return Fight(s.m, hs, 0, s.para, s.trap, s.twine, s.lock, s.nlock, cure, att, struck, s.sfirst)

    @staticmethod
    def _same(s: Fight, key: tuple[int, tuple[int, ...]]) -> bool:
        """Nothing has happened since the round started at ``key`` (its members have no dead flags)."""
        return s.m == key[0] and s.hs == key[1] and not s.dead

    # ---- memoised steps (states whose hits differ from every group being solved) ----
    def value(self, s: Fight) -> Triple:
        """The value of a round-start state (begun)."""
        s = self._norm(s)
        got = self.values.get(s)
        if got is not None:
            return got
        o = outcome(self.model, s)
        if o:
            return _TERMINAL[o]
        self._solve_group(s)
        return self.values[s]

    def attacks(self, s: Fight, tg: tuple[int, ...]) -> Triple:
        """The value from the monster's attacks on ``tg`` (in order) onwards."""
        model = self.model
        live = alive(model, s)
        while tg and not live & (1 << tg[0]):
            tg = tg[1:]
        if not live:
            return _TERMINAL[WIPED]
        if not tg:
            return self.heroes(s, 0)
        s = self._norm(s)
        key = (s, tg)
        got = self.memo_a.get(key)
        if got is not None:
            return got
        self._spend()
        h, rest = tg[0], tg[1:]
        terms = [(ways, self.attacks(monster_hits(model, s, h, dmg), rest)) for ways, dmg in model.mon[h][s.sfirst]]
        got = self.memo_a[key] = _combine(terms, 36)
        return got

    def heroes(self, s: Fight, h: int) -> Triple:
        """The value from hero ``h``'s attack (in the heroes' turn) onwards."""
        model = self.model
        if s.m >= model.area.hits:
            return _TERMINAL[SLAIN]
        while h < 4 and not may_attack(model, s, h):
            h += 1
        if h == 4:
            return self.value(begin_round(s))
        s = self._norm(s, h)
        key = (s, h)
        got = self.memo_b.get(key)
        if got is not None:
            return got
        self._spend()
        cast = magic(model, s, h)
        terms = [(ways, self.heroes(hero_strikes(model, s, h, dmg, cast), h + 1)) for ways, dmg in model.hit[h][cast]]
        got = self.memo_b[key] = _combine(terms, 36)
        return got

    def _spend(self) -> None:
        if self.budget is not None and len(self.memo_a) + len(self.memo_b) >= self.budget:
            raise OverBudget

    # ---- a group: the states with the same hits, which a round of misses can link ----
    def _solve_group(self, start: Fight) -> None:
        key = (start.m, start.hs)
        members = [start]
        seen = {start}
        rows: list[_Row] = []
        i = 0
        while i < len(members):
            row = _Row()
            self._round(members[i], key, row)
            for n in row.coef:
                if n not in seen:
                    seen.add(n)
                    members.append(n)
            rows.append(row)
            i += 1
        if len(members) == 1:
            total, terms, coef = rows[0].scaled()
            stay = coef.get(start, 0)
            if stay == total:
                self.values[start] = _TERMINAL[STUCK]  # no round ever changes anything
                return
            a, b, d = _combine(terms, 1)
            self.values[start] = _reduce(a, b, d * (total - stay))
            return
        for member, (slain, wiped) in zip(members, _solve(members, rows), strict=True):
            self.values[member] = _triple(slain, wiped)

    def _round(self, u: Fight, key: tuple[int, tuple[int, ...]], row: _Row) -> None:
        model = self.model
        if self.first_strike and can_strike_first(model, u):
            for ways, dmg in model.hit[RANGERESS][0]:
                self._w_start(hero_strikes(model, u, RANGERESS, dmg, False, True), key, row, ways, 1)
        else:
            self._w_start(u, key, row, 1, 0)

    def _w_start(self, s: Fight, key: tuple[int, tuple[int, ...]], row: _Row, w: int, r: int) -> None:
        if s.m >= self.model.area.hits:
            row.terms.append((w, r, _TERMINAL[SLAIN]))
        else:
            self._w_attacks(s, targets(self.model, s), key, row, w, r)

    def _w_attacks(
        self, s: Fight, tg: tuple[int, ...], key: tuple[int, tuple[int, ...]], row: _Row, w: int, r: int
    ) -> None:
        if not self._same(s, key):
            row.terms.append((w, r, self.attacks(s, tg)))
            return
        model = self.model
        live = alive(model, s)
        while tg and not live & (1 << tg[0]):
            tg = tg[1:]
        if not tg:
            self._w_heroes(s, 0, key, row, w, r)
            return
        h, rest = tg[0], tg[1:]
        for ways, dmg in model.mon[h][s.sfirst]:
            self._w_attacks(monster_hits(model, s, h, dmg), rest, key, row, w * ways, r + 1)

    def _w_heroes(self, s: Fight, h: int, key: tuple[int, tuple[int, ...]], row: _Row, w: int, r: int) -> None:
        if not self._same(s, key):
            row.terms.append((w, r, self.heroes(s, h)))
            return
        model = self.model
        while h < 4 and not may_attack(model, s, h):
            h += 1
        if h == 4:
            n = self._norm(begin_round(s))
            o = outcome(model, n)
            if o:
                row.terms.append((w, r, _TERMINAL[o]))
            else:
                row.coef.setdefault(n, []).append((w, r))
            return
        cast = magic(model, s, h)
        for ways, dmg in model.hit[h][cast]:
            self._w_heroes(hero_strikes(model, s, h, dmg, cast), h + 1, key, row, w * ways, r + 1)


def _triple(slain: Fraction, wiped: Fraction) -> Triple:
    d = slain.denominator * wiped.denominator // gcd(slain.denominator, wiped.denominator)
    return slain.numerator * (d // slain.denominator), wiped.numerator * (d // wiped.denominator), d


def _solve(members: list[Fight], rows: list[_Row]) -> list[tuple[Fraction, Fraction]]:
    """Solve ``x_i = c_i + sum_j a_ij x_j`` exactly; members that can never leave the group are stuck."""
    n = len(members)
    index = {m: i for i, m in enumerate(members)}
    eqs = []
    for row in rows:
        total, terms, coef = row.scaled()
        a, b, d = _combine(terms, total)
        eqs.append((Fraction(a, d), Fraction(b, d), {index[m]: Fraction(w, total) for m, w in coef.items()}))
    # A member leaves if some of its weight goes outside the group, or to a member that leaves.
    leaves = [sum(c.values()) < 1 for _, _, c in eqs]
    changed = True
    while changed:
        changed = False
        for i in range(n):
            if not leaves[i] and any(leaves[j] for j, c in eqs[i][2].items() if c):
                leaves[i] = changed = True
    live = [i for i in range(n) if leaves[i]]
    pos = {i: k for k, i in enumerate(live)}
    size_ = len(live)
    matrix = [[Fraction(0)] * (size_ + 2) for _ in range(size_)]
    for k, i in enumerate(live):
        slain, wiped, coef = eqs[i]
        matrix[k][k] += 1
        for j, c in coef.items():
            if j in pos:
                matrix[k][pos[j]] -= c
        matrix[k][size_] = slain
        matrix[k][size_ + 1] = wiped
    for col in range(size_):
        pivot = next(r for r in range(col, size_) if matrix[r][col] != 0)
        matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
        p = matrix[col][col]
        matrix[col] = [x / p for x in matrix[col]]
        for r in range(size_):
            if r != col and matrix[r][col] != 0:
                f = matrix[r][col]
                matrix[r] = [x - f * y for x, y in zip(matrix[r], matrix[col], strict=True)]
    return [
        (matrix[pos[i]][size_], matrix[pos[i]][size_ + 1]) if i in pos else (Fraction(0), Fraction(0)) for i in range(n)
    ]


# ---- what the shell and the CLI ask for -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FightOdds:
    """How a fight fought to the end turns out, exactly."""

    slain: Fraction
    wiped: Fraction
    stuck: Fraction
    #: Situations counted to get there.
    states: int


def _odds(value: Triple, states: int) -> FightOdds:
    a, b, d = value
    slain, wiped = Fraction(a, d), Fraction(b, d)
    return FightOdds(slain, wiped, 1 - slain - wiped, states)


_SOLVERS: dict[tuple[Model, bool], FightSolver] = {}


def solver(model: Model, first_strike: bool = True) -> FightSolver:
    """The solver of ``model``, kept while it is in use (the last few are cached with their memos)."""
    key = (model, first_strike)
    got = _SOLVERS.get(key)
    if got is None:
        if len(_SOLVERS) >= 4:
            _SOLVERS.pop(next(iter(_SOLVERS)))
        got = _SOLVERS[key] = FightSolver(model, first_strike)
    return got


#: Situations the shell counts before a choice (about half a second); later rounds finish the count.
TABLE_BUDGET = 30_000


def fight_odds(
    model: Model, s: Fight, *, at: str = "start", first_strike: bool = True, budget: int | None = None
) -> FightOdds | None:
    """The exact odds of fighting on to the end from ``s``; None if more than ``budget`` situations
    are needed (the ones counted are kept, so asking again later goes on from there).

    ``at`` says where ``s`` stands: ``start`` (between rounds: the round has not begun), ``begun`` (the
    round has begun: last round's lock-outs are in force) or ``choice`` (the party chooses to fight or
    flee: the monster has attacked this round, the heroes have not).
    """
    if at not in ("start", "begun", "choice"):
        raise ValueError(f"unknown point of the round {at!r}")
    o = outcome(model, s)
    if o:
        return _odds(_TERMINAL[o], 0)
    sv = solver(model, first_strike)
    sv.budget = None if budget is None else len(sv.memo_a) + len(sv.memo_b) + budget
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 100_000))  # a long fight recurses one round deeper each round
    try:
        value = sv.heroes(s, 0) if at == "choice" else sv.value(begin_round(s) if at == "start" else s)
    except OverBudget:
        return None
    finally:
        sys.setrecursionlimit(limit)
        sv.budget = None
    return _odds(value, sv.states)


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
