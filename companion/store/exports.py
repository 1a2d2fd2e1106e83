"""Writing an export where the player asked, without ever harming a save or a special file.

- A path inside the data folder (a session's own files, the trash, the game data) is refused: an
  export there could replace the only record of a game.
- A device (``/dev/null``, ``/dev/tty``) or a FIFO gets the text written to it as a stream, as a shell
  redirect would; it is never replaced by a regular file. A FIFO no program reads is refused at once
  rather than waited on. A folder, a socket or a block device is refused.
- A symlink is followed: the file it points to is written (atomically), and the link stays a link.
- Anything else is written atomically (a temporary file renamed over it).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from companion.errors import CompanionError, InputError
from companion.i18n import _
from companion.store.atomic import WriteError, write_all, write_atomic


def inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def write_export(target: Path, text: str, data_dir: Path) -> None:
    """Write ``text`` to ``target`` (see the module's docstring for what is refused and how)."""
    resolved = target.resolve()
    if inside(resolved, data_dir):
        raise InputError(
            _("{path} is inside companion's data folder ({data}); an export there could replace a save").format(
                path=target, data=data_dir
            ),
            hint=_("export somewhere else, e.g. into the logs folder (the default)"),
        )
    try:
        info = os.stat(resolved)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise CompanionError(_("cannot write to {path}: {why}").format(path=target, why=exc.strerror or exc)) from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        if stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode):
            _stream(target, text.encode("utf-8"), fifo=stat.S_ISFIFO(info.st_mode))
            return
        if stat.S_ISDIR(info.st_mode):
            raise InputError(_("{path} is a folder; give a file name to export to").format(path=target))
        raise InputError(_("{path} is not a regular file; give a file name to export to").format(path=target))
    try:
        resolved.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CompanionError(
            _("cannot write to {path}: {why}").format(path=resolved.parent, why=exc.strerror or exc)
        ) from None
    try:
        write_atomic(resolved, text)
    except WriteError as exc:
        raise CompanionError(
            _("{why}: the export is not written (could not write {path})").format(why=exc.reason, path=exc.path)
        ) from None


def _stream(target: Path, data: bytes, *, fifo: bool) -> None:
    flags = os.O_WRONLY | (os.O_NONBLOCK if fifo else 0) | getattr(os, "O_NOCTTY", 0)
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
