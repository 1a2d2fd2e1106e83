"""One round of a fight as integer weights, enumerated with the same step functions the engine plays.

- phase A (:func:`phase_a`): the Rangeress's first strike, then the monster's attacks;
- phase B (:func:`phase_b`): the heroes' attacks, top of the list down.

A roll that does not happen in a branch counts 36 ways, so every branch of a phase has the same total.
Both the exact odds (:mod:`.odds`) and the round chain (:mod:`.odds.fight_chain`) build on these two functions.
"""

from __future__ import annotations

from companion.games.adventure_in_the_dungeon.data import RANGERESS
from companion.games.adventure_in_the_dungeon.rules import (
    Fight,
    Model,
    alive,
    bit,
    can_strike_first,
    hero_strikes,
    magic,
    may_attack,
    monster_hits,
    targets,
)


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
