"""The round kernels of a whole fight's chain (:class:`Kernels`): situations as integers, one round's
kernel per signature (enumerated with the rules' own step functions), and what the forward passes read.

:class:`.fight_chain.Chain` adds the pass; :mod:`.forward` pushes a distribution through these kernels.
Why the chain is fast: :mod:`.fight_chain`.
"""

from __future__ import annotations

from typing import Any

from companion.games.adventure_in_the_dungeon import data as D
from companion.games.adventure_in_the_dungeon.data import RANGERESS, WIZARD
from companion.games.adventure_in_the_dungeon.odds.phases import phase_a, phase_b
from companion.games.adventure_in_the_dungeon.rules import (
    SLAIN,
    STUCK,
    WIPED,
    Fight,
    Model,
    alive,
)

#: The weights of one round's rolls are integers over 36**9 (five rolls in the monster's half, four in
#: the heroes'), as :func:`.phases.phase_a` and :func:`.phases.phase_b` count them.
T_ROUND = 36**9
T_B = 36**4

# Flag fields of a situation, each a 4-bit mask (one bit per hero), and the cure (one bit).
_DEAD, _PARA, _TRAP, _TWINE, _LOCK, _CURE = 0, 4, 8, 12, 16, 20


Entry = tuple[int, int, int, "str | None"]
#: A kernel grouped for the pass: ends (offset, end, weight), moves (level offset, [(offset, weight)]),
#: and the rounds that stay on the level.
Compiled = tuple[list[tuple[int, str, int]], list[tuple[int, list[tuple[int, int]]]], list[Entry]]


def _flags(s: Fight) -> int:
    return s.dead | s.para << _PARA | s.trap << _TRAP | s.twine << _TWINE | s.lock << _LOCK | int(s.cure) << _CURE


