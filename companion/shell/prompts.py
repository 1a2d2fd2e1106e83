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
from companion.i18n import N_, _

STYLE = Style([("qmark", "fg:#b58900 bold"), ("question", "bold"), ("answer", "fg:#2aa198 bold")])

#: Words a player may type at a roll prompt instead of faces.
ROLL_WORDS = {"", "r", "roll"}
UNDO_WORDS = {"u", "undo"}
QUIT_WORDS = {"q", "quit", "exit"}
SWITCH_WORDS = {"v", "virtual", "p", "physical"}


def _columns() -> int:
    import shutil

    return max(24, shutil.get_terminal_size((80, 24)).columns)


def fit(text: str, *, indent: int = 2, room: int = 0) -> str:
    """``text`` wrapped at word boundaries to the terminal, continuation lines indented.

    prompt_toolkit cuts a line that is too long at the edge, in the middle of a word; a Russian
    sentence is longer than its English and meets the edge sooner. ``room`` keeps space on the last
    line for what the prompt adds after the text (a hint, the answer being typed).
    """
    import textwrap

    width = _columns() - 1 - indent
    lines = textwrap.wrap(text, width=width, break_long_words=False, break_on_hyphens=False) or [""]
    if room and len(lines[-1]) + room > width:
        last = textwrap.wrap(lines.pop(), width=max(8, width - room), break_long_words=False, break_on_hyphens=False)
        lines.extend(last)
    return ("\n" + " " * indent).join(lines)


def _echo(message: str, answer: str) -> None:
    """The answered question, as one paragraph that wraps at word boundaries (rich)."""
    from rich.console import Console
    from rich.text import Text as RichText

    line = RichText("? ", style="bold yellow").append(message + " ", style="bold").append(answer, style="cyan")
    Console(highlight=False).print(line)


def _ask(question: Any, message: str, shown: Callable[[Any], str] | None = None) -> Any:
    """Ask, then leave the answered question on the screen wrapped at word boundaries."""
    question.application.erase_when_done = True
    value = question.unsafe_ask()
    _echo(message, shown(value) if shown else ("" if value is None else str(value)))
    return value


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
            return _("{roll}: 1-2, 3-4 or 5-6, a third each").format(roll=label)
        return label
    return _("{roll}: passes on {target} → {odds}").format(
        roll=label, target=target_text(expr, mod), odds=fraction(o.success)
    )


def ask_faces(expr: Expr, mod: int, why: str, *, reader: Callable[..., Roll], allow_total: bool = True) -> Roll:
    """Ask for the faces of a physical roll until they are valid."""

    def validate(text: str) -> bool | str:
        try:
            reader(expr, text, mod, allow_total=allow_total)
        except InputError as exc:
            return exc.message
        return True

    message = _("{why}: roll {dice} and type what the dice show").format(why=why, dice=expr)
    text = _ask(questionary.text(fit(message, room=12), validate=validate, style=STYLE), message)
    return reader(expr, text, mod, allow_total=allow_total)


def ask_roll(request: RollRequest, physical: bool, *, reader: Callable[..., Roll]) -> str | Roll:
    """A roll prompt: Enter rolls virtually; faces record a physical roll; or a command word.

    Returns a Roll for typed faces, ``"virtual"`` for Enter, or one of ``"undo"``, ``"quit"``,
    ``"switch"``.
    """
    hint = (
        _("type your dice (u undo, q quit, v/p dice)")
        if physical
        else _("Enter to roll, or type your dice (u undo, q quit, v/p dice)")
    )

    def validate(text: str) -> bool | str:
        t = text.strip().lower()
        if t in UNDO_WORDS | QUIT_WORDS | SWITCH_WORDS:
            return True
        if t in ROLL_WORDS and not physical:
            return True
        if t in ROLL_WORDS:
            return _("physical dice: type what your dice show (or v to switch to virtual dice)")
        try:
            reader(request.expr, text, request.mod, allow_total=True, parts=request.parts)
        except InputError as exc:
            return exc.message
        return True

    # A secret roll's faces are typed unseen (a chit drawn in private); a virtual one is never shown.
    ask = questionary.password if request.secret else questionary.text
    message = f"{request.why} — {hint}"
    question = ask(fit(message, room=12), validate=validate, style=STYLE)
    text = _ask(question, message, (lambda v: "") if request.secret else None)
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
    ("__undo__", N_("↶ Undo the last answer")),
    ("__switch__", N_("⇄ Switch virtual/physical dice")),
    ("__quit__", N_("✕ Save and quit")),
)


def ask_choice(request: Choice, *, extras: bool = True) -> str:
    titles = {o.value: o.label + (f"  ({o.hint})" if o.hint else "") for o in request.options}
    titles.update((value, _(label)) for value, label in EXTRA_CHOICES)
    choices: list[Any] = [
        questionary.Choice(title=fit(titles[o.value], indent=3), value=o.value) for o in request.options
    ]
    if extras:
        choices.append(questionary.Separator())
        choices.extend(questionary.Choice(title=_(label), value=value) for value, label in EXTRA_CHOICES)
    instruction = _("(Use arrow keys)")
    question = questionary.select(
        fit(request.prompt, room=len(instruction) + 1), choices=choices, style=STYLE, instruction=instruction
    )
    _end_of_input_on_ctrl_d(question)
    return _ask(question, request.prompt, lambda v: titles.get(v, ""))


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
        return _("type a whole number from {lo} to {hi} (u undo, q quit)").format(lo=request.lo, hi=request.hi)

    message = request.prompt + (f" ({request.where})" if request.where else "")
    default = "" if request.default is None else str(request.default)
    if request.secret:  # typed unseen by the other players
        question = questionary.password(fit(message, room=8), validate=validate, style=STYLE)
        text = _ask(question, message, lambda v: "").strip().lower()
    else:
        question = questionary.text(fit(message, room=8), validate=validate, default=default, style=STYLE)
        text = _ask(question, message).strip().lower()
    if text in UNDO_WORDS:
        return "undo"
    if text in QUIT_WORDS:
        return "quit"
    return int(text)


def ask_text(request: Text) -> str:
    def validate(text: str) -> bool | str:
        return True if text.strip() else _("an answer is needed")

    question = questionary.text(fit(request.prompt, room=16), default=request.default, validate=validate, style=STYLE)
    return _ask(question, request.prompt).strip()
