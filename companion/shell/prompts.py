"""Prompts for a person at a terminal, built on questionary with ``unsafe_ask``.

``unsafe_ask`` lets Ctrl-C (KeyboardInterrupt) and Ctrl-D (EOFError) through; the root command
group turns them into exit codes 130 and 1 in one place, after every completed action is saved.

Every prompt fits the terminal: companion wraps the question itself between words (prompt_toolkit
would cut words at the edge), puts the keys on a line of their own, and takes the answer on a short
``›`` line. Bad input is not left in the box: the answer is read, and if it is wrong the whole
message is printed next to it and the box asked again, empty (see :func:`_ask_until_valid`).
"""

from __future__ import annotations

import shutil
import textwrap
from collections.abc import Callable
from typing import Any

import questionary
from prompt_toolkit.styles import Style

from companion.dice.expr import Expr
from companion.dice.roll import Roll
from companion.engine.requests import Choice, Number, RollRequest, Text
from companion.errors import InputError
from companion.i18n import N_, _
from companion.shell import typeahead


def _share_default_key_bindings() -> None:
    """Build prompt_toolkit's default key bindings once per process, not once per prompt.

    questionary makes a new prompt_toolkit Application for every question, and each one builds the
    several hundred default Emacs, Vi and mouse bindings again, then scans them all for the first key
    pressed: more than half of a prompt's CPU time (``benchmarks/prompts.py``). The bindings keep no
    state of an application (their filters and handlers read the running one, as a PromptSession's
    single Application does prompt after prompt), so one set serves every prompt.
    """
    import functools

    from prompt_toolkit.application import application

    if not hasattr(application.load_key_bindings, "cache_info"):
        application.load_key_bindings = functools.cache(application.load_key_bindings)


_share_default_key_bindings()


def _share_merged_styles() -> None:
    """Merge the same styles once per process, and find each style string's attributes once.

    Every prompt is a new prompt_toolkit Application: it merges prompt_toolkit's own UI style (a few
    hundred rules) with questionary's and companion's, parses every rule again, and starts a renderer
    with empty caches, so the attributes of each style string are looked up again, for every prompt,
    by trying its classes against every rule: about a sixth of a prompt's CPU time
    (``benchmarks/prompts.py``), a fifth of a guided game's in a terminal. A merged style is a
    function of its rules alone, so one parsed ``Style`` per list of rules serves every prompt and
    keeps the attributes it found. Rules that change (none of companion's do) make a new one. Only
    the merging is replaced, through BaseStyle's public ``style_rules`` and ``invalidation_hash``; a
    prompt_toolkit that no longer merges this way simply never calls it.
    """
    import weakref

    from prompt_toolkit.styles import style as styles

    merged = styles._MergedStyle
    if getattr(merged, "_companion_shared", False):
        return
    parsed: dict[tuple[tuple[str, str], ...], Style] = {}
    held: weakref.WeakKeyDictionary[Any, tuple[Any, Style]] = weakref.WeakKeyDictionary()

    class Remembering(Style):
        """A Style that remembers the attributes of each style string it was asked for."""

        def __init__(self, rules: list[tuple[str, str]]) -> None:
            super().__init__(rules)
            self._found: dict[tuple[str, Any], Any] = {}

        def get_attrs_for_style_str(self, style_str: str, default: Any = styles.DEFAULT_ATTRS) -> Any:
            key = (style_str, default)
            found = self._found.get(key)
            if found is None:
                if len(self._found) >= 10_000:  # bounded, whatever a game prints
                    self._found.clear()
                found = self._found[key] = super().get_attrs_for_style_str(style_str, default)
            return found

    def merged_style(self: Any) -> Style:
        version = self.invalidation_hash()
        known = held.get(self)
        if known is None or known[0] != version:
            rules = tuple(self.style_rules)
            style = parsed.get(rules)
            if style is None:
                style = parsed[rules] = Remembering(list(rules))
            known = held[self] = (version, style)
        return known[1]

    merged._stock_merged_style = merged._merged_style  # type: ignore[attr-defined]  # for benchmarks/prompts.py
    merged._merged_style = property(merged_style)  # type: ignore[assignment]
    merged._companion_shared = True  # type: ignore[attr-defined]


_share_merged_styles()


#: Python's cycle collector after :func:`settle_memory`: a young collection every 20,000 net new
#: objects instead of 700 (a prompt's drawing makes thousands that live a moment).
GC_THRESHOLDS = (20_000, 20, 20)