class Kernels:
    """The round kernels of one model (kept, with a cache of signatures)."""

    def __init__(self, model: Model, first_strike: bool = True) -> None:
        self.model = model
        self.first_strike = first_strike
        self.hits = model.area.hits
        self.maxh = model.maxh
        # Mixed radix: m in 0..hits, hero h in 0..maxh[h], then the flags.
        self.radix_m = self.hits + 1
        strides = []
        stride = self.radix_m
        for h in range(4):
            strides.append(stride)
            stride *= self.maxh[h] + 1
        self.strides = tuple(strides)
        self.flag_stride = stride
        self.cap_m = self._cap_monster()
        self.blow = tuple(self._blow(h) for h in range(4))
        #: phase B's kernel (the heroes' attacks) by its own signature: the heroes' hits do not matter.
        self.heroes_turn: dict[tuple[int, ...], list[tuple[int, int, int, str | None]]] = {}
        #: phase A (the first strike and the monster's attacks) by the signature (see _monster_half).
        self.monster_half: dict[tuple[Any, ...], list[Any]] = {}
        self.first_best = max(d for _, d in model.hit[RANGERESS][0])
        self._compiled: dict[tuple[int, ...], Any] = {}
        #: signature -> [(weight over T_ROUND, key offset, level offset, end or None)], ``end`` being
        #: slain, wiped or stuck.
        self.kernels: dict[tuple[int, ...], list[Entry]] = {}
        self._rests: dict[tuple[int, ...], tuple[list[list[int]], list[Any]]] = {}

    # ---- how few hits matter: more than one round can score ----
    def _cap_monster(self) -> int:
        """More hits left than this and no round can slay it (a first strike plus every hero's best)."""
        best = [max(d for magic in (False, True) for _, d in self.model.hit[h][magic]) for h in range(4)]
        return sum(best) + best[RANGERESS] + 1

    def _blow(self, h: int) -> int:
        """The most hits one attack of the monster scores on hero ``h``."""
        return max(d for sf in (0, 1) for _, d in self.model.mon[h][sf])

    def _times(self, rem_m: int, live: int) -> int:
        """The most attacks one hero can take in a round, with ``live`` heroes standing."""
        area = self.model.area
        if not area.repeat:
            return 1
        n = rem_m if D.SKELETONS in area.rules else area.attacks
        return -(-n // max(1, live))

    # ---- situations as integers ----
    def encode(self, s: Fight) -> int:
        key = min(s.m, self.hits)
        for h in range(4):
            key += min(s.hs[h], self.maxh[h]) * self.strides[h]
        return key + _flags(s) * self.flag_stride

    def round_key(self, s: Fight) -> int:
        """``encode(begin_round(s))`` without building the new round: this round's misses against
        the Remorhaz become next round's lock-outs."""
        hs, mx, st = s.hs, self.maxh, self.strides
        key = min(s.m, self.hits) + min(hs[0], mx[0]) * st[0] + min(hs[1], mx[1]) * st[1]
        key += min(hs[2], mx[2]) * st[2] + min(hs[3], mx[3]) * st[3]
        flags = s.dead | s.para << _PARA | s.trap << _TRAP | s.twine << _TWINE | s.nlock << _LOCK
        return key + (flags | int(s.cure) << _CURE) * self.flag_stride

    def key_end(self, key: int) -> str | None:
        """:func:`~.rules.outcome` of the situation ``key``."""
        rest = key % self.flag_stride
        if rest % self.radix_m >= self.hits:
            return SLAIN
        live = 0
        for h in range(4):
            if rest // self.strides[h] % (self.maxh[h] + 1) < self.maxh[h]:
                live |= 1 << h
        live &= ~(key // self.flag_stride)
        if not live & 0xF:
            return WIPED
        if not live & self.model.can_hit:
            return STUCK
        return None

    def decode(self, key: int) -> Fight:
        flags, rest = divmod(key, self.flag_stride)
        m = rest % self.radix_m
        hs = tuple(rest // self.strides[h] % (self.maxh[h] + 1) for h in range(4))
        f = 0xF
        return Fight(
            m,
            hs,  # type: ignore[arg-type]
            flags & f,
            flags >> _PARA & f,
            flags >> _TRAP & f,
            flags >> _TWINE & f,
            flags >> _LOCK & f,
            0,
            bool(flags >> _CURE & 1),
        )

    def _signature(self, s: Fight) -> tuple[int, ...]:
        """What a round begun at ``s`` depends on: the flags, and the hits left where few enough to
        matter in one round (a hero who can take more than the monster can score in a round behaves
        the same at any count)."""
        hs, mx = s.hs, self.maxh
        live = alive(self.model, s)
        rem_m = self.hits - s.m
        standing = bin(live).count("1")
        if s.twine & live & 1 << RANGERESS:
            standing -= 1  # she may drown striking first, before the monster picks its targets
        times = self._times(rem_m, standing)
        b = self.blow
        return (
            min(rem_m, self.cap_m),
            min(mx[0] - hs[0], b[0] * times + 1),
            min(mx[1] - hs[1], b[1] * times + 1),
            min(mx[2] - hs[2], b[2] * times + 1),
            min(mx[3] - hs[3], b[3] * times + 1),
            _flags(s),
        )

    def _heroes_reads(self, mid: Fight) -> tuple[int, ...]:
        """What the heroes' turn from ``mid`` reads, but the monster's hits: who stands, the flags,
        next round's lock-outs, who attacked, and whether the Wizard was struck (his spell fails)."""
        return (alive(self.model, mid), _flags(mid), mid.nlock, mid.att, mid.struck & 1 << WIZARD)

    def _heroes_turn(self, sig: tuple[int, ...], mid: Fight) -> list[tuple[int, int, int, str | None]]:
        """Phase B from ``mid`` as (weight over 36**4, key offset from ``begin_round(mid)``'s key,
        level offset, end or None), memoised on ``sig``: the monster's hits left (where few enough to
        matter) and :meth:`_heroes_reads` (which also say the level offset and the end)."""
        got = self.heroes_turn.get(sig)
        if got is None:
            base = self.round_key(mid)
            acc: dict[int, int] = {}
            for end, w in phase_b(self.model, mid).items():
                off = self.round_key(end) - base
                acc[off] = acc.get(off, 0) + w
            lvl = self.key_level(base)
            got = self.heroes_turn[sig] = [
                (w, off, self.key_level(base + off) - lvl, self.key_end(base + off)) for off, w in acc.items()
            ]
        return got

    def _monster_half(self, sig: tuple[int, ...], rep: Fight) -> list[Any]:
        """Phase A from ``rep`` (a round begun), as (weight over 36**5, key offset of the round's start
        after it, level offset, hits it adds to the monster, :meth:`_heroes_reads` or None when the
        first strike slays it, the situation). The same for every count of the monster's hits that
        the first strike cannot end (unless the count says how many attack: the skeletons), so it is
        memoised on the rest of the signature."""
        shared = sig[0] > self.first_best and D.SKELETONS not in self.model.rules
        memo = ("any", *sig[1:]) if shared else sig
        got = self.monster_half.get(memo)
        if got is None:
            base = self.encode(rep)
            lvl = self.key_level(base)
            got = []
            for mid, wa in phase_a(self.model, rep, self.first_strike).items():
                k0 = self.round_key(mid)
                reads = None if mid.m >= self.hits else self._heroes_reads(mid)
                got.append((wa, k0 - base, self.key_level(k0) - lvl, mid.m - rep.m, reads, mid))
            self.monster_half[memo] = got
        return got

    # ---- one round's kernel, enumerated with the rules' step functions ----
    def kernel(self, s: Fight) -> list[Entry]:
        """Where a round begun at ``s`` leads: (weight over T_ROUND, key offset, level offset, end)."""
        sig = self._signature(s)
        got = self.kernels.get(sig)
        if got is not None:
            return got
        # A representative: the same flags, with exactly as few hits left as matter.
        rep = Fight(
            self.hits - sig[0],
            tuple(self.maxh[h] - sig[1 + h] for h in range(4)),  # type: ignore[arg-type]
            s.dead,
            s.para,
            s.trap,
            s.twine,
            s.lock,
            0,
            s.cure,
        )
        acc: dict[int, int] = {}
        how: dict[int, tuple[int, str | None]] = {}  # an offset's level offset and end
        for wa, off0, d0, dm, reads, mid in self._monster_half(sig, rep):
            if reads is None:  # slain by the first strike
                acc[off0] = acc.get(off0, 0) + wa * T_B
                how[off0] = (d0, SLAIN)
                continue
            turn = self.heroes_turn.get((sig[0] - dm, *reads))
            if turn is None:
                turn = self._heroes_turn((sig[0] - dm, *reads), mid._replace(m=rep.m + dm))
            for wb, off, dl, end in turn:
                off += off0
                if off in acc:
                    acc[off] += wa * wb
                else:
                    acc[off] = wa * wb
                    how[off] = (d0 + dl, end)
        out = [(w, off, *how[off]) for off, w in acc.items()]
        self.kernels[sig] = out
        return out

    # ---- the forward pass ----
    def compiled(self, key: int) -> Compiled:
        """The kernel of the situation ``key``, grouped for the pass: the ends (offset, end, weight),
        the moves to later levels (level offset, [(offset, weight)]), and the rounds that stay on this
        level (nothing but a change of lock-outs), as kernel entries."""
        rest = key % self.flag_stride
        digits = [rest % self.radix_m]
        for h in range(4):
            digits.append(rest // self.strides[h] % (self.maxh[h] + 1))
        flags = key // self.flag_stride
        live = 0
        for h in range(4):
            if digits[1 + h] < self.maxh[h] and not flags >> h & 1:
                live |= 1 << h
        standing = bin(live).count("1")
        if flags >> (_TWINE + RANGERESS) & live >> RANGERESS & 1:
            standing -= 1
        rem_m = self.hits - digits[0]
        times = self._times(rem_m, standing)
        mx, b = self.maxh, self.blow
        sig = (
            min(rem_m, self.cap_m),
            min(mx[0] - digits[1], b[0] * times + 1),
            min(mx[1] - digits[2], b[1] * times + 1),
            min(mx[2] - digits[3], b[2] * times + 1),
            min(mx[3] - digits[4], b[3] * times + 1),
            flags,
        )
        got = self._compiled.get(sig)
        if got is None:
            k = self.kernel(self.decode(key))
            moves: dict[int, list[tuple[int, int]]] = {}
            for w, off, dl, end in k:
                if end is None and dl:
                    moves.setdefault(dl, []).append((off, w))
            got = self._compiled[sig] = (
                [(off, end, w) for w, off, dl, end in k if end is not None],
                sorted(moves.items()),
                [e for e in k if e[3] is None and not e[2]],
            )
        return got

    # ---- what the forward passes read ----
    def key_level(self, key: int) -> int:
        """The level of the situation ``key``: its hits and deaths, all counted. No round lowers it,
        and only a round of misses (or a change of lock-outs) keeps it."""
        rest = key % self.flag_stride
        total = rest % self.radix_m + bin(key // self.flag_stride & 0xF).count("1")
        for h in range(4):
            total += rest // self.strides[h] % (self.maxh[h] + 1)
        return total

    def rest_table(self, lo: tuple[int, ...]) -> tuple[list[list[int]], list[Any]]:
        """For :func:`.forward.dense_pass`: the situations without their flags (the hit counts alone)
        that a fight whose counts start at ``lo`` (the monster's, then each hero's) can reach, listed
        by level, and what each says of its signature: the signature without the flags, or, where the
        monster's attacks repeat (and the flags say how many fall on each hero), the hits each hero
        has left, as few as can matter (shared: a few hundred). Kept for the last few starts."""
        got = self._rests.get(lo)
        if got is not None:
            return got
        if len(self._rests) >= 4:
            self._rests.pop(next(iter(self._rests)))
        mx, b, st, hits, rm = self.maxh, self.blow, self.strides, self.hits, self.radix_m
        cm = [min(hits - d, self.cap_m) for d in range(rm)]
        repeat = self.model.area.repeat
        most = self._times(hits, 1)  # the most attacks that can fall on one hero in a round
        by_level: list[list[int]] = [[] for _ in range(rm + sum(mx))]
        info: list[Any] = [None] * self.flag_stride
        shared: dict[tuple[int, ...], tuple[int, ...]] = {}
        for d3 in range(lo[4], mx[3] + 1):  # hits only grow: nothing below ``lo`` is reached
            for d2 in range(lo[3], mx[2] + 1):
                for d1 in range(lo[2], mx[1] + 1):
                    for d0 in range(lo[1], mx[0] + 1):
                        base = d0 * st[0] + d1 * st[1] + d2 * st[2] + d3 * st[3]
                        lvl = d0 + d1 + d2 + d3
                        rems = (mx[0] - d0, mx[1] - d1, mx[2] - d2, mx[3] - d3)
                        caps = tuple(min(rems[h], b[h] + 1) for h in range(4))
                        coarse = tuple(min(rems[h], b[h] * most + 1) for h in range(4))
                        for dm in range(lo[0], rm):
                            by_level[lvl + dm].append(base + dm)
                            if repeat:
                                info[base + dm] = shared.setdefault(coarse, coarse)
                            else:
                                sig = (cm[dm], *caps)
                                info[base + dm] = shared.setdefault(sig, sig)  # a few hundred, shared
        got = self._rests[lo] = (by_level, info)
        return got

    def digits(self, key: int) -> tuple[int, ...]:
        """The hit counts of the situation ``key``: the monster's, then each hero's."""
        rest = key % self.flag_stride
        return (rest % self.radix_m, *(rest // self.strides[h] % (self.maxh[h] + 1) for h in range(4)))

    def flags_signature(self, rest: int, rems: tuple[int, ...], flags: int) -> tuple[int, ...]:
        """:meth:`_signature` without the flags of the situation ``rest`` with these flags (``rems``:
        the hits each hero has left, as :meth:`rest_table` caps them), where the monster's attacks
        repeat."""
        dm = rest % self.radix_m
        b = self.blow
        live = sum(1 << h for h in range(4) if rems[h]) & ~flags
        standing = bin(live & 0xF).count("1")
        if flags >> (_TWINE + RANGERESS) & live >> RANGERESS & 1:
            standing -= 1
        t = self._times(self.hits - dm, standing)
        return (min(self.hits - dm, self.cap_m), *(min(rems[h], b[h] * t + 1) for h in range(4)))

    def dense_kernel(self, key: int, tot: int) -> Any:
        """The kernel of ``key`` for :func:`.forward.dense_pass`: None when a round can stay on the
        level and still change something (the Remorhaz's lock-outs: not for the dense pass), ``()``
        when no round can change anything, else the moves to the next round starts and the ends alike
        as ([(offset, weight)] with the same flags, [(flags offset, [(offset, weight)])]), offsets
        taken without the flags and weights as floats that already count the rounds of misses
        (divided by ``tot`` less their weight)."""
        terms, moves, stay = self.compiled(key)
        if any(e[1] for e in stay):
            return None
        ws = sum(e[0] for e in stay)
        if ws == tot:
            return ()
        f = tot - ws
        size = self.flag_stride
        flags, rest = divmod(key, size)
        same: list[tuple[int, float]] = []
        other: dict[int, list[tuple[int, float]]] = {}
        for off, w in [(off, w) for _, entries in moves for off, w in entries] + [(off, w) for off, _, w in terms]:
            to_flags, to_rest = divmod(key + off, size)
            if to_flags == flags:
                same.append((to_rest - rest, w / f))
            else:
                other.setdefault(to_flags - flags, []).append((to_rest - rest, w / f))
        return same, sorted(other.items())
