"""Writing an export where the player asked, without ever harming a save, a file of theirs or the system.

- A path inside the data folder (a session's own files, the trash, the game data) is refused: an
  export there could replace the only record of a game.
- A path in the system's own folders (``/etc``, ``/usr``, ``/dev``, ...) is refused in one line, even
  for root: an export is never a system file.
- A symbolic link is refused: companion never writes through a link (name the file itself).
- An existing file that companion did not write (it does not start as one of companion's exports does)
  is never replaced without ``--force``, or a yes at a terminal (:func:`write_export`'s ``ask``).
- A character device (``/dev/null``, ``/dev/tty``) or a FIFO gets the text written to it as a stream,
  as a shell redirect would; it is never replaced by a regular file. A FIFO no program reads is refused
  at once rather than waited on. ``/dev/stdout``, ``/dev/stderr`` and ``/dev/fd/N`` are that stream.
  A folder, a socket or a block device is refused.
- Anything else is written atomically (a temporary file of its own name, renamed over it).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from pathlib import Path

from companion.errors import CompanionError, InputError
from companion.i18n import _
from companion.store.atomic import WriteError, write_all, write_atomic

#: The system's own folders: an export is never written there.
SYSTEM = ("/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/proc", "/run", "/sbin", "/sys",
          "/usr", "/var")  # fmt: skip
#: Inside those, what is a stream of the player's own (a redirect): written as a stream, never replaced.
STREAMS = ("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/", "/proc/self/fd/", "/dev/pts/")
#: Where the system lets anyone write, inside its folders.
OPEN_TO_ALL = ("/var/tmp", "/run/user", "/dev/shm")
#: How far into a file companion's own mark is looked for.
_HEAD = 4096


def inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def _under(path: str, folders: tuple[str, ...]) -> str | None:
    for folder in folders:
        if path == folder.rstrip("/") or path.startswith(folder.rstrip("/") + "/"):
            return folder
    return None


def _stream_name(target: Path) -> bool:
    text = os.path.normpath(os.path.abspath(target))
    return any(text == s or (s.endswith("/") and text.startswith(s)) for s in STREAMS)


def system_folder(target: Path) -> str | None:
    """The system folder ``target`` is in (where it leads, links followed), or None."""
    for text in {os.path.normpath(os.path.abspath(target)), os.path.realpath(target)}:
        if _under(text, OPEN_TO_ALL):
            continue
        found = _under(text, SYSTEM)
        if found is not None:
            return found
    return None


def written_by_companion(path: Path) -> bool:
    """Whether the file at ``path`` starts as one of companion's exports does (the markdown log and Lonelog
    with their front matter, the page with its generator, the JSON with its format)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return False
    try:
        head = os.read(fd, _HEAD)
    except OSError:
        return False
    finally:
        os.close(fd)
    for game, session, seed in _log_labels():  # the markdown log, its front matter in any language
        if head.startswith(b"---\n" + game + b" ") and b"\n" + session + b" " in head and b"\n" + seed + b" " in head:
            return True
    if head.startswith(b"---\n") and any(b"\n" + tools + b' "companion"' in head for tools in _lonelog_tools()):
        return True  # Lonelog, its header's keys in the session's language
    if head.startswith(b"<!DOCTYPE html>") and b'<meta name="generator" content="companion ' in head:
        return True  # a page, or the index of pages
    return head.startswith(b'{\n "format": "companion-session/')


def _lonelog_tools() -> set[bytes]:
    """Lonelog's ``tools:`` key in every language."""
    from companion import i18n

    return {f"{i18n.translator(lang).gettext('tools')}:".encode() for lang in i18n.languages()}


def _log_labels() -> list[tuple[bytes, ...]]:
    """The markdown log's first front-matter labels (``game:``, ``session:``, ``seed:``) in every language."""
    from companion import i18n
    from companion.log.markdown import LABELS

    out = []
    for lang in i18n.languages():
        words = i18n.translator(lang)
        out.append(tuple(f"{words.gettext(LABELS[k])}:".encode() for k in ("game", "session", "seed")))
    return out


