"""``companion shell``: one prompt that stays open beside the board.

Every line runs the very command objects of the one-shot CLI: the root click group that
``companion`` itself builds (:mod:`companion.cli.app`), with the same parser, the same output, the
same refusals and exit codes; only the Python start-up is paid once. On top of that the shell adds
what a prompt can: short forms (``r 2d6``, ``h Adelhardt``), a bare dice expression as a roll,
completion from the command tree and the session (:mod:`companion.shell.completer`), history in the
user's state folder, and a bottom toolbar with the session's live figures
(:mod:`companion.shell.toolbar`).

The shell holds the session's lock while it is open, as ``companion play`` does: a second process
is refused with one line; commands run inside the shell re-enter the lock
(:func:`companion.cli.kit.holding`).
"""

from __future__ import annotations

import os
import shlex
import sys
import traceback
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.cli.signals import Terminated, ended
from companion.shell.words import EXIT_WORDS, HELP_WORDS, KEYS, SHORT_FORMS

if TYPE_CHECKING:
    from companion.cli.env import Env

__all__ = ["EXIT_WORDS", "HELP_WORDS", "SHORT_FORMS", "Shell", "run"]

DEBUG_HINT = "set COMPANION_DEBUG=1 to see the traceback"


def history_path() -> Path:
    """The shell's history file, in the user's state folder (``COMPANION_STATE`` overrides it)."""
    override = os.environ.get("COMPANION_STATE")
    if override:
        return Path(override) / "shell-history"
    from platformdirs import user_state_dir

    return Path(user_state_dir("companion", appauthor=False)) / "shell-history"


class Shell:
    """The lines of one shell: words → the command tree, and the session it holds."""

    def __init__(self, env: Env, root_args: list[str]) -> None:
        from companion.cli.app import root_command

        self.env = env
        #: ``--data-dir``/``--logs-dir`` as given to ``companion shell``: every line runs with them.
        self.root_args = root_args
        self.root = root_command()
        self.name: str | None = None
        self._lock = ExitStack()
        self.head = "no session"
        self.figures: list[str] = []

    # ---- the session ---------------------------------------------------------------------------

    def _env(self, session: str | None = None) -> Env:
        from companion.cli.env import Env

        return Env.from_process(data_dir=self.env.data_dir, logs_dir=self.env.logs_dir, session=session)

    def hold(self, name: str | None) -> None:
        """Hold ``name``'s lock (releasing the one held before); None holds nothing."""
        from companion.cli.kit import holding, store

        self._lock.close()
        self.name = None
        if name is not None:
            files = store(self._env()).open(name)
            self._lock.enter_context(holding(files, wait=0.5))
            self.name = files.slug
        self.refresh()

    def release(self) -> None:
        self._lock.close()

    def current(self) -> str | None:
        """The current session as ``companion use``/``new`` leave it."""
        from companion.cli.kit import active_name

        return active_name(self._env())

    def refresh(self) -> None:
        """Read the toolbar's figures from the session (after every command)."""
        from companion.cli.kit import opened
        from companion.shell.toolbar import figures

        if self.name is None:
            self.head, self.figures = "no session", ["start one: new GAME", "or pick one: use NAME"]
            return
        try:
            with opened(self._env(self.name), wait=0) as session:
                self.head = f"{session.name} ({session.meta.game})"
                self.figures = figures(session) or ["nothing tracked yet"]
        except Exception as exc:  # the toolbar never ends the shell
            self.head, self.figures = self.name, [f"cannot read the session: {exc}"]

    def toolbar(self, width: int) -> list[str]:
        from companion.shell.toolbar import fit

        return fit(self.head, self.figures, width)

    # ---- a line --------------------------------------------------------------------------------

    def command_names(self) -> list[str]:
        ctx = self.root.make_context("companion", ["--help"], resilient_parsing=True)
        return [n for n in self.root.list_commands(ctx) if n != "shell"]

    def expand(self, words: list[str]) -> list[str]:
        """Short forms and bare dice expressions → the words of a command."""
        if words and words[0] == "companion":  # typed by habit
            words = words[1:]
        if not words:
            return words
        first = words[0]
        if first in SHORT_FORMS:
            return [*SHORT_FORMS[first], *words[1:]]
        if first.startswith("-") or first in self.command_names():
            return words
        if first.lower() == "check" and len(words) > 1:  # a table pack's check, as DR NAME is its table
            return ["roll", *words]
        from companion.dice.expr import parse
        from companion.errors import InputError

        try:
            parse(first)
        except InputError:
            return words
        return ["roll", *words]

    def run(self, line: str) -> int | None:
        """Run one line; its exit code, or None when the line asks to leave."""
        try:
            words = shlex.split(line)
        except ValueError as exc:
            self.env.error(f"{exc}: close the quote and try again")
            return 2
        if not words:
            return 0
        if words[0] in EXIT_WORDS and len(words) == 1:
            return None
        if words[0] in HELP_WORDS:
            if len(words) == 1:
                self.help()
                return 0
            words = [*words[1:], "--help"]
        if words[0] == "shell":
            self.env.error("this is the shell already", hint="type a command, help, or exit")
            return 2
        args = self.expand(words)
        before = self.current()
        code = self.invoke(args)
        after = self.current()
        if after != before and after != self.name:
            self.follow(after)
        else:
            self.refresh()
        return code

    def invoke(self, args: list[str]) -> int:
        """The one-shot command line ``companion ARGS``, run in this process."""
        session = ["--session", self.name] if self.name else []
        try:
            return int(
                self.root.main(args=[*self.root_args, *session, *args], prog_name="companion", standalone_mode=False)
                or 0
            )
        except KeyboardInterrupt as exc:
            if isinstance(exc, Terminated):
                raise  # SIGTERM or SIGHUP ends the shell: its line, the lock released, 143 or 129
            sys.stderr.write("\ncompanion: interrupted; every completed action is saved.\n")
            return 130
        except Exception as exc:
            if os.environ.get("COMPANION_DEBUG"):
                traceback.print_exc()
            else:
                what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
                sys.stderr.write(f"companion: unexpected error ({what}); {DEBUG_HINT}\n")
            sys.stderr.flush()
            return 1

    def follow(self, name: str | None) -> None:
        """``use``/``new`` made another session current: the shell moves to it."""
        from companion.errors import CompanionError

        try:
            self.hold(name)
        except CompanionError as exc:
            self.env.error(exc.message, exc.hint)
            self.hold(None)
            return
        if name is not None:
            self.env.echo(f"The shell is now on {self.name}.")

    def help(self) -> None:
        out = self.env
        out.echo("Every companion command works here without the 'companion' prefix:")
        out.echo("  roll 2d6 --got 3,4   tally hit Adelhardt   hp -1   status --json   dark fight")
        out.echo("A dice expression alone is a roll: 2d6, DC+1, 4dt.")
        out.echo("")
        out.echo("Short forms:")
        for short, words in SHORT_FORMS.items():
            out.echo(f"  {short:<3} {' '.join(words)}")
        out.echo("")
        out.echo("Keys:")
        for key, what in KEYS:
            out.echo(f"  {key:<13} {what}")
        out.echo("")
        out.echo("help COMMAND shows a command's options. Commands:")
        names = self.command_names()
        line = " "
        for name in names:
            if len(line) + len(name) + 1 > 78:
                out.echo(line)
                line = " "
            line += " " + name
        out.echo(line)


