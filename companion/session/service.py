"""A session: its files, its meta, its state, and the one way to record an action.

:meth:`Session.record` is the only writer of events. It folds the event into the state first (so bad
input fails before anything is written), then appends it to the journal with one fsync: from that
moment it is recorded. Then the derived things follow, each by what changed and none of them ever
failing the action: the markdown log (companion.session.logfile), every few events a checkpoint
(companion.session.snapshot), and every 256 events a sealed events file (companion.store.events).

Opening a session (:meth:`Session.open`) checks its files (companion.store.damage), folds the events
after its newest usable checkpoint onto it (or all of them, for a guided game's engine), and checks
that the log file shows the last event; if not (a crash between the event and its log), the log is
written again from the events.

Undo folds the state before the last event from a checkpoint, takes the log back by the edits that
event made, and then cuts the event off the journal; redo records it again. What the player is told
is true at every step where a disk can fail: before the journal changes, nothing was done; after it,
the action is done, and a derived file that could not follow is a warning (companion.session.errors).
All of it happens while the session's lock is held.
"""

from __future__ import annotations

import os
from contextlib import suppress
from pathlib import Path
from typing import Any

from companion import __version__, i18n
from companion.contract.game import REVISION, Game
from companion.contract.registry import canonical, load
from companion.dice.source import VirtualDice
from companion.errors import CompanionError, InputError, StoreError
from companion.i18n import _, quote
from companion.log.markdown import render
from companion.session import catalogue, codec, logfile, snapshot
from companion.session.clock import now
from companion.session.errors import not_done, unflushed
from companion.session.fold import REBUILD_AFTER, Fold
from companion.session.folded import Folded, title_hero
from companion.session.state import Meta, State, new_state
from companion.session.undo import undo, undo_to
from companion.store import acts
from companion.store.atomic import WriteError
from companion.store.journal import Unflushed, fingerprint
from companion.store.sessions import SessionFiles, Store

#: A checkpoint is written at least every this many events (and after a guided game's every answer).
CHECKPOINT_EVERY = 32


