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

Values are kept as integer tuples (numerators, then their common denominator) while summing
(``math.gcd`` on Python ints is far cheaper than :class:`~fractions.Fraction` arithmetic) and returned
as Fractions. A solver counts one of two values:

- the chances alone, ``(slain, wiped, denominator)``: what the table shows before every choice;
- with ``detail``, also who is standing at the end and with how many hits (see ``SLAIN_AT`` ...). These
  depend on the whole path of a fight, so their fractions are about five times longer: counting them
  takes about twice the time and several times the memory, and is done only when asked for
  (``companion odds fight talisman``, and at the table once a fight is small enough).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import gcd
from typing import Any

from companion.games.adventure_in_the_dungeon.data import HEROES, RANGERESS, WIZARD
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
    hero_strikes,
    magic,
    may_attack,
    monster_hits,
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
_TERMINAL: dict[str, Value] = {SLAIN: (1, 0, 1), WIPED: (0, 1, 1), STUCK: (0, 0, 1)}
_WIPED_DETAIL: Value = (0, 1) + (0,) * (WIDTH - 2) + (1,)


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


# ---- the solver -----------------------------------------------------------------------------------


def _combine(terms: list[tuple[int, Value]], scale: int) -> Value:
    """``sum(w * value) / scale`` over the chances alone, with one common denominator (ints only)."""
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


