"""The chain's forward passes: push the chances of round starts through the round kernels to the ends.

:class:`.kernels.Kernels` builds the kernels (one per signature); these functions push a distribution
through them (docs/odds-and-simulation.md, "The Adventure in the Dungeon's whole fights"):

- :func:`dense_pass`, the table's floats (every area but the Remorhaz's, whose lock-outs change on a
  round that stays on its level): one flat list of hit counts for each set of flags met, read level
  by level (the total of all hits and deaths: every round that changes something raises it), so a
  step is a list update with nothing to look up;
- :func:`level_pass`, exact chances and the Remorhaz: level by level, the rounds that stay on a level
  absorbed in closed form (or a small linear system for the lock-outs). Exact chances are kept as
  integer numerators over one denominator per level (the least common multiple of what arrives), so
  a step is an integer multiply and add: no :class:`~fractions.Fraction` (and no gcd) until the end.

Both return the distribution of how the fight ends as integer or float numerators over one common
denominator (1 for floats): ``({key: (end, numerator)}, denominator, situations visited)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from math import gcd, lcm
from typing import TYPE_CHECKING, Any

from companion.games.adventure_in_the_dungeon import data as D
from companion.games.adventure_in_the_dungeon.rules import SLAIN, STUCK, WIPED

if TYPE_CHECKING:
    from companion.games.adventure_in_the_dungeon.odds.kernels import Kernels

Ends = dict[int, tuple[str, Any]]

#: The dense pass keeps a list entry for every hit-count combination and every set of flags met:
#: beyond this many entries in all (16 MiB of them), the level pass, which keeps only what is reached.
DENSE_MAX = 1 << 21
#: The keys of the ends summed by outcome (``keys=False``).
OUTCOME_KEYS = {SLAIN: 0, WIPED: 1, STUCK: 2}
#: Below this many hit-count combinations the exact pass keeps dicts (:func:`level_pass`): lists of every
#: combination cost more to make than they save.
EXACT_DENSE_MIN = 4096


def dense_pass(ch: Kernels, starts: dict[int, float], tot: int) -> tuple[Ends, int, int] | None:
    """The float pass over flat lists of hit counts, one list for each set of flags met (``starts``:
    key -> chance, none ended), or None when it does not apply (the Remorhaz's lock-outs, whose rounds
    can change something and stay on the level; or more than ``DENSE_MAX`` entries in all)."""
    size = ch.flag_stride
    if len({key // size for key in starts}) * size > DENSE_MAX or D.LOCKOUT in ch.model.rules:
        return None
    by_level, info = ch.rest_table(tuple(map(min, zip(*map(ch.digits, starts), strict=True))))
    repeat = ch.model.area.repeat
    planes: dict[int, list[float]] = {}  # flags -> the chance of each round start, and of each end
    for key, p in starts.items():
        flags, rest = divmod(key, size)
        planes.setdefault(flags, [0.0] * size)[rest] += p
    ends: Ends = {}
    kernels: dict[int, dict[Any, Any]] = {}
    signatures: dict[int, dict[tuple[Any, int], Any]] = {}
    rm = ch.radix_m
    visited = 0
    for lvl in range(min(map(ch.key_level, starts)), len(by_level) + 4):
        for flags in list(planes):  # a round that changes the flags leads to a later level
            at = lvl - bin(flags & 0xF).count("1")  # the dead count in the level
            if not 0 <= at < len(by_level):
                continue
            mass = planes[flags]
            base = flags * size
            known = kernels.setdefault(flags, {})
            signs = signatures.setdefault(flags, {})
            for rest in by_level[at]:
                p = mass[rest]
                if not p:
                    continue
                if repeat:  # the signature depends on the flags too: on how many stand
                    sig = signs.get((info[rest], rest % rm))
                    if sig is None:
                        sig = signs[info[rest], rest % rm] = ch.flags_signature(rest, info[rest], flags)
                else:
                    sig = info[rest]
                k = known.get(sig)
                if k is None:
                    end = ch.key_end(base + rest)
                    k = known[sig] = end or ch.dense_kernel(base + rest, tot)
                    if k is None:
                        return None
                if k.__class__ is str:  # the fight is over here
                    ends[base + rest] = (k, p)
                    continue
                visited += 1
                if not k:  # no round can change anything: stuck
                    ends[base + rest] = (STUCK, p)
                    continue
                same, other = k
                for off, w in same:
                    mass[rest + off] += p * w
                for dflags, entries in other:
                    to = planes.get(flags + dflags)
                    if to is None:
                        if (len(planes) + 1) * size > DENSE_MAX:
                            return None  # too many sets of flags for lists of every hit count
                        to = planes[flags + dflags] = [0.0] * size
                    for off, w in entries:
                        to[rest + off] += p * w
    return ends, 1, visited


def exact_dense_pass(ch: Kernels, starts: dict[int, Any], tot: int, keys: bool = True) -> tuple[Ends, int, int] | None:
    """:func:`level_pass`'s exact arithmetic over :func:`dense_pass`'s flat lists: the same integer
    numerators over one denominator per level, the same ends, with list entries instead of dict
    lookups. A situation's chance arrives from a few earlier levels, each over its own denominator: one
    list per level offset (``jump``) holds what came from that far back, brought to the level's
    denominator once, when the level is read. None where it does not apply (as for the dense pass: the
    Remorhaz's lock-outs, or too many entries), and :func:`level_pass` counts the fight instead.

    ``starts``: key -> Fraction (none ended). Without ``keys`` the ends are summed by how the fight
    ends (one entry each, keyed 0, 1, 2...): all a table of the chances needs, at a fraction of the work."""
    size = ch.flag_stride
    if D.LOCKOUT in ch.model.rules or size < EXACT_DENSE_MIN:
        return None
    by_level, info = ch.rest_table(tuple(map(min, zip(*map(ch.digits, starts), strict=True))))
    top = len(by_level) + 4
    repeat = ch.model.area.repeat
    rm = ch.radix_m
    # planes[flags][jump]: numerators arriving from ``jump`` levels back (jump 0: the starts)
    planes: dict[int, list[list[int]]] = {}
    jumps = 1 + max(1, ch.hits + sum(b * ch._times(ch.hits, 1) for b in ch.blow) + 4)
    if len({key // size for key in starts}) * size * jumps > DENSE_MAX:
        return None
    den0 = lcm(*(p.denominator for p in starts.values()))
    # vden[level]: the denominator of what a level sends on; sent[level]: the levels it received from
    vden: dict[int, int] = {}
    came: dict[int, set[int]] = {}
    for key, p in starts.items():
        flags, rest = divmod(key, size)
        lists = planes.setdefault(flags, [[0] * size for _ in range(jumps)])
        lists[0][rest] += p.numerator * (den0 // p.denominator)
        came.setdefault(ch.key_level(key), set()).add(-1)
    vden[-1] = den0  # the starts, as if sent from level -1 with no jump of their own
    ends: dict[int, tuple[str, int]] = {}
    end_den = 1
    kernels: dict[int, dict[Any, Any]] = {}
    signatures: dict[int, dict[tuple[Any, int], Any]] = {}
    reach: set[int] = set()
    visited = 0
    for lvl in range(min(map(ch.key_level, starts)), top):
        sources = came.pop(lvl, None)
        if not sources:
            continue
        den = lcm(*(vden[src] for src in sources))
        muls = {(0 if src == -1 else lvl - src): den // vden[src] for src in sources}
        here: list[tuple[int, int, int, Any]] = []  # (flags, rest, numerator, compiled kernel)
        leaves: set[int] = set()
        for flags in list(planes):
            at = lvl - bin(flags & 0xF).count("1")
            if not 0 <= at < len(by_level):
                continue
            lists = planes[flags]
            base = flags * size
            known = kernels.setdefault(flags, {})
            signs = signatures.setdefault(flags, {})
            for rest in by_level[at]:
                num = 0
                for jump, mul in muls.items():
                    got = lists[jump][rest]
                    if got:
                        num += got * mul
                        lists[jump][rest] = 0
                if not num:
                    continue
                if repeat:
                    sig = signs.get((info[rest], rest % rm))
                    if sig is None:
                        sig = signs[info[rest], rest % rm] = ch.flags_signature(rest, info[rest], flags)
                else:
                    sig = info[rest]
                k = known.get(sig)
                if k is None:
                    end = ch.key_end(base + rest)
                    if end:
                        k = known[sig] = end
                    else:
                        terms, moves, stay = ch.compiled(base + rest)
                        if any(e[1] for e in stay):
                            return None  # a round that stays on the level and changes something
                        split = []  # the moves by level offset: those that keep the flags, the others
                        for dl, entries in moves:
                            same = [(off, w) for off, w in entries if (base + rest + off) // size == flags]
                            other = [(off, w) for off, w in entries if (base + rest + off) // size != flags]
                            split.append((dl, same, other))
                        f = tot - sum(e[0] for e in stay)
                        # The chances of leaving, w / f, in lowest terms: the level's lcm grows by less.
                        g = gcd(f, *(w for _, _, w in terms), *(w for _, e, _ in split for _, w in e))
                        g = gcd(g, *(w for _, _, e in split for _, w in e)) if g > 1 else 1
                        if g > 1:
                            terms = [(off, end, w // g) for off, end, w in terms]
                            split = [
                                (dl, [(o, w // g) for o, w in same], [(o, w // g) for o, w in other])
                                for dl, same, other in split
                            ]
                            f //= g
                        k = known[sig] = (terms, split, f)
                if k.__class__ is str:
                    here.append((flags, rest, num, k))
                    continue
                visited += 1
                here.append((flags, rest, num, k))
                if k[2]:
                    leaves.add(k[2])
        if here:  # the level's chances in lowest common terms: what they all share is divided out
            g = gcd(den, *(h[2] for h in here))
            if g > 1:
                den //= g
                here = [(fl, r, n // g, k) for fl, r, n, k in here]
        common = lcm(*leaves) if leaves else 1
        out = den * common
        vden[lvl] = out
        # The ends met at this level and what it sends on, over ``out``.
        level_ends: list[tuple[int, str, int]] = []
        for flags, rest, num, k in here:
            key = flags * size + rest
            if k.__class__ is str:
                level_ends.append((key, k, num * common))
                continue
            terms, moves, f = k
            if not f:
                level_ends.append((key, STUCK, num * common))
                continue
            x = num * (common // f)
            for off, end, w in terms:
                level_ends.append((key + off, end, x * w))
            own = planes[flags]
            for dl, same, other in moves:
                reach.add(lvl + dl)
                to = own[dl]
                for off, w in same:
                    to[rest + off] += x * w
                for off, w in other:
                    to_flags, to_rest = divmod(key + off, size)
                    lists = planes.get(to_flags)
                    if lists is None:
                        if (len(planes) + 1) * size * jumps > DENSE_MAX:
                            return None
                        lists = planes[to_flags] = [[0] * size for _ in range(jumps)]
                    lists[dl][to_rest] += x * w
        for target in reach:
            came.setdefault(target, set()).add(lvl)
        reach.clear()
        if level_ends:  # one denominator for every end so far (the lcm: a few numbers, not dozens)
            new_den = lcm(end_den, out)
            if new_den != end_den:
                up = new_den // end_den
                ends = {key: (o, n * up) for key, (o, n) in ends.items()}
            scale = new_den // out
            if not keys:  # summed by outcome: the keys stand for the outcomes
                sums: dict[str, int] = {}
                for _key, o, n in level_ends:
                    sums[o] = sums.get(o, 0) + n
                level_ends = [(OUTCOME_KEYS[o], o, n) for o, n in sums.items()]
            for key, o, n in level_ends:
                was = ends.get(key)
                ends[key] = (o, n * scale + (was[1] if was else 0))
            end_den = new_den
    return ends, end_den, visited


class _Parts:
    """Chances arriving at situations, as numerators grouped by their denominator (floats: one group)."""

    __slots__ = ("by",)

    def __init__(self) -> None:
        self.by: dict[Any, dict[int, Any]] = {}

    def add(self, den: Any, key: int, num: Any) -> None:
        got = self.by.setdefault(den, {})
        got[key] = got.get(key, 0) + num

    def combine(self, exact: bool) -> tuple[dict[int, Any], Any]:
        """Every situation's chance as one numerator over one denominator (their lcm)."""
        if not exact:
            out: dict[int, Any] = {}
            for got in self.by.values():
                for key, num in got.items():
                    out[key] = out.get(key, 0.0) + num
            return out, 1
        den = lcm(*self.by) if self.by else 1
        out = {}
        for d, got in self.by.items():
            mul = den // d
            for key, num in got.items():
                out[key] = out.get(key, 0) + num * mul
        return out, den


def level_pass(
    ch: Kernels, starts: Iterable[tuple[int, str | None, Any]], exact: bool, tot: int
) -> tuple[Ends, Any, int]:
    """Push ``starts`` ((key, end or None, chance)) through the chain level by level."""
    buckets: dict[int, _Parts] = {}
    ends = _Parts()
    endof: dict[int, str] = {}

    for key, o, p in starts:
        num, den = (p.numerator, p.denominator) if exact else (p, 1)
        if o:
            endof[key] = o
            ends.add(den, key, num)
        else:
            buckets.setdefault(ch.key_level(key), _Parts()).add(den, key, num)
    visited = 0
    while buckets:
        lvl = min(buckets)
        here, den = buckets.pop(lvl).combine(exact)
        visited += len(here)
        kernels = {key: ch.compiled(key) for key in here}
        for key, num, vden in _visits(ch, here, kernels, den, exact, tot, ends, endof):
            terms, moves, _ = kernels[key] if key in kernels else ch.compiled(key)
            for off, end, w in terms:
                endof[key + off] = end
                ends.add(vden, key + off, num * w)
            for dl, entries in moves:
                parts = buckets.get(lvl + dl)
                if parts is None:
                    parts = buckets[lvl + dl] = _Parts()
                got = parts.by.get(vden)
                if got is None:
                    got = parts.by[vden] = {}
                get = got.get
                for off, w in entries:
                    n = key + off
                    got[n] = get(n, 0) + num * w
        if exact and len(ends.by) > 1:  # one denominator for the ends so far: a few numbers, not dozens
            total, tden = ends.combine(exact)
            ends.by = {tden: total}
    final, den = ends.combine(exact)
    return {key: (endof[key], num) for key, num in final.items()}, den, visited


def _visits(
    ch: Kernels,
    here: dict[int, Any],
    kernels: dict[int, Any],
    den: Any,
    exact: bool,
    tot: int,
    ends: _Parts,
    endof: dict[int, str],
) -> list[tuple[int, Any, Any]]:
    """The expected round starts at each situation of a level, as (key, numerator, denominator) such
    that a kernel weight ``w`` (over ``tot``) carries ``numerator * w / denominator`` onwards:
    ``x = here + x Q`` over the rounds that stay on the level. A situation no round leaves is stuck."""
    stays = {key: k[2] for key, k in kernels.items()}
    if all(not e or (len(e) == 1 and not e[0][1]) for e in stays.values()):
        out = []
        leave = {key: tot - (e[0][0] if e else 0) for key, e in stays.items()}  # weight of a round that moves
        # Exact: one denominator for the level's whole push (over every chance of moving), so what it
        # sends to a later level arrives as one group, not one per chance of moving.
        common = lcm(*{f for f in leave.values() if f}) if exact else 1
        for key, h in here.items():  # the usual case: only a round of misses stays
            f = leave[key]
            if not f:
                endof[key] = STUCK
                ends.add(den, key, h)
            elif exact:
                out.append((key, h * (common // f), den * common))
            else:
                out.append((key, h / f, 1))
        return out
    group: dict[int, list[Any]] = {}
    todo = list(here)
    seen = set(todo)
    while todo:  # what a round of misses (a change of lock-outs) links to
        key = todo.pop()
        k = group[key] = ch.compiled(key)[2]
        for _, off, _, _ in k:
            if key + off not in seen:
                seen.add(key + off)
                todo.append(key + off)
    zero: Any = Fraction(0) if exact else 0.0
    scale: Any = Fraction(1, tot) if exact else 1.0 / tot
    start = {key: (Fraction(h, den) if exact else h) for key, h in here.items()}
    inner = {key: {key + off: w for w, off, _, _ in k} for key, k in group.items()}

    def stuck(key: int, p: Any) -> None:
        endof[key] = STUCK
        if exact:
            ends.add(p.denominator, key, p.numerator)
        else:
            ends.add(1, key, p)

    solved = solve_group(start, inner, scale, zero, stuck, tot)
    if exact:
        return [(key, x.numerator, x.denominator * tot) for key, x in solved.items() if x]
    return [(key, x / tot, 1) for key, x in solved.items() if x]


def solve_group(
    here: dict[int, Any],
    inner: dict[int, dict[int, int]],
    scale: Any,
    zero: Any,
    stuck: Callable[[int, Any], None],
    tot: int,
) -> dict[int, Any]:
    """Solve ``x = here + x Q`` over a small group; chances reaching members that never leave it end
    there, stuck."""
    keys = list(inner)
    leaves = {k: sum(inner[k].values()) < tot for k in keys}
    changed = True
    while changed:
        changed = False
        for k in keys:
            if not leaves[k] and any(leaves[j] for j, w in inner[k].items() if w):
                leaves[k] = changed = True
    live = [k for k in keys if leaves[k]]
    pos = {k: i for i, k in enumerate(live)}
    n = len(live)
    # (I - Q^T) x = b over the members that leave; a member that never leaves absorbs what reaches it.
    a = [[zero] * n + [here.get(k, zero)] for k in live]
    for i in range(n):
        a[i][i] += 1
    for k in live:
        for j, w in inner[k].items():
            if j in pos:
                a[pos[j]][pos[k]] -= w * scale
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[pivot] = a[pivot], a[c]
        p = a[c][c]
        a[c] = [x / p for x in a[c]]
        for r in range(n):
            if r != c and a[r][c]:
                f = a[r][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c], strict=True)]
    out = {k: a[pos[k]][n] for k in live}
    for k in keys:
        if not leaves[k]:
            arrived = here.get(k, zero) + sum((out[j] * inner[j].get(k, 0) * scale for j in live), zero)
            if arrived:
                stuck(k, arrived)
            out[k] = zero
    return out
