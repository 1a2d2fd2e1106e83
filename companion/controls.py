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

Bidirectional controls (U+202E RIGHT-TO-LEFT OVERRIDE and its kind) reorder the text after them, and
zero-width characters (U+200B ZERO WIDTH SPACE...) cannot be seen: either can make one name look like
another, or a note say what it does not. They are data all the same: kept as typed in the events, and
in JSON (escaped, ``\u202e``); shown as their code (``⟨U+202E⟩``) at a terminal and in the markdown log;
left out of a page (:func:`html_safe`); refused in a name, which is an identifier
(:func:`name_refusal`).
"""

from __future__ import annotations

import re

#: What a terminal acts on: C0 but the tab and the line feed, DEL, C1.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
#: Every control character, the tab and the line feed too (what a name or an argument may not hold).
ANY_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")

#: Bidirectional controls and zero-width (invisible) characters.
INVISIBLE = re.compile("[\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
#: What a terminal acts on or cannot show: CONTROL and INVISIBLE.
UNSEEN = re.compile(CONTROL.pattern[:-1] + INVISIBLE.pattern[1:])

_PICTURES = {c: chr(0x2400 + c) for c in range(0x20)} | {0x7F: "\u2421"} | dict.fromkeys(range(0x80, 0xA0), "\ufffd")
_VISIBLE = {c: p for c, p in _PICTURES.items() if c not in (0x09, 0x0A)}
#: DEL and C1 in JSON text: JSON escapes C0 itself, and leaves these raw.
_JSON = {c: f"\\u{c:04x}" for c in (0x7F, *range(0x80, 0xA0))}


def visible(text: str) -> str:
    """``text`` with every control character but the line feed and the tab shown as its picture, and
    each bidirectional or zero-width character as its code (``⟨U+202E⟩``)."""
    if not UNSEEN.search(text):
        return text
    if CONTROL.search(text):
        text = text.translate(_VISIBLE)
    return INVISIBLE.sub(lambda m: f"⟨U+{ord(m.group()):04X}⟩", text)


def json_safe(text: str) -> str:
    """JSON text (from ``json.dumps(..., ensure_ascii=False)``) with DEL, C1, bidirectional and zero-width
    characters written as ``\\u`` escapes too: the same data, and nothing a terminal acts on (they can
    only be inside its strings)."""
    if not UNSEEN.search(text):
        return text
    return INVISIBLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text.translate(_JSON))


def html_safe(text: str) -> str:
    """A page's text with every control character shown as its picture (ESC as ␛: a raw one is an HTML
    parse error) and each bidirectional or zero-width character left out (it could reorder or hide what
    the page shows)."""
    if not UNSEEN.search(text):
        return text
    return INVISIBLE.sub("", text.translate(_VISIBLE))


def name_refusal(text: str) -> str | None:
    """Why ``text`` cannot be a name (of a tally, a hero, a session, an item), or None: a name is an
    identifier, so it is not blank and holds no control, bidirectional or zero-width character."""
    from companion.i18n import _

    if not text.strip():
        return _("a name cannot be blank; type at least one letter or digit")
    found = ANY_CONTROL.search(text) or INVISIBLE.search(text)
    if found is None:
        return None
    return _("{name} holds {char}; a name holds no control, bidirectional or invisible characters").format(
        name="'" + visible(text) + "'", char=named(found.group())
    )


def plain_text_refusal(text: str) -> str | None:
    """Why a name or an answer typed at a prompt cannot be taken (a control, bidirectional or zero-width
    character in it), or None."""
    found = ANY_CONTROL.search(text.strip()) or INVISIBLE.search(text.strip())
    if found is None:
        return None
    from companion.i18n import _

    return _("a name or an answer holds no control characters ({char}); type plain text").format(
        char=named(found.group())
    )


def named(char: str) -> str:
    """How a refusal names a control character: ``U+001B (ESC)``."""
    names = {
        0x09: "tab",
        0x0A: "line feed",
        0x0D: "carriage return",
        0x1B: "ESC",
        0x7F: "DEL",
        0x07: "bell",
        0x200B: "zero width space",
        0x200C: "zero width non-joiner",
        0x200D: "zero width joiner",
        0x200E: "left-to-right mark",
        0x200F: "right-to-left mark",
        0x202A: "left-to-right embedding",
        0x202B: "right-to-left embedding",
        0x202C: "pop directional formatting",
        0x202D: "left-to-right override",
        0x202E: "right-to-left override",
        0x2060: "word joiner",
        0x2066: "left-to-right isolate",
        0x2067: "right-to-left isolate",
        0x2068: "first strong isolate",
        0x2069: "pop directional isolate",
        0xFEFF: "zero width no-break space",
    }
    code = ord(char)
    return f"U+{code:04X}" + (f" ({names[code]})" if code in names else "")
