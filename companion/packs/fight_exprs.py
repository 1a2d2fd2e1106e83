"""Reading the small texts a ``[fights.NAME]`` is written in, each refused with its line:

- a tracker: ``SKILL`` (yours: a ``[trackers]`` entry, or hp, gold, xp) or ``foe.SKILL`` (the foe's);
- a sum: ``2d6 + SKILL``, ``2d6 + foe.SKILL - 1``, ``SKILL - foe.SKILL`` (a ratio has no dice);
- effects: ``foe.STAMINA -2``, ``STAMINA =0``, several with ``;`` or in a list, or ``none``;
- the end: ``STAMINA <= 0 or foe.STAMINA <= 0``.
"""

from __future__ import annotations

import re
from typing import Any

from companion.i18n import _
from companion.packs.fight_model import FOE, YOU, Clause, FightEffect, Linear, Ref, Until
from companion.packs.model import BUILTIN_TRACKERS, TrackerSpec
from companion.packs.reader import Path, Reader, dotted

_NAME = r"[A-Za-z][A-Za-z0-9_-]{0,39}"
_REF = re.compile(rf"^(?:(foe)\s*\.\s*)?({_NAME})$", re.IGNORECASE)
_DICE = re.compile(r"^(\d{0,3})d(\d{1,4}|%)$", re.IGNORECASE)
_EFFECT = re.compile(rf"^\s*((?:foe\s*\.\s*)?{_NAME})\s*([+=\-−])\s*(\d{{1,6}})\s*$", re.IGNORECASE)
_CLAUSE = re.compile(rf"^\s*((?:foe\s*\.\s*)?{_NAME})\s*(<=|>=|==|=|<|>)\s*(-?\d{{1,6}})\s*$", re.IGNORECASE)
_TERM = re.compile(r"\s*([+\-−])?\s*([^\s+\-−]+)")


def tracker(r: Reader, text: str, path: Path, known: dict[str, TrackerSpec]) -> Ref:
    """``SKILL`` or ``foe.SKILL`` as a :class:`Ref`; a tracker of yours must be one the pack keeps."""
    m = _REF.match(text.strip())
    if m is None:
        raise r.fail(
            path, _("{text!r} is not a tracker; write SKILL (yours) or foe.SKILL (the foe's)").format(text=text)
        )
    foe, name = m.groups()
    if foe:
        return Ref(FOE, name.lower(), name)
    spec = known.get(name.lower())
    if spec is None and name.lower() == "hp":
        spec = next((t for t in known.values() if t.hp), None)
    if spec is not None:
        return Ref(YOU, spec.key, spec.name)
    if name.lower() in BUILTIN_TRACKERS:
        return Ref(YOU, name.lower(), BUILTIN_TRACKERS[name.lower()])
    from companion.packs.read_checks import known_trackers

    names = known_trackers(known, builtin=False)
    raise r.fail(
        path,
        _("{dotted} names {name}, which is not in [trackers] ({names}); add it, or write foe.{name}").format(
            dotted=dotted(path), name=name, names=names
        ),
    )


def linear(r: Reader, value: Any, path: Path, known: dict[str, TrackerSpec], *, dice: bool) -> Linear:
    """A sum of dice (when ``dice``), trackers and numbers: ``2d6 + SKILL``; ``SKILL - foe.SKILL``."""
    example = '"2d6 + SKILL"' if dice else '"SKILL - foe.SKILL"'
    if not isinstance(value, str) or not value.strip():
        raise r.fail(
            path,
            _("{dotted} must be a text such as {path} = {example}").format(
                dotted=dotted(path), path=path[-1], example=example
            ),
        )
    text = value.strip()
    pos = 0
    dice_parts: list[str] = []
    refs: list[tuple[int, Ref]] = []
    const = 0
    first = True
    while pos < len(text):
        m = _TERM.match(text, pos)
        if m is None or (m.group(1) is None and not first):
            raise r.fail(
                path,
                _("{dotted} = {text!r}: join its parts with + or -, e.g. {example}").format(
                    dotted=dotted(path), text=text, example=example
                ),
            )
        sign = -1 if m.group(1) in ("-", "−") else 1
        word = m.group(2)
        pos = m.end()
        first = False
        if word.isdigit():
            const += sign * int(word)
        elif _DICE.match(word):
            if not dice:
                raise r.fail(
                    path,
                    _("{dotted} = {text!r}: a ratio reads trackers only, no dice").format(
                        dotted=dotted(path), text=text
                    ),
                )
            if sign < 0:
                raise r.fail(
                    path,
                    _("{dotted} = {text!r}: dice are added, not taken away").format(dotted=dotted(path), text=text),
                )
            dice_parts.append(word.lower())
        else:
            refs.append((sign, tracker(r, word, path, known)))
        if text[pos:].strip() == "":
            break
    if dice and not dice_parts:
        raise r.fail(
            path,
            _("{dotted} = {text!r} rolls no dice; write e.g. {example}").format(
                dotted=dotted(path), text=text, example=example
            ),
        )
    expr = None
    shown = "+".join(dice_parts)
    if dice_parts:
        expr = r.dice(shown, path, shown)[1]
    return Linear(text, shown, expr, tuple(refs), const)


def effects(r: Reader, value: Any, path: Path, known: dict[str, TrackerSpec]) -> tuple[FightEffect, ...]:
    """``"foe.STAMINA -2"``, ``"STAMINA -2; LUCK -1"``, a list of them, or ``"none"``."""
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(v, str) for v in items):
        raise r.fail(path, _('{dotted} must be a text such as "foe.STAMINA -2", or "none"').format(dotted=dotted(path)))
    out: list[FightEffect] = []
    for item in items:
        for part in item.split(";"):
            part = part.strip()
            if not part or part.lower() == "none":
                continue
            m = _EFFECT.match(part)
            if m is None:
                raise r.fail(
                    path,
                    _(
                        "effect {part!r} is not a tracker change; write NAME -N, NAME +N or NAME =N (foe.NAME for "
                        'the foe\'s), e.g. "foe.STAMINA -2", or "none"'
                    ).format(part=part),
                )
            name, sign, digits = m.groups()
            ref = tracker(r, name.replace(" ", ""), path, known)
            amount = int(digits)
            op = "set" if sign == "=" else "add"
            out.append(FightEffect(ref, op, -amount if sign in ("-", "−") else amount, part))
    return tuple(out)


def until(r: Reader, value: Any, path: Path, known: dict[str, TrackerSpec]) -> Until:
    """``"STAMINA <= 0 or foe.STAMINA <= 0"``: the fight ends as soon as one clause holds."""
    if not isinstance(value, str) or not value.strip():
        raise r.fail(
            path,
            _('{dotted} must be a text such as until = "STAMINA <= 0 or foe.STAMINA <= 0"').format(dotted=dotted(path)),
        )
    clauses = []
    for part in re.split(r"\s+or\s+", value.strip(), flags=re.IGNORECASE):
        m = _CLAUSE.match(part)
        if m is None:
            raise r.fail(
                path,
                _(
                    "until = {value!r}: {part_strip!r} is not a bound; write TRACKER <= N joined with or, e.g. "
                    '"STAMINA <= 0 or foe.STAMINA <= 0"'
                ).format(value=value, part_strip=part.strip()),
            )
        name, op, number = m.groups()
        ref = tracker(r, name.replace(" ", ""), path, known)
        clauses.append(Clause(ref, "==" if op == "=" else op, int(number)))
    return Until(value.strip(), tuple(clauses))