def settle_memory() -> None:
    """For a process that asks prompt after prompt (``companion play``, ``companion shell``).

    Everything imported by now (prompt_toolkit, rich, the game) lives as long as the process; frozen,
    the cycle collector leaves it out of its passes, and it runs less often. It took about a tenth of
    a guided game's CPU time at a terminal; settled, a game costs 7-10% less
    (``benchmarks/play_terminal.py``).
    """
    import gc

    if gc.get_threshold()[0] >= GC_THRESHOLDS[0]:
        return  # settled already (the shell, then play in it)
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


STYLE = Style(
    [
        ("qmark", "fg:#b58900 bold"),
        ("question", "bold"),
        ("answer", "fg:#2aa198 bold"),
        ("instruction", "fg:#839496"),
    ]
)
ERROR_STYLE = Style([("qmark", "fg:#dc322f bold"), ("question", "fg:#dc322f"), ("answer", "fg:#2aa198 bold")])

#: The key letters' twins on a Russian (ЙЦУКЕН) keyboard: the same key, whatever layout is on.
TWINS = {"u": "г", "q": "й", "v": "м", "p": "з", "r": "к"}
#: Words a player may type at a roll prompt instead of faces.
ROLL_WORDS = {"", "r", "roll", TWINS["r"]}
UNDO_WORDS = {"u", "undo", TWINS["u"]}
QUIT_WORDS = {"q", "quit", "exit", TWINS["q"]}
SWITCH_WORDS = {"v", "virtual", "p", "physical", TWINS["v"], TWINS["p"]}
HELP_WORDS = {"?", "h", "help"}

#: The keys, as the help (``?``) explains them (a line each, under 80 columns in every language).
#: The roll lines differ with the session's dice: with physical dice Enter does not roll.
HELP_LINES = (
    N_("Keys at every prompt:"),
    N_("  u  undo the last answer     q  save and quit (companion play resumes)"),
    N_("  ?  this help                v/p  virtual or physical dice"),
    N_("At a roll: Enter rolls for you; or type what your dice show, e.g. 3 4 or 3,4;"),
    N_("  one number for several plain dice is their total (7 or =7); the Dark"),
    N_("  Tower's dice take each face: 1 ♥ ★ 2, 1,h,s,2 or 1 сердце звезда 2."),
    N_("At a menu: ↑/↓ (or j/k) and Enter; a number picks its option at once,"),
    N_("  a first letter moves to the next option starting with it. A menu starts"),
    N_("  on the best option where the game knows the odds. u, q, v and p act at once."),
)
#: The roll line with physical dice, in place of HELP_LINES[3].
HELP_PHYSICAL = N_("At a roll: type what your dice show, e.g. 3 4 or 3,4 (v: companion rolls);")


def columns() -> int:
    """The width companion writes to: the terminal's, less one column.

    Nothing is written in the last column: a terminal wraps (or a prompt cuts) there, and a line
    that never reaches it can never be broken by the terminal.
    """
    return max(20, shutil.get_terminal_size((80, 24)).columns - 1)


def wrap(text: str, first: str = "", rest: str = "  ", width: int | None = None) -> list[str]:
    """``text`` wrapped between words to ``width``, the first line after ``first``, the others after ``rest``."""
    width = width or columns()
    lines: list[str] = []
    for i, paragraph in enumerate(text.split("\n")):
        lines.extend(
            textwrap.wrap(
                paragraph,
                width=width,
                initial_indent=first if i == 0 else rest,
                subsequent_indent=rest,
                break_on_hyphens=False,
            )
            or [rest if i else first]
        )
    return lines


def _message(question: str, hint: str = "") -> str:
    """A question (and its keys) wrapped to the screen, ending on a short answer line.

    questionary writes ``? `` before the message, so the first line leaves two columns for it.
    """
    lines = wrap(question, "", "  ", columns() - 2)
    if hint:
        lines.extend(wrap(hint, "  ", "  "))
    return "\n".join(lines) + "\n  ›"


def say(lines: list[str] | tuple[str, ...] | str, style: str = "") -> None:
    """Print lines between prompts, wrapped to the screen (prompt_toolkit's own output)."""
    from prompt_toolkit import print_formatted_text
    from prompt_toolkit.formatted_text import FormattedText

    if isinstance(lines, str):
        lines = [lines]
    for line in lines:
        indent = line[: len(line) - len(line.lstrip())]
        for part in wrap(line.strip(), indent, indent + "  "):
            print_formatted_text(FormattedText([(style, part)]))


def show_help(physical: bool = False) -> None:
    lines = [_(line) for line in HELP_LINES]
    if physical:
        lines[3] = _(HELP_PHYSICAL)
    say(lines, "fg:ansicyan")


