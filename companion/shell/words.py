"""The shell's own words: its short forms, the words it answers itself, its keys (for ``help``)."""

from __future__ import annotations

#: Short forms of the frequent verbs: what is typed → the words it stands for.
SHORT_FORMS: dict[str, tuple[str, ...]] = {
    "r": ("roll",),
    "h": ("tally", "hit"),
    "u": ("undo",),
    "s": ("status",),
    "t": ("talisman",),
    "n": ("next",),
    "l": ("log",),
    "p": ("play",),
}

#: Words the shell answers itself.
EXIT_WORDS = ("exit", "quit")
HELP_WORDS = ("help", "?")

KEYS = (
    ("Tab", "complete a command, an option, a name from the session"),
    ("Up / Down", "walk the history (kept between shells)"),
    ("Ctrl-R", "search the history"),
    ("Ctrl-C", "clear the line"),
    ("Ctrl-D, exit", "leave the shell"),
)
