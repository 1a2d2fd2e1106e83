"""Evaluate faces into a roll record. No randomness and no I/O here: the faces come from a source.

A :class:`Roll` is what every part of companion keeps and shows: the expression, each die's face,
the modifier, the total, whether it passed, the Split Roll option, a natural 6 or 1, the Dark Tower
hearts and stars, and where the faces came from (``virtual``, ``physical`` or ``amended``).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.dice.expr import DC_TARGET, Expr
from companion.errors import InputError
from companion.i18n import N_

SOURCES = ("virtual", "physical", "amended")

#: Rolls whose meaning a modifier cannot change; a modifier on them is refused, not ignored.
NO_MODIFIER = {
    "EC": N_("EC passes on a natural 6 only"),
    "SR": N_("a Split Roll reads the bare die"),
    "DR": N_("a Dice Roll reads the bare die against its table"),
    "talisman": N_("the Talisman is found on a bare 12"),
}


@dataclass(frozen=True, slots=True)
class Roll:
    """One resolved roll. ``faces`` is None only when a player typed the total of several dice."""

    expr: Expr
    faces: tuple[int, ...] | None
    modifier: int
    total: int
    success: bool | None
    option: int | None
    natural: int | None
    hearts: int | None
    stars: int | None
    source: str
    #: The modifier's labelled parts for display, e.g. (("STR", 1), ("floor", -1)).
    parts: tuple[tuple[str, int], ...] = ()

    @property
    def option_name(self) -> str | None:
        if self.option is None:
            return None
        if self.expr.options:
            return self.expr.options[self.option - 1]
        return str(self.option)


def check_modifier(expr: Expr, modifier: int) -> None:
    """Refuse a modifier on a roll it cannot affect, with one line saying why."""
    if modifier and expr.kind in NO_MODIFIER:
        from companion.i18n import _

        raise InputError(_("{dice} takes no modifier: {why}").format(dice=expr, why=_(NO_MODIFIER[expr.kind])))


def total_of(expr: Expr, faces: tuple[int, ...]) -> int:
    """The numeric sum of the faces with their signs, before any modifier."""
    total = 0
    i = 0
    for term in expr.terms:
        die = term.die
        for face in faces[i : i + term.count]:
            total += term.sign * die.value(face)
        i += term.count
    return total


#: Single-die rolls already evaluated, by (id(expr), face, modifier, source, id(parts)). A Roll is
#: immutable and fully determined by these, so one object serves every identical roll: the
#: simulator plays hundreds of thousands of single-die checks a second, almost all of them repeats.
#: Keying by ``id`` is safe because each cached Roll holds its ``expr`` and ``parts``: while the
#: entry lives, those objects live, so no other object can have their ids.
_SINGLE: dict[tuple[int, int, int, str, int], Roll] = {}
_SINGLE_LIMIT = 8192
#: The same for rolls of 2 to ``SMALL_ROLL`` dice, by (id(expr), faces, ...): a 2d6 has 36 faces
#: tuples, and The Adventure in the Dungeon's simulated games are almost all 2d6 rolls.
_SMALL: dict[tuple[int, tuple[int, ...], int, str, int], Roll] = {}
SMALL_ROLL = 4


def evaluate(
    expr: Expr,
    faces: tuple[int, ...],
    modifier: int = 0,
    *,
    source: str = "virtual",
    parts: tuple[tuple[str, int], ...] = (),
) -> Roll:
    """Read ``faces`` (already checked against the dice) under ``expr`` plus an extra ``modifier``."""
    if len(faces) == 1:
        return single(expr, faces[0], modifier, source, parts)
    if not 2 <= len(faces) <= SMALL_ROLL:
        return _evaluate(expr, faces, modifier, source, parts)
    key = (id(expr), faces, modifier, source, id(parts))
    roll = _SMALL.get(key)
    if roll is None:
        roll = _evaluate(expr, faces, modifier, source, parts)
        if len(_SMALL) >= _SINGLE_LIMIT:
            _SMALL.clear()
        _SMALL[key] = roll
    return roll


def single(expr: Expr, face: int, modifier: int, source: str, parts: tuple[tuple[str, int], ...]) -> Roll:
    """``evaluate(expr, (face,), ...)`` for an expression of one die, served from the cache."""
    key = (id(expr), face, modifier, source, id(parts))
    roll = _SINGLE.get(key)
    if roll is None:
        roll = _evaluate(expr, (face,), modifier, source, parts)
        if len(_SINGLE) >= _SINGLE_LIMIT:
            _SINGLE.clear()
        _SINGLE[key] = roll
    return roll


def _evaluate(
    expr: Expr, faces: tuple[int, ...], modifier: int, source: str, parts: tuple[tuple[str, int], ...]
) -> Roll:
    mod = expr.const + modifier
    total = total_of(expr, faces) + mod
    kind = expr.kind
    single = len(faces) == 1
    face0 = faces[0]
    natural = None
    if single and not expr.terms[0].die.custom:
        sides = expr.terms[0].die.sides
        if face0 == sides or face0 == 1:
            natural = face0
    success: bool | None = None
    option = None
    if kind == "DC":
        success = face0 == 6 or (face0 != 1 and face0 + mod >= DC_TARGET)
    elif kind == "EC":
        success = face0 == 6
    elif kind == "SR":
        option = (face0 + 1) // 2
    elif expr.op is not None:
        success = compare(total, expr.op, expr.target)  # type: ignore[arg-type]
    hearts = stars = None
    if expr.has_dt:
        hearts = stars = 0
        i = 0
        for term in expr.terms:
            for face in faces[i : i + term.count]:
                if term.die.custom:
                    if face in (4, 5):
                        hearts += 1
                    elif face == 6:
                        stars += 1
            i += term.count
    return Roll(expr, faces, mod, total, success, option, natural, hearts, stars, source, parts)


def evaluate_total(
    expr: Expr,
    dice_total: int,
    modifier: int = 0,
    *,
    source: str = "physical",
    parts: tuple[tuple[str, int], ...] = (),
) -> Roll:
    """A roll where the player gave only the dice total (e.g. 7 on 2d6), already checked."""
    mod = expr.const + modifier
    total = dice_total + mod
    success = None
    if expr.op is not None:
        success = compare(total, expr.op, expr.target)  # type: ignore[arg-type]
    return Roll(expr, None, mod, total, success, None, None, None, None, source, parts)


def compare(total: int, op: str, target: int) -> bool:
    if op == ">=":
        return total >= target
    if op == "<=":
        return total <= target
    if op == ">":
        return total > target
    if op == "<":
        return total < target
    return total == target
