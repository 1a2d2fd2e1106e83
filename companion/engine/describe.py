"""Requests as data for the one-shot ``companion next`` and ``--json`` (no terminal needed)."""

from __future__ import annotations

from typing import Any

from companion.dice.odds import odds, target_text
from companion.engine.requests import Choice, Number, Request, RollRequest, Text
from companion.errors import InputError
from companion.i18n import _, quote


def request_json(request: Request, advice: list[str] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"key": request.key}
    if isinstance(request, RollRequest):
        o = odds(request.expr, request.mod)
        data |= {
            "type": "roll",
            "why": request.why,
            "expr": str(request.expr),
            "mod": request.mod,
            "parts": [list(p) for p in request.parts],
            "target": target_text(request.expr, request.mod),
            "odds": None if o.success is None else f"{o.success.numerator}/{o.success.denominator}",
            "secret": request.secret,
            "virtual": request.virtual,
        }
    elif isinstance(request, Choice):
        data |= {
            "type": "choice",
            "prompt": request.prompt,
            "options": [{"value": o.value, "label": o.label, "hint": o.hint} for o in request.options],
        }
    elif isinstance(request, Number):
        data |= {
            "type": "number",
            "prompt": request.prompt,
            "lo": request.lo,
            "hi": request.hi,
            "where": request.where,
            "secret": request.secret,
        }
    else:
        data |= {"type": "text", "prompt": request.prompt}
    info = list(getattr(request, "info", ())) + list(advice or [])
    if info:
        data["info"] = info
    return data


def parse_choice(request: Choice, text: str) -> str:
    """A choice by its number in the list (1-based), ``=VALUE``, its key, its value, or the start of a
    word of its label (or of its key).

    One rule for every menu: a number always picks the option with that number in the list as
    ``companion next`` prints it, even on a menu whose values are numbers too (an area, a room, a count
    of daggers, a hero's place at the table). ``=VALUE`` gives an option's value exactly, as ``--json``
    shows it (what a script sends). A key (:mod:`companion.engine.keys`) picks its option; any other
    word picks the one option a word of whose label (or whose key) starts with it, and a start that fits
    several is refused with their words ("ambiguous: ...").
    """
    from companion.engine.keys import keys_of
    from companion.engine.keys import words as label_words

    t = text.strip()
    values = request.values()
    if t.startswith("=") and t[1:].strip() in values:
        return t[1:].strip()
    if t.isdigit() and t.isascii():
        if 1 <= int(t) <= len(values):
            return values[int(t) - 1]
        raise InputError(
            _("{n} is not a number in the list: give 1 to {last} (or =VALUE for a value)").format(n=t, last=len(values))
        )
    keys = keys_of(request.options)
    low = t.lower()
    by_key = [o.value for o, k in zip(request.options, keys, strict=True) if k == low]
    if by_key:
        return by_key[0]
    if t in values:
        return t
    if low in ("roll", _("roll")):  # the word that rolls the dice at a roll: a menu has no dice to roll
        listed = "; ".join(f"{i}. {o.label}" for i, o in enumerate(request.options, 1))
        raise InputError(
            _("this step is a choice, not a roll: answer with its number or its words ({listed})").format(listed=listed)
        )
    matches = [
        o.value
        for o, k in zip(request.options, keys, strict=True)
        if low
        and (
            k.startswith(low) or o.label.lower().startswith(low) or any(w.startswith(low) for w in label_words(o.label))
        )
    ]
    if not matches and low:  # what a script may type: the start of a value
        matches = [o.value for o in request.options if o.value.lower().startswith(low)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise InputError(
            _("ambiguous: {text} could be {options}").format(
                text=quote(t), options="; ".join(request.option(v).label for v in matches)
            ),
            hint=_("type more letters, the key or the number"),
        )
    listed = "; ".join(
        f"{k} {o.label}" if i > 9 else f"{i} {k} {o.label}"
        for i, (o, k) in enumerate(zip(request.options, keys, strict=True), 1)
    )
    raise InputError(_("{text} is not one of the choices: {listed}").format(text=quote(text), listed=listed))


def parse_number(request: Number, text: str) -> int:
    t = text.strip().replace("−", "-")
    if t.lstrip("-").isdigit() and request.lo <= int(t) <= request.hi:
        return int(t)
    raise InputError(
        _("{text} is not a whole number from {lo} to {hi}").format(text=quote(text), lo=request.lo, hi=request.hi)
    )


def answered(request: Request, value: Any) -> tuple[str, str]:
    """The question and the answer taken, in the player's words: ("Your hero's name?", "1")."""
    if isinstance(request, RollRequest):
        from companion.dice.render import dice_text

        return request.why or str(request.expr), dice_text(value)
    if isinstance(request, Choice):
        return request.prompt, request.option(value).label
    return request.prompt, str(value)


def parse_text(request: Text, text: str) -> str:
    if not text.strip():
        raise InputError(_("an answer is needed (empty text is not accepted)"))
    from companion.controls import plain_text_refusal

    refused = plain_text_refusal(text)
    if refused is not None:
        raise InputError(refused)
    return text.strip()
