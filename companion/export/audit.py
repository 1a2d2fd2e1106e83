"""The dice audit: are the player's own dice fair? A chi-square goodness-of-fit test per die type.

For each die type (d6, d10, the Dark Tower die, any other dN) and each source (physical, and the
virtual dice beside them as a control), the faces are counted and tested against a fair die:

- a verdict needs every face's expected count to be at least 5 (the usual condition for the
  chi-square approximation): 30 rolls of a d6 or of the Dark Tower die, 50 of a d10. Below that the
  verdict is "too few to say" and there is no p-value: a die is never called unfair on too few rolls;
- p < 0.01 flags the die ("6 came up 27% of 180 rolls, p = 0.003: check this die"). 1% rather than
  5%, because a player who audits their dice after every session tests many times, and one fair die
  in twenty would otherwise be flagged each time;
- 0.01 <= p < 0.05 says the dice look a little uneven, not enough to call;
- otherwise "no sign of bias in N rolls".

The Dark Tower die's faces are read as the game reads them: 1, 2, 3, ♥ (two faces) and ★. A
physical ♥ is typed as a heart, so the two heart faces are counted together.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion.export.chisq import p_value
from companion.export.rolls import Face
from companion.i18n import _, ngettext, number, percent

#: Flag a die below this p-value.
FLAG_BELOW = 0.01
#: Below this (and not flagged): "a little uneven".
NOTE_BELOW = 0.05
#: Every face needs at least this many expected rolls before a verdict.
MIN_EXPECTED = 5
SOURCES = ("physical", "virtual")


@dataclass(frozen=True)
class Categories:
    """How a die's stored faces are counted: labels and each label's fair probability."""

    labels: tuple[str, ...]
    probabilities: tuple[float, ...]

    def label(self, die: str, face: int) -> str:
        if die == "dt":
            return {4: "♥", 5: "♥", 6: "★"}.get(face, str(face))
        return str(face)


def categories(die: str) -> Categories:
    if die == "dt":
        return Categories(("1", "2", "3", "♥", "★"), (1 / 6, 1 / 6, 1 / 6, 2 / 6, 1 / 6))
    sides = int(die[1:])
    return Categories(tuple(str(f) for f in range(1, sides + 1)), tuple(1 / sides for _ in range(sides)))


def needed(die: str) -> int:
    """How many rolls a verdict on ``die`` needs."""
    return math.ceil(MIN_EXPECTED / min(categories(die).probabilities) - 1e-9)


def die_label(die: str) -> str:
    return _("Dark Tower die") if die == "dt" else die


def _p_text(p: float) -> str:
    if p < 0.001:
        return f"p < {number(0.001, 3)}"
    return f"p = {number(p, 3)}" if p < 0.1 else f"p = {number(p, 2)}"


def _pct(x: float) -> str:
    """``17%``; a share that happened never reads 0% (``<1%``), nor one short of all 100% (``>99%``)."""
    if 0 < x < 0.005:
        return percent(1, 0, sign="<")
    if 0.995 < x < 1:
        return percent(99, 0, sign=">")
    return percent(x * 100, 0)


@dataclass(frozen=True)
class DieAudit:
    die: str
    source: str
    rolls: int
    counts: dict[str, int]
    expected: dict[str, float]
    needs: int
    p_value: float | None
    verdict: str
    flagged: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "die": self.die,
            "source": self.source,
            "rolls": self.rolls,
            "counts": self.counts,
            "expected": {k: round(v, 4) for k, v in self.expected.items()},
            "needs": self.needs,
            "p_value": self.p_value,
            "verdict": self.verdict,
            "flagged": self.flagged,
        }


def judge(die: str, source: str, counts: dict[str, int]) -> DieAudit:
    """The counts of one die type from one source, tested against a fair die."""
    cats = categories(die)
    ordered = [counts.get(label, 0) for label in cats.labels]
    n = sum(ordered)
    expected = {label: n * p for label, p in zip(cats.labels, cats.probabilities, strict=True)}
    needs = needed(die)
    full = {label: counts.get(label, 0) for label in cats.labels}
    if n == 0:
        return DieAudit(die, source, 0, full, expected, needs, None, _("no rolls"), False)
    if n < needs:
        verdict = ngettext(
            "too few to say: {n} roll, a verdict needs {needs}", "too few to say: {n} rolls, a verdict needs {needs}", n
        ).format(n=n, needs=needs)
        return DieAudit(die, source, n, full, expected, needs, None, verdict, False)
    p = p_value(ordered, cats.probabilities)
    if p >= NOTE_BELOW:
        said = ngettext("no sign of bias in {n} roll", "no sign of bias in {n} rolls", n).format(n=n)
        return DieAudit(die, source, n, full, expected, needs, p, said, False)

    # The face furthest from a fair share, in standard deviations (an excess before a shortfall).
    def distance(label: str) -> tuple[float, bool]:
        gap = full[label] - expected[label]
        return round(abs(gap) / math.sqrt(expected[label]), 9), gap > 0

    worst = max(cats.labels, key=distance)
    share = full[worst] / n
    fair = expected[worst] / n
    came = (
        ngettext(
            "{face} came up {share} of {n} roll (a fair die: {fair}), {p}",
            "{face} came up {share} of {n} rolls (a fair die: {fair}), {p}",
            n,
        )
        if share >= fair
        else ngettext(
            "{face} came up only {share} of {n} roll (a fair die: {fair}), {p}",
            "{face} came up only {share} of {n} rolls (a fair die: {fair}), {p}",
            n,
        )
    )
    what = came.format(face=worst, share=_pct(share), n=n, fair=_pct(fair), p=_p_text(p))
    if p < FLAG_BELOW:
        return DieAudit(die, source, n, full, expected, needs, p, _("{what}: check this die").format(what=what), True)
    uneven = _("{what}: a little uneven, not enough to call").format(what=what)
    return DieAudit(die, source, n, full, expected, needs, p, uneven, False)


def audit(faces: Iterable[Face]) -> list[DieAudit]:
    """One result per die type and source that was rolled (physical first, then the virtual control)."""
    tallies: dict[tuple[str, str], dict[str, int]] = {}
    for f in faces:
        label = categories(f.die).label(f.die, f.face)
        tally = tallies.setdefault((f.die, f.source), {})
        tally[label] = tally.get(label, 0) + 1
    dice = sorted({die for die, _ in tallies}, key=die_order)
    out: list[DieAudit] = []
    for die in dice:
        for source in SOURCES:
            if (die, source) in tallies or source == "physical":
                out.append(judge(die, source, tallies.get((die, source), {})))
    return out


def die_order(die: str) -> tuple[int, int]:
    return (1, 6) if die == "dt" else (0, int(die[1:]))
