"""A session as it is held in memory: its files, its meta, its fold (the state and the game's engine),
where its log file and its checkpoints stand, and the ways to fold it (from the first event, or from a
checkpoint) without writing anything.

:class:`companion.session.service.Session` is this and the ways to open, record, undo and save; the
parts of those that live in modules of their own (the log file: companion.session.logfile, undo:
companion.session.undo, amendments: companion.session.amending) take and make a :class:`Folded`, so
they need nothing of the session module above them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

from companion import i18n
from companion.log.writer import Layout
from companion.session import snapshot
from companion.session.fold import Fold, amendments
from companion.session.state import Meta, State, new_state
from companion.store.journal import fingerprint

if TYPE_CHECKING:
    from companion.contract.game import Game
    from companion.store.sessions import SessionFiles


def title_hero(session: Folded) -> tuple[str, str | None]:
    state = session.state
    return session.spec.log_title, session.spec.hero_line(state)


class Folded:
    """A session folded in memory up to its event ``count``; nothing here writes a file."""

    def __init__(
        self, files: SessionFiles, spec: Game, meta: Meta, fold: Fold, count: int, redo: list[dict[str, Any]]
    ) -> None:
        self.files = files
        self.spec = spec
        self.meta = meta
        self.fold = fold
        self.count = count
        #: The events undo took back, the next to redo last (each ``{"event", "after"}``, see :meth:`redo`).
        self.redo_entries = redo
        #: The fingerprint of the last event ("" before the first).
        self.last_fp = ""
        #: Whether the game's engine had started by the last event (so later events may need it).
        self.started = fold.engine is not None
        #: The log file's layout when it is known; None: written whole next time (unless ``shown``).
        self.layout: Layout | None = None
        #: Whether the log file is known to show the state (the layout can then be worked out from it).
        self.shown = False
        #: The newest checkpoint written (its event number).
        self.checkpoint = 0
        #: Lines to tell the player after the command (a derived file that could not follow).
        self.warnings: list[str] = []
        #: Set when a write failed half-way: memory and disk may differ, so the session is opened again.
        self.broken = False
        #: An amendment tried from a checkpoint, kept for the command that records it (companion.session.amending).
        self._trial: Any = None
        #: The seeded stream's state after some number of draws (see ``Session.dice``).
        self._stream: tuple[Any, int] | None = None
        #: Each event folded in words (companion.session.labels), by id, when a front end that stays
        #: open keeps them (the shell, the page): ``{id: (fingerprint, language, Label)}``; None: not kept.
        self.said: dict[int, tuple[str, str, Any]] | None = None

    @property
    def state(self) -> State:
        return self.fold.state

    @property
    def name(self) -> str:
        return self.meta.name

    def warn(self, line: str) -> None:
        self.warnings.append(line)

    # ---- folding -----------------------------------------------------------------------------
    @classmethod
    def _at(cls, files: SessionFiles, spec: Game, meta: Meta, at: int, upto: int, engine: bool = False) -> Self | None:
        """The state after event ``upto``, from the checkpoint after event ``at``; None if it cannot be
        (``engine``: if the game's engine had begun by then, which a checkpoint cannot hold)."""
        doc = files.checkpoints.read(at)
        if doc is None or doc.get("version") != snapshot.VERSION or at > upto or at == 0:
            return None
        if doc.get("fp") != fingerprint(files.events.event(at)):
            return None
        started = bool(doc.get("engine"))
        if engine and started and spec.guided:
            return None
        events = files.events.read(at)[: upto - at]
        if any(snapshot.needs_engine(e, spec, started, meta) for e in events):
            return None
        try:
            state = snapshot.decode(doc, spec)
        except (KeyError, TypeError, ValueError):
            return None  # a checkpoint is a cache: fold from an earlier one
        state.meta = meta  # the session's own (a rename since changed its name)
        i18n.for_state(state)
        fold = Fold(spec, state, draws=int(doc.get("draws", 0)))
        fold.resumed = started
        session = cls(files, spec, meta, fold, at, [])
        session.started, session.checkpoint = started, at
        session._stream = snapshot.stream(doc)
        session.layout = Layout.load(doc["layout"]) if doc.get("layout") else None
        for event in events:
            session._fold(event)
        session.count = upto
        session.last_fp = fingerprint(events[-1]) if events else doc["fp"]
        return session

    def _apply(self, event: dict[str, Any], live: bool = False) -> None:
        self.fold.said = self.said
        self.fold.live = live
        try:
            self.fold.apply(event)
        finally:
            self.fold.live = False
        if event.get("t") == "answer":
            self.started = True

    def _fold(self, event: dict[str, Any]) -> None:
        """Fold one event onto a checkpoint, keeping the log's layout in step (nothing is written)."""
        from companion.log import writer

        self._apply(event)
        if self.layout is not None:
            try:
                self.layout = writer.plan(self.layout, self.state, *title_hero(self)).layout
            except writer.OutOfStep:
                self.layout = None

    def rebuild(self, events: list[dict[str, Any]] | None = None) -> None:
        """Fold every event from the start: the state, the engine, and the dice stream position."""
        if events is None:
            events = self.files.read_events()
        fold = Fold(self.spec, new_state(self.spec, self.meta), amended=amendments(events))
        fold.said = self.said
        for event in events:
            fold.apply(event)
        self.fold = fold
        self.count = len(events)
        self.started = fold.engine is not None or any(e.get("t") == "answer" for e in events)
        self.layout = None  # known again when the log is next written (whole)
        i18n.for_state(fold.state)
