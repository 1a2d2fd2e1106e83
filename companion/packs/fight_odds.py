"""The exact odds of a pack's fight from a position: win, lose, flee, each side's trackers at the end,
the expected rounds. The rounds are :mod:`companion.packs.fight_rules`' (the ones ``companion fight
round`` plays), counted by :mod:`companion.packs.fight_chain`.

The player's choices are a policy: ``luck`` "never" or "always" tests after a won or lost round that
did not end the fight (the odds command shows both), and ``flee_at`` flees before a round once your
tracker of ``until`` is at or below it (None: fight to the end).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from companion.packs import fight_rules as rules
from companion.packs.fight_chain import Ends, solve
from companion.packs.fight_model import FOE, YOU, Fight, Ref, read_refs

if TYPE_CHECKING:
    from companion.packs.model import Check

POLICIES = ("never", "always")


@dataclass(frozen=True)
class FightOdds:
    """How a fight ends from one position under one policy, exactly."""

    policy: str
    win: Fraction
    lose: Fraction
    both: Fraction  # both sides down in the same round
    flee: Fraction
    stuck: Fraction  # a position no round can end the fight from
    rounds: Fraction | None
    #: Each tracker of ``until`` (yours, then the foe's): its value at the end and the chance of it.
    left: dict[Ref, dict[int, Fraction]]
    positions: int
    #: The same, for each way the fight ends ("win", "lose", "both", "flee"), not divided by its chance.
    by_end: dict[str, dict[Ref, dict[int, Fraction]]] = field(default_factory=dict)


def dice_counts(fight: Fight) -> tuple[dict[int, int], int]:
    """An opposed fight: the counts of (your dice - the foe's dice), over all equally likely outcomes."""
    from companion.dice.odds import sum_counts

    a, na = sum_counts(fight.attack.expr)  # type: ignore[union-attr, arg-type]
    b, nb = sum_counts(fight.foe_attack.expr)  # type: ignore[union-attr, arg-type]
    diff: dict[int, int] = {}
    for x, cx in a.items():
        for y, cy in b.items():
            diff[x - y] = diff.get(x - y, 0) + cx * cy
    return diff, na * nb


def readings(fight: Fight) -> tuple[dict[int, int], int]:
    """A table fight: how many outcomes of its dice read each row."""
    from companion.dice.odds import sum_counts

    counts, n = sum_counts(fight.expr)  # type: ignore[arg-type]
    out: dict[int, int] = {}
    for t, c in counts.items():
        r = fight.reading(t + fight.expr.const)  # type: ignore[union-attr]
        out[r] = out.get(r, 0) + c
    return out, n


def board_for(fight: Fight, check: Check | None, maxes: Mapping[Ref, int | None]) -> rules.Board:
    """The board of a fight's odds: the trackers it reads, nothing else (what it only changes cannot
    change how it ends)."""
    return rules.Board(fight, read_refs(fight, rules.check_ref(check)), maxes)


def fight_odds(
    fight: Fight,
    values: Mapping[Ref, int],
    maxes: Mapping[Ref, int | None],
    *,
    check: Check | None = None,
    policy: str = "never",
    flee_at: int | None = None,
) -> FightOdds:
    """The odds of ``fight`` from the trackers' ``values`` (yours and the foe's, by :class:`Ref`)."""
    board = board_for(fight, check, maxes)
    start = board.position(values)
    flee_ref = fight.until.side(YOU)[0].ref if fight.until.side(YOU) else None
    flee_i = board.index[flee_ref] if flee_at is not None and fight.flee is not None and flee_ref else None
    step = _opposed(fight, board, check, policy) if fight.kind == "opposed" else _table(fight, board)

    def stepper(pos):
        if flee_i is not None and pos[flee_i] <= flee_at:
            return [(1, ("fled", board.apply(pos, fight.flee)))], False  # type: ignore[arg-type]
        return step(pos), True

    def classify(pos):
        if pos[0] == "fled":
            return board.fled(pos[1])
        return board.ended(pos)

    return _summary(fight, board, policy, solve(start, stepper, classify), classify)


def _opposed(fight: Fight, board: rules.Board, check: Check | None, policy: str):
    diff, n = dice_counts(fight)
    cache: dict[int, tuple[int, int, int]] = {}
    testing = fight.luck is not None and check is not None and policy == "always"
    c_counts, c_n = ({}, 1)
    if testing:
        from companion.dice.odds import sum_counts

        c_counts, c_n = sum_counts(check.expr)  # type: ignore[union-attr]
    passes: dict[int, int] = {}
    effects = [board.compile(fight.effects_of(r)) for r in ("win", "lose", "tie")]
    luck = (
        {
            (i, p): board.compile(rules.luck_effects(fight, check, r, p))  # type: ignore[arg-type]
            for i, r in enumerate(("win", "lose"))
            for p in (True, False)
        }
        if testing
        else {}
    )
    if testing:
        target_ref = rules.check_ref(check)
        target_i = None if target_ref is None else board.index[target_ref]
        offset = check.offset  # type: ignore[union-attr]
        fixed = check.number  # type: ignore[union-attr]
    run, ended, value = board.run, board.ended, board.value
    attack, foe_attack = fight.attack, fight.foe_attack

    def wlt(k: int) -> tuple[int, int, int]:
        got = cache.get(k)
        if got is None:
            w = sum(c for d, c in diff.items() if d + k > 0)
            t = sum(c for d, c in diff.items() if d + k == 0)
            got = cache[k] = (w, n - w - t, t)
        return got

    def pass_count(target: int) -> int:
        got = passes.get(target)
        if got is None:
            from companion.dice.roll import compare

            const = check.expr.const  # type: ignore[union-attr]
            got = passes[target] = sum(c for t, c in c_counts.items() if compare(t + const, check.op, target))  # type: ignore[union-attr]
        return got

    def step(pos):
        k = value(attack, pos) - value(foe_attack, pos)
        out = []
        for result, count in enumerate(wlt(k)):  # 0 win, 1 lose, 2 tie
            if not count:
                continue
            q = run(pos, effects[result])
            if not testing or result == 2 or ended(q):
                out.append((count * c_n, q))
                continue
            cp = pass_count(fixed if target_i is None else q[target_i] + offset)
            if cp:
                out.append((count * cp, run(q, luck[(result, True)])))
            if c_n - cp:
                out.append((count * (c_n - cp), run(q, luck[(result, False)])))
        return out

    return step


def _table(fight: Fight, board: rules.Board):
    rows, _n = readings(fight)
    effects = {
        (reading, col): board.compile(rules.cell_effects(fight, cells[col]))
        for reading, cells in fight.rows
        for col in range(len(fight.columns))
    }
    run = board.run

    def step(pos):
        col = fight.column(board.value(fight.ratio, pos))  # type: ignore[arg-type]
        return [(count, run(pos, effects[(reading, col)])) for reading, count in rows.items()]

    return step


def _summary(fight: Fight, board: rules.Board, policy: str, ends: Ends, classify) -> FightOdds:
    kinds = {"win": Fraction(0), "lose": Fraction(0), "both": Fraction(0), "flee": Fraction(0)}
    shown = [c.ref for c in (*fight.until.side(YOU), *fight.until.side(FOE))]
    left: dict[Ref, dict[int, Fraction]] = {ref: {} for ref in dict.fromkeys(shown)}
    by_end: dict[str, dict[Ref, dict[int, Fraction]]] = {}
    for pos, p in ends.ends.items():
        kind = classify(pos)
        kinds[kind] += p
        values = pos[1] if pos[0] == "fled" else pos
        mine = by_end.setdefault(kind, {ref: {} for ref in left})
        for ref, dist in left.items():
            v = values[board.index[ref]]
            dist[v] = dist.get(v, Fraction(0)) + p
            mine[ref][v] = mine[ref].get(v, Fraction(0)) + p
    for table in (left, *by_end.values()):
        for ref in table:
            table[ref] = dict(sorted(table[ref].items()))
    return FightOdds(
        policy,
        kinds["win"],
        kinds["lose"],
        kinds["both"],
        kinds["flee"],
        ends.stuck,
        ends.rounds,
        left,
        ends.positions,
        by_end,
    )
