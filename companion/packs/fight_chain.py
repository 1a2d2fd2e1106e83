"""An absorbing Markov chain solved exactly: the odds of how a pack's fight ends.

``solve(start, step, classify)`` walks every position the fight can reach from ``start``. ``step(pos)``
gives the equally likely outcomes of one round there as ``(count, next position)`` (their counts add
up to the round's number of outcomes) and whether it is a round at all (fleeing is not);
``classify(pos)`` names a position where the fight is over ("win", "lose", ...), else None.

- A round that leaves the position as it was (a tie that changes nothing) is a loop on that position:
  it is absorbed in closed form, the round's other outcomes divided by the chance of leaving, and a
  position no round can leave is **stuck** (the fight never ends from there: its chance is reported).
- When no chain of rounds comes back to a position (every round moves the fight on, as in almost
  every book), the positions are taken in order with integers only: each position's chance is an
  integer over one common denominator ``M ** L`` (``M`` the common denominator of one round, ``L``
  the longest fight), so a step is an integer multiply and an exact division, and Fractions are made
  only for the few figures at the end.
- Where rounds can come back (a foe that heals on a tie, up to its max), the positions are taken a
  strongly connected component at a time, in order, and each component's visits are solved exactly
  (sparse Gaussian elimination in Fractions); a component of more than :data:`MAX_LOOP` positions is
  refused, with the bound.

At most :data:`MAX_POSITIONS` positions are counted; a fight with more is refused with the bound.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction

from companion.errors import InputError
from companion.i18n import _, number

#: The most positions one fight's odds count (every tracker up to 30 for three trackers is 29,791).
MAX_POSITIONS = 250_000
#: The most positions in one loop of rounds (rounds that come back) solved exactly.
MAX_LOOP = 400
#: The most outcomes of rounds counted in all (positions times the outcomes of a round from each).
MAX_WORK = 5_000_000

Pos = Hashable
Step = Callable[[Pos], tuple[list[tuple[int, Pos]], bool]]


@dataclass(frozen=True)
class Ends:
    """How a fight ends from one position, exactly."""

    #: Each end position and its chance (they add up to 1 - ``stuck``).
    ends: dict[Pos, Fraction]
    #: The chance to reach a position from which no round can end the fight.
    stuck: Fraction
    #: The expected number of rounds (ties counted); None when the fight may never end.
    rounds: Fraction | None
    positions: int


def _explore(start: Pos, step: Step, classify: Callable[[Pos], str | None]):
    moves: dict[Pos, tuple[int, int, list[tuple[int, Pos]], bool] | None] = {}
    stack = [start]
    work = 0
    while stack:
        pos = stack.pop()
        if pos in moves:
            continue
        if classify(pos) is not None:
            moves[pos] = None
            continue
        outcomes, is_round = step(pos)
        work += len(outcomes)
        if work > MAX_WORK:
            raise InputError(
                _(
                    "this fight's rounds have more than {most} outcomes to count in all (many positions, "
                    "and many results of the dice from each); lower the numbers or use fewer dice"
                ).format(most=number(MAX_WORK, group=True))
            )
        merged: dict[Pos, int] = {}
        for count, nxt in outcomes:
            if count:
                merged[nxt] = merged.get(nxt, 0) + count
        total = sum(merged.values())
        stay = merged.pop(pos, 0)
        moves[pos] = (total, stay, [(c, q) for q, c in merged.items()], is_round)
        if len(moves) > MAX_POSITIONS:
            raise InputError(
                _(
                    "this fight has more than {most} positions to count (its trackers' values "
                    "together); companion counts at most {most}: lower the numbers, or give the "
                    "trackers that can rise a max"
                ).format(most=number(MAX_POSITIONS, group=True))
            )
        for nxt in merged:
            if nxt not in moves:
                stack.append(nxt)
    return moves


def _order(start: Pos, moves) -> list[Pos] | None:
    """The positions in an order where every round leads later (None if some rounds come back)."""
    post: list[Pos] = []
    state: dict[Pos, int] = {start: 1}  # 1 on the path, 2 done
    work = [(start, iter(moves[start][2] if moves[start] else ()))]
    while work:
        pos, it = work[-1]
        nxt = next(it, None)
        if nxt is None:
            work.pop()
            state[pos] = 2
            post.append(pos)
            continue
        q = nxt[1]
        s = state.get(q)
        if s == 1:
            return None
        if s is None:
            state[q] = 1
            work.append((q, iter(moves[q][2] if moves[q] else ())))
    post.reverse()
    return post


def solve(start: Pos, step: Step, classify: Callable[[Pos], str | None]) -> Ends:
    moves = _explore(start, step, classify)
    order = _order(start, moves)
    if order is None:
        return _solve_loops(start, moves)
    depth = {start: 0}
    for pos in order:
        m = moves[pos]
        if m is None:
            continue
        d = depth[pos] + 1
        for _c, q in m[2]:
            if depth.get(q, -1) < d:
                depth[q] = d
    longest = max(depth.values())
    leaving = {m[0] - m[1] for m in moves.values() if m is not None and m[0] > m[1]}
    common = math.lcm(*leaving) if leaving else 1
    whole = common**longest
    mass: dict[Pos, int] = {start: whole}
    ends: dict[Pos, int] = {}
    stuck = 0
    rounds = 0
    for pos in order:
        m_here = mass.pop(pos, 0)
        if not m_here:
            continue
        m = moves[pos]
        if m is None:
            ends[pos] = ends.get(pos, 0) + m_here
            continue
        total, stay, out, is_round = m
        left = total - stay
        if left == 0:
            stuck += m_here
            continue
        factor = common // left
        if is_round:
            rounds += m_here * total * factor
        for count, q in out:
            mass[q] = mass.get(q, 0) + m_here * count * factor // common
    return Ends(
        {pos: Fraction(n, whole) for pos, n in ends.items()},
        Fraction(stuck, whole),
        Fraction(rounds, whole * common) if not stuck else None,
        len(moves),
    )


# ---- rounds that come back -------------------------------------------------------------------------


def _components(start: Pos, moves) -> list[list[Pos]]:
    """Tarjan's strongly connected components, sources first."""
    index: dict[Pos, int] = {}
    low: dict[Pos, int] = {}
    on: set[Pos] = set()
    stack: list[Pos] = []
    found: list[list[Pos]] = []
    counter = 0

    def succ(p: Pos):
        m = moves[p]
        return iter(() if m is None else [q for _c, q in m[2]])

    index[start] = low[start] = 0
    counter = 1
    stack.append(start)
    on.add(start)
    work = [(start, succ(start))]
    while work:
        node, it = work[-1]
        child = next(it, None)
        if child is not None:
            if child not in index:
                index[child] = low[child] = counter
                counter += 1
                stack.append(child)
                on.add(child)
                work.append((child, succ(child)))
            elif child in on:
                low[node] = min(low[node], index[child])
            continue
        work.pop()
        if work:
            low[work[-1][0]] = min(low[work[-1][0]], low[node])
        if low[node] == index[node]:
            comp = []
            while True:
                member = stack.pop()
                on.discard(member)
                comp.append(member)
                if member == node:
                    break
            found.append(comp)
    found.reverse()
    return found


