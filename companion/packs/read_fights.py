"""Reading a pack's ``[fights.NAME]`` and ``[foes]``, refusing with the line what cannot be played:

- a tracker of yours the pack does not keep, a ``[checks.NAME]`` for LUCK that is not there;
- a fight that never ends: no round can move a tracker of ``until`` toward its bound;
- a fight that can raise a tracker it reads without bound (a tracker of yours with no ``max``; a
  foe's numbers never rise above what it started the fight with);
- a table fight whose columns or rows leave a gap, overlap, or do not fit the dice;
- a foe that lacks a number the fights read.

The format is documented in ``docs/tables.md`` ("Gamebooks: fights").
"""

from __future__ import annotations

import re
from typing import Any

from companion.i18n import _
from companion.packs import fight_exprs as fx
from companion.packs import read_checks
from companion.packs.fight_model import FOE, KINDS, TIES, YOU, Band, Cell, Fight, FightEffect, Foe, Luck, Ref, read_refs
from companion.packs.model import Check, TrackerSpec
from companion.packs.reader import Path, Reader, spans_text

COMMON_KEYS = ("kind", "title", "until", "flee")
OPPOSED_KEYS = (*COMMON_KEYS, "attack", "foe_attack", "win", "lose", "tie", "luck")
TABLE_KEYS = (*COMMON_KEYS, "ratio", "dice", "zero", "columns", "rows")
LUCK_KEYS = ("check", "win_pass", "win_fail", "lose_pass", "lose_fail")
FOE_KEYS = ("name",)

_BAND = re.compile(r"^\s*(?:(<=|>=|<|>)\s*(-?\d{1,4})|(-?\d{1,4})\s*\.\.\s*(-?\d{1,4})|(-?\d{1,4}))\s*$")
_CELL = re.compile(r"^\s*(\d{1,4}|[kK])\s*/\s*(\d{1,4}|[kK])\s*$")


def read_fight(
    r: Reader, name: str, data: Any, trackers: dict[str, TrackerSpec], checks: dict[str, Check]
) -> tuple[Fight, Check | None]:
    path: Path = ("fights", name)
    if not read_checks.NAME.match(name):
        raise r.fail(path, _("fight name {name!r}: use letters, digits, - and _ (e.g. sword)").format(name=name))
    if not isinstance(data, dict):
        raise r.fail(path, _('a fight is a section: [fights.NAME] with kind = "opposed" or kind = "table"'))
    kind = r.choice(data.get("kind"), (*path, "kind"), KINDS) if "kind" in data else None
    if kind is None:
        raise r.fail(
            path,
            _('fight {name} needs kind = "opposed" (2d6 + SKILL against the foe) or kind = "table"').format(name=name),
        )
    r.keys(data, path, OPPOSED_KEYS if kind == "opposed" else TABLE_KEYS, f"{kind} fight")
    for key in ("until", *(("attack", "foe_attack", "win", "lose") if kind == "opposed" else ("ratio", "rows"))):
        if key not in data:
            raise r.fail(path, _("fight {name} needs {key} (see docs/tables.md, Gamebooks)").format(name=name, key=key))
    until = fx.until(r, data["until"], (*path, "until"), trackers)
    flee = fx.effects(r, data["flee"], (*path, "flee"), trackers) if "flee" in data else None
    common: dict[str, Any] = {
        "name": name.lower(),
        "title": r.text(data.get("title"), (*path, "title")) or name,
        "kind": kind,
        "until": until,
        "flee": flee,
    }
    check = None
    if kind == "opposed":
        fight, check = _opposed(r, path, data, trackers, checks, common)
    else:
        fight = _table(r, path, data, trackers, common)
    _ends(r, path, fight, check, trackers)
    return fight, check


