"""Where faces come from: the one seeded random source, or what the player typed.

Virtual dice draw one ``random()`` per die from a single ``random.Random(seed)``, so a seed replays
exactly and every die costs the generator the same, whatever its size. Physical dice are read from
text and checked against each die before anything is recorded.
"""

from __future__ import annotations

import os
import random

from companion.dice.expr import Expr
from companion.dice.faces import read_face
from companion.dice.roll import NO_MODIFIER, Roll, check_modifier, evaluate, evaluate_total, single
from companion.errors import InputError


def new_seed() -> int:
    """A fresh seed for a session or a roll that was given none (kept, so it can be replayed)."""
    # os.urandom rather than secrets: secrets imports hmac and hashlib, ~4 ms of start-up per roll.
    return int.from_bytes(os.urandom(8), "big") % 10**9


class VirtualDice:
    """The injected random source. ``draws`` counts dice drawn, for replay and for tests."""

    __slots__ = ("_random", "draws", "rng", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self._random = self.rng.random
        self.draws = 0

    def faces(self, expr: Expr) -> tuple[int, ...]:
        r = self._random
        dice = expr.dice
        self.draws += len(dice)
        return tuple(int(r() * d.sides) + 1 for d in dice)

    def d(self, sides: int) -> int:
        """One face of a plain die (the simulator's fast path; same stream as :meth:`faces`)."""
        self.draws += 1
        return int(self._random() * sides) + 1

    def roll(self, expr: Expr, modifier: int = 0, parts: tuple[tuple[str, int], ...] = ()) -> Roll:
        if modifier and expr.kind in NO_MODIFIER:
            check_modifier(expr, modifier)  # raises: a modifier on a roll it cannot change
        terms = expr.terms
        if len(terms) == 1 and terms[0].count == 1:
            # One die (every DC, DR, EC and SR): the same single draw as :meth:`faces`, without
            # building the dice tuple; evaluate() serves repeats from its cache.
            self.draws += 1
            return single(expr, int(self._random() * terms[0].die.sides) + 1, modifier, "virtual", parts)
        return evaluate(expr, self.faces(expr), modifier, source="virtual", parts=parts)

    def skip(self, count: int) -> None:
        """Advance past ``count`` dice already drawn (rebuilding the stream from a save)."""
        r = self._random
        for _ in range(count):
            r()
        self.draws += count

    def getstate(self) -> object:
        return self.rng.getstate()

    def setstate(self, state: object, draws: int) -> None:
        self.rng.setstate(state)  # type: ignore[arg-type]
        self.draws = draws


def _split(text: str) -> list[str]:
    return [p for p in text.replace(",", " ").replace(";", " ").split() if p]


def read_physical(
    expr: Expr,
    text: str,
    modifier: int = 0,
    *,
    allow_total: bool = True,
    parts: tuple[tuple[str, int], ...] = (),
    source: str = "physical",
) -> Roll:
    """Read the faces a player typed for ``expr`` and evaluate them, or raise one clear InputError.

    Faces are separated by commas or spaces (``3,5`` or ``3 5``). For several plain dice a single
    number is their total, with or without ``=`` (``7`` or ``=7``): the command line and the prompt
    take the same inputs and say the same (:func:`total_note`). ``allow_total=False`` asks for faces.
    """
    check_modifier(expr, modifier)
    dice = expr.dice
    n = len(dice)
    names = _dice_names(expr)
    from companion.i18n import _, ngettext

    if not text or not text.strip():
        raise InputError(_("no value given for {dice}; {expected}").format(dice=names, expected=_expectation(expr)))
    stripped = text.strip()
    values = _split(stripped)
    plain_sum = expr.kind in ("sum", "talisman") and not expr.has_dt and n > 1
    if plain_sum and (stripped.startswith("=") or (allow_total and len(values) == 1)):
        if stripped.startswith("=") and len(_split(stripped.lstrip("="))) != 1:
            from companion.i18n import _

            raise InputError(
                _("=TOTAL takes one number, e.g. ={n}; {expected}").format(n=n * 3 + 1, expected=_expectation(expr))
            )
        return evaluate_total(
            expr, _read_total(expr, stripped.lstrip("=").strip()), modifier, source=source, parts=parts
        )
    if len(values) != n:
        got = _("got {n}").format(n=len(values)) if len(values) else _("got none")
        raise InputError(
            ngettext(
                "{dice} needs {n} value, {got}; {expected}", "{dice} needs {n} values, {got}; {expected}", n
            ).format(dice=names, n=n, got=got, expected=_expectation(expr))
        )
    faces = []
    for die, value in zip(dice, values, strict=True):
        face = read_face(die, value)
        if face is None:
            said = (  # the Dark Tower die by its name where the language gives it one (Кубик Тёмной Башни)
                _("{value!r} is not a face of a dt; a dt accepts {accepts}")
                if die.custom
                else _("{value!r} is not a face of a {die}; a {die} accepts {accepts}")
            )
            raise InputError(said.format(value=value, die=die.name, accepts=die.accepts()))
        faces.append(face)
    return evaluate(expr, tuple(faces), modifier, source=source, parts=parts)


def total_note(roll: Roll) -> str:
    """What a single number typed for several dice was taken as: ``took 7 as the total of 2d6``."""
    dice_total = roll.total - roll.modifier
    return f"took {dice_total} as the total of {_count_dice(roll.expr)} (type each die, e.g. 3 4, to keep the faces)"


def _dice_names(expr: Expr) -> str:
    return (
        " + ".join(f"{t.count}{t.die.name}" for t in expr.terms)
        if expr.kind == "sum"
        else f"{expr} ({_count_dice(expr)})"
    )


def _count_dice(expr: Expr) -> str:
    return " + ".join(f"{t.count}{t.die.name}" for t in expr.terms)


def _expectation(expr: Expr) -> str:
    from companion.i18n import _

    dice = expr.dice
    if len(dice) == 1:
        return _("type the face: {accepts}").format(accepts=dice[0].accepts())
    kinds = {d for d in dice}
    each = dice[0].accepts() if len(kinds) == 1 else _("each die's face in order")
    extra = ""
    if expr.kind in ("sum", "talisman") and not expr.has_dt:
        extra = _(", or one number for the total ({n} or ={n})").format(n=len(dice) * 3 + 1)
    return _("type {n} faces separated by commas or spaces ({each}){extra}").format(n=len(dice), each=each, extra=extra)


def _read_total(expr: Expr, text: str) -> int:
    lo = hi = 0
    for term in expr.terms:
        a, b = term.count, term.count * term.die.sides
        if term.sign < 0:
            a, b = -b, -a
        lo += a
        hi += b
    from companion.i18n import _, quote

    try:
        value = int(text)
    except ValueError:
        raise InputError(
            _("{text} is not a total for {dice}; type a whole number from {lo} to {hi}").format(
                text=quote(text), dice=_count_dice(expr), lo=lo, hi=hi
            )
        ) from None
    if not lo <= value <= hi:
        raise InputError(
            _("{n} cannot be rolled on {dice}; a total is from {lo} to {hi}").format(
                n=value, dice=_count_dice(expr), lo=lo, hi=hi
            )
        )
    return value
