"""Reading a pack's ``[trackers]``, the effects of its rows and checks, and its ``[checks.NAME]``."""

from __future__ import annotations

import re
from typing import Any

from companion.i18n import _
from companion.packs.model import BUILTIN_TRACKERS, Check, Effect, TrackerSpec
from companion.packs.reader import Path, Reader, dotted

CHECK_KEYS = ("title", "dice", "target", "pass", "fail", "effect", "pass_effect", "fail_effect")
TRACKER_KEYS = ("start", "max", "hp", "roll")

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")
_EFFECT = re.compile(r"^\s*(?:(item)\s+([\w-]+)|([A-Za-z][\w-]*))\s+([+=\-−]?)\s*(\d{1,6})\s*$", re.IGNORECASE)
_TARGET = re.compile(r"^\s*(<=|>=|==|=|<|>)\s*(?:(-?\d{1,6})|([A-Za-z][\w-]*)\s*(?:([+-])\s*(\d{1,4}))?)\s*$")


def trackers(r: Reader, data: Any) -> dict[str, TrackerSpec]:
    if not isinstance(data, dict):
        raise r.fail(("trackers",), _("[trackers] lists NAME = { start = N, max = N } lines"))
    out: dict[str, TrackerSpec] = {}
    hp_seen = None
    for name, value in data.items():
        path = ("trackers", name)
        if not NAME.match(name):
            raise r.fail(path, _("tracker name {name!r}: use letters, digits, - and _ (e.g. SKILL)").format(name=name))
        if isinstance(value, int) and not isinstance(value, bool):
            value = {"start": value}
        spec = r.keys(value, path, TRACKER_KEYS, "tracker")
        start = spec.get("start", 0)
        top = spec.get("max")
        hp = spec.get("hp", False)
        roll, roll_expr, top, max_start = _rolled(r, name, path, spec, top)
        for key, v in (("start", start), ("max", top)):
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 999_999):
                raise r.fail(
                    (*path, key),
                    _("trackers.{name}.{key} must be a whole number from 0 to 999999").format(name=name, key=key),
                )
        if not isinstance(hp, bool):
            raise r.fail((*path, "hp"), _("trackers.{name}.hp must be true or false").format(name=name))
        if top is not None and start > top:
            raise r.fail(
                path,
                _("tracker {name} starts at {start}, above its max {top}; lower start or raise max").format(
                    name=name, start=start, top=top
                ),
            )
        if hp:
            if hp_seen:
                raise r.fail(
                    (*path, "hp"),
                    _("{hp_seen} and {name} both say hp = true; only one tracker is HP").format(
                        hp_seen=hp_seen, name=name
                    ),
                )
            hp_seen = name
        key = "hp" if hp else name.lower()
        if key in {t.key for t in out.values()}:
            raise r.fail(
                path,
                _("tracker {name} is kept where another tracker is ({key}); rename one").format(name=name, key=key),
            )
        out[name.lower()] = TrackerSpec(name, key, start, top, hp, roll, roll_expr, max_start)
    return out


def _rolled(r: Reader, name: str, path: Path, spec: dict, top: Any) -> tuple[str, Any, Any, bool]:
    """A tracker's ``roll = "1d6+6"`` (its start rolled at ``companion new``) and ``max = "start"`` (its
    max is where it starts): the roll as written and parsed, the max left to check, and whether the
    max follows the start."""
    from companion.i18n import _

    max_start = isinstance(top, str)
    if max_start:
        if top.strip().lower() != "start":
            raise r.fail(
                (*path, "max"),
                _(
                    'trackers.{name}.max = {top!r}: write a whole number, or max = "start" (the max is where it starts)'
                ).format(name=name, top=top),
            )
        top = None
    if "roll" not in spec:
        return "", None, top, max_start
    if "start" in spec:
        raise r.fail(
            (*path, "roll"),
            _("tracker {name} gives both start and roll; keep one (roll: the start is rolled at companion new)").format(
                name=name
            ),
        )
    text, expr = r.dice(spec["roll"], (*path, "roll"), "1d6")
    from companion.packs.bounds import span

    high = span(expr)[1]
    if top is not None and isinstance(top, int) and not isinstance(top, bool) and high > top:
        raise r.fail(
            (*path, "roll"),
            _('tracker {name} can roll {high} on {roll}, above its max {top}; raise max (or max = "start")').format(
                name=name, high=high, roll=text, top=top
            ),
        )
    if span(expr)[0] < 0:
        raise r.fail(
            (*path, "roll"),
            _("tracker {name}: {roll} can roll below 0; trackers start at 0 or more").format(name=name, roll=text),
        )
    return text, expr, top, max_start


