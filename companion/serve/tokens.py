"""The session's tokens: random, in the addresses and the QR codes, then in a cookie; compared in
constant time. ``--token-file`` keeps the host's across restarts (made with the owner's permissions only).

Every seat has its own token and the read-only feed its own: each is an HMAC of the host's token and the
seat's name (or ``read-only``), so a seat's token says nothing of another seat's nor of the host's, and
a restart with the same token file gives every seat the same address again."""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from pathlib import Path

from companion.errors import CompanionError
from companion.i18n import _

#: 24 random bytes: 32 URL-safe characters.
TOKEN_BYTES = 24
_SHAPE = re.compile(r"^[A-Za-z0-9_-]{22,128}$")


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def derived(master: str, what: str) -> str:
    """The token of a seat (``what`` is ``seat:NAME``) or of the read-only feed (``read-only``): 24 bytes
    of HMAC-SHA256 under the host's token, as URL-safe as :func:`new_token`."""
    import base64

    mac = hmac.new(master.encode("utf-8"), what.encode("utf-8", "surrogatepass"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:TOKEN_BYTES]).decode("ascii")


#: A token file holds one token (and its newline): a bigger one is not read (``/dev/zero``, a log).
MOST_BYTES = 1024


def load_or_make(path: Path | None, warnings: list[str] | None = None) -> str:
    """The token kept in ``path`` (made there the first time), or a new one when there is no file.

    A FIFO, a device or a folder is refused (never waited on, never read without end), as is a file
    bigger than a token; a file others on this machine can read is used, with a warning in
    ``warnings`` (anyone who reads it can open the session)."""
    if path is None:
        return new_token()
    try:
        text = _read(path, warnings if warnings is not None else [])
    except FileNotFoundError:
        token = new_token()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(token + "\n")
        except OSError as exc:
            raise CompanionError(
                _("cannot write the token file {path}: {why}").format(path=path, why=exc.strerror or exc)
            ) from None
        return token
    except (OSError, UnicodeDecodeError) as exc:
        raise CompanionError(_("cannot read the token file {path}: {why}").format(path=path, why=exc)) from None
    if not _SHAPE.match(text):
        raise CompanionError(
            _("the token file {path} holds no token (22 to 128 letters, digits, - or _)").format(path=path),
            hint=_("remove it, and companion serve makes a new one there"),
        )
    return text


def _read(path: Path, warnings: list[str]) -> str:
    import stat

    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = (
                _("a FIFO")
                if stat.S_ISFIFO(info.st_mode)
                else _("a folder")
                if stat.S_ISDIR(info.st_mode)
                else _("a device")
            )
            raise CompanionError(
                _("the token file {path} is {kind}, not a file; companion serve reads a token only from a file").format(
                    path=path, kind=kind
                ),
                hint=_("give a file's name (companion serve makes it the first time)"),
            )
        if info.st_size > MOST_BYTES:
            raise CompanionError(
                _("the token file {path} holds {n} bytes; a token file holds one token").format(
                    path=path, n=info.st_size
                ),
                hint=_("give another file's name (companion serve makes it the first time)"),
            )
        if info.st_mode & 0o077:
            warnings.append(
                _(
                    "warning: the token file {path} can be read by others on this machine (mode {mode:o}), and with "
                    "it anyone can open the session; make it yours alone with: chmod 600 {path}"
                ).format(path=path, mode=stat.S_IMODE(info.st_mode))
            )
        data = os.read(fd, MOST_BYTES + 1)
    finally:
        os.close(fd)
    return data.decode("utf-8").strip()


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


def same(given: str | None, token: str) -> bool:
    """Whether ``given`` is the token, in time that does not depend on how much of it is right (nor on
    its length: both sides are hashed to 32 bytes first)."""
    return hmac.compare_digest(_digest(given or ""), _digest(token)) and given is not None
