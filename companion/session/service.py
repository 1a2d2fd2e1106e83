"""A session: its files, its meta, its state, and the one way to record an action.

:meth:`Session.record` is the only writer: it folds the event into the state (so bad input fails
before anything is written), appends the event durably, snapshots the state, and rewrites the
markdown log. Undo and redo move the last event to and from a redo list, then rebuild the state
from the events. All of it happens while the session's lock is held.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion import __version__, i18n
from companion.dice.source import VirtualDice
from companion.errors import CompanionError, InputError, StoreError
from companion.games import canonical, load
from companion.games.base import GameSpec
from companion.i18n import _, quote
from companion.log.markdown import render
from companion.session import catalogue, codec
from companion.session.clock import now
from companion.session.fold import REBUILD_AFTER, Fold, amendments
from companion.session.state import Meta, State
from companion.store.atomic import INTACT, write_atomic
from companion.store.sessions import SessionFiles, Store

HEAD_VERSION = 1


def new_state(spec: GameSpec, meta: Meta) -> State:
    # The words a fold writes (the log) are in the session's language from the first event on.
    i18n.activate(meta.lang, meta.game)
    state = State(meta=meta, dice=meta.dice, hero=meta.hero, updated=meta.created)
    if spec.setup is not None:
        spec.setup(state)
    return state


class Session:
    def __init__(
        self, files: SessionFiles, spec: GameSpec, meta: Meta, fold: Fold, count: int, redo: list[dict[str, Any]]
    ) -> None:
        self.files = files
        self.spec = spec
        self.meta = meta
        self.fold = fold
        self.count = count
        self.redo_stack = redo

    @property
    def state(self) -> State:
        return self.fold.state

    @property
    def name(self) -> str:
        return self.meta.name

    # ---- making and opening ------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        store: Store,
        name: str,
        game: str,
        *,
        seed: int,
        physical: bool,
        variants: list[str],
        logs_dir: Path,
        hero: str | None = None,
        lang: str | None = None,
    ) -> Session:
        game = canonical(game)
        spec = load(game)
        unknown = [v for v in variants if v not in spec.variants]
        if unknown:
            from companion.i18n import did_you_mean

            known = ", ".join(spec.variants) or _("none")
            raise InputError(
                _("{game} has no variant {name}; its variants: {known}").format(
                    game=spec.title, name=quote(unknown[0]), known=known
                ),
                hint=did_you_mean(unknown[0], spec.variants),
            )
        files = store.create(name)
        meta = Meta(
            name=name,
            slug=files.slug,
            game=game,
            seed=seed,
            dice="physical" if physical else "virtual",
            variants=list(variants),
            created=now(),
            log_path=str((logs_dir / f"{files.slug}.md").resolve()),
            hero=hero,
            lang=lang,
        )
        with files.locked():
            session = cls(files, spec, meta, Fold(spec, new_state(spec, meta)), 0, [])
            files.write_meta(session._meta_doc())
            session.save()
            values = catalogue.load(store.data, game)
            if values:
                # The session keeps its own copy, so it replays the same if the catalogue changes.
                session.record({"t": "gamedata", "values": values, "source": "catalogue"})
        return session

    @classmethod
    def open(cls, files: SessionFiles, *, engine: bool = False) -> Session:
        """Load a session (the caller holds its lock). ``engine`` rebuilds the guided engine too."""
        meta = codec.load(Meta, files.read_meta()["meta"])
        head = files.read_head()
        spec = load(meta.game)
        count = files.count_events()
        redo = list(head.get("redo", [])) if head else []
        if not engine and head is not None and head.get("events") == count and head.get("version") == HEAD_VERSION:
            state = codec.load(State, head["state"])
            if spec.state_type is not None and state.game is not None:
                state.game = codec.load(spec.state_type, state.game)
            fold = Fold(spec, state, draws=head.get("draws", 0))
            i18n.for_state(state)
            return cls(files, spec, meta, fold, count, redo)
        session = cls(files, spec, meta, Fold(spec, new_state(spec, meta)), count, redo)
        session.rebuild()
        if head is None or head.get("events") != count:
            # A crash between writing an event and its snapshot: bring the snapshot and log up to date.
            session.save()
        return session

    # ---- folding -----------------------------------------------------------------------------
    def rebuild(self, events: list[dict[str, Any]] | None = None) -> None:
        """Fold every event from the start: the state, the engine, and the dice stream position."""
        if events is None:
            events = self.files.read_events()
        fold = Fold(self.spec, new_state(self.spec, self.meta), amended=amendments(events))
        for event in events:
            fold.apply(event)
        self.fold = fold
        self.count = len(events)
        i18n.for_state(fold.state)

    def dice(self) -> VirtualDice:
        """The session's virtual dice, resumed where the events left the seeded stream."""
        dice = VirtualDice(self.meta.seed)
        dice.skip(self.fold.draws)
        return dice

    # ---- recording ---------------------------------------------------------------------------
    def record(self, event: dict[str, Any]) -> int:
        """Fold, append and save one action; returns its event id. Bad input changes nothing."""
        event = dict(event)
        event.setdefault("at", now())
        event_id = self.count + 1
        event["id"] = event_id
        if event["t"] in REBUILD_AFTER:
            events = [*self.files.read_events(), event]
            self.rebuild(events)  # raises before anything is written if the event does not fit
        else:
            if event["t"] == "answer" and self.fold.engine is None and self.count:
                # Opened from its snapshot (without the engine, e.g. by redo): an answer goes to the
                # engine, so replay the game up to here first.
                self.rebuild()
            self.fold.apply(event)
        self.files.append(event, event_id)
        self.count = event_id
        self.redo_stack = []
        try:
            self.save()
        except StoreError as exc:
            # The event is durable; only the snapshot or the log lag behind, and the next open
            # folds the events again to repair them. Say so rather than claim the action failed.
            raise StoreError(
                _(
                    "{what}; the action itself is saved and the snapshot and log will be repaired on the next command"
                ).format(what=exc.message.split(_(INTACT))[0]),
                hint=exc.hint,
            ) from None
        if event["t"] == "answer" and str(event.get("key", "")).startswith(catalogue.DATA_PREFIX):
            catalogue.merge(self.data_dir, self.meta.game, self.state.data)
        return event_id

    @property
    def data_dir(self) -> Path:
        """The data folder the session's store lives in (sessions/<slug> below it)."""
        return self.files.dir.parent.parent

    def undo(self) -> dict[str, Any]:
        if self.count == 0:
            raise CompanionError(_("nothing to undo: the session has no actions yet"))
        events = self.files.read_events()
        last = events[-1]
        if last.get("t") == "gamedata" and last.get("source") == "catalogue":
            # The copy of the player's catalogue a new session starts with is part of the session,
            # not an action: undoing it would leave the game without the cards and numbers entered.
            raise CompanionError(_("nothing to undo: the session has no actions yet"))
        self.files.remove_last(last["id"])
        self.rebuild(events[:-1])
        self.redo_stack.append(last)
        self.save()
        return last

    def redo(self) -> dict[str, Any]:
        if not self.redo_stack:
            raise CompanionError(_("nothing to redo"))
        event = self.redo_stack.pop()
        stack = self.redo_stack
        event.pop("id", None)
        self.record(event)
        self.redo_stack = stack
        self.save()
        return event

    # ---- saving ------------------------------------------------------------------------------
    def _meta_doc(self) -> dict[str, Any]:
        return {"meta": codec.dump(self.meta), "companion": __version__}

    def _head_doc(self) -> dict[str, Any]:
        return {
            "version": HEAD_VERSION,
            "events": self.count,
            "draws": self.fold.draws,
            "redo": self.redo_stack,
            "state": codec.dump(self.state),
            "summary": self.summary(),
        }

    def summary(self) -> dict[str, Any]:
        return {
            "game": self.meta.game,
            "events": self.count,
            "updated": self.state.updated,
            "finished": self.state.finished,
            "dice": self.state.dice,
        }

    def save(self) -> None:
        """Rewrite the log, then the snapshot. The snapshot goes last: it marks both as up to date,
        so a crash or a full disk in between leaves a stale snapshot, which the next open repairs."""
        self.write_log()
        self.files.write_head(self._head_doc())

    def log_text(self) -> str:
        hero = self.spec.hero(self.state) if self.spec.hero else self.state.hero
        return render(self.state, self.spec.log_title or self.spec.title, hero)

    def write_log(self, path: Path | None = None) -> Path:
        target = Path(path) if path is not None else Path(self.meta.log_path)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CompanionError(
                _("cannot write the log to {path}: {why}").format(path=target.parent, why=exc.strerror or exc)
            ) from None
        write_atomic(target, self.log_text())
        return target