def _opposed(r: Reader, path: Path, data: dict, trackers, checks, common) -> tuple[Fight, Check | None]:
    def eff(key: str) -> tuple[FightEffect, ...]:
        return fx.effects(r, data[key], (*path, key), trackers)

    tie, tie_effects = "none", ()
    raw_tie = data.get("tie", "none")
    if isinstance(raw_tie, str) and raw_tie.strip().lower() in TIES:
        tie = raw_tie.strip().lower()
    else:
        tie, tie_effects = "effect", eff("tie")
    luck, check = None, None
    if "luck" in data:
        lpath = (*path, "luck")
        ldata = r.keys(data["luck"], lpath, LUCK_KEYS, "luck")
        cname = r.text(ldata.get("check"), (*lpath, "check"), required=True).lower()
        check = checks.get(cname)
        if check is None:
            known = ", ".join(sorted(checks)) or "the pack has none"
            raise r.fail(
                (*lpath, "check"),
                _('luck: check = "{cname}" names no [checks.NAME] ({known}); add [checks.{cname}]').format(
                    cname=cname, known=known
                ),
            )
        luck = Luck(
            cname,
            **{k: fx.effects(r, ldata[k], (*lpath, k), trackers) if k in ldata else () for k in LUCK_KEYS[1:]},
        )
    fight = Fight(
        **common,
        attack=fx.linear(r, data["attack"], (*path, "attack"), trackers, dice=True),
        foe_attack=fx.linear(r, data["foe_attack"], (*path, "foe_attack"), trackers, dice=True),
        win=eff("win"),
        lose=eff("lose"),
        tie=tie,
        tie_effects=tie_effects,
        luck=luck,
    )
    return fight, check


def _table(r: Reader, path: Path, data: dict, trackers, common) -> Fight:
    until = common["until"]
    for side in (FOE, YOU):
        refs = {c.ref for c in until.side(side)}
        if len(refs) != 1:
            text = (
                _(
                    "a table fight's until names one tracker of each side (the cells' losses go there), "
                    "and it names {n} of the foe's"
                )
                if side == FOE
                else _(
                    "a table fight's until names one tracker of each side (the cells' losses go there), "
                    "and it names {n} of yours"
                )
            )
            raise r.fail(
                (*path, "until"),
                text.format(n=len(refs)) + _('; e.g. until = "ENDURANCE <= 0 or foe.ENDURANCE <= 0"'),
            )
    ratio = fx.linear(r, data["ratio"], (*path, "ratio"), trackers, dice=False)
    dice, expr = r.dice(data.get("dice"), (*path, "dice"), "1d10")
    zero = data.get("zero")
    if zero is not None:
        if zero not in (0, 10) or isinstance(zero, bool):
            raise r.fail((*path, "zero"), _("zero = 0 (the d10's 0 is a 0) or zero = 10 (it is a 10)"))
        if len(expr.dice) != 1 or expr.dice[0].sides != 10 or expr.const:
            raise r.fail(
                (*path, "zero"),
                _("zero says how a d10 reads its 0, and dice = {dice!r} is not one d10").format(dice=dice),
            )
    columns = _columns(r, (*path, "columns"), data.get("columns"))
    fight = Fight(**common, ratio=ratio, dice=dice, expr=expr, zero=zero, columns=columns)
    from companion.packs.fight_odds import readings

    wanted = sorted(readings(fight)[0])
    rows = _rows(r, (*path, "rows"), data["rows"], len(columns), wanted, dice, zero)
    import dataclasses

    return dataclasses.replace(fight, rows=rows)