def _ask_until_valid(
    message: str,
    check: Callable[[str], str | None],
    *,
    secret: bool = False,
    default: str = "",
    physical: bool = False,
) -> str:
    """Ask ``message`` until ``check`` finds nothing wrong (it returns the error, or None).

    A wrong answer stays on screen as typed, the whole error is written under it, and the box is
    asked again empty: the error sits next to the prompt and the next try starts clean. Right after
    a menu answered with one key, an Enter typed after that key is no answer (:mod:`.typeahead`);
    and where a bare Enter is not an answer at all (``check`` refuses it: physical dice), the first
    one there is taken as that stray Enter too, and the prompt simply stays open.
    """
    ask = questionary.password if secret else questionary.text

    def first() -> Any:
        if secret:
            return ask(message, style=STYLE, reserve_space_for_menu=0)
        return ask(message, default=default, style=STYLE, reserve_space_for_menu=0)

    question = first()
    if typeahead.stray_enter() is False and check("") is not None:
        typeahead.ignore_one_bare_enter(question)
    while True:
        text = question.unsafe_ask()
        if text.strip().lower() in HELP_WORDS:
            show_help(physical)
            question = first()
            continue
        error = check(text)
        if error is None:
            return text
        message = "\n".join(wrap(error, "", "  ", columns() - 2)) + "\n  ›"
        question = ask(message, qmark="✗", style=ERROR_STYLE, reserve_space_for_menu=0)


def ask_faces(
    expr: Expr, mod: int, why: str, *, reader: Callable[..., Roll], allow_total: bool = True, hint: str | None = None
) -> Roll:
    """Ask for the faces of a physical roll until they are valid (``hint``: what may be typed, when the
    usual "faces like 4 5, or one number for their total" is not it)."""

    def check(text: str) -> str | None:
        try:
            reader(expr, text, mod, allow_total=allow_total)
        except InputError as exc:
            return exc.message
        return None

    question = (
        _("{why}: roll {dice} and type what the dice show").format(why=why, dice=expr)
        if why
        else _("Roll {dice} and type what the dice show").format(dice=expr)
    )
    hint = hint or _faces_hint(expr, allow_total)
    text = _ask_until_valid(_message(question, hint + " · " + _("? help")), check, physical=True)
    return reader(expr, text, mod, allow_total=allow_total)


def _faces_hint(expr: Expr, allow_total: bool) -> str:
    """What may be typed for ``expr``, with faces its dice have: ``the face you rolled, e.g. 2`` for a d2,
    ``faces like 4 5, or one number for their total`` for 2d6 (never a face a die lacks)."""
    from companion.engine.pending import typed_example

    example = typed_example(expr)
    if len(expr.dice) <= 1:
        return _("the face you rolled, e.g. {example}").format(example=example)
    if allow_total:
        return _("faces like {example}, or one number for their total").format(example=example)
    return _("faces like {example}").format(example=example)


def roll_hint(physical: bool) -> str:
    return (_("Roll, then type your dice") if physical else _("Enter rolls, or type your dice")) + _(
        " · u undo · q quit · v/p dice · ? help"
    )


def ask_roll(request: RollRequest, physical: bool, *, reader: Callable[..., Roll]) -> str | Roll:
    """A roll prompt: Enter rolls virtually; faces record a physical roll; or a command word.

    Returns a Roll for typed faces, ``"virtual"`` for Enter, or one of ``"undo"``, ``"quit"``,
    ``"switch"``.
    """

    def check(text: str) -> str | None:
        t = text.strip().lower()
        if t in UNDO_WORDS | QUIT_WORDS | SWITCH_WORDS:
            return None
        if t in ROLL_WORDS and not physical:
            return None
        if t in ROLL_WORDS:
            return _("physical dice: type what your dice show (or v to switch to virtual dice)")
        try:
            reader(request.expr, text, request.mod, allow_total=True, parts=request.parts)
        except InputError as exc:
            return exc.message
        return None

    # A secret roll's faces are typed unseen (a chit drawn in private); a virtual one is never shown.
    text = _ask_until_valid(_message(request.why, roll_hint(physical)), check, secret=request.secret, physical=physical)
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
    ("__undo__", N_("↶ Undo the last answer (u)")),
    ("__quit__", N_("✕ Save and quit (q)")),
)
MENU_HINT = N_("↑/↓ and Enter · 1-9 picks · u undo · q quit · v/p dice · ? help")
#: Keys that answer a menu at once, and what they answer (v/p switch the dice, as at a roll).
MENU_KEYS = {"u": "__undo__", "q": "__quit__", "?": "__help__", "v": "__switch__", "p": "__switch__"}
MENU_KEYS.update({TWINS[key]: MENU_KEYS[key] for key in "uqvp"})
#: Letters a menu keeps for itself (its keys, and j/k to move): no first-letter jump on them.
RESERVED = set(MENU_KEYS) | {"j", "k"}
#: The letters that jump to an option starting with them: Latin, and Cyrillic for a Russian
#: session's menus (the twins of the menu's own keys stay those keys, as on a Latin keyboard).
LETTERS = "abcdefghijklmnopqrstuvwxyz" + "абвгдеёжзийклмнопрстуфхцчшщъыьэюя"
#: Face words a die accepts (the Dark Tower's and the Dragon's Den's dice), for telling typed dice.
FACE_WORDS = {"heart", "star", "h", "s", "*", "♥", "★"}
#: At or above this chance of death, Enter on a choice asks once more when a safer choice exists.
DEADLY = 0.5


