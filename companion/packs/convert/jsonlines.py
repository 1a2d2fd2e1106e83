"""The line of a value in a JSON text, by its path (``("oracles", "core", "contents", "action", "rows", 3)``).

:mod:`json` keeps no positions, and a refusal should say where to look. This scans the text once, up
to the value asked for, keeping the path of where it is: the line of an object member's key, or of an
array element's first character. Used only when a refusal needs it, so an import that passes never
pays for it.
"""

from __future__ import annotations

import re

_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+')


def line_of(text: str, path: tuple[str | int, ...]) -> int | None:
    """The 1-based line of the value at ``path``, or None when the text has no such value."""
    if not path:
        return 1
    # Each frame: [kind ("o" or "a"), the key or index of the value being read, whether a key comes next]
    stack: list[list] = []
    line, seen, key_line = 1, 0, 1
    for m in _TOKEN.finditer(text):
        line += text.count("\n", seen, m.start())
        seen = m.start()
        tok = m.group()
        if tok == ",":
            if stack:
                if stack[-1][0] == "a":
                    stack[-1][1] += 1
                else:
                    stack[-1][2] = True
            continue
        if tok == ":":
            continue
        if tok in "}]":
            if stack:
                stack.pop()
            continue
        if stack and stack[-1][0] == "o" and stack[-1][2]:  # an object's key
            stack[-1][1] = _string(tok)
            stack[-1][2] = False
            key_line = line
            continue
        if len(stack) == len(path) and tuple(frame[1] for frame in stack) == path:
            return key_line if stack[-1][0] == "o" else line
        if tok == "{":
            stack.append(["o", None, True])
        elif tok == "[":
            stack.append(["a", 0, False])
    return None


def _string(tok: str) -> str:
    import json

    try:
        return json.loads(tok)
    except ValueError:
        return tok.strip('"')


def nearest_line(text: str, path: tuple[str | int, ...]) -> int | None:
    """The line of ``path``, else of the deepest part of it that is there."""
    for cut in range(len(path), -1, -1):
        line = line_of(text, path[:cut])
        if line is not None:
            return line
    return None
