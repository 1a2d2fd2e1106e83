"""The session's token: random, in the address and the QR code, then in a cookie; compared in
constant time. ``--token-file`` keeps it across restarts (made with the owner's permissions only)."""

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


def load_or_make(path: Path | None) -> str:
    """The token kept in ``path`` (made there the first time), or a new one when there is no file."""
    if path is None:
        return new_token()
    try:
        text = path.read_text(encoding="utf-8").strip()
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


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


def same(given: str | None, token: str) -> bool:
    """Whether ``given`` is the token, in time that does not depend on how much of it is right (nor on
    its length: both sides are hashed to 32 bytes first)."""
    return hmac.compare_digest(_digest(given or ""), _digest(token)) and given is not None
