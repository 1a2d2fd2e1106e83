"""The markdown log file, brought up to date by what changed.

The file is the head (front matter and title), the body (one block per entry that stands on its own:
a heading, a loose entry, or a line with the entries hanging under it) and the tail (the sheet, the
end), exactly as :func:`companion.log.markdown.render` writes it. After an action:

- new entries are written at the end of the body, or at the end of the block of the open line they
  hang under;
- an open line whose text changed gets its first row rewritten;
- the tail is written again (it is small: the trackers), and so is the head.

Only the open lines' blocks can change (see :mod:`companion.log.model`), so all the writer needs to
know of the file is its :class:`Layout`: where the head, the body and the tail end, and where each open
line's block is. That is small, whatever the length of the log, and lives in the session's snapshot.
The bytes from the first change on are read from the file, spliced and written back (``os.pwrite``;
a middle change costs a copy of the bytes after it, never a rendering of the log), then the file is
cut to its new length, and the head is written last.

**The front matter and incremental writing.** The head is rendered from the state after every action
(``updated`` changes with every event) and written over the old one in place when it has the same
length in bytes; when its length changes (another dice mode, a finished game, a hero renamed, a
count growing a digit), the whole file is written again from its old bytes (copied, not rendered) to
a temporary file that replaces it. So the front matter may hold any property of the state: a
property whose length changes with most actions costs one copy of the file each time, so keep such
values fixed-width where they change often (timestamps are). The head must be a function of the
state alone (not of when or where it is rendered), since a log folded again from the events must be
the same text.

A file is known to be up to date only through the session's record of it (``log.json`` in the
session folder, written after the file): the event it shows, and the file's size and modification
time. Anything else (a crash between the two, an edit by hand, a file copied over it) makes the next
command write the whole file again from the events.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.log.markdown import child_row, entry_text, grouped, head_text, tail_text, top_rows

if TYPE_CHECKING:
    from companion.log.model import Log
    from companion.session.state import State


class OutOfStep(Exception):
    """The log changed in a way the layout cannot follow (an entry under a line the file does not
    track, fewer entries than the file shows): the whole file is written again."""


def _crc(data: bytes) -> int:
    return zlib.crc32(data)


@dataclass
class Block:
    """An open line's block: its entry's index, where it starts in the body, the bytes of its first row
    (the line itself, with the newline before it) and of the whole block, and the first row's crc."""

    index: int
    offset: int
    first: int
    size: int
    crc: int


