"""What the page shows, as data made once per change: the pending step and its answers, the table,
the +/- buttons, undo with what it takes back, the last lines of the log, the session's language.

Everything here is read from the session through the same functions the shell and ``companion
next`` use (:func:`companion.engine.pending.of_session`, the game's board, the status rows), so the
page shows what the terminal shows. Nothing here renders HTML (:mod:`companion.serve.page` does) or
knows the server's table (:mod:`companion.serve.table` asks for its view with :func:`of_session`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from companion.contract.secrets import OPEN, PUBLIC
from companion.contract.secrets import View as SecretsView
from companion.i18n import _

if TYPE_CHECKING:
    from companion.engine.board import Board, Control
    from companion.engine.pending import Pending
    from companion.session.service import Session

#: How many of the log's last entries the page shows.
LOG_LINES = 8
#: How many of the last actions the page's timeline shows (``companion history`` shows them all).
HISTORY = 12
#: A die with more faces than this is answered by typing its face, not by a button per face.
MOST_FACES = 20


@dataclass(frozen=True)
class Side:
    """Whose page a view is made for, and what of the step it may answer (``companion serve``'s seats)."""

    #: Who the one filter shows it to: a seat's name, or the public (the host's page, the feed).
    viewer: str = PUBLIC
    #: The seat's words in the page's header ("" for the host's page).
    title: str = ""
    #: Whether this page answers the step (it is this seat's, or anyone's).
    answers: bool = True
    #: The options of a menu this page may take (None: every one shown).
    options: frozenset[str] | None = None
    #: Whose the step is, when it is another seat's: "the dragon player is choosing".
    waiting: str = ""
    #: The last undo's notice, shown on every page: who undid what ("the heroes undid: note").
    undone: str = ""
    #: Who acts, in the seat's words, where the contract names a seat of one figure or player (the
    #: dragon player, a hero's player): said instead of the step's own guess ("" keeps it).
    actor: str = ""


@dataclass(frozen=True)
class Face:
    """One face button: what it shows, and what it answers (``heart`` for the Dark Tower's ♥)."""

    shown: str
    value: str


@dataclass(frozen=True)
class Step:
    """One action on the page's timeline: its number, its words, and how many actions "back to here"
    takes back (0 for the last)."""

    n: int
    words: str
    back: int = 0

    @property
    def back_words(self) -> str:
        """The words of its "back to here" button."""
        from companion.i18n import ngettext

        return ngettext(
            "Back to here: take back the {n} action after it",
            "Back to here: take back the {n} actions after it",
            self.back,
        ).format(n=self.back)


@dataclass(frozen=True)
class View:
    version: int
    session: str
    game: str
    title: str
    lang: str
    pending: Pending | None = None
    #: Each die's faces as buttons (a roll), or () where the faces are typed.
    dice: tuple[tuple[Face, ...], ...] = ()
    board: Board | None = None
    #: A game without a board: the session's figures as the status shows them.
    figures: tuple[str, ...] = ()
    controls: tuple[Control, ...] = ()
    log: tuple[str, ...] = ()
    #: What undo takes back, in the words ``companion undo`` says it ("" when there is nothing).
    undo: str = ""
    #: The last actions, oldest first, each with what "back to here" would take back.
    timeline: tuple[Step, ...] = ()
    #: How many earlier actions the timeline leaves out.
    earlier: int = 0
    #: What redo brings back next, in words ("" when nothing), and how many actions redo can bring back.
    redo: str = ""
    redo_count: int = 0
    finished: str = ""
    error: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    #: The seat whose page this is, in words ("" for the host's page).
    seat: str = ""
    #: Whether this page answers the step; else ``waiting`` says whose it is, and no button is shown.
    answers: bool = True
    waiting: str = ""
    #: What the last undo took back and from which seat ("the heroes undid: ..."), on every page.
    notice: str = ""
    #: What this seat alone is told of the secrets it holds (the dragon player's dragon).
    held: tuple[str, ...] = ()
    #: The one filter the page was made through (companion/contract/secrets.py): every html made from
    #: this view passes it again before it is sent (:meth:`shown`).
    secrets: SecretsView = field(default=OPEN, compare=False, repr=False)

    def shown(self, html: str) -> str:
        return self.secrets.text(html)


def of_session(
    session: Session, version: int, pending: Pending | None, board: Board | None, side: Side | None = None
) -> View:
    """The page of ``side`` (the host's, by default: the public table, every step answered)."""
    from companion.serve.controls import controls

    side = side or Side()
    state = session.state
    # The one filter: the page (and the stream that carries it) shows what its viewer may see.
    seen = session.spec.view(state, side.viewer)
    pending = seen.pending(pending)
    if pending is not None and side.actor:
        pending = replace(pending, actor=side.actor)
    if pending is not None and not side.answers:
        pending = replace(pending, options=(), info=())  # another seat's step: no button, nothing of it
    elif pending is not None and side.options is not None:
        pending = replace(pending, options=tuple(o for o in pending.options if o.value in side.options))
    if side.viewer != PUBLIC:
        board = session.spec.board_of(state, side.viewer)
    figures: tuple[str, ...] = ()
    if board is None:
        from companion.shell.toolbar import figures as status_figures

        figures = tuple(seen.text(line) for line in status_figures(session))
    return View(
        version=version,
        session=session.name,
        game=session.meta.game,
        title=_(session.spec.title),
        lang=session.meta.lang or "en",
        pending=pending,
        dice=faces(pending) if side.answers else (),
        board=board,
        figures=figures,
        controls=tuple(controls(session, board, side.viewer)),
        log=tuple(seen.text(line) for line in last_lines(session)),
        undo=seen.text(undo_words(session, seen)),
        finished=_(state.finished) if state.finished else "",
        secrets=seen,
        seat=side.title,
        answers=side.answers,
        waiting=side.waiting if not side.answers else "",
        notice=seen.text(side.undone),
        held=session.spec.held(state, side.viewer),
        **timeline(session, seen),
    )


def faces(pending: Pending | None) -> tuple[tuple[Face, ...], ...]:
    """Each die of a roll as its face buttons (the Dark Tower die: 1, 2, 3, ♥, ★)."""
    request = getattr(pending, "request", None)
    expr = getattr(request, "expr", None)
    if pending is None or pending.kind != "roll" or expr is None:
        return ()
    out = []
    for die in expr.dice:
        if die.custom:
            out.append((Face("1", "1"), Face("2", "2"), Face("3", "3"), Face("♥", "heart"), Face("★", "star")))
        elif die.sides <= MOST_FACES:
            out.append(tuple(Face(str(n), str(n)) for n in range(1, die.sides + 1)))
        else:
            return ()
    return tuple(out)


def last_lines(session: Session) -> list[str]:
    """The log's last entries as plain text (the markdown's marks taken off: the page escapes it)."""
    from companion.log.markdown import entry_text

    entries = [e for e in session.state.log.entries[-LOG_LINES:] if e is not None]
    return [plain(entry_text(e)) for e in entries if e.get("k") != "heading" or e.get("t")]


def plain(markdown: str) -> str:
    """A log line's markdown as the words it shows: no backticks or bold marks, escapes undone."""
    out: list[str] = []
    i = 0
    while i < len(markdown):
        ch = markdown[i]
        if ch == "\\" and i + 1 < len(markdown):
            out.append(markdown[i + 1])
            i += 2
            continue
        if ch == "`" or markdown.startswith("**", i):
            i += 1 if ch == "`" else 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def timeline(session: Session, seen: SecretsView = OPEN) -> dict[str, Any]:
    """The page's timeline: the last actions in words (kept by the session between taps, so each tap
    says only its own), and what redo would bring back; every word as the public may see it
    (:func:`companion.session.timeline.said`) and then as ``seen`` (the page's seat) may: a secret draw
    is named on no page whose seat may not see it."""
    from companion.session.labels import label
    from companion.session.timeline import said

    if session.said is None:
        session.said = {}
    count = session.count
    first = max(1, count - HISTORY + 1)
    steps = tuple(Step(a.id, seen.text(a.label.line()), count - a.id) for a in said(session, first, count))
    if steps and steps[0].n == 1 and _catalogue(session):
        steps = steps[1:]  # the copy of the player's catalogue a session starts with is no action
    redo, redo_count = "", len(session.redo_entries)
    if redo_count:
        nxt = session.redo_stack[-1]
        request = session.waiting().pending if nxt.get("t") == "answer" else None
        public = session.spec.view(session.state)
        redo = seen.text(label(session.spec, nxt, session.state, request).seen(public).line())
    return {"timeline": steps, "earlier": first - 1, "redo": redo, "redo_count": redo_count}


def _catalogue(session: Session) -> bool:
    first = session.files.events.event(1)
    return first.get("t") == "gamedata" and first.get("source") == "catalogue"


def last_event(session: Session) -> dict[str, Any] | None:
    """The event ``companion undo`` would take back now (None: nothing can be undone)."""
    if session.count == 0:
        return None
    events = session.files.read_events(max(0, session.count - 1))
    if not events:
        return None
    last = events[-1]
    if last.get("t") == "gamedata" and last.get("source") == "catalogue":
        return None
    return last


def undo_words(session: Session, seen: SecretsView = OPEN) -> str:
    """What ``companion undo`` would take back now, as it says it, an answer that would give a secret
    away withheld for ``seen`` ("" when nothing can be undone)."""
    last = last_event(session)
    if last is None:
        return ""
    from companion.session.timeline import said

    return seen.text(said(session, last["id"], last["id"])[0].label.line())