def run(env: Env, root_args: list[str], name: str | None) -> int:
    """Open the shell on session ``name`` (or the active one, or none) until Ctrl-D or ``exit``."""
    from companion.cli.kit import active_name

    shell = Shell(env, root_args)
    shell.hold(name or active_name(env))  # a session in use elsewhere: one line, exit 1 (by the group)
    try:
        return _interactive(shell) if env.interactive else _piped(shell)
    finally:
        shell.release()


def _piped(shell: Shell) -> int:
    """Lines from a pipe or a file: each runs as typed; no prompt, completion or toolbar."""
    code = 0
    for line in shell.env.stdin:
        result = shell.run(line.rstrip("\n"))
        if ended() is not None:  # SIGTERM or SIGHUP ended the command (it said so): the shell ends too
            return ended().code  # type: ignore[union-attr]
        if result is None:
            return 0
        code = result
    return 0 if code == 0 else code


def _interactive(shell: Shell) -> int:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.application.current import get_app
    from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
    from prompt_toolkit.history import FileHistory, InMemoryHistory

    from companion.shell.completer import CommandCompleter
    from companion.shell.prompts import settle_memory

    settle_memory()
    history: Any
    try:
        path = history_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        history = FileHistory(str(path))
    except OSError:
        history = InMemoryHistory()

    def toolbar() -> str:
        try:
            width = get_app().output.get_size().columns
        except Exception:
            width = 80
        return "\n".join(shell.toolbar(width - 1))

    prompt: Any = PromptSession(
        history=history,
        completer=CommandCompleter(shell),
        complete_while_typing=False,
        auto_suggest=AutoSuggestFromHistory(),
        bottom_toolbar=toolbar,
        enable_history_search=False,  # Ctrl-R searches; Up/Down walk the whole history
    )
    shell.env.echo("companion shell: type help for the short forms and keys; Ctrl-D or exit leaves.")
    while True:
        try:
            line = prompt.prompt(f"{shell.name or 'companion'}> ")
        except KeyboardInterrupt as exc:
            if isinstance(exc, Terminated):
                raise  # SIGTERM or SIGHUP at the prompt ends the shell: its line, the lock released
            continue  # Ctrl-C clears the line, as in bash
        except EOFError:
            break
        if shell.run(line) is None:
            break
        if ended() is not None:  # SIGTERM or SIGHUP ended the command (it said so): the shell ends too
            return ended().code  # type: ignore[union-attr]
    return 0