@dataclass
class Layout:
    """What the writer knows of the file: the bytes of the ``head``, the ``body`` and the ``tail``, the
    ``count`` of log entries it shows, and the open lines' blocks in file order (offsets in the body)."""

    head: int
    body: int
    tail: int
    count: int
    blocks: list[Block] = field(default_factory=list)

    @property
    def size(self) -> int:
        return self.head + self.body + self.tail

    def dump(self) -> dict[str, Any]:
        return {
            "head": self.head,
            "body": self.body,
            "tail": self.tail,
            "count": self.count,
            "blocks": [[b.index, b.offset, b.first, b.size, b.crc] for b in self.blocks],
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> Layout:
        return cls(
            head=int(data["head"]),
            body=int(data["body"]),
            tail=int(data["tail"]),
            count=int(data["count"]),
            blocks=[Block(*(int(v) for v in b)) for b in data["blocks"]],
        )


@dataclass
class Edit:
    """Replace ``old`` bytes at ``pos`` (in the body) with ``new``. ``rank`` orders edits at one place:
    the end of a block (0), the first row of the next (1), new blocks at the end (2), the tail (3)."""

    pos: int
    rank: int
    old: int
    new: bytes
    #: For a first row: the line's entry index (undo writes that line's earlier row back).
    index: int | None = None


@dataclass
class Plan:
    """The edits that bring the file from one layout to the next, the head to write, the new layout."""

    before: Layout
    edits: list[Edit]
    head: bytes
    layout: Layout


def _first_row(entry: dict[str, Any], at_start: bool) -> bytes:
    return (("\n\n" if at_start else "\n") + "- " + entry_text(entry)).encode()


def _rows(rows: list[str], at_start: bool) -> bytes:
    if not rows:
        return b""
    return (("\n\n" if at_start else "\n") + "\n".join(rows)).encode()


def full(state: State, title: str, hero: str | None) -> tuple[bytes, Layout]:
    """The whole file for ``state`` (whose log is complete), and its layout."""
    log = state.log
    entries = log.entries
    head = head_text(state, title, hero).encode()
    open_lines = set(log.lines.values())
    children, under = grouped(entries)
    parts = [head]
    pos = 0
    blocks: list[Block] = []
    for i, e in enumerate(entries):
        if i in under:
            continue
        first = _rows(top_rows(e, pos == 0), pos == 0)
        rest = _rows([child_row(c) for c in children.get(i, ())], False) if e["k"] == "line" else b""
        if e["k"] == "line" and i in open_lines:
            blocks.append(Block(i, pos, len(first), len(first) + len(rest), _crc(first)))
        parts += [first, rest]
        pos += len(first) + len(rest)
    tail = tail_text(state).encode()
    parts.append(tail)
    log.changes()  # the file shows every change so far
    return b"".join(parts), Layout(len(head), pos, len(tail), len(entries), blocks)


def plan(layout: Layout, state: State, title: str, hero: str | None, changed: set[int] | None = None) -> Plan:
    """The edits that bring a file laid out as ``layout`` up to ``state``'s log (one action later, or
    several), and the layout after them. ``changed``: the lines whose text may have changed (else the
    log says, :meth:`~companion.log.model.Log.changes`). Raises :class:`OutOfStep` when the file cannot
    follow."""
    log: Log = state.log
    entries = log.entries
    if len(entries) < layout.count:
        raise OutOfStep("the log has fewer entries than the file shows")
    if changed is None:
        changed = log.changes()
    blocks = {b.index: Block(b.index, b.offset, b.first, b.size, b.crc) for b in layout.blocks}
    ends = {b.index: b.offset + b.size for b in layout.blocks}  # where each block ends before this step
    edits: list[Edit] = []
    for block in blocks.values():  # open lines whose text changed: their first row
        if entries[block.index] is None:
            raise OutOfStep(f"line {block.index} is not in memory (the log came from a snapshot)")
        if block.index in changed:
            row = _first_row(entries[block.index], block.offset == 0)
            if len(row) != block.first or _crc(row) != block.crc:
                edits.append(Edit(block.offset, 1, block.first, row, block.index))
                block.size += len(row) - block.first
                block.first, block.crc = len(row), _crc(row)
    # New entries: at the end of the block of the line they hang under, or new blocks at the end.
    latest = {entries[i]["key"]: i for i in blocks}
    inserts: dict[int, list[str]] = {}
    new: list[tuple[int, list[str], list[str]]] = []  # (entry index, its rows, the rows under it)
    placed: dict[int, int] = {}  # entry index of a new line → its place in ``new``
    for i in range(layout.count, len(entries)):
        e = entries[i]
        if e is None:
            raise OutOfStep(f"entry {i} is not in memory (the log came from a snapshot)")
        target = latest.get(e["p"]) if "p" in e else None
        if target is not None and target in placed:
            new[placed[target]][2].append(child_row(e))
        elif target is not None and target in blocks:
            inserts.setdefault(target, []).append(child_row(e))
        elif target is not None:
            raise OutOfStep(f"entry {i} hangs under a line the file does not track")
        else:
            new.append((i, top_rows(e, layout.body == 0 and not new), []))
            if e["k"] == "line":
                placed[i] = len(new) - 1
        if e["k"] == "line":
            latest[e["key"]] = i
    for index, rows in inserts.items():
        data = _rows(rows, False)
        edits.append(Edit(ends[index], 0, 0, data))
        blocks[index].size += len(data)
    appended: list[bytes] = []
    fresh: list[Block] = []
    at = 0
    for n, (index, rows, kids) in enumerate(new):
        first = _rows(rows, layout.body == 0 and n == 0)
        rest = _rows(kids, False)
        if entries[index]["k"] == "line":
            fresh.append(Block(index, at, len(first), len(first) + len(rest), _crc(first)))
        appended.append(first + rest)
        at += len(first) + len(rest)
    if appended:
        edits.append(Edit(layout.body, 2, 0, b"".join(appended)))
    tail = tail_text(state).encode()
    edits.append(Edit(layout.body, 3, layout.tail, tail))
    edits.sort(key=lambda e: (e.pos, e.rank))
    # The layout after the edits: the open lines' blocks, moved by what was written before them.
    open_lines = set(log.lines.values())
    kept = []
    for block in sorted(blocks.values(), key=lambda b: b.offset):
        if block.index in open_lines:
            block.offset += _delta(edits, block.offset, 1)
            kept.append(block)
    base = layout.body + _delta(edits, layout.body, 2)
    for block in fresh:
        if block.index in open_lines:
            block.offset += base
            kept.append(block)
    body = layout.body + sum(len(e.new) - e.old for e in edits if e.rank < 3)
    head = head_text(state, title, hero).encode()
    return Plan(layout, edits, head, Layout(len(head), body, len(tail), len(entries), kept))


def _delta(edits: list[Edit], pos: int, rank: int) -> int:
    """How far the edits before (``pos``, ``rank``) move what follows them."""
    return sum(len(e.new) - e.old for e in edits if (e.pos, e.rank) < (pos, rank))


def reverse(step: Plan, before: State, title: str, hero: str | None) -> Plan:
    """The edits that take a file from ``step.layout`` back to ``step.before`` (undo), given the state
    before the step: what the step wrote is cut out again, and the first rows and the tail it replaced
    are written as they were."""
    edits: list[Edit] = []
    shift = 0
    entries = before.log.entries
    starts = {b.index: b.offset for b in step.before.blocks}
    for e in step.edits:
        if e.rank == 1 and e.index is not None:
            old = _first_row(entries[e.index], starts[e.index] == 0)
        elif e.rank == 3:
            old = tail_text(before).encode()
        else:
            old = b""
        edits.append(Edit(e.pos + shift, e.rank, len(e.new), old, e.index))
        shift += len(e.new) - e.old
    return Plan(step.layout, edits, head_text(before, title, hero).encode(), step.before)


def splice(old: bytes, start: int, edits: list[Edit]) -> bytes:
    """``old`` (the body and tail from ``start`` on) with the edits made."""
    out = bytearray()
    cur = start
    for e in edits:
        out += old[cur - start : e.pos - start]
        out += e.new
        cur = e.pos + e.old
    out += old[cur - start :]
    return bytes(out)


def write(path: str, step: Plan) -> tuple[int, int]:
    """Make ``step``'s edits in the file at ``path`` (laid out as ``step.before``); returns its new size
    and modification time (ns). The head goes last. Raises :class:`OutOfStep` if the file is not laid
    out as expected, OSError if it cannot be written."""
    before = step.before
    fd = _open(path, os.O_RDWR)
    try:
        if os.fstat(fd).st_size != before.size:
            raise OutOfStep("the file's size is not the one last written")
        start = min(e.pos for e in step.edits)
        old = _read(fd, before.head + start, before.size - before.head - start)
        out = splice(old, start, step.edits)
        if len(step.head) == before.head:
            _write_at(fd, out, before.head + start)
            os.ftruncate(fd, before.head + start + len(out))
            _write_at(fd, step.head, 0)
            st = os.fstat(fd)
            return st.st_size, st.st_mtime_ns
        kept = _read(fd, before.head, start)
    finally:
        os.close(fd)
    return replace(path, step.head + kept + out)


def replace(path: str, data: bytes) -> tuple[int, int]:
    """Write the whole file (to a temporary file that replaces it); its size and mtime (ns). The log is
    made from the events, so it is not fsynced: a crash leaves it as it was, or as it is now."""
    tmp = path + ".tmp"
    _refuse_special(path)
    try:
        try:
            fd = _open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        except NotAFileError:  # the temporary name is companion's own: what stands there goes (not followed)
            os.unlink(tmp)
            fd = _open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
        try:
            _write_at(fd, data, 0)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    st = os.stat(path)
    return st.st_size, st.st_mtime_ns


#: Never through a link, never waiting on a FIFO.
_SAFE = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


class NotAFileError(OSError):
    """A link, a FIFO, a device or a folder where the log file should be: never written through."""

    def __init__(self, path: str) -> None:
        super().__init__(errno.ELOOP, "it is a link or a special file, not a file: companion does not write through it")
        self.filename = path


def _refuse_special(path: str) -> None:
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISREG(mode):
        raise NotAFileError(path)


def _open(path: str, flags: int) -> int:
    """Open the log (or its temporary file) without following a link or waiting on a FIFO; a regular
    file only (:class:`NotAFileError`)."""
    try:
        fd = os.open(path, flags | _SAFE, 0o644)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENXIO, errno.EISDIR):
            raise NotAFileError(path) from None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise NotAFileError(path)
    return fd


def _read(fd: int, offset: int, size: int) -> bytes:
    data = bytearray()
    while len(data) < size:
        chunk = os.pread(fd, size - len(data), offset + len(data))
        if not chunk:
            raise OutOfStep("the file is shorter than it was written")
        data += chunk
    return bytes(data)


def _write_at(fd: int, data: bytes, offset: int) -> None:
    view = memoryview(data)
    while view:
        n = os.pwrite(fd, view, offset)
        view, offset = view[n:], offset + n
