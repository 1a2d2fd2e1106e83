"""The log model: what happened, in order, as plain JSON data that renders to markdown.

Games and trackers append entries here as play goes; the markdown file is brought up to date from it
(:mod:`companion.log.writer`), so the log written live and the log regenerated from the events are the
same text.

- a ``heading`` opens a floor or an area;
- a ``line`` is one room (or one area, one fight): it has a key, so later play can update its text
  (``Room 4: Mob 1 (killed) ⟶ Wandering: Yes. ...``);
- a ``roll``, a ``note`` or a ``text`` can hang under a line (``parent``) or stand on its own.

Entries are plain dicts with short keys (``k`` kind, ``t`` text, ``lv`` level, ``key``, ``p``
parent, ``e`` event id, ``r`` roll; a game may keep a few of its own on its lines, e.g. The Inverted
Tower's ``vh``/``vc`` on a return to a room), empty fields left out.

**Open lines.** A line can change (its text, the rolls hanging under it) while it is among the
:data:`OPEN_LINES` lines used last (opened, reopened, updated, or given an entry under it); the line
in play (``current``) always is. After that it is closed: its key names a *new* line if play comes
back to it, written where play is. That bounds what a snapshot must keep of the log (the open lines
and the count of entries, :meth:`Log.window`), and what the markdown file may still have to change,
however long the session; the markdown file holds the rest. Both the live log and the log folded
again from the events follow the same rule, so they are always the same text. No game comes near the
limit in a game's ordinary course (a room is used again within a floor, a fight within its turn).

A log loaded from a snapshot (:meth:`Log.from_window`) is *partial*: its entries before the open lines
are ``None`` (the markdown file has them). ``len(entries)``, the open lines and the entries added since
loading work as usual; whatever reads the whole log folds the session again first
(``Session.full()``).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

Entry = dict[str, Any]

#: How many lines stay open to changes (see the module's docstring).
OPEN_LINES = 256


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
    #: Open line key → its index in ``entries``, the line used longest ago first (see the module).
    lines: dict[str, int] = field(default_factory=dict)
    enabled: bool = True
    #: The key of the line new rolls hang under, until another line is opened or it is closed.
    current: str | None = None

    def __post_init__(self) -> None:
        #: Indices of lines whose text changed since :meth:`changes` was last asked (for the writer).
        self.touched: set[int] = set()
        #: True for a log loaded from a snapshot: entries before its open lines are only in the file.
        self.partial = False
        #: How many entries there were before the last event (the fold sets it): a snapshot keeps the
        #: entries after it, so that event can be undone from the snapshot made right after it.
        self.mark = 0

    # ---- open lines -------------------------------------------------------------------------
    def _use(self, key: str, index: int) -> None:
        """``key`` (at ``index``) was used now: it becomes the last line to close."""
        self.lines.pop(key, None)
        self.lines[key] = index
        if len(self.lines) > OPEN_LINES:
            for old in self.lines:
                if old != self.current and old != key:
                    del self.lines[old]
                    break

    def _new_line(self, key: str, text: str, event: int | None) -> None:
        entry: Entry = {"k": "line", "t": text, "key": key}
        if event is not None:
            entry["e"] = event
        self.entries.append(entry)
        self._use(key, len(self.entries) - 1)

    def _leave(self) -> None:
        """The line in play stops being current: a game may have changed its entry in place meanwhile."""
        if self.current is not None and self.current in self.lines:
            self.touched.add(self.lines[self.current])

    def _set_text(self, index: int, text: str) -> None:
        self.entries[index]["t"] = text
        self.touched.add(index)

    # ---- adding -----------------------------------------------------------------------------
    def _add(self, entry: Entry) -> None:
        self.entries.append(entry)

    def heading(self, text: str, level: int = 2) -> None:
        if self.enabled:
            self._add({"k": "heading", "t": text, "lv": level})
            self._leave()
            self.current = None

    def line(self, key: str, text: str, *, event: int | None = None) -> None:
        """Open (or reopen) the line ``key``; rolls and texts from now on hang under it."""
        if not self.enabled:
            return
        index = self.lines.get(key)
        if index is not None:
            self._set_text(index, text)
            self._use(key, index)
        else:
            self._new_line(key, text, event)
        self._leave()
        self.current = key

    def update(self, key: str, text: str) -> None:
        """Change the text of line ``key`` without making it current (adds it if it is new or closed)."""
        if not self.enabled:
            return
        index = self.lines.get(key)
        if index is not None:
            self._set_text(index, text)
            self._use(key, index)
            return
        self._new_line(key, text, None)

    def close(self) -> None:
        """Stop hanging new rolls under the current line."""
        self._leave()
        self.current = None

    def _entry(self, kind: str, text: str, under: bool, event: int | None) -> Entry:
        entry: Entry = {"k": kind}
        if text:
            entry["t"] = text
        if under and self.current is not None:
            entry["p"] = self.current
            self._use(self.current, self.lines[self.current])
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

    def drew(self, what: str) -> None:
        """Name what the draw just logged drew (``dragon chit 4``): the last entry, when it is a draw
        (a secret draw is not logged, and is named by nothing)."""
        if self.enabled and self.entries:
            last = self.entries[-1]
            if last is not None and last.get("k") == "roll" and last["r"].get("draw"):
                last["r"]["drew"] = what

    def line_text(self, key: str) -> str | None:
        index = self.lines.get(key)
        return None if index is None else self.entries[index]["t"]

    # ---- what the writer and the snapshot need ------------------------------------------------
    def changes(self) -> set[int]:
        """The lines whose text may have changed since the last call (the current line always may: a
        game can change its entry in place), and forget them."""
        touched = self.touched
        self.touched = set()
        if self.current is not None and self.current in self.lines:
            touched.add(self.lines[self.current])
        return touched

    def window(self) -> dict[str, Any]:
        """What a snapshot keeps of the log: the count of entries, the open lines and the current one."""
        mark = min(self.mark, len(self.entries))
        return {
            "count": len(self.entries),
            "lines": [[key, index, self.entries[index]] for key, index in self.lines.items()],
            "current": self.current,
            "enabled": self.enabled,
            "mark": mark,
            "recent": self.entries[mark:],
        }

    @classmethod
    def from_window(cls, data: dict[str, Any]) -> Log:
        entries: list[Any] = [None] * int(data["count"])
        lines: dict[str, int] = {}
        mark = int(data.get("mark", len(entries)))
        for n, entry in enumerate(data.get("recent", ())):
            entries[mark + n] = entry
        for key, index, entry in data["lines"]:
            entries[index] = entry
            lines[key] = index
        log = cls(entries=entries, lines=lines, enabled=bool(data.get("enabled", True)), current=data.get("current"))
        log.partial, log.mark = any(e is None for e in entries), mark
        return log

    def __deepcopy__(self, memo: dict[int, Any]) -> Log:
        """A copy to try an action on (``kit.dry``): the entries list itself, and the open lines (the
        only entries that change after they are added) copied; the rest shared, so trying costs the
        same at any length."""
        entries = list(self.entries)
        for index in self.lines.values():
            entries[index] = copy.deepcopy(entries[index], memo)
        clone = Log(entries=entries, lines=dict(self.lines), enabled=self.enabled, current=self.current)
        clone.touched, clone.partial, clone.mark = set(self.touched), self.partial, self.mark
        return clone
