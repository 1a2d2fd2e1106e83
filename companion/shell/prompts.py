"""Prompts for a person at a terminal, built on questionary with ``unsafe_ask``.

``unsafe_ask`` lets Ctrl-C (KeyboardInterrupt) and Ctrl-D (EOFError) through; the root command
group turns them into exit codes 130 and 1 in one place, after every completed action is saved.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import questionary
from prompt_toolkit.styles import Style

from companion.dice.expr import Expr
from companion.dice.odds import odds, target_text
from companion.dice.render import fraction
from companion.dice.roll import Roll
from companion.engine.requests import Choice, Number, RollRequest, Text
from companion.errors import InputError

STYLE = Style([("qmark", "fg:#b58900 bold"), ("question", "bold"), ("answer", "fg:#2aa198 bold")])

#: Words a player may type at a roll prompt instead of faces.
ROLL_WORDS = {"", "r", "roll"}
UNDO_WORDS = {"u", "undo"}
QUIT_WORDS = {"q", "quit", "exit"}
SWITCH_WORDS = {"v", "virtual", "p", "physical"}


def odds_line(expr: Expr, mod: int, parts: tuple[tuple[str, int], ...] = ()) -> str:
    """``DC +1 STR −1 floor: passes on 5+ → 1/3 (33.3%)``."""
    label = str(expr)
    shown = " ".join(f"{v:+d} {n}" for n, v in parts if v).replace("-", "−")
    if shown:
        label += " " + shown
    elif mod:
        label += f" {mod:+d}".replace("-", "−")
    o = odds(expr, mod)
    if o.success is None:
        if o.options:
            return f"{label}: 1-2, 3-4 or 5-6, a third each"
        return label
    return f"{label}: passes on {target_text(expr, mod)} → {fraction(o.success)}"


def ask_faces(expr: Expr, mod: int, why: str, *, reader: Callable[..., Roll], allow_total: bool = True) -> Roll:
    """Ask for the faces of a physical roll until they are valid."""

    def validate(text: str) -> bool | str:
        try:
            reader(expr, text, mod, allow_total=allow_total)
        except InputError as exc:
            return exc.message
        return True

    text = questionary.text(
        f"{why}: roll {expr} and type what the dice show", validate=validate, style=STYLE
    ).unsafe_ask()
    return reader(expr, text, mod, allow_total=allow_total)


def ask_roll(request: RollRequest, physical: bool, *, reader: Callable[..., Roll]) -> str | Roll:
    """A roll prompt: Enter rolls virtually; faces record a physical roll; or a command word.

    Returns a Roll for typed faces, ``"virtual"`` for Enter, or one of ``"undo"``, ``"quit"``,
    ``"switch"``.
    """
    hint = ("type your dice" if physical else "Enter to roll, or type your dice") + " (u undo, q quit, v/p dice)"

    def validate(text: str) -> bool | str:
        t = text.strip().lower()
        if t in UNDO_WORDS | QUIT_WORDS | SWITCH_WORDS:
            return True
        if t in ROLL_WORDS and not physical:
            return True
        if t in ROLL_WORDS:
            return "physical dice: type what your dice show (or v to switch to virtual dice)"
        try:
            reader(request.expr, text, request.mod, allow_total=True, parts=request.parts)
        except InputError as exc:
            return exc.message
        return True

    # A secret roll's faces are typed unseen (a chit drawn in private); a virtual one is never shown.
    ask = questionary.password if request.secret else questionary.text
    text = ask(f"{request.why} — {hint}", validate=validate, style=STYLE).unsafe_ask()
    t = text.strip().lower()
    if t in UNDO_WORDS:
        return "undo"
    if t in QUIT_WORDS:
        return "quit"
    if t in SWITCH_WORDS:
        return "switch"
    if t in ROLL_WORDS:
        return "virtual"
    return reader(request.expr, text, request.mod, allow_total=True, parts=request.parts)


EXTRA_CHOICES = (
    ("__undo__", "↶ Undo the last answer"),
    ("__switch__", "⇄ Switch virtual/physical dice"),
    ("__quit__", "✕ Save and quit"),
)


def ask_choice(request: Choice, *, extras: bool = True) -> str:
    choices: list[Any] = [
        questionary.Choice(title=o.label + (f"  ({o.hint})" if o.hint else ""), value=o.value) for o in request.options
    ]
    if extras:
        choices.append(questionary.Separator())
        choices.extend(questionary.Choice(title=label, value=value) for value, label in EXTRA_CHOICES)
    question = questionary.select(request.prompt, choices=choices, style=STYLE)
    _end_of_input_on_ctrl_d(question)
    return question.unsafe_ask()


def _end_of_input_on_ctrl_d(question: Any) -> None:
    """Make Ctrl-D end input at a menu too (questionary binds it only in text prompts), so that
    Ctrl-D means the same everywhere: stop, everything answered so far is saved, exit code 1."""
    from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings

    bindings = KeyBindings()

    @bindings.add("c-d", eager=True)
    def _(event: Any) -> None:
        event.app.exit(exception=EOFError())

    app = question.application
    app.key_bindings = merge_key_bindings([app.key_bindings, bindings]) if app.key_bindings else bindings


def ask_number(request: Number) -> int | str:
    def validate(text: str) -> bool | str:
        t = text.strip().lower()
        if t in UNDO_WORDS | QUIT_WORDS:
            return True
        if t.lstrip("-").isdigit() and request.lo <= int(t) <= request.hi:
            return True
        return f"type a whole number from {request.lo} to {request.hi} (u undo, q quit)"

    message = request.prompt + (f" ({request.where})" if request.where else "")
    default = "" if request.default is None else str(request.default)
    if request.secret:  # typed unseen by the other players
        text = questionary.password(message, validate=validate, style=STYLE).unsafe_ask().strip().lower()
    else:
        text = questionary.text(message, validate=validate, default=default, style=STYLE).unsafe_ask().strip().lower()
    if text in UNDO_WORDS:
        return "undo"
    if text in QUIT_WORDS:
        return "quit"
    return int(text)


def ask_text(request: Text) -> str:
    def validate(text: str) -> bool | str:
        return True if text.strip() else "an answer is needed"

    return (
        questionary.text(request.prompt, default=request.default, validate=validate, style=STYLE).unsafe_ask().strip()
    )
