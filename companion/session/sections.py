"""Folding a gamebook's sections (``"t": "section"`` events) into the state and the decision log.

- ``{"n": 213, "note": "..."}``: the reader is at section 213 (what was chosen there in ``note``);
- ``{"back": 2}``: back along the way forward, two sections (the finger in the page), recorded as a
  visit of the section returned to, so the path keeps everything.

Each is a line of the log, ``§213 — took the left stair`` or ``§1 — back 2, from §213``, and the
rolls, notes and fights that follow hang under it until the next section or room: the decision log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.errors import InputError

if TYPE_CHECKING:
    from companion.session.state import State


def fold_section(state: State, event: dict[str, Any]) -> None:
    from companion.i18n import _

    s = state.trackers.sections
    note = event.get("note") or ""
    if "back" in event:
        steps = int(event["back"])
        if not 1 <= steps < len(s.trail):
            raise InputError(back_refusal(s.trail, steps))
        came = s.trail[-1]
        del s.trail[-steps:]
        here = s.trail[-1]
        s.path.append(here)
        text = _("§{n} — back {steps}, from §{came}").format(n=here, steps=steps, came=came)
    else:
        here = int(event["n"])
        s.path.append(here)
        s.trail.append(here)
        text = f"§{here}"
    if note:
        text += f" — {note}"
    state.log.line(f"section-{len(s.path)}", text, event=event.get("id"))


def back_refusal(trail: list[int], steps: int) -> str:
    """Why ``section back steps`` cannot go back along ``trail`` (the way forward)."""
    from companion.i18n import _, ngettext

    depth = len(trail)
    if not depth:
        return _("no section yet: section N records where you are, then section back returns along the way")
    if depth == 1:
        return _("§{n} is where your way starts: there is no section before it to go back to").format(n=trail[0])
    return ngettext(
        "section back {steps}: the way back is {n} section long; give {n} or less",
        "section back {steps}: the way back is {n} sections long; give {n} or less",
        depth - 1,
    ).format(steps=steps, n=depth - 1)