def _reduce(a: int, b: int, d: int) -> Value:
    g = gcd(gcd(a, b), d)
    return (a // g, b // g, d // g) if g > 1 else (a, b, d)


def _combine_detail(terms: list[tuple[int, Value]], scale: int) -> Value:
    """:func:`_combine` for values in detail (any number of numerators)."""
    lcm = 1
    for _, v in terms:
        d = v[-1]
        if lcm % d:
            lcm = lcm // gcd(lcm, d) * d
    acc: list[int] = []
    for w, v in terms:
        f = w * (lcm // v[-1])
        acc = [a + f * x for a, x in zip(acc, v[:-1], strict=True)] if acc else [f * x for x in v[:-1]]
    return _reduce_all(acc, lcm * scale)


def _reduce_all(nums: list[int], d: int) -> Value:
    g = gcd(d, *nums)
    return (*[x // g for x in nums], d // g) if g > 1 else (*nums, d)


class _Row:
    """One group member's equation, with integer weights over ``36 ** rolls``: constant terms (the
    values of situations already counted) and the weights of the group's members it leads back to."""

    __slots__ = ("coef", "terms")

    def __init__(self) -> None:
        self.terms: list[tuple[int, int, Value]] = []  # (ways, rolls, value)
        self.coef: dict[Fight, list[tuple[int, int]]] = {}  # member -> [(ways, rolls)]

    def scaled(self) -> tuple[int, list[tuple[int, Value]], dict[Fight, int]]:
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
    once: that situation was counted the first time. With ``detail`` it also counts who is standing at
    the end, and with how many hits (see the module's docstring for what that costs).
    """

    def __init__(self, model: Model, first_strike: bool = True, detail: bool = False) -> None:
        self.model = model
        self.first_strike = first_strike
        self.detail = detail
        self._combine: Callable[[list[tuple[int, Value]], int], Value] = _combine_detail if detail else _combine
        #: Stop (raise :class:`OverBudget`) once the memo holds this many situations.
        self.budget: int | None = None
        self.values: dict[Fight, Value] = {}
        self.memo_a: dict[tuple[Fight, tuple[int, ...]], Value] = {}
        self.memo_b: dict[tuple[Fight, int], Value] = {}
        self._wizard = bit(WIZARD) if model.spells else 0
        self._ends: dict[tuple[str, int, tuple[int, int, int, int]], Value] = {}

    def end(self, s: Fight, o: str) -> Value:
        """The value of a fight over in ``s`` with outcome ``o`` (``slain``, ``wiped`` or ``stuck``).

        In detail: who stands, and with how many hits. A fight no one left can win (``stuck``) ends
        with the party fleeing, the only choice the engine then offers: the entwined and the trapped
        are left behind (unless ``flee-with-all``), so they are not counted as standing.
        """
        if not self.detail:
            return _TERMINAL[o]
        if o == WIPED:
            return _WIPED_DETAIL
        model = self.model
        if o == STUCK and model.flee_ok:
            s = flee(model, s)
        live = alive(model, s)
        key = (o, live, s.hs)
        got = self._ends.get(key)
        if got is None:
            v = [0] * WIDTH
            slain = o == SLAIN
            left = standing = 0
            for h in range(4):
                if live >> h & 1:
                    v[STANDING_AT + h] = 1
                    left += model.maxh[h] - s.hs[h]
                    standing += 1
            v[SLAIN_AT] = int(slain)
            v[HITS_AT] = left
            v[HITS_SLAIN_AT] = left if slain else 0
            if standing:
                v[SURVIVORS_AT + standing - 1] = 1
            else:
                v[WIPED_AT] = 1  # a flight that leaves no one standing (the entwined all drown)
            got = self._ends[key] = (*v, 1)
        return got

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
    def value(self, s: Fight) -> Value:
        """The value of a round-start state (begun)."""
        s = self._norm(s)
        got = self.values.get(s)
        if got is not None:
            return got
        o = outcome(self.model, s)
        if o:
            return self.end(s, o)
        self._solve_group(s)
        return self.values[s]

    def attacks(self, s: Fight, tg: tuple[int, ...]) -> Value:
        """The value from the monster's attacks on ``tg`` (in order) onwards."""
        model = self.model
        live = alive(model, s)
        while tg and not live & (1 << tg[0]):
            tg = tg[1:]
        if not live:
            return self.end(s, WIPED)
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
        got = self.memo_a[key] = self._combine(terms, 36)
        return got

    def heroes(self, s: Fight, h: int) -> Value:
        """The value from hero ``h``'s attack (in the heroes' turn) onwards."""
        model = self.model
        if s.m >= model.area.hits:
            return self.end(s, SLAIN)
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
        got = self.memo_b[key] = self._combine(terms, 36)
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
                self.values[start] = self.end(start, STUCK)  # no round ever changes anything
                return
            v = self._combine(terms, 1)
            self.values[start] = _reduce_all(list(v[:-1]), v[-1] * (total - stay))
            return
        solved = _solve(members, rows, lambda m: self.end(m, STUCK), self._combine)
        for member, value in zip(members, solved, strict=True):
            self.values[member] = value

    def _round(self, u: Fight, key: tuple[int, tuple[int, ...]], row: _Row) -> None:
        model = self.model
        if self.first_strike and can_strike_first(model, u):
            for ways, dmg in model.hit[RANGERESS][0]:
                self._w_start(hero_strikes(model, u, RANGERESS, dmg, False, True), key, row, ways, 1)
        else:
            self._w_start(u, key, row, 1, 0)

    def _w_start(self, s: Fight, key: tuple[int, tuple[int, ...]], row: _Row, w: int, r: int) -> None:
        if s.m >= self.model.area.hits:
            row.terms.append((w, r, self.end(s, SLAIN)))
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
                row.terms.append((w, r, self.end(n, o)))
            else:
                row.coef.setdefault(n, []).append((w, r))
            return
        cast = magic(model, s, h)
        for ways, dmg in model.hit[h][cast]:
            self._w_heroes(hero_strikes(model, s, h, dmg, cast), h + 1, key, row, w * ways, r + 1)


def _value(xs: list[Fraction]) -> Value:
    """Fractions as a value: their numerators over their common denominator."""
    d = 1
    for x in xs:
        q = x.denominator
        if d % q:
            d = d // gcd(d, q) * q
    return (*[x.numerator * (d // x.denominator) for x in xs], d)


def _fractions(v: Value) -> list[Fraction]:
    d = v[-1]
    return [Fraction(x, d) for x in v[:-1]]


def _solve(
    members: list[Fight],
    rows: list[_Row],
    stuck: Callable[[Fight], Value],
    combine: Callable[[list[tuple[int, Value]], int], Value],
) -> list[Value]:
    """Solve ``x_i = c_i + sum_j a_ij x_j`` exactly. Members that can never leave the group are stuck:
    the fight goes round in circles there, and ends as ``stuck(member)`` says."""
    n = len(members)
    index = {m: i for i, m in enumerate(members)}
    eqs: list[tuple[list[Fraction], dict[int, Fraction]]] = []
    for row in rows:
        total, terms, coef = row.scaled()
        eqs.append((_fractions(combine(terms, total)), {index[m]: Fraction(w, total) for m, w in coef.items()}))
    # A member leaves if some of its weight goes outside the group, or to a member that leaves.
    leaves = [sum(c.values()) < 1 for _, c in eqs]
    changed = True
    while changed:
        changed = False
        for i in range(n):
            if not leaves[i] and any(leaves[j] for j, c in eqs[i][1].items() if c):
                leaves[i] = changed = True
    ends = {i: _fractions(stuck(members[i])) for i in range(n) if not leaves[i]}
    width = len(eqs[0][0])
    live = [i for i in range(n) if leaves[i]]
    pos = {i: k for k, i in enumerate(live)}
    size_ = len(live)
    matrix = [[Fraction(0)] * (size_ + width) for _ in range(size_)]
    for k, i in enumerate(live):
        const, coef = eqs[i]
        line = matrix[k]
        line[k] += 1
        line[size_:] = const
        for j, c in coef.items():
            if j in pos:
                line[pos[j]] -= c
            else:  # it leads to a member that never leaves: the fight ends there, stuck
                for col, x in enumerate(ends[j]):
                    line[size_ + col] += c * x
    for col in range(size_):
        pivot = next(r for r in range(col, size_) if matrix[r][col] != 0)
        matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
        p = matrix[col][col]
        matrix[col] = [x / p for x in matrix[col]]
        for r in range(size_):
            if r != col and matrix[r][col] != 0:
                f = matrix[r][col]
                matrix[r] = [x - f * y for x, y in zip(matrix[r], matrix[col], strict=True)]
    return [_value(matrix[pos[i]][size_:]) if i in pos else _value(ends[i]) for i in range(n)]


# ---- what the shell and the CLI ask for -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FightOdds:
    """How a fight fought to the end turns out, exactly.

    ``stuck``: no living hero can hurt the monster any more (or nothing can ever change), so the party
    flees. The fields after ``states`` are counted only in detail (None otherwise); there, a stuck
    fight is counted after that flight (the entwined and the trapped are left behind).
    """

    slain: Fraction
    wiped: Fraction
    stuck: Fraction
    #: Situations counted to get there.
    states: int
    #: The chance each hero (in the book's order) is standing when the fight ends.
    standing: tuple[Fraction, ...] | None = None
    #: The chance that 0, 1, 2, 3 or 4 heroes are standing when it ends (0 is ``wiped``).
    survivors: tuple[Fraction, ...] | None = None
    #: The party's hits left at the end, on average (a fallen hero's count 0).
    hits_left: Fraction | None = None
    #: The same when the monster is slain (None if it cannot be).
    hits_left_slain: Fraction | None = None


def _odds(value: Value, states: int) -> FightOdds:
    x = _fractions(value)
    slain, wiped = x[SLAIN_AT], x[WIPED_AT]
    if len(x) == 2:
        return FightOdds(slain, wiped, 1 - slain - wiped, states)
    some = x[SURVIVORS_AT : SURVIVORS_AT + 4]
    return FightOdds(
        slain,
        wiped,
        1 - slain - wiped,
        states,
        standing=tuple(x[STANDING_AT : STANDING_AT + 4]),
        survivors=(1 - sum(some, Fraction(0)), *some),
        hits_left=x[HITS_AT],
        hits_left_slain=x[HITS_SLAIN_AT] / slain if slain else None,
    )


_SOLVERS: dict[tuple[Model, bool, bool], FightSolver] = {}


def solver(model: Model, first_strike: bool = True, detail: bool = False) -> FightSolver:
    """The solver of ``model``, kept while it is in use (the last few are cached with their memos)."""
    key = (model, first_strike, detail)
    got = _SOLVERS.get(key)
    if got is None:
        if len(_SOLVERS) >= 4:
            _SOLVERS.pop(next(iter(_SOLVERS)))
        got = _SOLVERS[key] = FightSolver(model, first_strike, detail)
    return got


#: Situations the shell counts before a choice (about half a second); later rounds finish the count.
TABLE_BUDGET = 30_000
#: Situations counted in detail (who stands at the end, with how many hits) before a choice, once the
#: chances alone are known: a value in detail takes about twice as long (a quarter of a second).
DETAIL_BUDGET = 6_000
#: The table stops counting a fight in detail beyond this many situations (about 150 MiB): a fight that
#: big shows the chances alone (``companion odds fight talisman`` counts it all).
DETAIL_CAP = 60_000


def fight_odds(
    model: Model,
    s: Fight,
    *,
    at: str = "start",
    first_strike: bool = True,
    budget: int | None = None,
    detail: bool = False,
) -> FightOdds | None:
    """The exact odds of fighting on to the end from ``s``; None if more than ``budget`` situations
    are needed (the ones counted are kept, so asking again later goes on from there).

    ``at`` says where ``s`` stands: ``start`` (between rounds: the round has not begun), ``begun`` (the
    round has begun: last round's lock-outs are in force) or ``choice`` (the party chooses to fight or
    flee: the monster has attacked this round, the heroes have not). ``detail`` counts who stands at
    the end and with how many hits too (slower: see the module's docstring).
    """
    if at not in ("start", "begun", "choice"):
        raise ValueError(f"unknown point of the round {at!r}")
    sv = solver(model, first_strike, detail)
    o = outcome(model, s)
    if o:
        return _odds(sv.end(s, o), 0)
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


# ---- every game's fight odds: companion odds fight talisman ---------------------------------------

#: Situations counted between two reports of progress by :func:`count` (about half a second).
CHUNK = 20_000


def count(
    model: Model,
    s: Fight,
    *,
    at: str = "start",
    first_strike: bool = True,
    detail: bool = False,
    progress: Callable[[int], None] | None = None,
) -> FightOdds:
    """:func:`fight_odds` counted to the end, ``CHUNK`` situations at a time; ``progress(counted)`` is
    called after each chunk that does not finish, so a shell can say that it is counting."""
    while True:
        got = fight_odds(model, s, at=at, first_strike=first_strike, budget=CHUNK, detail=detail)
        if got is not None:
            return got
        if progress is not None:
            progress(solver(model, first_strike, detail).states)


def party_hits(model: Model, s: Fight) -> int:
    """The hits the living heroes can still take, all together (a fallen hero's count 0)."""
    live = alive(model, s)
    return sum(model.maxh[h] - s.hs[h] for h in range(4) if live >> h & 1)


def _policy(model: Model, s: Fight, first_strike: bool) -> str:
    if first_strike and model.can_hit & bit(RANGERESS) and alive(model, s) & bit(RANGERESS):
        return "Krylla strikes first whenever she can; the Paladin keeps his cure"
    return "the Paladin keeps his cure"


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
    progress: Callable[[int], None] | None = None,
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
    odds = count(model, fight, at=at, first_strike=first_strike, detail=True, progress=progress)
    assert odds.survivors is not None and odds.standing is not None and odds.hits_left is not None
    monster = spec.monster
    rows = [("none", odds.survivors[0])] + [(str(k), odds.survivors[k]) for k in range(1, 5)]
    more = tuple((f"{names[h]} falls", 1 - odds.standing[h]) for h in range(4) if alive(model, fight) >> h & 1)
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
