"""How a round of a pack's fight goes: the one implementation that ``companion fight round`` plays and
``companion odds fight pack`` counts.

A position of a fight is a tuple of numbers, one per tracker of its :class:`Board`, each kept within
0 and its max (a session counter's max for yours; for the foe, the number it started the fight with),
exactly as the session keeps counters. Effects on a tracker the board does not hold are left out:
the odds hold only the trackers a fight reads, the played fight all it names.

- an opposed round: each side's attack total, the higher wins (:func:`result_of`), the round's effect
  (:meth:`Fight.effects_of`), then, where the fight is not over and the player tests, the LUCK
  test's effects (:func:`luck_effects`);
- a table round: the ratio picks a column, the dice's reading a row, the cell both losses
  (:func:`cell_effects`);
- fleeing: the fight's ``flee`` effect, then the fight is over: fled, or lost if that was the last
  STAMINA (:meth:`Board.fled`).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from companion.packs.fight_model import FOE, YOU, Cell, Fight, FightEffect, Linear, Ref

if TYPE_CHECKING:
    from companion.packs.model import Check, Effect

Position = tuple[int, ...]
_TEST = {"<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt, "==": operator.eq}
#: ``(index, "add" or "set", value)`` for each effect on a tracker of the board.
Compiled = tuple[tuple[int, str, int], ...]


class Board:
    """The trackers of one fight in a fixed order, with their maxima; positions are tuples of values."""

    def __init__(self, fight: Fight, refs: Iterable[Ref], maxes: Mapping[Ref, int | None]) -> None:
        self.fight = fight
        self.refs = tuple(dict.fromkeys(refs))
        self.index = {ref: i for i, ref in enumerate(self.refs)}
        self.maxes = tuple(maxes.get(ref) for ref in self.refs)
        self._cache: dict[tuple[FightEffect, ...], Compiled] = {}
        until = fight.until
        self._you = tuple((self.index[c.ref], _TEST[c.op], c.number) for c in until.side(YOU) if c.ref in self.index)
        self._foe = tuple((self.index[c.ref], _TEST[c.op], c.number) for c in until.side(FOE) if c.ref in self.index)

    def position(self, values: Mapping[Ref, int]) -> Position:
        return tuple(values[ref] for ref in self.refs)

    def values(self, pos: Position) -> dict[Ref, int]:
        return dict(zip(self.refs, pos, strict=True))

    def compile(self, effects: tuple[FightEffect, ...]) -> Compiled:
        out = self._cache.get(effects)
        if out is None:
            out = self._cache[effects] = tuple(
                (self.index[e.ref], e.op, e.value) for e in effects if e.ref in self.index
            )
        return out

    def apply(self, pos: Position, effects: tuple[FightEffect, ...]) -> Position:
        """``pos`` after ``effects``, in order, each kept within 0..max (as a session counter is)."""
        return self.run(pos, self.compile(effects))

    def run(self, pos: Position, done: Compiled) -> Position:
        """``pos`` after effects compiled for this board (:meth:`compile`)."""
        if not done:
            return pos
        values = list(pos)
        for i, op, value in done:
            v = value if op == "set" else values[i] + value
            top = self.maxes[i]
            if top is not None and v > top:
                v = top
            values[i] = v if v > 0 else 0
        return tuple(values)

    def value(self, lin: Linear, pos: Position) -> int:
        """What ``lin`` adds to its dice at ``pos`` (its trackers and its number)."""
        return lin.const + sum(sign * pos[self.index[ref]] for sign, ref in lin.refs)

    def ended(self, pos: Position) -> str | None:
        """ "win" (the foe is down), "lose" (you are), "both", or None while the fight goes on."""
        you = foe = False
        for i, test, n in self._you:
            if test(pos[i], n):
                you = True
        for i, test, n in self._foe:
            if test(pos[i], n):
                foe = True
        if you and foe:
            return "both"
        return "lose" if you else ("win" if foe else None)

    def fled(self, pos: Position) -> str:
        """How fleeing ends, once its effect is applied at ``pos``: "flee", or "lose" (it cost your last)."""
        return "lose" if any(test(pos[i], n) for i, test, n in self._you) else "flee"


def result_of(you: int, foe: int) -> str:
    """An opposed round: the higher total wins it."""
    return "win" if you > foe else ("lose" if you < foe else "tie")


def cell_effects(fight: Fight, cell: Cell) -> tuple[FightEffect, ...]:
    """A table cell as effects: each side's loss on its tracker of ``until`` (a kill sets it to 0)."""
    out = []
    for side, loss in ((FOE, cell.foe), (YOU, cell.you)):
        ref = fight.until.side(side)[0].ref
        if loss is None:
            out.append(FightEffect(ref, "set", 0, "k"))
        elif loss:
            out.append(FightEffect(ref, "add", -loss, str(loss)))
    return tuple(out)


def check_ref(check: Check | None) -> Ref | None:
    """The tracker a LUCK test is against (None for a check against a number)."""
    if check is None or check.tracker is None:
        return None
    return Ref(YOU, check.tracker.key, check.tracker.name)


def check_changes(check: Check, passed: bool) -> tuple[tuple[FightEffect, ...], tuple[Effect, ...]]:
    """A LUCK test's own effects (``LUCK -1``): those on counters as fight effects, and the rest (items,
    XP), which change nothing in the fight."""
    from companion.packs.rolling import check_effects

    counters = []
    rest = []
    for e in check_effects(check, passed):
        if e.kind == "counter":
            counters.append(FightEffect(Ref(YOU, e.name, e.label), e.op, e.value, e.text))
        else:
            rest.append(e)
    return tuple(counters), tuple(rest)


def luck_effects(fight: Fight, check: Check, result: str, passed: bool) -> tuple[FightEffect, ...]:
    """What a LUCK test after a ``result`` round changes: the fight's own effect, then the check's."""
    assert fight.luck is not None
    return (*fight.luck.effects(result, passed), *check_changes(check, passed)[0])
