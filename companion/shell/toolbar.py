"""The shell's bottom toolbar: the session's live figures, from the same rows as ``companion status``.

Made once after every command (not at every key press) and packed into at most three lines of the
terminal's width: whole figures only, joined with `` · ``; a figure too long for a line is cut at a
word with "…", and figures that do not fit are left out with "…" at the end.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.session.service import Session

SEP = " · "
_BAR = re.compile(r"^[█░]+\s+(\S+)$")


def figures(session: Session) -> list[str]:
    """The session's figures as short strings: ``HP 7/10``, ``XP 12 (level 2)``, each tally, the game's own."""
    from companion.shell.panels import status_rows

    out: list[str] = []
    level = session.state.trackers.level
    for label, value in status_rows(session):
        text = " ".join(str(getattr(value, "plain", value)).split())
        bar = _BAR.match(text)
        if bar:
            text = bar.group(1)
        if text in ("—", "-", "–"):  # nothing there yet: not worth a place on the bar
            continue
        if label == "Tally":
            out.append(text)
            continue
        if label.upper() == "XP" and "level" not in text.lower():
            text += f" (level {level})"
        out.append(f"{label} {text}" if text else label)
    if session.state.finished:
        out.append(f"game over: {session.state.finished}")
    return out


def _cut(text: str, width: int) -> str:
    if len(text) <= width:
        return text
    cut = text[: max(1, width - 1)].rsplit(" ", 1)[0] if " " in text[: width - 1] else text[: width - 1]
    return cut.rstrip(" ,;:·") + "…"


def fit(head: str, segments: list[str], width: int, lines: int = 3) -> list[str]:
    """Pack ``head`` and the segments into at most ``lines`` lines no wider than ``width``."""
    width = max(20, width)
    out: list[str] = []
    line = _cut(head, width)
    for i, seg in enumerate(segments):
        seg = _cut(seg, width)
        if len(line) + len(SEP) + len(seg) <= width:
            line = f"{line}{SEP}{seg}" if line else seg
            continue
        if len(out) + 1 >= lines:
            # No room for another line: say that there is more.
            rest = segments[i:]
            if rest:
                line = line if len(line) + 2 <= width else _cut(line, width - 2)
                line += " …"
            out.append(line)
            return out
        out.append(line)
        line = seg
    out.append(line)
    return out


def toolbar_lines(session: Session | None, width: int, name: str | None = None) -> list[str]:
    """The toolbar for ``session`` (or for no session) at ``width`` columns."""
    if session is None:
        return fit("no session", ["start one: new GAME", "or: use NAME", "help: short forms and keys"], width)
    head = f"{session.name} ({session.meta.game})"
    return fit(head, figures(session) or ["nothing tracked yet"], width)
