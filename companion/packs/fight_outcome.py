"""A pack fight's exact odds as ``companion odds fight pack`` shows them: one :class:`FightOutcome` (the
shape every game's fight odds take, with its charts) and the command's own ``--json``.

:func:`fight_outcome` is the registry's entry (``companion.sim.fights.FIGHT_ODDS["pack"]``): the odds
from plain numbers, a pack file, a fight and a foe.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from companion.errors import InputError
from companion.packs.fight_model import FOE, YOU, Fight, Ref
from companion.packs.fight_odds import FightOdds, fight_odds

if TYPE_CHECKING:
    from companion.packs.model import Check, Pack
    from companion.sim.fights import FightOutcome


def both_policies(
    fight: Fight,
    values: Mapping[Ref, int],
    maxes: Mapping[Ref, int | None],
    check: Check | None,
    flee_at: int | None = None,
) -> tuple[FightOdds, FightOdds | None]:
    """Never testing LUCK, and (where the fight has a LUCK test) testing after every round won or lost."""
    never = fight_odds(fight, values, maxes, check=check, policy="never", flee_at=flee_at)
    if fight.luck is None or check is None:
        return never, None
    return never, fight_odds(fight, values, maxes, check=check, policy="always", flee_at=flee_at)


def _mean(dist: dict[int, Fraction]) -> Fraction:
    total = sum(dist.values(), Fraction(0))
    return sum((v * p for v, p in dist.items()), Fraction(0)) / total if total else Fraction(0)


def numbers_text(values: Mapping[Ref, int], side: str) -> str:
    return ", ".join(f"{ref.label} {v}" for ref, v in values.items() if ref.side == side)


def outcome(
    fight: Fight,
    foe: str,
    values: Mapping[Ref, int],
    never: FightOdds,
    always: FightOdds | None,
    *,
    flee_at: int | None = None,
    inputs: dict[str, Any] | None = None,
) -> FightOutcome:
    from companion.i18n import _, number, owned
    from companion.sim.fights import Chart, FightOutcome

    you_ref = fight.until.side(YOU)[0].ref if fight.until.side(YOU) else None
    foe_ref = fight.until.side(FOE)[0].ref if fight.until.side(FOE) else None
    odd = never.both + never.stuck
    words = {"win": _("win"), "lose": _("lose"), "flee": _("flee")}
    if never.stuck:
        words["draw"] = _("never ends") if not never.both else _("both fall, or it never ends")
    elif never.both:
        words["draw"] = _("both fall")
    more: list[tuple[str, Fraction]] = []
    notes = []
    if always is not None:
        more += [(_("always testing LUCK: win"), always.win), (_("always testing LUCK: lose"), always.lose)]
        if fight.flee is not None and flee_at is not None:
            more.append((_("always testing LUCK: flee"), always.flee))
        notes.append(
            _(
                "Not testing LUCK; testing after every round won or lost (that does not end the fight) "
                "is the second set."
            )
        )
    charts = []
    hp_left = hp_if_win = None
    if you_ref is not None:
        dist = never.left[you_ref]
        hp_left = _mean(dist)
        charts.append(Chart(_("Your {label} at the end of the fight").format(label=you_ref.label), _rows(dist)))
        win_only = never.by_end.get("win", {}).get(you_ref)
        if win_only:
            hp_if_win = _mean(win_only)
    if foe_ref is not None:
        charts.append(
            Chart(
                owned(_("{foe}'s {label} at the end of the fight").format(foe=foe, label=foe_ref.label), foe),
                _rows(never.left[foe_ref]),
            )
        )
    if never.rounds is not None:
        notes.append(_("{n} rounds on average, ties counted.").format(n=number(float(never.rounds), 2)))
    else:
        notes.append(_("The fight may never end: no round can change anything from some positions it reaches."))
    if fight.flee is not None:
        cost = "; ".join(e.text for e in fight.flee) or _("nothing")
        if flee_at is not None and you_ref is not None:
            notes.append(
                _("Fleeing at {label} {n} or less (it costs {cost}).").format(label=you_ref.label, n=flee_at, cost=cost)
            )
        else:
            notes.append(_("Fought to the end; fleeing costs {cost} (--flee-at N to count fleeing).").format(cost=cost))
    return FightOutcome(
        game="pack",
        fight=_("{title}: {foe} ({theirs}) against you ({yours})").format(
            title=fight.title, foe=foe, theirs=numbers_text(values, FOE), yours=numbers_text(values, YOU)
        ),
        win=never.win,
        lose=never.lose,
        flee=never.flee if fight.flee is not None and flee_at is not None else None,
        draw=odd if odd else None,
        hp_left=hp_left,
        hp_if_win=hp_if_win,
        hp_name=you_ref.label if you_ref is not None else "HP",
        words=words,
        more=tuple(more),
        charts=tuple(charts),
        notes=tuple(notes),
        inputs=inputs or {},
    )


def _rows(dist: dict[int, Fraction]) -> tuple[tuple[str, Fraction], ...]:
    total = sum(dist.values(), Fraction(0))
    if total != 1 and total:
        dist = {v: p / total for v, p in dist.items()}
    return tuple((str(v), p) for v, p in dist.items())


def odds_json(
    fight: Fight, pack: Pack, foe: str, values: Mapping[Ref, int], never: FightOdds, always: FightOdds | None
) -> dict[str, Any]:
    """``companion odds fight pack --json``: ``win``, ``lose``, ``flee`` where the fight allows it,
    ``stamina`` (each side's tracker of ``until`` at the end) and ``rounds``; with a LUCK test, both
    policies under ``luck``."""
    data: dict[str, Any] = {
        "pack": pack.name,
        "fight": fight.name,
        "kind": fight.kind,
        "foe": {"name": foe, **{ref.label: v for ref, v in values.items() if ref.side == FOE}},
        "you": {ref.label: v for ref, v in values.items() if ref.side == YOU},
    }
    data.update(_policy_json(fight, never))
    if always is not None:
        data["luck"] = {"never": _policy_json(fight, never), "always": _policy_json(fight, always)}
    return data


def _frac(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _policy_json(fight: Fight, odds: FightOdds) -> dict[str, Any]:
    out: dict[str, Any] = {}
    keys = [("win", odds.win), ("lose", odds.lose)]
    if fight.flee is not None:
        keys.append(("flee", odds.flee))
    if odds.both:
        keys.append(("both", odds.both))
    if odds.stuck:
        keys.append(("never_ends", odds.stuck))
    for key, p in keys:
        out[key] = _frac(p)
        out[f"{key}_percent"] = round(float(p) * 100, 4)
    out["stamina"] = {ref.text: {str(v): _frac(p) for v, p in dist.items()} for ref, dist in odds.left.items()}
    out["rounds"] = None if odds.rounds is None else _frac(odds.rounds)
    out["rounds_mean"] = None if odds.rounds is None else round(float(odds.rounds), 4)
    out["positions"] = odds.positions
    return out


def fight_outcome(
    pack: str,
    fight: str,
    foe: Mapping[str, int],
    you: Mapping[str, int] | None = None,
    *,
    foe_name: str = "the foe",
    flee_at: int | None = None,
) -> FightOutcome:
    """The odds of ``fight`` in the pack file ``pack`` against a foe of these numbers (by tracker name),
    you with the pack's starting numbers or ``you`` (by tracker name)."""
    from companion.packs.pack import read_pack

    p = read_pack(pack)
    f = p.fights[fight.lower()]
    check = p.checks.get(f.luck.check) if f.luck is not None else None
    from companion.packs.fight_play import play_refs

    values: dict[Ref, int] = {}
    maxes: dict[Ref, int | None] = {}
    given = {k.lower(): v for k, v in (you or {}).items()}
    foes = {k.lower(): v for k, v in foe.items()}
    for ref in play_refs(f, check):
        if ref.side == FOE:
            values[ref] = maxes[ref] = foes[ref.key]  # type: ignore[assignment]
            continue
        spec = next((t for t in p.trackers.values() if t.key == ref.key), None)
        if spec is not None and spec.roll and ref.label.lower() not in given:
            from companion.i18n import _

            raise InputError(_("{label} is rolled ({roll}): give it in you").format(label=ref.label, roll=spec.roll))
        v = given.get(ref.label.lower(), spec.start if spec is not None else 0)
        values[ref] = v
        maxes[ref] = v if spec is not None and spec.max_start else (spec.max if spec is not None else None)
    never, always = both_policies(f, values, maxes, check, flee_at)
    return outcome(f, foe_name, values, never, always, flee_at=flee_at, inputs={"pack": p.name, "fight": f.name})