def effects(r: Reader, value: Any, path: Path, known: dict[str, TrackerSpec]) -> tuple[Effect, ...]:
    if value is None:
        return ()
    items = value if isinstance(value, list) else [value]
    if not all(isinstance(v, str) for v in items):
        raise r.fail(
            path, _('{dotted} must be a text such as "gold +1" (or a list of them)').format(dotted=dotted(path))
        )
    out = []
    for item in items:
        for part in item.split(";"):
            if part.strip():
                out.append(effect(r, part.strip(), path, known))
    return tuple(out)


def effect(r: Reader, text: str, path: Path, known: dict[str, TrackerSpec]) -> Effect:
    m = _EFFECT.match(text)
    if not m:
        raise r.fail(
            path,
            _("effect {text!r} is not a tracker change; write NAME +N, NAME -N or NAME =N (e.g. gold +1)").format(
                text=text
            ),
        )
    is_item, item_name, name, sign, digits = m.groups()
    value = int(digits)
    op = "set" if sign == "=" else "add"
    if sign in ("-", "−"):
        value = -value
    if is_item:
        if op == "set":
            raise r.fail(path, _("effect {text!r}: items change by +N or -N").format(text=text))
        return Effect("item", item_name.lower(), "add", value, item_name.lower(), text)
    spec = known.get(name.lower())
    if spec is None and name.lower() == "hp":
        spec = next((t for t in known.values() if t.hp), None)
    if spec is not None:
        return Effect("counter", spec.key, op, value, spec.name, text)
    if name.lower() == "xp":
        if op == "set":
            raise r.fail(path, _("effect {text!r}: XP changes by +N or -N").format(text=text))
        return Effect("xp", "xp", "add", value, "XP", text)
    if name.lower() in BUILTIN_TRACKERS:
        return Effect("counter", name.lower(), op, value, BUILTIN_TRACKERS[name.lower()], text)
    raise r.fail(
        path,
        _("effect {text!r} names no tracker; {known_trackers}, or add {name} to [trackers]").format(
            text=text, known_trackers=known_trackers(known), name=name
        ),
    )


def check(r: Reader, name: str, data: Any, known: dict[str, TrackerSpec]) -> Check:
    path = ("checks", name)
    if not NAME.match(name):
        raise r.fail(path, _("check name {name!r}: use letters, digits, - and _ (e.g. skill)").format(name=name))
    data = r.keys(data, path, CHECK_KEYS, "check")
    dice, expr = r.dice(data.get("dice"), (*path, "dice"), "2d6")
    target = data.get("target")
    m = _TARGET.match(target) if isinstance(target, str) else None
    if m is None:
        raise r.fail(
            (*path, "target"),
            _('check {name}: target {target!r} is not a target; write "<= SKILL" or ">= 7"').format(
                name=name, target=target
            ),
        )
    op, number, tracker_name, sign, off = m.groups()
    op = "==" if op == "=" else op
    tracker = None
    offset = 0
    if tracker_name is not None:
        tracker = known.get(tracker_name.lower())
        if tracker is None:
            raise r.fail(
                (*path, "target"),
                _("check {name}: target names {tracker_name}, which is not in [trackers]; {known_trackers}").format(
                    name=name, tracker_name=tracker_name, known_trackers=known_trackers(known, builtin=False)
                ),
            )
        offset = (-1 if sign == "-" else 1) * int(off) if off else 0
    return Check(
        name=name.lower(),
        title=r.text(data.get("title"), (*path, "title")) or name,
        dice=dice,
        expr=expr,
        op=op,
        number=int(number) if number is not None else None,
        tracker=tracker,
        offset=offset,
        pass_text=r.text(data.get("pass"), (*path, "pass")),
        fail_text=r.text(data.get("fail"), (*path, "fail")),
        effects=effects(r, data.get("effect"), (*path, "effect"), known),
        pass_effects=effects(r, data.get("pass_effect"), (*path, "pass_effect"), known),
        fail_effects=effects(r, data.get("fail_effect"), (*path, "fail_effect"), known),
    )


def known_trackers(known: dict[str, TrackerSpec], *, builtin: bool = True) -> str:
    names = [t.name for t in known.values()]
    if builtin:
        names += [n for n in ("hp", "gold", "xp") if n not in known]
        return "trackers: " + ", ".join(names) + ", item NAME"
    return ("trackers: " + ", ".join(names)) if names else "the pack has no [trackers]"
