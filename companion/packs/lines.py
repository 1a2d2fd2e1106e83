"""Find the line of a value in a TOML file, so a refusal can say where to look.

Python's ``tomllib`` reports the line of a syntax error but keeps no positions for the values it
returns. This is a small search of the source for a key path such as
``("tables", "room", "rows", 2, "roll")``: the deepest ``[header]`` or ``[[array header]]`` that
starts the path, then the (possibly dotted) key inside that section, then the N-th element of an
inline array, then a key inside an inline table. Strings and comments are skipped while counting
brackets. When a step cannot be found, the line of the last step that was found is given: a refusal
always names a line, and it is never a line after the value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

Path = tuple[str | int, ...]

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\[\]]+?)\s*\]\]?\s*(#.*)?$")
_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


@dataclass(frozen=True)
class _Section:
    key: Path  # the header's path; an array-of-tables header ends with its index
    start: int  # offset of the header line's start
    body: int  # offset just after the header line
    end: int  # offset where the next header starts


def split_key(text: str) -> tuple[str, ...]:
    """``tables."big room"`` → ("tables", "big room")."""
    parts: list[str] = []
    for m in re.finditer(r'\s*("(?:[^"\\]|\\.)*"|\'[^\']*\'|[^.\s]+)\s*(?:\.|$)', text):
        part = m.group(1)
        if part[:1] in "\"'":
            part = part[1:-1]
        parts.append(part)
    return tuple(parts)


def _sections(source: str) -> list[_Section]:
    found: list[tuple[Path, int, int]] = []
    counts: dict[tuple[str, ...], int] = {}
    offset = 0
    for line in source.splitlines(keepends=True):
        m = _HEADER.match(line)
        if m and "=" not in line:
            key = split_key(m.group(2))
            if m.group(1) == "[[":
                index = counts.get(key, 0)
                counts[key] = index + 1
                found.append(((*key, index), offset, offset + len(line)))
            else:
                found.append((key, offset, offset + len(line)))
        offset += len(line)
    out = []
    for i, (key, start, body) in enumerate(found):
        end = found[i + 1][1] if i + 1 < len(found) else len(source)
        out.append(_Section(key, start, body, end))
    return out


def line_of(source: str, offset: int) -> int:
    return source.count("\n", 0, offset) + 1


def _key_pattern(keys: tuple[str, ...]) -> str:
    def one(k: str) -> str:
        forms = [re.escape(f'"{k}"'), re.escape(f"'{k}'")]
        if _BARE.match(k):
            forms.insert(0, re.escape(k))
        return "(?:" + "|".join(forms) + ")"

    return r"\s*\.\s*".join(one(k) for k in keys)


def _skip_string(text: str, i: int) -> int:
    """Offset just after the string starting at ``text[i]`` (a quote)."""
    quote = text[i]
    if text.startswith(quote * 3, i):
        end = text.find(quote * 3, i + 3)
        return len(text) if end == -1 else end + 3
    j = i + 1
    while j < len(text) and text[j] not in (quote, "\n"):
        j += 2 if quote == '"' and text[j] == "\\" else 1
    return j + 1


def _value_end(text: str, i: int) -> int:
    """Offset where the value starting at ``i`` ends (at depth 0: a comma, a closing bracket, a newline)."""
    depth = 0
    while i < len(text):
        ch = text[i]
        if ch in "\"'":
            i = _skip_string(text, i)
            continue
        if ch == "#":
            i = text.find("\n", i)
            if i == -1:
                return len(text)
            continue
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            if depth == 0:
                return i
            depth -= 1
        elif depth == 0 and ch in ",\n":
            return i
        i += 1
    return i


def _element(text: str, i: int, index: int) -> tuple[int, int] | None:
    """The span of element ``index`` of the array whose ``[`` is at or after ``i``."""
    i = text.find("[", i)
    if i == -1:
        return None
    i += 1
    n = 0
    while i < len(text):
        ch = text[i]
        if ch.isspace() or ch == ",":
            i += 1
            continue
        if ch == "#":
            nl = text.find("\n", i)
            i = len(text) if nl == -1 else nl
            continue
        if ch == "]":
            return None
        end = _value_end(text, i)
        if n == index:
            return i, end
        n += 1
        i = end
    return None


def _find_in(source: str, lo: int, hi: int, rest: Path) -> tuple[int, bool]:
    """Offset of ``rest`` inside ``source[lo:hi]``, and whether all of it was found."""
    strings: list[str] = []
    for part in rest:
        if not isinstance(part, str):
            break
        strings.append(part)
    pos = None
    used = 0
    for j in range(len(strings), 0, -1):
        m = re.compile(r"(?m)^[ \t]*" + _key_pattern(tuple(strings[:j])) + r"\s*=").search(source, lo, hi)
        if m:
            pos, used = m.end() - 1, j
            key_at = m.start() + (len(m.group(0)) - len(m.group(0).lstrip(" \t")))
            break
    if pos is None:
        return lo, False
    rest = rest[used:]
    at, span_end = key_at, _value_end(source, pos + 1)
    for part in rest:
        if isinstance(part, int):
            span = _element(source, pos + 1, part)
            if span is None:
                return at, False
            at, span_end = span
            pos = at
        else:
            m = re.compile(r"(?<![\w\"'])" + _key_pattern((part,)) + r"\s*=").search(source, pos, span_end)
            if m is None:
                return at, False
            at, pos = m.start(), m.end() - 1
            span_end = _value_end(source, pos + 1)
    return at, True


def find_line(source: str, path: Path) -> int:
    """The 1-based line where ``path`` is written in ``source`` (its nearest found parent otherwise)."""
    sections = _sections(source)
    best: _Section | None = None
    for sec in sections:
        if path[: len(sec.key)] == sec.key and (best is None or len(sec.key) > len(best.key)):
            best = sec
    if best is None:
        lo, hi, rest, fallback = 0, (sections[0].start if sections else len(source)), path, 0
        if not path:
            return 1
    else:
        rest = path[len(best.key) :]
        if not rest:
            return line_of(source, best.start)
        lo, hi, fallback = best.body, best.end, best.start
    at, _found = _find_in(source, lo, hi, rest)
    if not _found and at == lo:
        # Not written in its section: maybe as a dotted key under a parent header ([tables] room.dice = ...).
        for sec in sorted(sections, key=lambda s: -len(s.key)):
            if len(sec.key) < len(path) and path[: len(sec.key)] == sec.key and sec is not best:
                at2, found2 = _find_in(source, sec.body, sec.end, path[len(sec.key) :])
                if found2 or at2 != sec.body:
                    return line_of(source, at2)
        return line_of(source, fallback)
    return line_of(source, at)
