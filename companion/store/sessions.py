"""The session store: one folder per session, so an action costs the same however many exist.

A session folder holds:

- ``session.json``: a TinyDB file with the ``meta`` table: how the session was made (written once);
- ``head.json``: a TinyDB file with the ``head`` table: a snapshot of the state after the last
  event, a cache that can always be rebuilt from the events;
- ``events/NNNNNN.json``: TinyDB files of ``SEGMENT`` events each; only the last one is rewritten
  when an event is added, so recording stays cheap in a session of 10,000 events;
- ``.lock``: a :class:`filelock.FileLock`; every read-modify-write happens while holding it.

Writes go through :class:`companion.store.atomic.AtomicJSONStorage` (temporary file, fsync,
``os.replace``, fsync the folder). An event is written before the snapshot, so a crash between the
two leaves a snapshot that is behind, which the session layer notices and rebuilds.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from tinydb import TinyDB
from tinydb.table import Document

from companion.errors import NotFoundError, StoreError
from companion.i18n import _, quote
from companion.store.atomic import AtomicJSONStorage, read_json, write_atomic
from companion.store.paths import safe_name, sessions_dir

SEGMENT = 256
SESSION_FILE = "session.json"
HEAD_FILE = "head.json"
EVENTS_DIR = "events"
#: How long a one-shot command waits for another companion to finish with a save, in seconds
#: (``COMPANION_LOCK_WAIT`` sets another, e.g. for a store on a slow network drive).
LOCK_WAIT = 3.0


def lock_wait() -> float:
    """The wait for a session's lock: ``COMPANION_LOCK_WAIT`` seconds when it is a number >= 0."""
    raw = os.environ.get("COMPANION_LOCK_WAIT", "")
    try:
        wait = float(raw)
    except ValueError:
        return LOCK_WAIT
    return wait if 0 <= wait < float("inf") else LOCK_WAIT


def _db(path: Path) -> TinyDB:
    return TinyDB(path, storage=AtomicJSONStorage)