def _columns(r: Reader, path: Path, value: Any) -> tuple[Band, ...]:
    example = 'columns = ["<=-1", "0", ">=1"]'
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise r.fail(
            path,
            _("a table fight needs columns: the ratio's bands from lowest to highest, e.g. {example}").format(
                example=example
            ),
        )
    bands = []
    for i, text in enumerate(value):
        m = _BAND.match(text)
        if m is None:
            raise r.fail(
                (*path, i),
                _('column {text!r} is not a band of ratios; write "<=-11", "-10..-9", "0" or ">=11"').format(text=text),
            )
        op, n, a, b, one = m.groups()
        if op:
            v = int(n)
            lo, hi = {"<=": (None, v), "<": (None, v - 1), ">=": (v, None), ">": (v + 1, None)}[op]
        elif one is not None:
            lo = hi = int(one)
        else:
            lo, hi = int(a), int(b)
            if hi < lo:
                raise r.fail(
                    (*path, i), _('column "{text}" runs backwards; write "{hi}..{lo}"').format(text=text, hi=hi, lo=lo)
                )
        bands.append(Band(text.strip(), lo, hi))
    if bands[0].lo is not None or bands[-1].hi is not None:
        if bands[0].lo is not None:
            raise r.fail(path, _("the first column must be open-ended (<=N), so every ratio has a column"))
        raise r.fail(path, _("the last column must be open-ended (>=N), so every ratio has a column"))
    for i in range(1, len(bands)):
        prev, band = bands[i - 1], bands[i]
        if prev.hi is None or band.lo is None:
            raise r.fail(
                (*path, i),
                _('column "{band_text}": only the first and last columns may be open-ended').format(
                    band_text=band.text
                ),
            )
        if band.lo <= prev.hi:
            raise r.fail(
                (*path, i),
                _('columns "{prev_text}" and "{band_text}" overlap; list the bands from lowest to highest').format(
                    prev_text=prev.text, band_text=band.text
                ),
            )
        if band.lo > prev.hi + 1:
            gap = str(prev.hi + 1) if band.lo == prev.hi + 2 else f"{prev.hi + 1}..{band.lo - 1}"
            raise r.fail(
                (*path, i),
                _(
                    'no column for ratio {gap} (between "{prev_text}" and "{band_text}"); add a column or widen one'
                ).format(gap=gap, prev_text=prev.text, band_text=band.text),
            )
    return tuple(bands)


def _rows(r: Reader, path: Path, value: Any, width: int, wanted: list[int], dice: str, zero: int | None):
    if not isinstance(value, dict) or not value:
        raise r.fail(
            path, _('[fights.NAME.rows] gives one row per die result: 1 = ["k/0", "6/0", ...], one cell a column')
        )
    reads = spans_text(wanted) + (" with zero = 0" if zero == 0 else "")
    out: dict[int, tuple[Cell, ...]] = {}
    for key, cells in value.items():
        rpath = (*path, key)
        if not re.fullmatch(r"\d{1,4}", str(key).strip()):
            raise r.fail(
                rpath, _("row {key!r}: a row is named by the die result it is read on, e.g. 7 = [...]").format(key=key)
            )
        n = int(key)
        if n not in wanted:
            raise r.fail(
                rpath,
                _("row {n} can never be rolled on {dice} ({reads}); fix its number").format(
                    n=n, dice=dice, reads=reads
                ),
            )
        if not isinstance(cells, list) or len(cells) != width:
            got = len(cells) if isinstance(cells, list) else 0
            raise r.fail(
                rpath,
                _("row {n} has {got} cells and the fight has {width} columns; give one cell a column").format(
                    n=n, got=got, width=width
                ),
            )
        row = []
        for i, cell in enumerate(cells):
            m = _CELL.match(cell) if isinstance(cell, str) else None
            if m is None:
                raise r.fail(
                    (*rpath, i),
                    _(
                        'row {n}: cell {cell!r} is not a result; write "E/P" (the foe\'s loss, then yours), k for a '
                        'kill: "k/0"'
                    ).format(n=n, cell=cell),
                )
            e, p = (None if x.lower() == "k" else int(x) for x in m.groups())
            row.append(Cell(cell.strip(), e, p))
        out[n] = tuple(row)
    missing = [n for n in wanted if n not in out]
    if missing:
        raise r.fail(
            path,
            _("no row for {spans_text} ({dice} reads {reads}); add a row for every result").format(
                spans_text=spans_text(missing), dice=dice, reads=reads
            ),
        )
    return tuple(sorted(out.items()))


# ---- does it end, and stay bounded? ----------------------------------------------------------------


