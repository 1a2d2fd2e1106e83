"""The session the page serves: held under its lock, every tap run as a command of the one tree.

:class:`Table` is the shell (:class:`companion.shell.repl.Shell`) with the page as its terminal: it
holds the session's lock the shell's way (``kit.holding``: a second ``serve``, ``shell`` or ``play``
is refused with the lock's line), and runs each tap as the words of a one-shot command through the
shell's own :meth:`~companion.shell.repl.Shell.invoke` (the root group, in this process, with
``--session`` of the session held). What the command prints is kept for the page instead of shown on
a terminal: its refusal line is the page's error line. Whatever the shell gains (the session kept in
memory between commands), the page gains too.

After every command every door's page (the host's and each seat's, :mod:`companion.serve.seats`) is
made again once (:mod:`companion.serve.view`), through the one filter for its seat, given a new
version, and pushed to that door's open pages (:class:`Hub`). The contract says whose the pending step
is (``Game.actor``): a seat's page answers only its own figures' steps, and the others say whose it is.
"""

from __future__ import annotations

import asyncio
import io
import os
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.contract.secrets import ANYONE
from companion.i18n import _, ngettext
from companion.serve.seats import Door, Doors
from companion.shell.repl import Shell

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.contract.secrets import Seat
    from companion.engine.pending import Pending
    from companion.serve.view import View


@dataclass(frozen=True)
class Result:
    """What one command did: its exit code and what it printed."""

    code: int
    out: str
    err: str

    @property
    def error(self) -> str:
        """The refusal as one line or two (the message and its hint), without the ``companion:``."""
        lines = [line.strip() for line in self.err.strip().splitlines() if line.strip()]
        return "\n".join(line.removeprefix("companion: ") for line in lines)


class Hub:
    """Every open page's queue of updates, by door; the newest update replaces one not yet sent."""

    def __init__(self) -> None:
        self.queues: dict[str, set[asyncio.Queue[Any]]] = {}
        self.closed = False

    def join(self, door: str = "") -> asyncio.Queue[Any]:
        queue: asyncio.Queue[Any] = asyncio.Queue(maxsize=1)
        self.queues.setdefault(door, set()).add(queue)
        return queue

    def leave(self, queue: asyncio.Queue[Any], door: str = "") -> None:
        self.queues.get(door, set()).discard(queue)

    @property
    def count(self) -> int:
        return sum(len(q) for q in self.queues.values())

    def publish(self, messages: dict[str, Any] | Any) -> None:
        """Each door's message to its open pages (one message: to every page)."""
        for door, queues in list(self.queues.items()):
            item = messages.get(door) if isinstance(messages, dict) else messages
            if item is None and isinstance(messages, dict):
                continue
            for queue in list(queues):
                _put_latest(queue, item)

    def close(self) -> None:
        """The server is stopping: every page's stream ends (the page reconnects when it is back)."""
        self.closed = True
        self.publish(None)


def _put_latest(queue: asyncio.Queue[Any], item: Any) -> None:
    if queue.full():
        with suppress(asyncio.QueueEmpty):
            queue.get_nowait()
    queue.put_nowait(item)


@dataclass(frozen=True)
class Page:
    """One door's page at one version: its view, the table's part as html, and the live update."""

    view: View
    html: str
    message: str


@dataclass(frozen=True)
class Turn:
    """Whose the pending step is: the figure or player (``Game.actor``), the seat that answers it
    (None: any seat), and whose each option of a menu is, where not the step's."""

    actor: str = ANYONE
    seat: Seat | None = None
    options: tuple[tuple[str, str], ...] = ()


