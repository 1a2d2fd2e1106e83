"""``companion completion install [SHELL]``: put the completion script where the shell reads it.

A stock Debian has no bash-completion package (and ``/etc/bash.bashrc`` leaves it commented out), so
a script in bash-completion's user folder alone is never read there. The install writes the script
to that folder (``$XDG_DATA_HOME/bash-completion/completions/companion``, where bash-completion finds
it when it is installed) and adds one guarded line to ``~/.bashrc`` that sources it in any case: a
second source, with bash-completion, only defines the same function again. zsh gets ``~/.zfunc``
and the lines that put it on ``fpath`` in ``~/.zshrc``; fish reads its completions folder by itself.
A line already in the rc file is not added twice; ``--no-rc`` prints the lines instead.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from pathlib import Path

#: What the rc file's lines are marked with, so a second install finds them.
MARK = "# companion: Tab completion (companion completion install)"


@dataclass(frozen=True)
class Place:
    script: Path  # where the script goes
    rc: Path | None  # the file that must read it, None when the shell reads the folder itself
    lines: tuple[str, ...]  # what the rc file needs


def _home() -> Path:
    return Path(os.environ.get("HOME") or Path.home())


def _xdg(name: str, default: str) -> Path:
    value = os.environ.get(name, "")
    return Path(value) if os.path.isabs(value) else _home() / default  # the spec ignores a relative one


def place(shell: str) -> Place:
    """Where ``shell``'s script goes, and what its rc file needs to read it."""
    if shell == "bash":
        base = os.environ.get("BASH_COMPLETION_USER_DIR") or str(
            _xdg("XDG_DATA_HOME", ".local/share") / "bash-completion"
        )
        script = Path(base) / "completions" / "companion"
        q = _sh(script)
        return Place(script, _home() / ".bashrc", (MARK, f"[ -r {q} ] && . {q}"))
    if shell == "zsh":
        folder = _home() / ".zfunc"
        script = folder / "_companion"
        q = _sh(folder)
        return Place(script, _home() / ".zshrc", (MARK, f"fpath=({q} $fpath); autoload -Uz compinit && compinit"))
    return Place(_xdg("XDG_CONFIG_HOME", ".config") / "fish" / "completions" / "companion.fish", None, ())


def install(shell: str, script: str, *, edit_rc: bool = True) -> list[str]:
    """Write ``script`` for ``shell`` and, with ``edit_rc``, add its rc lines once; what was done, as
    lines for the player (the translated words are the caller's)."""
    from companion.i18n import _
    from companion.store.atomic import WriteError, write_atomic

    where = place(shell)
    try:
        where.script.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WriteError(where.script.parent, exc) from None
    write_atomic(where.script, script, durable=False)
    said = [_("Wrote {path}").format(path=_tilde(where.script))]
    if where.rc is None:
        said.append(_("fish reads that folder by itself: open a new terminal and Tab completes companion."))
        return said
    line = where.lines[-1]
    try:
        present = line in where.rc.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        present = False
    if present:
        said.append(_("{rc} reads it already.").format(rc=_tilde(where.rc)))
    elif edit_rc:
        try:
            with open(where.rc, "a", encoding="utf-8") as rc:
                if rc.tell() and not _ends_with_newline(where.rc):
                    rc.write("\n")
                rc.write("\n".join(where.lines) + "\n")
        except OSError as exc:
            raise WriteError(where.rc, exc) from None
        said.append(_("Added a line to {rc} that reads it.").format(rc=_tilde(where.rc)))
    else:
        said.append(_("Add this line to {rc}:").format(rc=_tilde(where.rc)))
        said.append(line)
    said.append(_("Open a new terminal (or run: . {rc}), and Tab completes companion.").format(rc=_tilde(where.rc)))
    return said


def _ends_with_newline(path: Path) -> bool:
    with open(path, "rb") as f:
        f.seek(-1, os.SEEK_END)
        return f.read(1) == b"\n"


def _sh(path: Path) -> str:
    """``path`` for the rc file: from ``$HOME`` when it is under it (in double quotes), else quoted."""
    home = str(_home())
    text = str(path)
    if text.startswith(home + os.sep):
        rest = "".join("\\" + c if c in '"$`\\' else c for c in text[len(home) :])
        return f'"$HOME{rest}"'
    return shlex.quote(text)


def _tilde(path: Path) -> str:
    home = str(_home())
    text = str(path)
    return "~" + text[len(home) :] if text.startswith(home + os.sep) else shlex.quote(text)
