"""Tab completion in ``companion shell``, from the command tree itself.

The words before the cursor are resolved against the root click group exactly as click's own shell
completion does for ``companion completion bash`` (``_resolve_context`` and ``_resolve_incomplete``
of typer's vendored click): the command or option under the cursor then completes itself through
its ``shell_complete``, so a parameter's completer (:mod:`companion.cli.complete`: session, game and
variant names, tallies, heroes, monsters, tables, Dark Tower cards, the pending ``next`` options)
is one definition for both front ends. At the first word, the shell's own words (help, exit) are
offered too; the one-letter short forms are listed by ``help``, and expand before the rest completes.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

from prompt_toolkit.completion import Completer, Completion

if TYPE_CHECKING:
    from prompt_toolkit.document import Document


class Lines(Protocol):
    """What the completer needs of the shell (:class:`companion.shell.repl.Shell` is one): the root
    command, the root options and session every line runs with, and its short forms expanded.
    The completer knows the shell only by this, so neither module imports the other's."""

    root: Any
    root_args: list[str]
    name: str | None
    #: The step the game waits for (a bare answer completes to its menu's keys), or None.
    pending: Any

    def _env(self, session: str | None = None) -> Any: ...

    def expand(self, words: list[str]) -> list[str]: ...


def split(text: str) -> tuple[list[str], str]:
    """The complete words before the cursor, and the word being typed (possibly empty)."""
    words, incomplete, _ = _split(text)
    return words, incomplete


def _split(text: str) -> tuple[list[str], str, int]:
    """:func:`split`, and how many characters of ``text`` the word being typed takes (its quote too)."""
    try:
        words = shlex.split(text)
    except ValueError:  # an open quote: the word being typed starts at it
        quote = max(text.rfind('"'), text.rfind("'"))
        try:
            words = shlex.split(text[:quote])
        except ValueError:
            words = text[:quote].split()
        return words, text[quote + 1 :], len(text) - quote
    if text and not text[-1].isspace() and words:
        start = max(text.rfind(" "), text.rfind("\t")) + 1
        return words[:-1], words[-1], len(text) - start
    return words, "", 0


#: Columns the completion menu takes besides its two texts (padding, scroll bar, the last column).
MENU_MARGIN = 8


def _columns() -> int:
    import shutil

    return shutil.get_terminal_size((80, 24)).columns


def _shorten(text: str, room: int) -> str:
    """``text`` cut between words to ``room`` columns, with "…" (whole when it fits)."""
    text = " ".join(text.split())
    if len(text) <= room or room < 8:
        return text
    cut = text[: room - 1].rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:(") + "…"


class CommandCompleter(Completer):
    def __init__(self, shell: Lines) -> None:
        self.shell = shell

    def get_completions(self, document: Document, complete_event: Any) -> Iterable[Completion]:
        text = document.text_before_cursor
        words, incomplete, typed = _split(text)
        found = self.candidates(words, incomplete)
        # The menu cuts a help that does not fit mid-word: cut it between words first, to the room
        # the menu leaves beside the widest value (its borders and padding take a few columns).
        room = _columns() - max((len(v) for v, _about in found), default=0) - MENU_MARGIN
        for value, about in found:
            # A name with a space is inserted quoted, so that it stays one word; a whole word is followed
            # by a space (the next word can be typed, or Tab pressed again), a folder by nothing.
            insert = shlex.quote(value) if any(c.isspace() or c in "'\"\\$`;&|<>()" for c in value) else value
            if not value.endswith("/"):
                insert += " "
            meta = _shorten(about, room) if about else None
            yield Completion(insert, start_position=-typed, display=value, display_meta=meta)

    def candidates(self, words: list[str], incomplete: str) -> list[tuple[str, str]]:
        """(value, help) pairs for the word being typed after ``words``."""
        from companion.shell.words import EXIT_WORDS, HELP_WORDS

        shell = self.shell
        if words and words[0] in HELP_WORDS:
            words = words[1:]
        if not words:
            found = self._tree([], incomplete)
            extra = [(w, "") for w in (*HELP_WORDS[:1], *EXIT_WORDS) if w.startswith(incomplete)]
            return self._answers(incomplete) + [c for c in found if c[0] != "shell"] + extra
        return self._tree(shell.expand(words), incomplete)

    def _answers(self, incomplete: str) -> list[tuple[str, str]]:
        """A bare answer to the menu the game waits for: its options' keys, with their labels."""
        pending = getattr(self.shell, "pending", None)
        request = getattr(pending, "request", None)
        if request is None or getattr(pending, "kind", "") != "choice" or getattr(pending, "private", False):
            return []
        from companion.cli.complete import option_keys

        return option_keys(request, incomplete)

    def _tree(self, args: list[str], incomplete: str) -> list[tuple[str, str]]:
        from typer._click.shell_completion import _resolve_context, _resolve_incomplete

        shell = self.shell
        session = ["--session", shell.name] if shell.name else []
        try:
            ctx = _resolve_context(
                shell.root, {"obj": shell._env(shell.name)}, "companion", [*shell.root_args, *session, *args]
            )
            obj, incomplete = _resolve_incomplete(ctx, list(args), incomplete)
            items = obj.shell_complete(ctx, incomplete)
        except Exception:  # a half-typed line never breaks the prompt
            return []
        return [(str(item.value), item.help or "") for item in items if getattr(item, "type", "plain") == "plain"]
