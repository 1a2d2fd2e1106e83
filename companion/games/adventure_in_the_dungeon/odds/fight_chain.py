"""A whole fight's odds as an absorbing Markov chain over rounds, pushed forward once from the start.

Why it is fast (docs/odds-and-simulation.md, "The Adventure in the Dungeon's whole fights"):

- **The real state.** Between rounds a fight is the monster's hits, each hero's hits, and a few flags
  (dead by something other than hits, paralysed, trapped, entwined, locked out, the cure spent). Who
  attacked or was struck this round, and in which order the rolls fell, are gone by the round's end:
  a round is one step of the chain, and the order of hits inside it does not matter.
- **One round's kernel depends on little.** What a round does to a situation depends only on the
  flags and on how many more hits each side can take *when that is few enough to matter this round*:
  a hero who can take more hits than any monster can score on him in one round behaves the same at 5
  as at 15. So the kernel (where the round leads, as a shift of the hit counts) is enumerated once per
  such *signature* with the rules' own step functions (:mod:`.rules`), and reused for every situation
  that shares it: a few hundred kernels serve tens of thousands of situations.
- **No iteration.** Hits only grow, so every round either moves to a situation with more hits (or a
  hero fallen) or stays among situations with the same hits (a round of misses; against the Remorhaz,
  a change of who is locked out). The staying part is absorbed in closed form (``1 / (1 - p)``, or a
  small linear system for the Remorhaz's lock-outs), so a fight that can go on for ever costs no more
  than a short one.
- **One pass gives everything.** The pass (:mod:`.forward`) yields the distribution of how the fight
  ends (every end situation with its chance), and every figure shown (slain, every hero fallen, who
  stands, how many stand, the hits left) is read off it.

A situation is one integer (the monster's hits, each hero's hits and the flags, in mixed radix), so a
kernel's entry is a constant offset. Numbers are floats at the table (``exact=False``) and exact on
request (``exact=True``: ``--exact`` and ``--json``, and the tests against icepool): integer
numerators over one denominator per level, made Fractions at the end.
"""

from __future__ import annotations

from math import lcm
from typing import Any

from companion.games.adventure_in_the_dungeon.odds.forward import OUTCOME_KEYS, dense_pass, exact_dense_pass, level_pass
from companion.games.adventure_in_the_dungeon.odds.kernels import T_ROUND, Kernels
from companion.games.adventure_in_the_dungeon.rules import Fight, outcome


class Chain(Kernels):
    """The round kernels of one model (kept, with a cache of signatures), and the forward pass."""

    def run(self, starts: dict[Fight, Any], keys: bool = True) -> tuple[dict[int, tuple[str, Any]], Any, int]:
        """Push ``starts`` (round-start situation -> chance) through the chain: the end situations as
        (key -> (end, numerator)) over one common denominator (1 for floats), and how many situations
        were visited. The chances' type (float or Fraction) says the arithmetic: floats, or exact
        integers (docs/odds-and-simulation.md)."""
        exact = not isinstance(next(iter(starts.values())), float)
        items = []
        for s, p in starts.items():
            items.append((self.encode(s), outcome(self.model, s), p))
        if not exact:
            going: dict[int, float] = {}
            for key, o, p in items:
                if not o:
                    going[key] = going.get(key, 0.0) + p
            got = dense_pass(self, going, T_ROUND) if going else None
            if got is not None:
                ends = got[0]
                for key, o, p in items:
                    if o:
                        was = ends.get(key, (o, 0.0))[1]
                        ends[key] = (o, was + p)
                return got
        else:
            going = {key: p for key, o, p in items if not o}
            got = exact_dense_pass(self, going, T_ROUND, keys) if going else None
            if got is not None:
                ends, den, visited = got
                for key, o, p in items:
                    if o:  # a start that is an end already: brought to the ends' denominator
                        key = key if keys else OUTCOME_KEYS[o]
                        new = lcm(den, p.denominator)
                        if new != den:
                            ends = {k: (e, n * (new // den)) for k, (e, n) in ends.items()}
                            den = new
                        was = ends.get(key, (o, 0))[1]
                        ends[key] = (o, was + p.numerator * (den // p.denominator))
                return ends, den, visited
        return level_pass(self, items, exact, T_ROUND)