def _title(label: str) -> str:
    """A menu line wrapped between words under its own start (the pointer takes three columns)."""
    return "\n".join(wrap(label, "", "     ", columns() - 3))


def ask_choice(
    request: Choice,
    *,
    extras: bool = True,
    risk: dict[str, float] | None = None,
    best: str | None = None,
    confirmed: set[str] | None = None,
    ahead: list[str] | None = None,
    physical: bool = False,
) -> str:
    """A menu; ``u``, ``q``, ``v``/``p`` and ``?`` answer it at once (undo, quit, dice, help), a
    number picks its option, and it starts on ``best`` (the option the game's odds favour).

    ``risk`` is each option's chance of death: when the chosen one is :data:`DEADLY` or worse and
    another is safer, the player confirms it with one more key (Enter alone goes back to the menu),
    once per decision: the keys in ``confirmed`` (kept by the caller across one fight) are not asked
    again. Faces typed at that question go on and are the next roll: they are put in ``ahead``.
    """
    while True:
        value = _select(request, extras, best)
        if value == "__help__":
            show_help(physical)
            continue
        if risk and value in risk and risk[value] >= DEADLY and request.key not in (confirmed or ()):
            safer = min(risk.items(), key=lambda kv: kv[1])
            if safer[1] < risk[value]:
                answer = _confirm_death(request, value, risk[value], safer)
                if answer is None:
                    continue
                if confirmed is not None:
                    confirmed.add(request.key)
                if answer and ahead is not None:
                    ahead.append(answer)
        return value


def _select(request: Choice, extras: bool, best: str | None = None) -> str:
    choices: list[Any] = [
        questionary.Choice(title=_title(o.label + (f"  ({o.hint})" if o.hint else "")), value=o.value)
        for o in request.options
    ]
    if extras:
        choices.append(questionary.Separator())
        choices.extend(questionary.Choice(title=_(label), value=value) for value, label in EXTRA_CHOICES)
    message = "\n".join(wrap(request.prompt, "", "  ", columns() - 2)) + "\n "
    default = best if best in request.values() else None
    question = questionary.select(
        message,
        choices=choices,
        default=default,
        style=STYLE,
        instruction="\n".join(wrap(_(MENU_HINT), "", "  ", columns() - 2)),
    )
    _bind_keys(question, MENU_KEYS if extras else {"?": "__help__"})
    _bind_options(question, request)
    typeahead.stray_enter()  # an Enter typed after a one-key answer must not pick this menu's first option
    return question.unsafe_ask()


def _control(question: Any) -> Any:
    """The menu's questionary control (what it points at, whether it is answered), or None."""
    from questionary.prompts.common import InquirerControl

    windows = question.application.layout.find_all_windows()
    return next((w.content for w in windows if isinstance(w.content, InquirerControl)), None)


def _answer(event: Any, control: Any, value: str) -> None:
    """End the menu with ``value`` as Enter does: the menu's last drawing then shows the option
    taken after the question (a key that answers at once is echoed like Enter's choice), unless the
    value is no option of the menu (help, the dice: they say what they do themselves)."""
    if control is not None:
        index = next((i for i, c in enumerate(control.choices) if getattr(c, "value", None) == value), None)
        if index is not None:
            control.pointed_at = index
            control.is_answered = True
    event.app.exit(result=value)


