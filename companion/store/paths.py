"""Where things live: the data folder, session folders, log files, and safe names for them.

Cheap to import (only platformdirs, and only when the default folder is needed), because the
one-shot commands ask "is a session active?" on every run.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from companion.errors import InputError

MAX_NAME = 64


def data_dir(override: Path | None = None) -> Path:
    """``--data-dir`` / ``COMPANION_HOME``, else the platform's per-user data folder."""
    if override is not None:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("companion", appauthor=False))


def logs_dir(override: Path | None = None) -> Path:
    """``--logs-dir`` / ``COMPANION_LOGS``, else ``logs/`` in the working folder."""
    return Path(override).expanduser() if override is not None else Path.cwd() / "logs"


def read_small(path: Path, most: int = 4096) -> str | None:
    """A small file of companion's own (``current``) as text; None when it is not there, not a regular
    file (a link, a FIFO: never followed, never waited on) or not readable. Only the standard library:
    every one-shot command asks it."""
    import os
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return os.read(fd, most).decode("utf-8", "replace")
    except OSError:
        return None
    finally:
        os.close(fd)


def sessions_dir(data: Path) -> Path:
    return data / "sessions"


#: Letters that are letters of their own in their alphabet, not accented ones: Russian ё and й stay
#: (Ёлка is «ёлка», not «елка»).
_KEEP = re.compile("[ёЁйЙ]")
_KEPT = re.compile("[еЕиИ]")


def _own_letter(name: str, m: re.Match[str]) -> str:
    """The letter at ``m`` as ``name`` wrote it, when it was ё or й (decomposed, it reads е or и)."""
    composed = unicodedata.normalize("NFKD", name)
    # positions shift only by the combining marks removed before this letter: count them
    kept = -1
    for i, ch in enumerate(composed):
        if unicodedata.combining(ch):
            continue
        kept += 1
        if kept == m.start():
            after = composed[i + 1 : i + 2]
            return (
                unicodedata.normalize("NFC", ch + after)
                if after and unicodedata.combining(after) and ch in "еЕиИ"
                else ch
            )
    return m.group(0)


def legacy_name(name: str) -> str:
    """The file name :func:`safe_name` made before ё and й were kept (sessions made then keep it)."""
    folded = unicodedata.normalize("NFKD", name)
    folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return re.sub(r"[^\w]+", "-", folded, flags=re.UNICODE).strip("-_").lower()[:MAX_NAME].strip("-_")


def session_folder(root: Path, name: str, marker: str) -> Path:
    """The folder of session ``name`` under ``root``: by :func:`safe_name`, or for a session named before
    ё and й were kept in file names (Ёлка: «елка»), its folder by :func:`legacy_name` (that holds
    ``marker``)."""
    folder = root / safe_name(name)
    if not folder.exists():
        old = root / legacy_name(name)
        if old != folder and (old / marker).exists():
            return old
    return folder


def safe_name(name: str) -> str:
    """A file name made from a session name that cannot leave its folder.

    Letters and digits are kept (accents folded where possible), every other run of characters becomes
    one ``-``; dots, slashes and leading dashes cannot survive, so ``../../x`` becomes ``x``.
    """
    folded = unicodedata.normalize("NFKD", name)
    folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    folded = _KEPT.sub(lambda m: _own_letter(name, m), folded) if _KEEP.search(name) else folded
    slug = re.sub(r"[^\w]+", "-", folded, flags=re.UNICODE).strip("-_").lower()
    slug = slug[:MAX_NAME].strip("-_")
    if not slug:
        from companion.i18n import _, quote

        raise InputError(
            _("{name} cannot be a session name; use letters, digits, spaces or dashes").format(name=quote(name))
        )
    return slug
