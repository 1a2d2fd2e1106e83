"""What the page shows, as data made once per change: the pending step and its answers, the table,
the +/- buttons, undo with what it takes back, the last lines of the log, the session's language.

Everything here is read from the session through the same functions the shell and ``companion
next`` use (:func:`companion.engine.pending.of_session`, the game's board, the status rows), so the
page shows what the terminal shows. Nothing here renders HTML (:mod:`companion.serve.page` does) or
knows the server's table (:mod:`companion.serve.table` asks for its view with :func:`of_session`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.contract.secrets import OPEN
from companion.contract.secrets import View as SecretsView
from companion.i18n import _

if TYPE_CHECKING:
    from companion.engine.board import Board, Control
    from companion.engine.pending import Pending
    from companion.session.service import Session

#: How many of the log's last entries the page shows.
LOG_LINES = 8
#: A die with more faces than this is answered by typing its face, not by a button per face.
MOST_FACES = 20


@dataclass(frozen=True)
class Face:
    """One face button: what it shows, and what it answers (``heart`` for the Dark Tower's ♥)."""

    shown: str
    value: str


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
    finished: str = ""
    error: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    #: The one filter the page was made through (companion/contract/secrets.py): every html made from
    #: this view passes it again before it is sent (:meth:`shown`).
    secrets: SecretsView = field(default=OPEN, compare=False, repr=False)

    def shown(self, html: str) -> str:
        return self.secrets.text(html)


def of_session(session: Session, version: int, pending: Pending | None, board: Board | None) -> View:
    from companion.serve.controls import controls

    state = session.state
    # The one filter: the page (and the stream that carries it) shows what the public may see.
    seen = session.spec.view(state)
    pending = seen.pending(pending)
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
        dice=faces(pending),
        board=board,
        figures=figures,
        controls=tuple(controls(session, board)),
        log=tuple(seen.text(line) for line in last_lines(session)),
        undo=seen.text(undo_words(session)),
        finished=_(state.finished) if state.finished else "",
        secrets=seen,
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


def undo_words(session: Session) -> str:
    """What ``companion undo`` would take back now, as it says it ("" when nothing can be undone)."""
    if session.count == 0:
        return ""
    from companion.cli.event_words import describe_event

    events = session.files.read_events(max(0, session.count - 1))
    if not events:
        return ""
    last = events[-1]
    if last.get("t") == "gamedata" and last.get("source") == "catalogue":
        return ""
    return describe_event(last, session.meta.game)