def _bind_options(question: Any, request: Choice) -> None:
    """Number keys pick an option (at once, when no longer number could follow: ``1`` in a menu of
    nine; ``1`` then ``2`` in a menu of twelve), and a letter moves to the next option starting with
    it (its label, case aside; a Latin or a Cyrillic letter), except the menu's own keys."""
    from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings

    app = question.application
    control = _control(question)
    if control is None:
        return
    values = request.values()
    n = len(values)
    typed = {"digits": ""}
    bindings = KeyBindings()

    def digit(event: Any, d: str) -> None:
        buffer = typed["digits"] + d
        if not 1 <= int(buffer) <= n:
            buffer = d
        number = int(buffer)
        if not 1 <= number <= n:
            typed["digits"] = ""
            return
        if number * 10 > n:
            typeahead.keyed(True)  # as u: an Enter typed after the number is no answer to the next prompt
            _answer(event, control, values[number - 1])
            return
        typed["digits"] = buffer
        control.pointed_at = number - 1

    def letter(event: Any, ch: str) -> None:
        typed["digits"] = ""
        starts = [i for i, o in enumerate(request.options) if o.label.lstrip("←↶✕ ").lower().startswith(ch)]
        if not starts:
            return
        after = [i for i in starts if i > control.pointed_at]
        control.pointed_at = (after or starts)[0]

    for d in "0123456789":
        bindings.add(d, eager=True)(lambda event, d=d: digit(event, d))
    for ch in LETTERS:
        if ch not in RESERVED:
            bindings.add(ch, eager=True)(lambda event, ch=ch: letter(event, ch))
    app.key_bindings = merge_key_bindings([app.key_bindings, bindings]) if app.key_bindings else bindings


def _confirm_death(request: Choice, value: str, chance: float, safer: tuple[str, float]) -> str | None:
    """Go on with a deadly choice? ``""`` for yes, faces typed there (the next roll) for yes too, and
    None to choose again."""
    label = request.option(value).label
    other = request.option(safer[0]).label
    say(
        "  ⚠ "
        + _("{choice}: the hero dies {chance} of the time; {other}: {safer}.").format(
            choice=label, chance=_percent(chance), other=other, safer=_percent(safer[1])
        ),
        "fg:ansiyellow bold",
    )
    answer = questionary.text(
        _message(_("Go on anyway?"), _("y goes on (or type your dice: they are the roll) · Enter or n chooses again")),
        style=STYLE,
        reserve_space_for_menu=0,
    ).unsafe_ask()
    t = answer.strip().lower()
    if t in ("y", "yes", "д", "да"):
        return ""
    words = t.replace(",", " ").split()
    if words and (any(c.isdigit() for c in t) or words[0] in FACE_WORDS):
        return answer.strip()  # the faces of the roll that follows: going on, and the roll is typed
    return None


def _percent(p: float) -> str:
    from fractions import Fraction

    from companion.dice.odds import percent

    return percent(Fraction(p).limit_denominator(10**9))


def _bind_keys(question: Any, keys: dict[str, str]) -> None:
    """Keys that answer a menu at once, and Ctrl-D ending input there too (questionary binds it only
    in text prompts), so that Ctrl-D means the same everywhere: stop, everything answered so far is
    saved, exit code 1."""
    from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings

    bindings = KeyBindings()

    @bindings.add("c-d", eager=True)
    def _(event: Any) -> None:
        event.app.exit(exception=EOFError())

    control = _control(question)
    for key, result in keys.items():

        def answer(event: Any, result: str = result) -> None:
            typeahead.keyed(result != "__help__")  # u, q, v/p: an Enter typed after them is no answer
            _answer(event, control, result)

        bindings.add(key, eager=True)(answer)

    app = question.application
    app.key_bindings = merge_key_bindings([app.key_bindings, bindings]) if app.key_bindings else bindings


def ask_number(request: Number) -> int | str:
    def check(text: str) -> str | None:
        t = text.strip().lower()
        if t in UNDO_WORDS | QUIT_WORDS:
            return None
        if t.lstrip("-").isdigit() and request.lo <= int(t) <= request.hi:
            return None
        return _("type a whole number from {lo} to {hi} (u undo, q quit)").format(lo=request.lo, hi=request.hi)

    question = request.prompt + (f" ({request.where})" if request.where else "")
    default = "" if request.default is None else str(request.default)
    hint = _("a number from {lo} to {hi} · u undo · q quit · ? help").format(lo=request.lo, hi=request.hi)
    text = _ask_until_valid(_message(question, hint), check, secret=request.secret, default=default)
    text = text.strip().lower()
    if text in UNDO_WORDS:
        return "undo"
    if text in QUIT_WORDS:
        return "quit"
    return int(text)


def ask_text(request: Text) -> str:
    def check(text: str) -> str | None:
        from companion.controls import plain_text_refusal

        return plain_text_refusal(text) if text.strip() else _("an answer is needed")

    return _ask_until_valid(_message(request.prompt), check, default=request.default).strip()