def write_export(
    target: Path,
    text: str,
    data_dir: Path,
    *,
    force: bool = False,
    ask: Callable[[str], bool] | None = None,
) -> None:
    """Write ``text`` to ``target`` (see the module's docstring for what is refused and how). ``force``
    replaces a file companion did not write; ``ask`` (at a terminal) asks whether to."""
    if _stream_name(target):
        _to_stream(target, text)
        return
    if inside(target, data_dir):
        raise InputError(
            _("{path} is inside companion's data folder ({data}); an export there could replace a save").format(
                path=target, data=data_dir
            ),
            hint=_("export somewhere else, e.g. into the logs folder (the default)"),
        )
    folder = system_folder(target)
    if folder is not None:
        raise InputError(
            _("{path} is in the system's folder {folder}; companion writes no export there").format(
                path=target, folder=folder
            ),
            hint=_("export into your own folders, e.g. the logs folder (the default)"),
        )
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise CompanionError(_("cannot write to {path}: {why}").format(path=target, why=exc.strerror or exc)) from None
    if info is not None and stat.S_ISLNK(info.st_mode):
        raise InputError(
            _("{path} is a symbolic link (to {dest}); companion does not write through links").format(
                path=target, dest=os.readlink(target)
            ),
            hint=_("give the file itself, or another name"),
        )
    if info is not None and not stat.S_ISREG(info.st_mode):
        if stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode):
            _stream(target, text.encode("utf-8"), fifo=stat.S_ISFIFO(info.st_mode))
            return
        if stat.S_ISDIR(info.st_mode):
            raise InputError(_("{path} is a folder; give a file name to export to").format(path=target))
        raise InputError(_("{path} is not a regular file; give a file name to export to").format(path=target))
    if info is not None and not force and not written_by_companion(target):
        question = _("{path} is there already and companion did not write it; replace it?").format(path=target)
        if ask is None or not ask(question):
            raise InputError(
                _("{path} is there already and companion did not write it; nothing was written").format(path=target),
                hint=_("give another name, or add --force to replace it"),
            )
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CompanionError(
            _("cannot write to {path}: {why}").format(path=target.parent, why=exc.strerror or exc)
        ) from None
    try:
        write_atomic(target, text, unique=True)
    except WriteError as exc:
        raise CompanionError(
            _("{why}: the export is not written (could not write {path})").format(why=exc.reason, path=exc.path)
        ) from None


def _to_stream(target: Path, text: str) -> None:
    """``/dev/stdout`` and its kind: the stream it is (a terminal, a pipe, a file the shell opened)."""
    try:
        info = os.stat(target)
    except OSError as exc:
        raise CompanionError(_("cannot write to {path}: {why}").format(path=target, why=exc.strerror or exc)) from None
    if stat.S_ISDIR(info.st_mode) or stat.S_ISBLK(info.st_mode):
        raise InputError(_("{path} is not a regular file; give a file name to export to").format(path=target))
    _stream(target, text.encode("utf-8"), fifo=stat.S_ISFIFO(info.st_mode), append=stat.S_ISREG(info.st_mode))


def _stream(target: Path, data: bytes, *, fifo: bool, append: bool = False) -> None:
    flags = os.O_WRONLY | (os.O_NONBLOCK if fifo else 0) | (os.O_APPEND if append else 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(target, flags)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise CompanionError(
                _("no program is reading from the FIFO {path}; nothing was written").format(path=target)
            ) from None
        raise CompanionError(_("cannot write to {path}: {why}").format(path=target, why=exc.strerror or exc)) from None
    try:
        if fifo:
            os.set_blocking(fd, True)
        write_all(fd, data)
    except OSError as exc:
        why = _("the disk is full") if exc.errno == errno.ENOSPC else (exc.strerror or str(exc))
        raise CompanionError(
            _("{why}: the export could not be written to {path}").format(why=why, path=target)
        ) from None
    finally:
        os.close(fd)