def _paths(fight: Fight, check: Check | None) -> list[tuple[str, tuple[FightEffect, ...]]]:
    """Every sequence of effects one round can apply, with the key that writes its last part."""
    if fight.kind == "table":
        from companion.packs.fight_rules import cell_effects

        return [("rows", cell_effects(fight, cell)) for _n, cells in fight.rows for cell in cells]
    out = [(r, fight.effects_of(r)) for r in ("win", "lose", "tie")]
    if fight.luck is not None and check is not None:
        from companion.packs.fight_rules import luck_effects

        out += [
            ("luck", (*fight.effects_of(r), *luck_effects(fight, check, r, p)))
            for r in ("win", "lose")
            for p in (True, False)
        ]
    return out


def _net(path: tuple[FightEffect, ...], ref: Ref) -> int | None:
    """What a round adds to ``ref`` (None when it sets it: bounded by the value it sets)."""
    total = 0
    for e in path:
        if e.ref == ref:
            if e.op == "set":
                return None
            total += e.value
    return total


def _ends(r: Reader, path: Path, fight: Fight, check: Check | None, trackers: dict[str, TrackerSpec]) -> None:
    from companion.packs.fight_rules import check_ref

    rounds = _paths(fight, check)
    toward = False
    for clause in fight.until.clauses:
        for _key, effects in rounds:
            net = _net(effects, clause.ref)
            sets = net is None and any(e.ref == clause.ref for e in effects)
            if sets or (
                net and (net < 0 if clause.op in ("<=", "<") else net > 0 if clause.op in (">=", ">") else True)
            ):
                toward = True
    if not toward:
        names = " or ".join(dict.fromkeys(c.ref.text for c in fight.until.clauses))
        raise r.fail(
            (*path, "until"),
            _(
                "fight {fight_name} never ends: no round moves {names} toward until; give win or lose an "
                'effect such as "foe.STAMINA -2"'
            ).format(fight_name=fight.name, names=names),
        )
    maxed = {t.key for t in trackers.values() if t.max is not None or t.max_start}
    for ref in read_refs(fight, check_ref(check)):
        if ref.side != YOU or ref.key in maxed:
            continue
        for key, effects in rounds:
            net = _net(effects, ref)
            if net is not None and net > 0:
                raise r.fail(
                    (*path, key),
                    _(
                        "fight {fight_name} can raise {ref_label} by {net} a round without end, and {ref_label} "
                        "has no max; give it one in [trackers] ({ref_label} = {{ start = N, max = N }})"
                    ).format(fight_name=fight.name, ref_label=ref.label, net=net),
                )


# ---- [foes] -----------------------------------------------------------------------------------------


def read_foes(r: Reader, data: Any, fights: dict[str, Fight]) -> dict[str, Foe]:
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise r.fail(("foes",), _('[foes] lists NAME = { name = "Cave troll", SKILL = 9, STAMINA = 10 } lines'))
    needed: dict[str, str] = {}
    for fight in fights.values():
        for label in fight.foe_names:
            needed.setdefault(label.lower(), label)
    out: dict[str, Foe] = {}
    for key, value in data.items():
        path = ("foes", key)
        if not read_checks.NAME.match(key):
            raise r.fail(path, _("foe {key!r}: use letters, digits, - and _ (e.g. cave-troll)").format(key=key))
        if not isinstance(value, dict):
            raise r.fail(path, _('foe {key} must be {{ name = "...", SKILL = N, ... }}').format(key=key))
        values = []
        for k, v in value.items():
            if k in FOE_KEYS:
                continue
            if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]{0,39}", k):
                raise r.fail((*path, k), _("foe {key}: {k!r} is not a tracker name (e.g. SKILL)").format(key=key, k=k))
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 999:
                raise r.fail((*path, k), _("foe {key}: {k} must be a whole number from 0 to 999").format(key=key, k=k))
            values.append((k.lower(), k, v))
        have = {k for k, _l, _v in values}
        for k, label in needed.items():
            if k not in have:
                raise r.fail(
                    path,
                    _("foe {key} has no {label}, and the fights read foe.{label}; give {label} = N").format(
                        key=key, label=label
                    ),
                )
        name = r.text(value.get("name"), (*path, "name")) or key
        if key.lower() in out:
            raise r.fail(path, _("two foes are named {key!r} (names ignore case)").format(key=key))
        out[key.lower()] = Foe(key.lower(), name, tuple(values))
    return out