class Session(Folded):
    def __init__(
        self, files: SessionFiles, spec: Game, meta: Meta, fold: Fold, count: int, redo: list[dict[str, Any]]
    ) -> None:
        super().__init__(files, spec, meta, fold, count, redo)
        self._before: tuple[Any, ...] = ()
        #: An amendment folded from a checkpoint, until its log is written (companion.session.amending).
        self._amended: Any = None
        #: A look at what a game not yet begun would ask (see :meth:`waiting`), with the event it follows.
        self._look: tuple[tuple[int, str], Fold] | None = None

    @property
    def redo_stack(self) -> list[dict[str, Any]]:
        """The undone events, the next one to redo last."""
        return [entry["event"] for entry in self.redo_entries]

    def stamp(self) -> tuple[int, ...]:
        """The state of the session's files, to tell whether anything changed them since."""
        try:
            j = os.stat(self.files.events.journal_path)
            m = os.stat(self.files.session_file)
        except OSError:
            return ()
        return (j.st_ino, j.st_size, j.st_mtime_ns, m.st_ino, m.st_mtime_ns)

    def reusable(self, engine: bool, stamp: tuple[int, ...] | None) -> bool:
        """Whether this session, kept in memory, is what opening it again would give (and has the engine
        when ``engine`` asks for it): no write failed half-way, no file changed since ``stamp``, and no
        command started the game's engine before the events did (a fold from the events would not have
        it, and it would change how later events fold)."""
        if self.broken or (stamp is not None and stamp != self.stamp()):
            return False
        if self.fold.engine is not None and not self.started:
            return False
        # A game whose engine has not begun starts it from the state as it is (as a fold of the events
        # would, at the first answer); one that had begun needs the game replayed.
        return not (engine and self.started and self.fold.engine is None and not self.fold.done)

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
        sealed: bool = False,
    ) -> Session:
        """A new session. ``sealed`` draws the seed (``seed`` is not used) and keeps it hidden behind
        its commitment until it is revealed (companion.dice.seal)."""
        game = canonical(game)
        spec = load(game)
        unknown = [v for v in variants if v not in spec.variants]
        if unknown:
            from companion.i18n import did_you_mean

            known = ", ".join(spec.variants) or _("none")
            raise InputError(
                _("{game} has no variant {name}; its variants: {known}").format(
                    game=i18n.translator(lang or i18n.language(), game).gettext(spec.title),  # Тёмная Башня
                    name=quote(unknown[0]),
                    known=known,
                ),
                hint=did_you_mean(unknown[0], spec.variants),
            )
        slug = store.files(name).slug
        commit = salt = None
        if sealed:
            from companion.dice import seal

            seed, salt = seal.draw()
            commit = seal.commitment(seed, salt)
        meta = Meta(
            name=name,
            slug=slug,
            game=game,
            seed=seed,
            dice="physical" if physical else "virtual",
            variants=list(variants),
            created=now(),
            log_path=str((logs_dir / f"{slug}.md").resolve()),
            hero=hero,
            lang=lang,
            revision=REVISION,
            sealed=commit,
            salt=salt,
        )
        first: list[dict[str, Any]] = []
        values = catalogue.load(store.data, game)
        if values:
            # The session keeps its own copy, so it replays the same if the catalogue changes.
            first.append({"id": 1, "t": "gamedata", "values": values, "source": "catalogue", "at": meta.created})
        trial = Fold(spec, new_state(spec, meta))
        for event in first:
            trial.apply(event)  # refused before anything is made
        files = store.create(name, {"meta": codec.dump(meta), "companion": __version__}, first)
        try:
            with files.locked():
                return cls.open(files)
        except StoreError as exc:  # made all the same: said so, never "nothing was done"
            raise StoreError(
                _("session {name} is made, but could not be opened now ({why})").format(
                    name=quote(files.slug), why=exc.message
                ),
                hint=_("continue it with: companion use {name}").format(name=files.slug),
            ) from None

    @classmethod
    def open(cls, files: SessionFiles, *, engine: bool = False) -> Session:
        """Load a session (the caller holds its lock). ``engine`` rebuilds the guided engine too."""
        from companion.store.renaming import finish_rename

        doc, version = files.read_meta_file()
        if version == 1:
            from companion.store.migrate import migrate

            files._require_lock()
            migrate(files, {**doc, "companion": __version__})
        if files.is_locked:
            finish_rename(files)
            doc = files.read_meta()
        found = files.load(repair=True)
        meta = codec.load(Meta, doc["meta"])
        spec = load(meta.game)
        count = found.count
        last_fp = fingerprint(files.events.event(count)) if count else ""
        redo = _valid_redo(files.read_redo(), count, last_fp)
        session = cls._from_checkpoint(files, spec, meta, count, engine)
        if session is None:
            session = cls(files, spec, meta, Fold(spec, new_state(spec, meta)), count, redo)
            session.rebuild()
        session.redo_entries, session.last_fp = redo, last_fp
        session.shown = logfile.shows(session)
        if files.is_locked and not session.shown:
            try:
                logfile.catch_up(session) or logfile.write_whole(session)
            except OSError as exc:
                session.layout = None
                session.warn(logfile.not_written(logfile.path(session), exc))
        if files.is_locked and session.count - session.checkpoint >= CHECKPOINT_EVERY:
            session.write_checkpoint()  # folded a long way: the next open need not
        return session

    @classmethod
    def _from_checkpoint(
        cls, files: SessionFiles, spec: Game, meta: Meta, count: int, engine: bool = False
    ) -> Session | None:
        """The session folded from its newest usable checkpoint, or None (fold it all). With ``engine``,
        only a checkpoint from before the game's engine began serves (it starts from the state then)."""
        for at in reversed(files.checkpoints.counts()[-2:]):  # the newest, or the one before if it is damaged
            session = cls._at(files, spec, meta, at, count, engine)
            if session is not None:
                return session
        return None

    # ---- folding -----------------------------------------------------------------------------
    def waiting(self) -> Fold:
        """The fold whose ``pending`` (and ``done``) says what the game waits for now.

        While the engine runs, the session's own. A game whose engine has not begun is looked at on a copy
        of the state (kept until the next event): starting the session's own engine just to look would
        make it differ from a fold of its events, which starts the engine at the first answer. A session
        opened from a checkpoint after its engine began has the game replayed once (the shell keeps it)."""
        fold = self.fold
        if fold.engine is not None or fold.done or not self.spec.guided:
            return fold
        if self.started:
            layout = self.layout
            self.rebuild()
            self.layout = layout  # the same log: only the engine is new
            self.fold.start()
            return self.fold
        key = (self.count, self.last_fp)
        if self._look is not None and self._look[0] == key:
            return self._look[1]
        import copy

        look = Fold(self.spec, copy.deepcopy(self.state), draws=fold.draws)
        look.start()
        self._look = (key, look)
        return look

    def full(self) -> State:
        """The state with its whole log (folding every event when it came from a checkpoint)."""
        if self.state.log.partial:
            layout = self.layout
            self.rebuild()
            self.layout = layout  # the same log, only complete now
        return self.state

    def dice(self) -> VirtualDice:
        """The session's virtual dice, resumed where the events left the seeded stream: from the stream's
        state kept at an earlier point (the last call, or the checkpoint), so it costs the same at any
        length, not one draw per die ever rolled."""
        dice = VirtualDice(self.meta.seed)
        kept = self._stream
        if kept is not None and kept[1] <= self.fold.draws:
            dice.setstate(kept[0], kept[1])
        dice.skip(self.fold.draws - dice.draws)
        self._stream = (dice.getstate(), dice.draws)
        return dice

    # ---- recording ---------------------------------------------------------------------------
    def record(self, event: dict[str, Any]) -> int:
        """Fold, append and save one action; returns its event id. Bad input changes nothing."""
        event = dict(event)
        event.setdefault("at", now())
        event["id"] = self.count + 1
        if self.redo_entries and "tried" not in event:  # what undo took back is left for good now
            from companion.session.sections import tried

            left = tried(self.state.trackers.sections.trail, list(reversed(self.redo_stack)))
            if left:
                event["tried"] = left
        acts.begin(str(event.get("t", "")))
        try:
            self._apply_new(event)
            self._commit(event, [])
        except Exception:
            acts.end()  # refused or not written: said by its own line (a signal now ends no action)
            raise
        if event["t"] == "answer" and str(event.get("key", "")).startswith(catalogue.DATA_PREFIX):
            try:
                catalogue.merge(self.data_dir, self.meta.game, self.state.data)
            except CompanionError as exc:  # recorded all the same: the session keeps its own copy
                self.warn(_("warning: {why}; the answer is recorded in the session").format(why=exc.message))
        acts.end()
        self._reveal_at_the_end()
        return event["id"]

    # ---- sealed dice -------------------------------------------------------------------------
    def secret_kept(self) -> bool:
        """Whether the game keeps a secret from the table now (a sealed seed would give it away)."""
        return self.spec.view(self.state).hides

    def reveal(self, how: str = "asked") -> int:
        """Record the sealed seed's reveal (with its salt, and where the dice stream stands); its id."""
        if not self.meta.sealed:
            raise InputError(_("this session's dice are not sealed: its seed is shown already (companion status)"))
        if self.state.revealed is not None:
            raise InputError(_("the seed is revealed already (#{n})").format(n=self.state.revealed))
        if self.secret_kept():
            raise InputError(
                _("the game still keeps a secret its dice would give away: the seed is revealed at the game's end")
            )
        event = {"t": "reveal", "seed": self.meta.seed, "salt": self.meta.salt, "draws": self.fold.draws, "how": how}
        return self.record(event)

    def _reveal_at_the_end(self) -> None:
        """A sealed game that ends reveals its seed (once nothing waits on redo)."""
        waiting = self.meta.sealed and self.state.revealed is None and not self.redo_entries
        if waiting and self.state.finished and not self.secret_kept():
            self.reveal("end")

    def _apply_new(self, event: dict[str, Any]) -> None:
        self._before = (self.state.finished, self.state.dice, self.language())
        if self.broken:
            raise CompanionError(_("the session must be opened again after a failed save; run the command again"))
        if self.layout is None and self.shown and not self.state.log.partial:
            from companion.log import writer

            self.layout = writer.full(self.state, *title_hero(self))[1]  # the file is this state's
        if event["t"] in REBUILD_AFTER:
            from companion.session import amending

            found = amending.trial(self, {k: v for k, v in event.items() if k not in ("id", "at")})
            if found is not None:  # folded from the checkpoint before the roll it corrects
                self.fold, self._amended = found.after.fold, found
                self.fold.state.updated = event["at"]
                return
            self.rebuild([*self.files.read_events(), event])  # raises before anything is written if it does not fit
            self.count -= 1
            return
        if snapshot.needs_engine(event, self.spec, self.started, self.meta) and self.fold.engine is None and self.count:
            # Opened from a checkpoint (without the engine): replay the game up to here first.
            layout = self.layout
            self.rebuild()
            self.layout = layout
        self._apply(event, live=True)

    def _commit(self, event: dict[str, Any], redo: list[dict[str, Any]]) -> None:
        """Append the folded ``event``: the moment it is recorded. Then the derived files follow."""
        try:
            self.files.events.append(event)
        except Unflushed as exc:
            self.warn(unflushed(exc, _("#{n} is recorded").format(n=event["id"])))
        except WriteError as exc:
            self.broken = True
            raise not_done(exc, "record", event) from None
        self.count = event["id"]
        self.last_fp = fingerprint(event)
        had_redo = bool(self.redo_entries)
        self.redo_entries = redo
        if had_redo or redo:
            self._save_redo()
        # the listing, and every command's first line (its language), read the checkpoint's summary
        changed = self._before != (self.state.finished, self.state.dice, self.language())
        self._derived(force=changed or event["t"] in REBUILD_AFTER or event["t"] == "answer")

    def _save_redo(self) -> None:
        with suppress(WriteError):  # a stale redo list is recognised when the session opens (_valid_redo)
            self.files.write_redo(self.redo_entries)

    def _derived(self, force: bool = False) -> None:
        """The log, a checkpoint when due, sealing when due: none of them can fail the action."""
        amended, self._amended, self._trial = self._amended, None, None
        if amended is not None:
            logfile.amended(self, amended)
        else:
            logfile.update(self)
        if force or self.count - self.checkpoint >= CHECKPOINT_EVERY:
            self.write_checkpoint()
        if self.files.events.seal_due():
            with suppress(WriteError, OSError):  # sealed by a later command; the journal holds every event meanwhile
                self.files.events.seal()

    def write_checkpoint(self) -> None:
        from companion.store.events import SEGMENT

        layout = self.layout
        if layout is None:
            if self.state.log.partial:
                return  # nothing to gain: the next open folds from the last one
            from companion.log import writer

            layout = writer.full(self.state, *title_hero(self))[1]  # the file's, once it is up to date
        doc = snapshot.encode(
            self.state,
            events=self.count,
            fp=self.last_fp,
            draws=self.fold.draws,
            stream=self.dice().getstate(),
            started=self.started,
            layout=layout.dump(),
            summary=self.summary(),
        )
        try:
            self.files.checkpoints.write(self.count, doc)
            self.files.checkpoints.prune(SEGMENT)
        except (WriteError, OSError):
            return
        self.checkpoint = self.count

    @property
    def data_dir(self) -> Path:
        """The data folder the session's store lives in (sessions/<slug> below it)."""
        return self.files.dir.parent.parent

    def undo(self) -> dict[str, Any]:
        acts.begin("undo")
        last = undo(self)
        acts.end()
        self._follow_catalogue(last, back=True)
        return last

    def undo_to(self, target: int) -> list[dict[str, Any]]:
        """Take back every action after event ``target`` in one step (companion.session.undo)."""
        acts.begin("undo")
        taken = undo_to(self, target)
        acts.end()
        for event in reversed(taken):  # newest first, as one undo after another would
            self._follow_catalogue(event, back=True)
        return taken

    def redo(self) -> dict[str, Any]:
        if not self.redo_entries:
            raise CompanionError(_("nothing to redo"))
        acts.begin("redo")
        entries = list(self.redo_entries)
        event = dict(entries.pop()["event"])
        event["id"] = self.count + 1
        data = dict(self.state.data)
        self._apply_new(event)
        self._commit(event, entries)
        added = {k: v for k, v in self.state.data.items() if data.get(k) != v}
        if added and event.get("t") != "gamedata":  # a card redone is kept in the catalogue again
            with suppress(OSError, CompanionError):
                catalogue.merge(self.data_dir, self.meta.game, added)
        acts.end()
        self._follow_catalogue(event, back=False)
        self._reveal_at_the_end()
        return event

    def _follow_catalogue(self, event: dict[str, Any], *, back: bool) -> None:
        """An action undone or redone takes what it put in the player's catalogue with it (a card
        mistyped and undone is not offered in the next game)."""
        try:
            catalogue.follow(self.data_dir, self.meta.game, event, back=back)
        except (OSError, CompanionError) as exc:
            self.warn(_("the catalogue was not changed back ({why})").format(why=exc))

    # ---- saving ------------------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        return {
            "game": self.meta.game,
            "events": self.count,
            "updated": self.state.updated,
            "finished": self.state.finished,
            "dice": self.state.dice,
            "lang": self.language(),
        }

    def language(self) -> str | None:
        """The language the session speaks now: its game's own choice (the setup question, ``dark lang``),
        else the one it was started in (``--lang``, ``COMPANION_LANG``, the locale); None for none."""
        return getattr(self.state.game, "lang", None) or self.meta.lang

    def save(self) -> None:
        """Write the log whole and a checkpoint (after events were written some other way)."""
        logfile.write_whole(self)
        self.write_checkpoint()

    def log_text(self) -> str:
        state = self.full()
        # The log names no kept secret (a game logs only what it may reveal); the one filter makes sure.
        return self.spec.view(state).text(render(state, self.spec.log_title, self.spec.hero_line(state)))

    def write_log(self, path: Path | None = None, *, force: bool = False, ask: Any = None) -> Path:
        """Write the log regenerated from the events to ``path`` (default: the session's own log; another
        path as companion.store.exports writes an export: ``force``, ``ask``)."""
        target = Path(path) if path is not None else Path(self.meta.log_path)
        if os.path.abspath(target) == os.path.abspath(self.meta.log_path):
            try:
                logfile.write_whole(self)
            except OSError as exc:
                raise CompanionError(
                    _("cannot write the log to {path}: {why}").format(path=target, why=exc.strerror or exc)
                ) from None
            return target
        from companion.store.exports import write_export

        write_export(target, self.log_text(), self.data_dir, force=force, ask=ask)
        return target


def _valid_redo(stack: list[dict[str, Any]], count: int, last_fp: str) -> list[dict[str, Any]]:
    """The redo list as it stands after the events. Entries whose events are in the journal already (an
    undo cut short before the journal changed, or part way through an ``undo --to`` that reached into a
    sealed file, a redo whose list was not saved) are dropped; a list that does not go on from the last
    event (a new action came after the undo) is empty."""
    stack = list(stack)
    while stack and isinstance(stack[-1]["event"].get("id"), int) and stack[-1]["event"]["id"] <= count:
        stack.pop()
    if stack and (stack[-1]["event"].get("id") != count + 1 or stack[-1].get("after") != last_fp):
        return []
    return stack
