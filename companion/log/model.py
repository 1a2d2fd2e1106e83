"""The log model: what happened, in order, as plain JSON data that renders to markdown.

Games and trackers append entries here as play goes; the markdown file is always rendered from it,
so the log written live and the log regenerated from the events are the same text.

- a ``heading`` opens a floor or an area;
- a ``line`` is one room (or one area, one fight): it has a key, so later play can update its text
  (``Room 4: Mob 1 (killed) ⟶ Wandering: Yes. ...``);
- a ``roll``, a ``note`` or a ``text`` can hang under a line (``parent``) or stand on its own.

Entries are plain dicts with short keys (``k`` kind, ``t`` text, ``lv`` level, ``key``, ``p``
parent, ``e`` event id, ``r`` roll; a game may keep a few of its own on its lines, e.g. The Inverted
Tower's ``vh``/``vc`` on a return to a room), empty fields left out. A session of 10,000 rolls keeps them in
its snapshot, and dicts load and save as fast as JSON itself, with no per-entry objects to build.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Entry = dict[str, Any]


def roll_data(
    *,
    expr: str,
    dice: str,
    mods: str,
    total: int,
    outcome: str,
    target: str | None,
    source: str,
    why: str = "",
    natural: str | None = None,
    amended_from: str | None = None,
    reason: str | None = None,
) -> dict[str, Any]:
    """A roll as the log keeps it: text only, so the log never needs the dice code to render."""
    data: dict[str, Any] = {"expr": expr, "dice": dice, "total": total, "outcome": outcome, "source": source}
    for name, value in (
        ("mods", mods),
        ("target", target),
        ("why", why),
        ("natural", natural),
        ("amended_from", amended_from),
        ("reason", reason),
    ):
        if value:
            data[name] = value
    return data


@dataclass
class Log:
    """An ordered list of entries. ``enabled`` is False in the simulator, where nobody reads it."""

    #: The codec copies these fields as they are: they are JSON already.
    __codec_raw__ = ("entries", "lines")

    entries: list[Entry] = field(default_factory=list)
    #: Line key → index in ``entries``, so updating a room line does not scan the log.
    lines: dict[str, int] = field(default_factory=dict)
    enabled: bool = True
    #: The key of the line new rolls hang under, until another line is opened or it is closed.
    current: str | None = None

    def _add(self, entry: Entry) -> None:
        self.entries.append(entry)

    def heading(self, text: str, level: int = 2) -> None:
        if self.enabled:
            self._add({"k": "heading", "t": text, "lv": level})
            self.current = None

    def line(self, key: str, text: str, *, event: int | None = None) -> None:
        """Open (or reopen) the line ``key``; rolls and texts from now on hang under it."""
        if not self.enabled:
            return
        index = self.lines.get(key)
        if index is not None:
            self.entries[index]["t"] = text
        else:
            entry: Entry = {"k": "line", "t": text, "key": key}
            if event is not None:
                entry["e"] = event
            self.lines[key] = len(self.entries)
            self._add(entry)
        self.current = key

    def update(self, key: str, text: str) -> None:
        """Change the text of line ``key`` without making it current (adds it if it is new)."""
        if not self.enabled:
            return
        index = self.lines.get(key)
        if index is not None:
            self.entries[index]["t"] = text
            return
        self.lines[key] = len(self.entries)
        self._add({"k": "line", "t": text, "key": key})

    def close(self) -> None:
        """Stop hanging new rolls under the current line."""
        self.current = None

    def _entry(self, kind: str, text: str, under: bool, event: int | None) -> Entry:
        entry: Entry = {"k": kind}
        if text:
            entry["t"] = text
        if under and self.current is not None:
            entry["p"] = self.current
        if event is not None:
            entry["e"] = event
        return entry

    def text(self, text: str, *, under: bool = True, event: int | None = None) -> None:
        if self.enabled:
            self._add(self._entry("text", text, under, event))

    def note(self, text: str, *, event: int | None = None) -> None:
        if self.enabled:
            self._add(self._entry("note", text, True, event))  # under the line in play: where it happened

    def roll(self, roll: dict[str, Any], *, event: int | None = None, under: bool = True) -> None:
        if self.enabled:
            entry = self._entry("roll", "", under, event)
            entry["r"] = roll
            self._add(entry)

    def line_text(self, key: str) -> str | None:
        index = self.lines.get(key)
        return None if index is None else self.entries[index]["t"]
