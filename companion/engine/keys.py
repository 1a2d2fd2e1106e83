"""Each option of a menu has a key: a few letters that stay the same while the table changes.

A player learns the keys of the menus they meet every turn: End is always ``en``, an attack on the
Carrion Crawler is ``cc`` (the monster's letters), Bram's turn is ``br`` (the hero's letters). The
number of an option moves when an option comes or goes; its key does not. ``companion next`` and the
shell list the keys, ``next --json`` gives them, and a bare key answers the menu (numbers 1-9 answer
too: past nine an option has its key only, so a digit never waits for a second one).

Where the key comes from, in order:

1. the option's own :attr:`companion.engine.requests.Option.key`, where a game gives one (a table of
   keys made once over every name that can appear: the Adventure's areas by their monsters);
2. where its value names something after a colon (``attack:giant-rat``), that name's letters (the
   Giant Rat's ``gr``);
3. else its label's first word (``Advance`` ad, ``End Sam's turn`` en), or the initials of its first
   two words where two options start alike.

Two options whose first choice is the same: the later one takes its next candidate (longer letters).
A key is never a word the shell reads otherwise: a command (``hp``, ``log``), a short form (``h``), a
dice expression (``dc``, ``dr``) or the shell's own words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.engine.requests import Option

#: Words left out of a label's letters.
STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "and",
        "or",
        "in",
        "on",
        "at",
        "by",
        "for",
        "with",
        "from",
        "its",
        "it",
        "his",
        "her",
        "their",
        "your",
        "my",
        "this",
        "that",
        "here",
        "is",
        "are",
        "be",
        "one",
    ]
)

#: Words a bare line reads as something else: the root commands, the shell's short forms and its own
#: words, the guided menu's own keys, and the table pack fight's words (tests/test_keys.py checks the
#: commands against the command tree).
RESERVED = frozenset(
    [
        "amend",
        "completion",
        "dark",
        "dice",
        "dragon",
        "dungeon",
        "export",
        "fight",
        "floor",
        "gamedata",
        "gold",
        "haunted",
        "hp",
        "item",
        "log",
        "mode",
        "new",
        "next",
        "note",
        "odds",
        "play",
        "redo",
        "roll",
        "rooms",
        "room",
        "section",
        "sections",
        "serve",
        "sessions",
        "shell",
        "simulate",
        "status",
        "tables",
        "talisman",
        "tally",
        "tower",
        "tracker",
        "undo",
        "use",
        "xp",
        "r",
        "h",
        "u",
        "s",
        "t",
        "n",
        "l",
        "p",
        "q",
        "v",
        "j",
        "k",
        "exit",
        "quit",
        "help",
        "clear",
        "companion",
        "luck",
        "flee",
        "check",
    ]
)

_WORD = re.compile(r"[^\W\d_]+")


def words(text: str) -> list[str]:
    """The letters of ``text`` as words, lower case, without the small words (``Attack the Harpy`` →
    attack, harpy)."""
    found = [w.lower() for w in _WORD.findall(text)]
    kept = [w for w in found if w not in STOP]
    return kept or found


def candidates(ws: Sequence[str], name: bool = False) -> Iterator[str]:
    """The keys some words may have, shortest and likeliest first: the first word's first two letters
    (``Advance`` ad, ``End Sam's turn`` en), or for a ``name`` of several words its initials first
    (``Carrion Crawler`` cc); then longer."""
    if not ws:
        return
    first = ws[0]
    if len(ws) > 1:
        second = ws[1]
        initials = [first[0] + second[0]] + ([first[0] + second[0] + ws[2][0]] if len(ws) > 2 else [])
        yield from [*initials, first[:2]] if name else [first[:2], *initials]
        yield first[:2] + second[0]
        yield first[0] + second[:2]
    else:
        yield first[:2]
    for n in range(3, len(first) + 1):
        yield first[:n]
    for n in range(2, 10):
        yield first + str(n)


@lru_cache(maxsize=512)
def _is_dice(word: str) -> bool:
    from companion.dice.expr import parse
    from companion.errors import InputError

    try:
        parse(word)
    except (InputError, ValueError):
        return False
    return True


def usable(key: str, taken: Iterable[str] = ()) -> bool:
    """Whether ``key`` may be a key: letters, not taken, not a word the shell reads otherwise."""
    return bool(key) and key.isalpha() and key not in RESERVED and key not in taken and not _is_dice(key)


def letters(ws: Sequence[str], taken: Iterable[str] = (), name: bool = False) -> str:
    """The first usable key of the words ``ws`` (a ``name``'s: its initials first)."""
    taken = set(taken)
    for key in candidates(ws, name):
        if usable(key, taken):
            return key
    return ""


def assign(names: Iterable[str], taken: Iterable[str] = ()) -> dict[str, str]:
    """Keys for ``names`` in order, each unique among them and apart from ``taken``: a game's table of
    keys, made once over every name that can appear, so that a name keeps its key whatever else is on
    the table."""
    used = set(taken)
    out: dict[str, str] = {}
    for name in names:
        key = letters(words(name), used, name=True)
        out[name] = key
        used.add(key)
    return out


def option_words(option: Option) -> tuple[list[str], bool]:
    """The words an option's key is made of, and whether they are a name: after a colon in its value,
    the name it points at (``attack:giant-rat``: the Giant Rat, ``gr``); else its label's words."""
    _verb, _colon, target = option.value.partition(":")
    if target and re.fullmatch(r"[a-z][a-z_-]*", target):
        ws = [w for w in re.split(r"[-_]+", target) if w]
        return [w for w in ws if w not in STOP] or ws, True
    return words(option.label), False


#: The keys of the values every game's menus share, in English: Back is always ``ba``, Done ``do``.
SHARED = {"back": "ba", "__back__": "ba", "done": "do"}


def keys_of(options: Sequence[Option]) -> tuple[str, ...]:
    """Each option's key: its own where it gives one, else made from its words (see the module)."""
    from companion.i18n import language

    english = language() == "en"  # Back and Done keep ba and do in English; else their words' letters
    taken: set[str] = set()
    out: list[str] = [""] * len(options)
    for i, o in enumerate(options):  # the game's own keys first: they keep them
        own = getattr(o, "key", "") or (SHARED.get(o.value, "") if english else "")
        if own and usable(own, taken):
            out[i] = own
            taken.add(own)
    for i, o in enumerate(options):
        if not out[i]:
            ws, name = option_words(o)
            key = letters(ws, taken, name) or letters(words(o.value), taken) or f"o{i + 1}"
            out[i] = key
            taken.add(key)
    return tuple(out)
