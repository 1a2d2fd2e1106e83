"""The session store: one folder per session, so an action costs the same however many exist.

A session folder holds (format 2; docs/sessions.md draws it):

- ``session.json``: a TinyDB file with the ``meta`` table: how the session was made (written once);
- ``events/``: the events, the only record of play (companion.store.events): sealed TinyDB files of
  256 events and ``journal.jsonl``, the newest, appended one line (and one fsync) per action;
- ``checkpoints/``: the state after an event every few events, so an open folds only the events after
  the newest (companion.store.checkpoints; a cache);
- ``redo.json``: the events undo took back, until a new action is recorded;
- ``undone.jsonl``: every action undo ever took back, kept for the record (companion.store.undone);
- ``log.json``: where the markdown log file stands (the event it shows, its size and time; a cache);
- ``.lock``: a :class:`filelock.FileLock`; every read-modify-write happens while holding it.

Every write is atomic (companion.store.atomic) or an append that a reader can tell was cut short.
Nothing derived is written before the events it comes from: a checkpoint or the log can be behind the
events after a crash (the next command brings them up to date), never ahead of them. So an events
file that lost events the checkpoints or the log were written after is damage, and is refused
(companion.store.damage).

The store itself has a lock too (``sessions/.lock``), held while a session is made, renamed or
restored: two of those at once cannot both take one name. A new session is written in a folder of
its own under a temporary name and renamed into place whole, so a kill leaves no half-made session.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from companion.errors import NotFoundError, StoreError
from companion.i18n import _, quote
from companion.store import acts, journal
from companion.store.atomic import (
    AtomicJSONStorage,
    CorruptFileError,
    WriteError,
    format_table,
    fsync_dir,
    read_bytes,
    read_json,
    version_of,
    write_atomic,
    write_in_place,
)
from companion.store.checkpoints import Checkpoints
from companion.store.damage import Damaged
from companion.store.events import SEGMENT, Events
from companion.store.locks import LOCK_WAIT, LockError, acquire, lock_wait, owner, write_owner
from companion.store.paths import read_small, safe_name, session_folder, sessions_dir
from companion.store.undone import Undone

SESSION_FILE = "session.json"
HEAD_FILE = "head.json"  # format 1's snapshot (companion.store.migrate)
REDO_FILE = "redo.json"
LOG_STATE_FILE = "log.json"
RENAME_FILE = "renaming.json"
OWNER_FILE = ".owner"


class SessionFiles:
    """The files of one session, and the lock that guards them."""

    def __init__(self, folder: Path) -> None:
        self.dir = folder
        self.slug = folder.name
        self.session_file = folder / SESSION_FILE
        self.head_file = folder / HEAD_FILE
        self.redo_file = folder / REDO_FILE
        self.log_state_file = folder / LOG_STATE_FILE
        self.owner_file = folder / OWNER_FILE
        self.events = Events(folder, self.slug)
        self.events.counter = self.intact
        self.checkpoints = Checkpoints(folder)
        #: Every action undo took back, kept for the record (companion.store.undone).
        self.undone = Undone(folder)
        self._locked = 0

    def is_session(self) -> bool:
        """A session's folder: its ``session.json``, or (when that is lost) its journal, whose header keeps
        a copy of it (``companion sessions repair`` writes it again)."""
        return os.path.lexists(self.session_file) or os.path.lexists(self.events.journal_path)

    @property
    def events_dir(self) -> Path:
        return self.events.dir

    # ---- the lock -------------------------------------------------------------------------
    @contextmanager
    def locked(self, timeout: float | None = None, *, explain: bool = True) -> Iterator[None]:
        """Hold the session's lock (waiting :func:`lock_wait` seconds unless ``timeout`` says); a second
        process gets one clear line, never a torn save. A lock that cannot be made or opened is one line
        saying nothing was done (``explain``; else the :class:`LockError` for the caller to say)."""
        if self._locked:
            self._locked += 1
            try:
                yield
            finally:
                self._locked -= 1
            return
        try:
            lock = acquire(
                self.dir / ".lock",
                lock_wait() if timeout is None else timeout,
                _("session {name} is in use by another companion process").format(name=quote(self.slug))
                + owner(self.owner_file),
                _("finish or quit it there (or wait a moment) and try again"),
            )
        except LockError as exc:
            if not explain:
                raise
            raise StoreError(
                _("{why}: nothing was done (could not open the session's lock {path})").format(
                    why=exc.reason, path=exc.path
                ),
                hint=_again(exc),
            ) from None
        self._locked = 1
        try:
            write_owner(self.owner_file, " ".join(sys.argv[1:3]))
            yield
        finally:
            self._locked = 0
            lock.release()

    @property
    def is_locked(self) -> bool:
        return bool(self._locked)

    def _require_lock(self) -> None:
        if not self._locked:
            raise RuntimeError("session files used without holding the lock")

    # ---- meta -----------------------------------------------------------------------------
    def read_meta_file(self) -> tuple[dict[str, Any], int]:
        """The meta document and the file's format version."""
        try:
            data = read_json(self.session_file)
        except CorruptFileError as exc:
            raise CorruptFileError(
                exc.path,
                exc.why,
                hint=_("put it back from a backup; or write it again from the events with: {command}").format(
                    command=f"companion sessions repair {self.slug}"
                ),
            ) from None
        if data is None:
            if os.path.lexists(self.events.journal_path):
                raise StoreError(
                    _("session {name} has lost its {file} ({path}); its journal keeps a copy").format(
                        name=quote(self.slug), file=SESSION_FILE, path=self.session_file
                    ),
                    hint=_("write it again from the journal with: {command}").format(
                        command=f"companion sessions repair {self.slug}"
                    ),
                )
            raise NotFoundError(
                _("session {name} has no {file} (it is not a session folder)").format(
                    name=quote(self.slug), file=SESSION_FILE
                )
            )
        meta = data.get("meta", {}).get("1") if isinstance(data.get("meta"), dict) else None
        if not isinstance(meta, dict) or not isinstance(meta.get("meta"), dict):
            raise CorruptFileError(
                self.session_file,
                _("missing its meta table"),
                hint=_("put it back from a backup, or see: {command}").format(
                    command="companion sessions repair --help"
                ),
            )
        return meta, version_of(data)

    def read_meta(self) -> dict[str, Any]:
        """The meta document: how the session was made (small, written once)."""
        return self.read_meta_file()[0]

    def write_meta(self, meta: dict[str, Any]) -> None:
        self._require_lock()
        AtomicJSONStorage(self.session_file).write({"meta": {"1": meta}})

    # ---- events ---------------------------------------------------------------------------
    def load(self, *, repair: bool = True) -> journal.Journal:
        """Check the events (and that nothing derived was written after events now missing); with
        ``repair`` (under the lock) tidy what a crash left. Raises Damaged for damage, its hint's count
        the one ``companion sessions repair`` keeps (:meth:`intact`)."""
        try:
            found = self.events.load(repair=repair and self.is_locked, known=self.known_events)
        except Damaged as exc:
            raise self._witnessed(exc).counted(self.intact) from None
        count = found.count
        newest = self._newest_checkpoint(count)
        if newest > count:
            raise Damaged.missing(
                self.slug, count, newest, _("its snapshot {path}").format(path=self.checkpoints.path(newest))
            ).counted(self.intact)
        state = self.read_log_state()
        shown = state.get("events", 0) if state else 0
        if isinstance(shown, int) and shown > count:
            log = state.get("path")
            who = _("its log ({path})").format(path=log) if log else _("its log")
            raise Damaged.missing(self.slug, count, shown, who).counted(self.intact)
        return found

    def _newest_checkpoint(self, count: int) -> int:
        """The newest checkpoint's event; one past ``count`` counts only if it reads as a checkpoint of it
        (a damaged one is a cache, no witness: removed under the lock)."""
        counts = self.checkpoints.counts()
        while counts and counts[-1] > count:
            if self.checkpoints.read(counts[-1]) is not None:
                return counts[-1]
            if self.is_locked:
                with suppress(OSError):
                    self.checkpoints.remove(counts[-1])
            counts.pop()
        return counts[-1] if counts else 0

    def known_events(self) -> int:
        """The most events the log's record or a checkpoint was written after (0 when neither says)."""
        known = self._newest_checkpoint(0) if self.checkpoints.counts() else 0
        state = self.read_log_state()
        if state and isinstance(state.get("events"), int) and not isinstance(state.get("events"), bool):
            known = max(known, state["events"])
        return known

    def intact(self) -> int:
        """How many events a survey of the whole session finds intact: what repairing it keeps."""
        from companion.store.repair import survey

        return survey(self).intact

    def _witnessed(self, exc: Damaged) -> Damaged:
        """``exc`` with what the log and the snapshots know of how many events there were."""
        known = self.known_events()
        if known <= (exc.intact or 0):
            return exc
        return Damaged.witnessed(exc, known)

    def count_events(self) -> int:
        if self.events.journal is None:
            self.load(repair=False)
        return self.events.count

    def read_events(self, start: int = 0) -> list[dict[str, Any]]:
        """Events with id > ``start`` (ids count from 1), in order, each with its ``id``."""
        if self.events.journal is None:
            self.load(repair=False)
        return self.events.read(start)

    def summary(self) -> dict[str, Any]:
        """How far the session is (events, last update, finished, dice, the language it speaks), read
        without the lock and without folding: the journal's last line and the newest checkpoint's summary
        (one is written whenever the game ends, the dice change or the language changes)."""
        meta, version = self.read_meta_file()
        if version == 1:
            try:
                head = (read_json(self.head_file) or {}).get("head", {}).get("1") or {}
            except StoreError:
                head = {}
            return dict(head.get("summary", {})) if isinstance(head, dict) else {}
        found = journal.read(self.events.journal_path)
        if found is None:
            raise Damaged.journal(self.events)
        out: dict[str, Any] = {"events": found.count, "updated": meta["meta"].get("created")}
        for count in reversed(self.checkpoints.counts()):
            doc = self.checkpoints.read(count)
            if doc is not None and count <= found.count:
                out.update(
                    {k: v for k, v in doc.get("summary", {}).items() if k in ("finished", "dice", "updated", "lang")}
                )
                break
        if found.lines:
            with suppress(StoreError):
                out["updated"] = found.event(found.count).get("at")
        return out

    # ---- redo and the log's state -----------------------------------------------------------
    def read_redo(self) -> list[dict[str, Any]]:
        try:
            data = read_json(self.redo_file)
        except CorruptFileError:
            return []  # the only thing lost is what redo could bring back; the events are intact
        stack = (data or {}).get("redo", {}).get("1", {}).get("stack", [])
        return [e for e in stack if isinstance(e, dict) and isinstance(e.get("event"), dict)]

    def write_redo(self, stack: list[dict[str, Any]]) -> None:
        self._require_lock()
        AtomicJSONStorage(self.redo_file).write({"redo": {"1": {"stack": stack}}})

    def read_log_state(self) -> dict[str, Any] | None:
        try:
            data = read_json(self.log_state_file)
        except StoreError:
            return None  # a cache: made again (a link or a FIFO there is replaced when it is written)
        state = (data or {}).get("log", {}).get("1")
        return state if isinstance(state, dict) else None

    def write_log_state(self, state: dict[str, Any]) -> None:
        """Where the log stands: written after every action, in place (a few hundred bytes)."""
        import json

        data = {"log": {"1": state}, "_format": format_table()}
        write_in_place(self.log_state_file, json.dumps(data, ensure_ascii=False).encode())

    def forget_log_state(self) -> None:
        self.log_state_file.unlink(missing_ok=True)


