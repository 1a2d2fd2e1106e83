"""Control characters in text: what a terminal would act on, and what companion shows instead.

Text from a player, a table pack or a save is data. A terminal acts on control characters: ESC starts
a sequence that can clear the screen, reset the terminal, set the window's title (OSC 0) or write the
clipboard (OSC 52); C1 characters (U+0080-U+009F) are the same sequences in one byte; a carriage
return overwrites the line. So before text reaches a terminal, a file meant for one (the markdown
log) or another program's input, every control character but the line feed and the tab is shown as
its picture: ESC as ␛, a carriage return as ␍, DEL as ␡, a C1 character as � (one character for
one: a rich Text keeps its styles where they were).

Where text comes in, companion refuses control characters instead: in command-line arguments
(:func:`companion.cli.group.check_arguments`) and in a pack's text (:mod:`companion.packs.bounds`).
"""

from __future__ import annotations

import re

#: What a terminal acts on: C0 but the tab and the line feed, DEL, C1.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
#: Every control character, the tab and the line feed too (what a name or an argument may not hold).
ANY_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")

_PICTURES = {c: chr(0x2400 + c) for c in range(0x20)} | {0x7F: "\u2421"} | dict.fromkeys(range(0x80, 0xA0), "\ufffd")
_VISIBLE = {c: p for c, p in _PICTURES.items() if c not in (0x09, 0x0A)}
#: DEL and C1 in JSON text: JSON escapes C0 itself, and leaves these raw.
_JSON = {c: f"\\u{c:04x}" for c in (0x7F, *range(0x80, 0xA0))}


def visible(text: str) -> str:
    """``text`` with every control character but the line feed and the tab shown as its picture."""
    return text.translate(_VISIBLE) if CONTROL.search(text) else text


def json_safe(text: str) -> str:
    """JSON text (from ``json.dumps(..., ensure_ascii=False)``) with DEL and C1 written as ``\\u`` escapes
    too: the same data, and nothing a terminal acts on (they can only be inside its strings)."""
    return text.translate(_JSON) if CONTROL.search(text) else text


def plain_text_refusal(text: str) -> str | None:
    """Why a name or an answer typed at a prompt cannot be taken (a control character in it), or None."""
    found = ANY_CONTROL.search(text.strip())
    if found is None:
        return None
    from companion.i18n import _

    return _("a name or an answer holds no control characters ({char}); type plain text").format(
        char=named(found.group())
    )


def named(char: str) -> str:
    """How a refusal names a control character: ``U+001B (ESC)``."""
    names = {0x09: "tab", 0x0A: "line feed", 0x0D: "carriage return", 0x1B: "ESC", 0x7F: "DEL", 0x07: "bell"}
    code = ord(char)
    return f"U+{code:04X}" + (f" ({names[code]})" if code in names else "")