class Table(Shell):
    """The held session, the commands run on it, and every door's page of it."""

    def __init__(self, env: Env, root_args: list[str], *, per_player: bool = False) -> None:
        super().__init__(env, root_args)
        self.interactive = False  # nothing is shown on the server's terminal for a tap
        self.hub = Hub()
        self.per_player = per_player
        #: Bumped after every command that ran (a change made, or refused): a page's forms carry it.
        #: It starts from the clock (in ms), so a page open across a restart sees the new one as newer.
        self.version = time.time_ns() // 1_000_000
        #: The version at which the step last moved on (an answer, an undo, a hand command): a tap on
        #: a page that showed an older version than this is stale. A note moves no step.
        self.step_version = self.version
        #: The host's token (set before the session is held); every other door's comes from it.
        self.token = ""
        self.doors: Doors | None = None
        #: Told of the doors of seats that joined the table (the server prints their addresses).
        self.on_seats: Callable[[list[Door]], None] | None = None
        self.pages: dict[str, Page] = {}
        self.turn = Turn()
        #: The notice the last undo leaves on every page, by door: who undid what, in the words that
        #: door's undo button said it (through its own filter, before the undo).
        self.undone: dict[str, str] = {}
        self._captured: tuple[io.StringIO, io.StringIO] | None = None

    # ---- the host's page (the public table): what the tests and a solo game's page read ----------

    @property
    def view(self) -> View | None:
        page = self.pages.get("")
        return page.view if page is not None else None

    @property
    def html(self) -> str:
        page = self.pages.get("")
        return page.html if page is not None else ""

    @property
    def message(self) -> str:
        page = self.pages.get("")
        return page.message if page is not None else ""

    def page(self, door: Door) -> Page:
        """``door``'s page at the current version (made now when it is a seat that just joined)."""
        page = self.pages.get(door.slug)
        if page is None:
            self._build([door])
            page = self.pages[door.slug]
        return page

    # The shell's terminal is the page's: a command's output is kept, and no shell hints are added.
    def _in_shell(self) -> ExitStack:
        out, err = io.StringIO(), io.StringIO()
        self._captured = (out, err)
        stack = ExitStack()
        saved = (sys.stdout, sys.stderr)
        # A command run for the page never asks at a terminal (no stdin): it refuses with its line.
        saved_stdin = sys.stdin
        stack.callback(lambda: setattr(sys, "stdin", saved_stdin))
        stack.callback(lambda: (setattr(sys, "stdout", saved[0]), setattr(sys, "stderr", saved[1])))
        sys.stdout, sys.stderr, sys.stdin = out, err, io.StringIO()  # type: ignore[assignment]
        os.environ.pop("COMPANION_IN_SHELL", None)
        return stack

    def command(self, words: list[str], *, by: Door | None = None) -> Result:
        """Run ``companion WORDS`` on the held session, as typed (tapped at door ``by``); then every
        door's page is made again. An undo, a timeline's "back to here" and a redo leave a notice on
        every page: what they took back or brought back, in that page's own words, and where."""
        said = {slug: before(page.view, words) for slug, page in self.pages.items()}
        code = self.invoke(words)
        out, err = self._captured or (io.StringIO(), io.StringIO())
        self._captured = None
        self.undone = {}
        if code == 0 and words[:1] in (["undo"], ["redo"]):
            who = self.said_by(by)
            self.undone = {slug: notice(who, words, what) for slug, what in said.items()}
        self.refresh(moved=code == 0 and words[:1] != ["note"])
        return Result(code, out.getvalue(), err.getvalue())

    def said_by(self, door: Door | None) -> str:
        """Who a notice names: the seat's words, or the host's page."""
        if door is None or door.host:
            return _("the table") if self.doors is None or self.doors.solo else _("the host's page")
        return _(door.title)

    def refresh(self, moved: bool = True) -> None:
        """The shell's figures, then every door's page, once per change; pushed to every open page."""
        super().refresh()
        self.version += 1
        if moved:
            self.step_version = self.version
        if self.doors is None:
            self.doors = Doors(self.token, per_player=self.per_player)
        self.pages = {}
        self._build(self.doors.all())
        self.hub.publish({slug: (self.version, page.message) for slug, page in self.pages.items()})

    def _build(self, doors: list[Door]) -> None:
        from companion.serve.page import event_message, fragment

        for door, view in build(self, doors):
            html = view.shown(fragment(view, self.token))
            self.pages[door.slug] = Page(view, html, event_message(self.version, html))

    def control_words(self, key: str, way: str) -> tuple[str, ...] | None:
        """The command words of the +/- button ``key``'s ``way`` (``minus`` or ``plus``) on the table
        as the pages show it now, or None: no such button now (it went, or never was)."""
        for control in self.view.controls if self.view is not None else ():
            if control.key == key:
                words = control.minus if way == "minus" else control.plus if way == "plus" else ()
                return words or None
        return None

    def refusal(self, door: Door, answer: str) -> str:
        """Why ``door`` may not give ``answer`` to the pending step ("" when it may): the step (or the
        option) is another seat's."""
        if door.host:
            return ""
        if not door.answers(self.turn.actor):
            page = self.pages.get(door.slug)
            waiting = page.view.waiting if page is not None else ""
            return _("that step is not this seat's: {waiting}").format(waiting=waiting or _("another seat answers it"))
        pending = self.pending
        if pending is None or pending.kind != "choice" or not self.turn.options:
            return ""
        value = next((o.value for o in pending.options if answer in (str(o.number), o.value, f"={o.value}")), None)
        owner = dict(self.turn.options).get(value or "")
        if value is None:
            return _("that is not one of this page's answers: tap one of its buttons")
        if owner is not None and not door.answers(owner):
            return _("that option is not this seat's")
        return ""


