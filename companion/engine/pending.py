"""The pending step: what the session's game waits for, as data every front end shows the same way.

A guided engine waits on one request (:mod:`companion.engine.requests`). :func:`describe` turns it,
with the game's advice, who acts and the session's dice, into a :class:`Pending`: the step's text,
the exact odds of a roll (before it is rolled), the menu's options numbered, and the answers it
accepts. ``companion next`` prints it, ``companion shell`` shows it above its prompt and in its
bar, and a later front end (the phone page) reads the same object. Nothing here prints or reads.

:func:`read_bare` reads a bare line typed at the shell's prompt as an answer to the step: it gives
the words that ``companion next`` is then run with (the shell has no second way to answer), or
says why the line is no answer, or that it could be read two ways.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.engine.requests import Choice, Number, Request, RollRequest
from companion.errors import InputError
from companion.i18n import _, pgettext

if TYPE_CHECKING:
    from companion.dice.expr import Expr
    from companion.session.service import Session


@dataclass(frozen=True)
class Option:
    number: int
    value: str
    label: str
    hint: str = ""
    #: The option the game's odds favour (the highest chance to win), where the game knows them.
    best: bool = False


@dataclass(frozen=True)
class Pending:
    """One step the game waits for."""

    #: ``roll``, ``choice``, ``number`` or ``text``.
    kind: str
    key: str
    #: The question (a roll's reason).
    text: str
    #: Who acts, where the game knows whose turn it is.
    actor: str = ""
    #: A roll's exact odds, ``2d6 +1 DEX: passes on 7+ → 7/12 (58.3%)`` (empty for a bare roll).
    odds: str = ""
    #: The dice to roll (``2d6``), for a roll.
    dice: str = ""
    options: tuple[Option, ...] = ()
    #: Lines shown before the step: the game's odds and advice.
    info: tuple[str, ...] = ()
    #: Enter answers it with the session's virtual dice (the session rolls virtually, or a draw).
    enter_rolls: bool = False
    secret: bool = False
    #: A menu for one player's eyes: shown while it waits, cleared from the screen once answered.
    private: bool = False
    lo: int = 0
    hi: int = 0
    where: str = ""
    #: What typed dice look like for this roll (``4 5``, ``5``, ``1 heart star 2``).
    example: str = ""
    #: The answers the step accepts, one short phrase each (what ``?`` shows).
    keys: tuple[str, ...] = field(default=())
    request: Request | None = field(default=None, compare=False, repr=False)
    #: The command a bare answer runs, its words after these (a guided game's: ``next``; a table
    #: pack's fight: ``fight round``, the faces given as ``--got`` in rolls of ``split`` dice each).
    run: tuple[str, ...] = ("next",)
    split: tuple[int, ...] = ()
    #: Other bare words the step takes, each with the command it runs (``luck`` → ``fight luck``).
    words: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def line(self) -> str:
        """The step on one line (the shell's bar): who acts, the question, the odds or the menu."""
        head, tail = self.line_parts()
        return f"{head} · {tail}" if tail else head

    def line_parts(self) -> tuple[str, str]:
        """:meth:`line` in its two parts, for a bar too narrow for one line: the question (``▶ …``), and
        the odds or the menu ("" for neither)."""
        head = self.text.rstrip(":")
        if self.actor and self.actor not in head:
            head = f"{self.actor}: {head}"
        if self.kind == "roll":
            return f"▶ {head}", str(self.odds or self.dice)
        if self.kind == "choice" and not self.private:
            return f"▶ {head}", "  ".join(f"{o.number} {o.label}" + (" ★" if o.best else "") for o in self.options)
        return self._line(head), ""

    def _line(self, head: str) -> str:
        if self.kind == "choice":
            return f"▶ {head}"
        if self.kind == "number":
            if self.lo < 0:  # (−20…50), not (-20-50)
                return f"▶ {head} (−{-self.lo}…{self.hi})"
            return f"▶ {head} ({self.lo}-{self.hi})"
        return f"▶ {head}"

    @property
    def best(self) -> str | None:
        """The value of the option the game's odds favour, or None."""
        return next((o.value for o in self.options if o.best), None)

    def as_json(self) -> dict[str, Any]:
        """The step as ``companion next --json`` gives it under ``pending`` (docs/sessions.md): the same
        fields a front end reads from this object."""
        data: dict[str, Any] = {
            "kind": self.kind,
            "key": self.key,
            "text": self.text,
            "actor": self.actor or None,
            "line": self.line(),
            "info": list(self.info),
            "keys": list(self.keys),
        }
        if self.kind == "roll":
            data |= {
                "dice": self.dice,
                "odds": self.odds or None,
                "example": self.example,
                "enter_rolls": self.enter_rolls,
                "secret": self.secret,
            }
        elif self.kind == "choice":
            data |= {
                "options": [
                    {"number": o.number, "value": o.value, "label": o.label, "hint": o.hint, "best": o.best}
                    for o in self.options
                ],
                "best": self.best,
                "private": self.private,
            }
        elif self.kind == "number":
            data |= {"lo": self.lo, "hi": self.hi, "where": self.where, "secret": self.secret}
        return data


def odds_line(expr: Expr, mod: int, parts: tuple[tuple[str, int], ...] = ()) -> str:
    """``DC +1 STR −1 floor: passes on 5+ → 1/3 (33.3%)``."""
    from companion.dice.odds import odds, target_text
    from companion.dice.render import fraction

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


def describe(
    request: Request,
    *,
    advice: list[str] | tuple[str, ...] = (),
    actor: str = "",
    virtual: bool = False,
    best: str | None = None,
) -> Pending:
    """The step ``request`` as data: ``advice`` is the game's, ``virtual`` whether the session rolls
    virtually, ``best`` the option the game's odds favour."""
    info = tuple(getattr(request, "info", ())) + tuple(advice)
    if isinstance(request, RollRequest):
        line = odds_line(request.expr, request.mod, request.parts)
        enter = virtual or request.virtual
        example, keys = _roll_keys(request.expr)
        if enter:
            keys = (_("Enter rolls for you"), *keys)
        return Pending(
            "roll",
            request.key,
            request.why or str(request.expr),
            actor,
            odds=line if ": " in line else "",
            dice=str(request.expr),
            info=info,
            enter_rolls=enter,
            secret=request.secret,
            example=example,
            keys=keys,
            request=request,
        )
    if isinstance(request, Choice):
        options = tuple(Option(i, o.value, o.label, o.hint, o.value == best) for i, o in enumerate(request.options, 1))
        keys = (_("a number from 1 to {n}").format(n=len(options)), _("or the first letters of an option"))
        return Pending(
            "choice",
            request.key,
            request.prompt,
            actor,
            options=options,
            info=info,
            private=request.private,
            keys=keys,
            request=request,
        )
    if isinstance(request, Number):
        keys = (_("a whole number from {lo} to {hi}").format(lo=request.lo, hi=request.hi),)
        return Pending(
            "number",
            request.key,
            request.prompt,
            actor,
            info=info,
            secret=request.secret,
            lo=request.lo,
            hi=request.hi,
            where=request.where,
            keys=keys,
            request=request,
        )
    return Pending("text", request.key, request.prompt, actor, info=info, keys=(_("the text itself"),), request=request)


def of_session(session: Session) -> Pending | None:
    """The step ``session``'s game waits for (its engine started), or None (no engine, or over)."""
    if not session.spec.guided:
        return None
    fold = session.waiting()  # the engine kept in memory, or a look at a game not yet begun
    request = fold.pending
    if request is None or fold.done:
        return None
    spec, state = session.spec, fold.state
    advice = spec.advice(state, request)
    board = spec.board_of(state)
    best = spec.best(state, request)
    # Who acts is said where several heroes share the table (a one-hero game's hero always acts):
    # the hero the step names, else whose turn the board marks.
    actor = ""
    if board is not None and len(board.heroes) > 1:
        text = getattr(request, "why", "") or getattr(request, "prompt", "")
        figures = (*board.heroes, *board.fight)
        named = [(text.find(f.name), f.name) for f in figures if f.name and f.name in text]
        actor = min(named)[1] if named else (board.actor if board.turn_known else "")
    return describe(
        request,
        advice=advice,
        actor=actor,
        virtual=state.dice == "virtual",
        best=best,
    )


def typed_example(expr: Expr) -> str:
    """Faces ``expr``'s dice can show, as a player types them: ``4 5`` for 2d6, ``2`` for a d2."""
    dice = expr.dice
    custom = any(d.custom for d in dice)
    samples = (
        ["1", pgettext("face", "heart"), pgettext("face", "star"), "2"] if custom else ["4", "5", "2", "6", "3", "1"]
    )
    # A face each die can show: 4 on a d6, 2 on a d2 (never a face the die does not have).
    pairs = zip(samples * len(dice), dice, strict=False)
    shown = [s if custom or not s.isdigit() else str((int(s) - 1) % d.sides + 1) for s, d in pairs]
    return " ".join(shown) or "4"


def _roll_keys(expr: Expr) -> tuple[str, tuple[str, ...]]:
    """What typed dice look like for ``expr`` (``4 5 or 45``), and the ways its faces may be typed."""
    dice = expr.dice
    custom = any(d.custom for d in dice)
    example = typed_example(expr)
    if len(dice) <= 1:
        keys: tuple[str, ...] = (_("the face you rolled: {ex}").format(ex=example),)
        if dice and dice[0].custom:
            keys += (_("a face: {accepts}").format(accepts=dice[0].accepts()),)
        return example, keys
    if custom:
        keys = (
            _("the faces you rolled: {ex}").format(ex=example),
            _("a face: {accepts}").format(accepts=dice[0].accepts()),
        )
        return example, keys
    joined = example.replace(" ", "")
    keys = (_("the faces you rolled: {ex}, or {joined} (a digit a die)").format(ex=example, joined=joined),)
    if expr.kind in ("sum", "talisman"):
        keys += (_("or their total: =7"),)
    return _("{ex} or {joined}").format(ex=example, joined=joined), keys


@dataclass(frozen=True)
class Reading:
    """A bare line read against the pending step: the words for ``companion next`` (``words``), or
    why it is no answer (``error``), or the two ways it reads (``both``)."""

    words: tuple[str, ...] = ()
    error: str = ""
    both: str = ""

    @property
    def ok(self) -> bool:
        return bool(self.words)


def read_bare(pending: Pending, text: str) -> Reading:
    """Read ``text`` (a bare line at the shell's prompt) as an answer to ``pending``.

    - a roll: Enter (virtual dice, where Enter rolls), the faces (``4 5``, ``4,5``, a face word), or
      ``45`` for two dice; a number that reads both as faces and as a total (``12`` for 2d6) is
      refused with both readings;
    - a menu: the option's number, or the first letters of one option (its label or value);
    - a number: a whole number in range; a text: the line.
    """
    from companion.engine.describe import parse_choice, parse_number

    request = pending.request
    t = text.strip()
    if isinstance(request, RollRequest):
        if not t:
            return Reading(("roll",)) if pending.enter_rolls else Reading(error=_("roll, then type the faces"))
        return _read_faces(request, t)
    if not t:
        return Reading(error=_("an answer is needed"))
    try:
        if isinstance(request, Choice):
            value = parse_choice(request, t)
            return Reading((t,) if t.isdigit() else (f"={value}",))
        if isinstance(request, Number):
            parse_number(request, t)
            return Reading((t,))
    except InputError as exc:
        return Reading(error=exc.message)
    return Reading((t,))


def _read_faces(request: RollRequest, t: str) -> Reading:
    from companion.dice.source import read_physical

    def reads(s: str, total: bool = True) -> bool:
        try:
            read_physical(request.expr, s, request.mod, allow_total=total, parts=request.parts)
        except InputError:
            return False
        return True

    n = len(request.expr.dice)
    if n > 1 and t.isdigit() and t.isascii() and len(t) == n:
        spread = " ".join(t)
        as_faces = reads(spread, total=False)
        as_total = reads(t)
        if as_faces and as_total:
            return Reading(
                both=_("{t} reads two ways: the dice {faces} (type {faces}) or a total of {t} (type ={t})").format(
                    t=t, faces=spread
                )
            )
        if as_faces:
            return Reading(tuple(spread.split()))
    try:
        read_physical(request.expr, t, request.mod, allow_total=True, parts=request.parts)
    except InputError as exc:
        return Reading(error=exc.message)
    return Reading(tuple(t.replace(",", " ").split()))
