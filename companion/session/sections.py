"""Folding a gamebook's sections (``"t": "section"`` events) into the state and the decision log.

- ``{"n": 213, "note": "..."}``: the reader is at section 213 (what was chosen there in ``note``);
- ``{"back": 2}``: back along the way forward, two sections (the finger in the page), recorded as a
  visit of the section returned to, so the path keeps everything.

Each is a line of the log, ``§213 — took the left stair`` or ``§1 — back 2, from §213``, and the
rolls, notes and fights that follow hang under it until the next section or room: the decision log.

A way left is kept as a branch (:class:`companion.session.trackers.Branch`), and said under the line
where it was left: ``tried: §52 → §7, went back``. ``section back`` leaves the sections it goes back
over; undo leaves the sections it took back once something else is done instead: the next action
recorded after an undo carries them (``"tried": [52, 7]``, :func:`tried`), so the journal is only
appended to and the log is still made from it alone.
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
        left = list(s.trail[-steps:])
        del s.trail[-steps:]
        here = s.trail[-1]
        s.path.append(here)
        text = _("§{n} — back {steps}, from §{came}").format(n=here, steps=steps, came=came)
    else:
        here = int(event["n"])
        left = []
        s.path.append(here)
        s.trail.append(here)
        text = f"§{here}"
    if note:
        text += f" — {note}"
    state.log.line(f"section-{len(s.path)}", text, event=event.get("id"))
    if left:
        branch(state, here, left, "back", event.get("id"))


def fold_tried(state: State, event: dict[str, Any]) -> None:
    """The first action after an undo that took sections back carries them: a branch left there."""
    branch(state, state.trackers.sections.current, list(event["tried"]), "undo", event.get("id"))


def branch(state: State, start: int | None, path: list[int], how: str, event: int | None) -> None:
    """Keep a way tried and left, and say it under the log's line in play."""
    from companion.i18n import _
    from companion.session.trackers import Branch

    state.trackers.sections.branches.append(Branch(start, list(path), how))
    way = " → ".join(f"§{n}" for n in path)
    state.log.text(_("tried: {way}, went back").format(way=way), event=event)


def tried(trail: list[int], undone: list[dict[str, Any]]) -> list[int]:
    """The sections read along the ``undone`` events (oldest first), from where the way stands now
    (``trail``): what a branch left by undo keeps ([] when they read none)."""
    trail = list(trail)
    read: list[int] = []
    for event in undone:
        if event.get("t") != "section":
            continue
        if "back" in event:
            steps = int(event["back"])
            if 1 <= steps < len(trail):
                del trail[-steps:]
                read.append(trail[-1])
        elif isinstance(event.get("n"), int):
            trail.append(event["n"])
            read.append(event["n"])
    return read


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