class SessionFiles:
    """The files of one session, and the lock that guards them."""

    def __init__(self, folder: Path) -> None:
        self.dir = folder
        self.slug = folder.name
        self.session_file = folder / SESSION_FILE
        self.head_file = folder / HEAD_FILE
        self.events_dir = folder / EVENTS_DIR
        self._locked = 0
        self._lock: Any = None

    # ---- the lock -------------------------------------------------------------------------
    @contextmanager
    def locked(self, timeout: float | None = None) -> Iterator[None]:
        """Hold the session's lock (waiting :func:`lock_wait` seconds unless ``timeout`` says); a second
        process gets one clear line, never a torn save."""
        if self._locked:
            self._locked += 1
            try:
                yield
            finally:
                self._locked -= 1
            return
        from filelock import FileLock, Timeout

        lock = FileLock(str(self.dir / ".lock"), timeout=lock_wait() if timeout is None else timeout)
        try:
            lock.acquire()
        except Timeout:
            owner = self._owner()
            raise StoreError(
                _("session {name} is in use by another companion process").format(name=quote(self.slug)) + owner,
                hint=_("finish or quit it there (or wait a moment) and try again"),
            ) from None
        self._locked = 1
        try:
            with suppress(OSError):
                (self.dir / ".owner").write_text(f"{os.getpid()} {' '.join(sys.argv[1:3])}\n")
            yield
        finally:
            self._locked = 0
            lock.release()

    def _owner(self) -> str:
        try:
            pid, _, command = (self.dir / ".owner").read_text().strip().partition(" ")
        except OSError:
            return ""
        return f" (PID {pid}: companion {command})" if command else f" (PID {pid})"

    def _require_lock(self) -> None:
        if not self._locked:
            raise RuntimeError("session files used without holding the lock")

    # ---- meta and head --------------------------------------------------------------------
    def read_meta(self) -> dict[str, Any]:
        """The meta document: how the session was made (small, written once)."""
        data = read_json(self.session_file)
        meta = (data or {}).get("meta", {}).get("1")
        if not isinstance(meta, dict):
            from companion.store.atomic import CorruptFileError

            raise CorruptFileError(self.session_file, _("missing its meta table"), None)
        return meta

    def read_head(self) -> dict[str, Any] | None:
        """The snapshot after the last event, or None if there is none or it is damaged.

        The snapshot is only a cache of the events, so a damaged one is not an error: the session is
        folded again from its events and the snapshot rewritten. The damaged file is copied aside
        first (``head.json.damaged``), and a warning says so.
        """
        from companion.store.atomic import CorruptFileError

        try:
            data = read_json(self.head_file)
        except CorruptFileError as exc:
            sys.stderr.write(
                f"companion: warning: {exc.path} was damaged; rebuilding it from the events"
                + (f" (the damaged file is kept at {exc.backup})" if exc.backup else "")
                + "\n"
            )
            return None
        head = (data or {}).get("head", {}).get("1")
        return head if isinstance(head, dict) else None

    def write_meta(self, meta: dict[str, Any]) -> None:
        self._require_lock()
        with _db(self.session_file) as db:
            db.table("meta").upsert(Document(meta, doc_id=1))

    def write_head(self, head: dict[str, Any]) -> None:
        """Replace the snapshot. It is the file's only document, so the storage writes the whole
        table at once instead of TinyDB reading and parsing the old snapshot first."""
        self._require_lock()
        AtomicJSONStorage(self.head_file).write({"head": {"1": head}})

    # ---- events ---------------------------------------------------------------------------
    def _segment(self, index: int) -> Path:
        return self.events_dir / f"{index:06d}.json"

    def _segments(self) -> list[int]:
        try:
            names = os.listdir(self.events_dir)
        except FileNotFoundError:
            return []
        return sorted(int(n[:-5]) for n in names if n.endswith(".json") and n[:-5].isdigit())

    def count_events(self) -> int:
        segments = self._segments()
        if not segments:
            return 0
        last = segments[-1]
        with _db(self._segment(last)) as db:
            return last * SEGMENT + len(db.table("events"))

    def read_events(self, start: int = 0) -> list[dict[str, Any]]:
        """Events with id > ``start`` (ids count from 1), in order, each with its ``id``."""
        out: list[dict[str, Any]] = []
        for index in self._segments():
            if (index + 1) * SEGMENT <= start:
                continue
            with _db(self._segment(index)) as db:
                for doc in db.table("events").all():
                    if doc.doc_id > start:
                        event = dict(doc)
                        event["id"] = doc.doc_id
                        out.append(event)
        out.sort(key=lambda e: e["id"])
        return out

    def append(self, event: dict[str, Any], event_id: int) -> None:
        """Write event ``event_id`` (= count + 1) durably before anything reports it done."""
        self._require_lock()
        self.events_dir.mkdir(exist_ok=True)
        body = {k: v for k, v in event.items() if k != "id"}
        with _db(self._segment((event_id - 1) // SEGMENT)) as db:
            db.table("events").insert(Document(body, doc_id=event_id))

    def remove_last(self, event_id: int) -> None:
        self._require_lock()
        path = self._segment((event_id - 1) // SEGMENT)
        with _db(path) as db:
            db.table("events").remove(doc_ids=[event_id])
            empty = len(db.table("events")) == 0
        if empty:
            path.unlink()


class Store:
    """All sessions under one data folder, and which one is current."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.root = sessions_dir(data)

    def files(self, name: str) -> SessionFiles:
        return SessionFiles(self.root / safe_name(name))

    def exists(self, name: str) -> bool:
        return (self.root / safe_name(name) / SESSION_FILE).exists()

    def open(self, name: str) -> SessionFiles:
        files = self.files(name)
        if not files.session_file.exists():
            from companion.i18n import did_you_mean

            slugs = self.slugs()
            known = ", ".join(slugs) or _("none yet")
            raise NotFoundError(
                _("no session named {name}; sessions: {known}").format(name=quote(name), known=known),
                hint=did_you_mean(files.slug, slugs) or _("start one with: companion new GAME"),
            )
        return files

    def create(self, name: str) -> SessionFiles:
        files = self.files(name)
        if files.session_file.exists():
            raise StoreError(
                _("a session named {name} already exists").format(name=quote(files.slug)),
                hint=_("continue it with: companion use {name}").format(name=files.slug),
            )
        files.dir.mkdir(parents=True, exist_ok=True)
        return files

    def slugs(self) -> list[str]:
        try:
            return sorted(p.name for p in self.root.iterdir() if (p / SESSION_FILE).exists())
        except FileNotFoundError:
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
        if self.exists(slug):
            raise StoreError(
                _("a session named {name} already exists").format(name=quote(slug)),
                hint=_("rename it first: companion sessions rename {name} NEW").format(name=slug),
            )
        self.root.mkdir(parents=True, exist_ok=True)
        os.replace(self.trash / found[-1], self.root / slug)
        return self.files(slug)

    def rename(self, old: str, new: str) -> SessionFiles:
        """Give a session a new name (its folder and the name in its meta); the log file stays."""
        files = self.open(old)
        target = self.files(new)
        if target.slug != files.slug and target.dir.exists():
            raise StoreError(
                _("a session named {name} already exists").format(name=quote(target.slug)), hint=_("pick another name")
            )
        with files.locked():
            doc = files.read_meta()
            doc["meta"]["name"] = new
            doc["meta"]["slug"] = target.slug
            files.write_meta(doc)
            files.head_file.unlink(missing_ok=True)  # a cache holding the old name: the next open folds again
            if target.slug != files.slug:
                os.replace(files.dir, target.dir)
        if self.current() == files.slug:
            self.set_current(target.slug)
        return self.files(new)

    # ---- the current session -------------------------------------------------------------
    @property
    def current_file(self) -> Path:
        return self.data / "current"

    def current(self) -> str | None:
        try:
            slug = self.current_file.read_text(encoding="utf-8").strip()
        except OSError:
            return None
        return slug or None

    def set_current(self, slug: str | None) -> None:
        self.data.mkdir(parents=True, exist_ok=True)
        write_atomic(self.current_file, (slug or "") + "\n")
