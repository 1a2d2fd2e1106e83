"""The Adventure in the Dungeon's guided play: its roll requests and Krylla's first-strike choice.

They depend only on the monster and the party (the compiled :class:`.rules.Model`), so each is built
once and kept: the simulator asks for them thousands of times. Used by :mod:`.engine`.
"""

from __future__ import annotations

from typing import Any

from companion.dice.expr import Expr, Term
from companion.dice.faces import D6
from companion.engine.requests import Choice, Option, RollRequest
from companion.games.adventure_in_the_dungeon import rules as R
from companion.games.adventure_in_the_dungeon.data import HEROES, RANGERESS
from companion.games.adventure_in_the_dungeon.rules import Model

# ---- requests (built once per model) --------------------------------------------------------------

_EXPRS: dict[int, Expr] = {}
_REQUESTS: dict[tuple[Any, ...], RollRequest] = {}


def _bound() -> None:
    if len(_REQUESTS) > 4096:
        _REQUESTS.clear()


def at_least(total: int) -> Expr:
    """``2d6>=total`` (built without parsing, once per total)."""
    e = _EXPRS.get(total)
    if e is None:
        e = _EXPRS[total] = Expr("sum", (Term(2, D6),), op=">=", target=total)
    return e


def monster_request(model: Model, h: int) -> RollRequest:
    key = (model, "monster", h)
    req = _REQUESTS.get(key)
    if req is None:
        _bound()
        need, mod, parts = R.monster_roll(model.area, model.be_hit, h)
        hero = HEROES[h]
        req = RollRequest(
            f"monster.{hero.key}",
            at_least(need),
            f"The {model.area.monster} {model.area.says('attacks', 'attack')} {hero.name}",
            mod,
            parts,
        )
        _REQUESTS[key] = req
    return req


def hero_request(model: Model, h: int, cast: bool, kind: str = "attack") -> RollRequest:
    """Hero ``h``'s roll against the monster: ``attack``, ``first`` (the Rangeress's first strike), ``web``."""
    key = (model, kind, h, cast)
    req = _REQUESTS.get(key)
    if req is None:
        _bound()
        need, mod, parts = R.hero_roll(model.area, model.to_hit, h, cast)
        hero = HEROES[h]
        monster = model.area.monster
        why = {
            "attack": f"{hero.name} attacks the {monster}" + (" with a spell" if cast else ""),
            "first": f"{hero.name} strikes the {monster} first",
            "web": f"{hero.name} cuts at the webs" + (" with a spell" if cast else ""),
        }[kind]
        prefix = "web" if kind == "web" else "attack"
        req = RollRequest(f"{prefix}.{hero.key}", at_least(need), why, mod, parts)
        _REQUESTS[key] = req
    return req


def first_choice(model: Model) -> Choice:
    key = (model, "first-choice")
    got = _REQUESTS.get(key)
    if got is None:
        from fractions import Fraction

        from companion.dice.render import fraction
        from companion.dice.targets import target_text

        need, mod, parts = R.hero_roll(model.area, model.to_hit, RANGERESS, False)
        p = Fraction(sum(w for w, d in model.hit[RANGERESS][0] if d), 36)
        shown = "".join(f" {v:+d} {n}".replace("-", "−") for n, v in parts if v)
        dice = target_text(at_least(need), mod)  # what her dice must show, as every prompt says it
        got = Choice(
            "round.first",
            f"Krylla may strike the {model.area.monster} before {model.area.says('it attacks', 'they attack')}.",
            (
                Option("strike", "Krylla strikes first", f"2d6>={need}{shown}: passes on {dice} → {fraction(p)}", "st"),
                Option("wait", "Krylla waits and attacks with the others", key="wa"),
            ),
        )
        _REQUESTS[key] = got  # type: ignore[assignment]
    return got  # type: ignore[return-value]