def _solve_loops(start: Pos, moves) -> Ends:
    mass: dict[Pos, Fraction] = {start: Fraction(1)}
    ends: dict[Pos, Fraction] = {}
    stuck = Fraction(0)
    rounds = Fraction(0)
    for comp in _components(start, moves):
        inflow = [mass.pop(p, Fraction(0)) for p in comp]
        if not any(inflow):
            continue
        if len(comp) == 1 and moves[comp[0]] is None:
            ends[comp[0]] = ends.get(comp[0], Fraction(0)) + inflow[0]
            continue
        members = set(comp)
        if not any(q not in members for p in comp for _c, q in moves[p][2]):
            stuck += sum(inflow)
            continue
        if len(comp) > MAX_LOOP:
            raise InputError(
                _(
                    "this fight's rounds can come back to {n} positions in a loop (a tracker that rises "
                    "and falls); companion solves loops of at most {most} positions exactly: lower the "
                    "numbers"
                ).format(n=number(len(comp), group=True), most=number(MAX_LOOP, group=True))
            )
        visits = _visits(comp, moves, inflow)
        for p, v in zip(comp, visits, strict=True):
            total, _stay, out, is_round = moves[p]
            if is_round:
                rounds += v
            for count, q in out:
                if q not in members:
                    mass[q] = mass.get(q, Fraction(0)) + v * count / total
    return Ends(ends, stuck, rounds if not stuck else None, len(moves))


def _visits(comp: list[Pos], moves, inflow: list[Fraction]) -> list[Fraction]:
    """The expected visits of each position of one component: ``v = b + v Q`` solved exactly, as the
    sparse system ``(I - Q)^T v = b`` (an M-matrix: no pivot is ever zero)."""
    at = {p: i for i, p in enumerate(comp)}
    n = len(comp)
    rows: list[dict[int, Fraction]] = [{} for _ in range(n)]
    for j, p in enumerate(comp):  # column j of (I - Q): the rounds out of position j
        total, stay, out, _is_round = moves[p]
        rows[j][j] = rows[j].get(j, Fraction(0)) + 1 - Fraction(stay, total)
        for count, q in out:
            i = at.get(q)
            if i is not None:
                rows[i][j] = rows[i].get(j, Fraction(0)) - Fraction(count, total)
    b = list(inflow)
    for k in range(n):
        pivot = rows[k][k]
        for i in range(k + 1, n):
            f = rows[i].get(k)
            if not f:
                continue
            f = f / pivot
            for j, a in rows[k].items():
                if j > k:
                    rows[i][j] = rows[i].get(j, Fraction(0)) - f * a
            del rows[i][k]
            b[i] -= f * b[k]
    x = [Fraction(0)] * n
    for k in range(n - 1, -1, -1):
        s = b[k] - sum(a * x[j] for j, a in rows[k].items() if j > k)
        x[k] = s / rows[k][k]
    return x
