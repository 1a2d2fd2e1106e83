"""The shell's own words: its short forms, the words it answers itself, its keys (for ``help``)."""

from __future__ import annotations

from companion.i18n import N_

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
    # u on a Russian (ЙЦУКЕН) keyboard, as at every prompt (u/г отмена): undo, and at a step that takes
    # text it reads two ways as u does (never saved as the answer).
    "г": ("undo",),
}

#: A gamebook's section in short: ``§213`` (or ``s213``) is ``section 213``; it reads as nothing else
#: (no command, dice expression or short form is a letter followed by digits).
SECTION_FORM = r"[§sS](\d{1,5})"

#: Words the shell answers itself.
EXIT_WORDS = ("exit", "quit")
HELP_WORDS = ("help", "?")
#: Every word the shell itself answers, or that stays a command at a pending step.
SHELL_WORDS = (*EXIT_WORDS, *HELP_WORDS, "clear", "shell", "companion")

KEYS = (
    ("Tab", N_("complete a command, an option, a name from the session")),
    (N_("Up / Down"), N_("walk the history (kept between shells)")),
    ("Ctrl-R", N_("search the history")),
    ("Ctrl-C", N_("clear the line")),
    ("Enter", N_("at a roll the game waits for: roll it with the session's virtual dice")),
    ("?", N_("at a step the game waits for: the answers it takes")),
    ("clear", N_("clear the screen")),
    ("Ctrl-D, exit", N_("leave the shell")),
)