def undid(who: str, what: str) -> str:
    """An undo's notice: "the heroes undid: note"."""
    return _("{who} undid: {what}").format(who=who, what=what) if what else _("{who} undid a step").format(who=who)


def before(view: View, words: list[str]) -> tuple[str, ...]:
    """What a door's page said a command would take back or bring back, in its words (through its own
    filter), before it runs: undo's button, the timeline's entries after ``undo --to N``, redo's button."""
    if words == ["undo"]:
        return (view.undo,)
    if words[:2] == ["undo", "--to"] and len(words) > 2 and words[2].isdigit():
        return tuple(s.words for s in view.timeline if s.n > int(words[2]))
    if words == ["redo"]:
        return (view.redo,)
    return ()


def notice(who: str, words: list[str], what: tuple[str, ...]) -> str:
    """The notice a change of the timeline leaves on every page: "the heroes undid: note", "the host's
    page went back to #4: 3 actions taken back (#5 ... #7)", "the dragon player redid: note"."""
    if words == ["redo"]:
        return (
            _("{who} redid: {what}").format(who=who, what=what[0])
            if what and what[0]
            else _("{who} redid a step").format(who=who)
        )
    if words[:2] == ["undo", "--to"] and len(what) > 1:
        return ngettext(
            "{who} went back to #{n}: {count} action taken back ({first} … {last})",
            "{who} went back to #{n}: {count} actions taken back ({first} … {last})",
            len(what),
        ).format(who=who, n=words[2], count=len(what), first=what[0], last=what[-1])
    return undid(who, what[0] if what else "")


def waiting_line(seat: Seat, pending: Pending | None) -> str:
    """What the other pages say while ``seat`` answers: "the dragon player is choosing"."""
    title = _(seat.title)
    rolling = pending is not None and pending.kind == "roll"
    if seat.plural:
        return (_("{who} are rolling") if rolling else _("{who} are choosing")).format(who=title)
    return (_("{who} is rolling") if rolling else _("{who} is choosing")).format(who=title)


def build(table: Table, doors: list[Door]) -> list[tuple[Door, View]]:
    """Each door's view of the held session (or of no session), made with the session opened once."""
    from companion.cli.kit import opened
    from companion.serve.view import Side, View, of_session

    if table.name is None:
        none = View(table.version, "", "", _("no session"), "en", error=_("no session is active"))
        return [(door, none) for door in doors]
    assert table.doors is not None
    with opened(table._env(table.name), wait=0) as session:
        spec = session.spec
        state = session.waiting().state
        joined = table.doors.update(spec.seats_of(state, table.per_player))
        request = table.pending.request if table.pending is not None else None
        actor = spec.actor(state, request)
        options: tuple[tuple[str, str], ...] = ()
        if table.pending is not None and table.pending.kind == "choice" and request is not None:
            options = tuple(
                (o.value, a) for o in table.pending.options if (a := spec.actor(state, request, o.value)) != actor
            )
        table.turn = Turn(actor, spec.seat_for(table.doors.seats, actor), options)
        owner = table.turn.seat
        actor_words = _(owner.title) if owner is not None and len(owner.figures) == 1 else ""
        made = []
        for door in doors + [d for d in joined if d not in doors]:
            answers = door.answers(actor)
            side = Side(
                viewer=door.viewer,
                title=_(door.title) if door.title else "",
                answers=answers,
                options=_options(door, table.pending, table.turn) if answers else None,
                waiting=waiting_line(table.turn.seat, table.pending) if not answers and table.turn.seat else "",
                undone=table.undone.get(door.slug, ""),
                actor=actor_words,
            )
            made.append((door, of_session(session, table.version, table.pending, table.board, side)))
    if joined and table.on_seats is not None:
        table.on_seats(joined)
    return made


def _options(door: Door, pending: Pending | None, turn: Turn) -> frozenset[str] | None:
    """The options of the pending menu ``door`` may take, where some are another seat's (None: all)."""
    if pending is None or not turn.options:
        return None
    owners = dict(turn.options)
    return frozenset(o.value for o in pending.options if door.answers(owners.get(o.value, turn.actor)))