class Store:
    """All sessions under one data folder, and which one is current."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.root = sessions_dir(data)

    @contextmanager
    def locked(self) -> Iterator[None]:
        """The store's own lock: held while a session is made, renamed or restored."""
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise WriteError(self.root, exc) from None
        lock = acquire(
            self.root / ".lock",
            max(lock_wait(), 10.0),
            _("another companion is making or renaming a session here"),
            _("wait a moment and try again"),
        )
        try:
            yield
        finally:
            lock.release()

    def files(self, name: str) -> SessionFiles:
        return SessionFiles(session_folder(self.root, name, SESSION_FILE))

    def exists(self, name: str) -> bool:
        return self.files(name).is_session()

    def open(self, name: str) -> SessionFiles:
        files = self.files(name)
        if not files.is_session():
            from companion.i18n import did_you_mean

            slugs = self.slugs()
            known = ", ".join(slugs) or _("none yet")
            raise NotFoundError(
                _("no session named {name}; sessions: {known}").format(name=quote(name), known=known),
                hint=did_you_mean(files.slug, slugs) or _("start one with: companion new GAME"),
            )
        return files

    def create(self, name: str, meta: dict[str, Any], first: list[dict[str, Any]]) -> SessionFiles:
        """Make session ``name`` whole: its meta and its first events, written in a folder of its own
        and renamed into place under the store's lock (refused if the name is taken meanwhile)."""
        files = self.files(name)
        try:
            with self.locked():
                return self._create(files, meta, first)
        except WriteError as exc:  # the store's own folder or lock could not be made
            raise StoreError(
                _("{why}: no session was made (could not write {path})").format(why=exc.reason, path=exc.path),
                hint=_again(exc),
            ) from None

    def _create(self, files: SessionFiles, meta: dict[str, Any], first: list[dict[str, Any]]) -> SessionFiles:
        if files.dir.exists():
            damaged = files.is_session() and not files.session_file.exists()
            raise StoreError(
                _("a session named {name} already exists").format(name=quote(files.slug)),
                hint=(
                    _("it has lost its session.json; write it again with: companion sessions repair {name}")
                    if damaged
                    else _("continue it with: companion use {name}")
                ).format(name=files.slug),
            )
        for stale in self.root.glob(".new-*"):  # left by a kill inside an earlier new
            shutil.rmtree(stale, ignore_errors=True)
        tmp = SessionFiles(self.root / f".new-{files.slug}-{os.getpid()}")
        try:
            try:
                tmp.dir.mkdir()
            except OSError as exc:
                raise WriteError(tmp.dir, exc) from None
            with tmp.locked(0, explain=False):
                tmp.write_meta(meta)
                header = {"base": 0, "sealed": [], "meta": meta["meta"]}
                journal.create(tmp.events.journal_path, header, [journal.encode(e) for e in first])
            try:
                with acts.critical():  # made once it is in place: a signal lands before or after, said truly
                    os.rename(tmp.dir, files.dir)
                    acts.saved(None)
            except OSError as exc:
                raise WriteError(files.dir, exc) from None
        except WriteError as exc:
            shutil.rmtree(tmp.dir, ignore_errors=True)
            raise StoreError(
                _("{why}: no session was made (could not write {path})").format(why=exc.reason, path=exc.path),
                hint=_again(exc),
            ) from None
        except BaseException:
            shutil.rmtree(tmp.dir, ignore_errors=True)
            raise
        fsync_dir(self.root)
        return files

    def slugs(self) -> list[str]:
        try:
            return sorted(
                p.name for p in self.root.iterdir() if not p.name.startswith(".") and SessionFiles(p).is_session()
            )
        except (FileNotFoundError, NotADirectoryError):
            return []

    # ---- removing, restoring, renaming ------------------------------------------------------
    @property
    def trash(self) -> Path:
        return self.data / "trash"

    def remove(self, name: str) -> Path:
        """Move a session's folder into the trash folder (under its lock); returns where it went."""
        files = self.open(name)
        with files.locked():
            self.trash.mkdir(parents=True, exist_ok=True)
            target = self.trash / files.slug
            n = 1
            while target.exists():
                n += 1
                target = self.trash / f"{files.slug}.{n}"
            os.replace(files.dir, target)
        if self.current() == files.slug:
            self.set_current(None)
        return target

    def trashed(self) -> list[str]:
        try:
            return sorted(p.name for p in self.trash.iterdir() if (p / SESSION_FILE).exists())
        except FileNotFoundError:
            return []

    def restore(self, name: str) -> SessionFiles:
        """Bring a removed session back from the trash folder (the latest one of that name)."""
        from companion.i18n import did_you_mean

        slug = safe_name(name)
        found = sorted(
            (p for p in self.trashed() if p == slug or p.startswith(slug + ".")),
            key=lambda p: int(p.rsplit(".", 1)[1]) if "." in p else 1,
        )
        if not found:
            raise NotFoundError(
                _("no removed session named {name}; in the trash: {known}").format(
                    name=quote(name), known=", ".join(self.trashed()) or _("nothing")
                ),
                hint=did_you_mean(slug, self.trashed()),
            )
        with self.locked():
            if (self.root / slug).exists():
                raise StoreError(
                    _("a session named {name} already exists").format(name=quote(slug)),
                    hint=_("rename it first: companion sessions rename {name} NEW").format(name=slug),
                )
            os.rename(self.trash / found[-1], self.root / slug)
        return self.files(slug)

    def rename(self, old: str, new: str) -> SessionFiles:
        """Give a session a new name (its folder and the name in its meta); the log file stays.

        Under the store's lock and the session's: what is to be done is written in the session's folder
        first (``renaming.json``), then the folder is renamed (the moment it happens), then the meta;
        a kill anywhere leaves the old session, or the new one, never a mix (:func:`finish_rename`)."""
        files = self.open(old)
        target = self.files(new)
        with self.locked(), files.locked():
            if target.slug != files.slug and target.dir.exists():
                raise StoreError(
                    _("a session named {name} already exists").format(name=quote(target.slug)),
                    hint=_("pick another name"),
                )
            intent = files.dir / RENAME_FILE
            try:
                write_atomic(intent, json.dumps({"name": new, "slug": target.slug}, ensure_ascii=False))
            except WriteError as exc:
                raise StoreError(
                    _("{why}: nothing was renamed (could not write {path})").format(why=exc.reason, path=exc.path),
                    hint=_again(exc),
                ) from None
            if target.slug != files.slug:
                try:
                    with acts.critical():
                        os.rename(files.dir, target.dir)
                        acts.saved(None)
                except OSError as exc:
                    intent.unlink(missing_ok=True)
                    error = WriteError(files.dir, exc)
                    raise StoreError(
                        _("{why}: nothing was renamed (could not rename {path})").format(
                            why=error.reason, path=files.dir
                        ),
                        hint=_again(error),
                    ) from None
                fsync_dir(self.root)
            moved = self.files(new)
            moved._locked = 1  # the lock held is the folder's own (its .lock moved with it)
            try:
                with acts.critical():
                    finish_rename(moved)
                    acts.saved(None)
            except (WriteError, OSError):
                pass  # renamed (its folder is); the meta follows when the session is next opened
            finally:
                moved._locked = 0
        if self.current() == files.slug:
            try:
                self.set_current(target.slug)
            except WriteError as exc:
                raise StoreError(
                    _("session {old} is renamed {new}, but could not be made the current one ({why})").format(
                        old=quote(files.slug), new=quote(target.slug), why=exc.reason
                    ),
                    hint=_("make it current with: companion use {name}").format(name=target.slug),
                ) from None
        return self.files(new)

    # ---- the current session -------------------------------------------------------------
    def make_current(self, slug: str) -> None:
        """Make a session just made the current one; if that cannot be written, say it is made all the same."""
        try:
            self.set_current(slug)
        except StoreError as exc:
            raise StoreError(
                _("session {name} is made, but could not be made the current one ({why})").format(
                    name=quote(slug), why=exc.message
                ),
                hint=_("make it current with: companion use {name}").format(name=slug),
            ) from None

    @property
    def current_file(self) -> Path:
        return self.data / "current"

    def current(self) -> str | None:
        slug = (read_small(self.current_file) or "").strip()
        return slug or None

    def set_current(self, slug: str | None) -> None:
        self.data.mkdir(parents=True, exist_ok=True)
        write_atomic(self.current_file, (slug or "") + "\n")


def finish_rename(files: SessionFiles) -> None:
    """Finish (or forget) a rename a kill interrupted: the folder's name says whether it happened."""
    intent = files.dir / RENAME_FILE
    try:
        data = read_json_plain(intent)
    except StoreError:
        data = None
    if data is None:
        return
    if data.get("slug") == files.slug:
        doc = files.read_meta()
        doc["meta"]["name"] = data["name"]
        doc["meta"]["slug"] = files.slug
        files.write_meta(doc)  # the log's head names the session: the next open writes it
    intent.unlink(missing_ok=True)


def _again(exc: WriteError) -> str:
    return (
        _("free some space, then run the command again")
        if exc.full
        else _("check the disk, then run the command again")
    )


def read_json_plain(path: Path) -> dict[str, Any] | None:
    try:
        raw = read_bytes(path)  # never through a link, never a FIFO's wait
    except StoreError:
        return None
    if raw is None:
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


__all__ = ["LOCK_WAIT", "SEGMENT", "SessionFiles", "Store", "lock_wait"]
