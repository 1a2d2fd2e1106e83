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
import re
import shlex
import sys
import traceback
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.cli.signals import Terminated, ended
from companion.i18n import N_, _
from companion.shell.words import EXIT_WORDS, HELP_WORDS, KEYS, SECTION_FORM, SHELL_WORDS, SHORT_FORMS

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.engine.board import Board
    from companion.engine.pending import Pending

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
        #: The step the session's game waits for (None: none, or no guided game), and what of it
        #: was shown last (a step is shown again only when it changed).
        self.pending: Pending | None = None
        #: The session's actions, and how many undo took back that redo can bring back.
        self.count = self.redo_left = 0
        self._shown: tuple | None = None
        self.board: Board | None = None
        self._forms: re.Pattern[str] | None = None
        #: A person at a terminal (steps shown above the prompt), not lines from a pipe.
        self.interactive = env.interactive

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
        from companion.engine.pending import of_session
        from companion.shell.toolbar import figures

        self.pending, self.board, self.count, self.redo_left = None, None, 0, 0
        if self.name is None:
            self.head, self.figures = _("no session"), [_("start one: new GAME"), _("or pick one: use NAME")]
            return
        try:
            with opened(self._env(self.name), wait=0) as session:
                from companion.shell.toolbar import game_words

                self.head = f"{session.name} ({game_words(session)})"
                self.count, self.redo_left = session.count, len(session.redo_entries)
                here = session.state.trackers.sections.current
                if here is not None and session.spec.provides("board"):  # the section read, in view
                    self.head += f" §{here}"  # (without a board, the figures say it: status's rows)
                self.figures = figures(session) or [_("nothing tracked yet")]
                self.board = session.spec.board_of(session.state)
                self.pending = of_session(session)
                if self.pending is None and session.state.trackers.fight is not None:
                    from companion.cli.pack_fight import pending_step  # a table pack's fight: its next round

                    self.pending = pending_step(self._env(self.name), session)
        except Exception as exc:  # the toolbar never ends the shell
            self.head, self.figures = self.name, [_("cannot read the session: {why}").format(why=exc)]

    def toolbar(self, width: int) -> list[str]:
        from companion.shell.toolbar import bar

        return bar(self.head, self.figures, width, board=self.board, step=self.pending)

    # ---- the pending step ----------------------------------------------------------------------

    def _signature(self) -> tuple | None:
        p = self.pending
        return None if p is None else (self.name, p.key, p.text, tuple(o.label for o in p.options), p.enter_rolls)

    def show_step(self, again: bool = False) -> None:
        """Show the pending step above the prompt (once; ``again`` shows it anyway)."""
        signature = self._signature()
        if self.pending is None or (signature == self._shown and not again):
            self._shown = signature
            return
        from companion.cli.play_cmds import show_pending

        self._shown = signature
        if not self.interactive:
            return  # piped lines print what their commands print, as one-shot, and no more
        with self._in_shell():
            show_pending(self._env(self.name), self.pending, shell=True)

    def show_keys(self) -> None:
        p = self.pending
        assert p is not None
        from companion.cli.env import fold_for

        self.env.echo(_("Answers to this step:"))
        for key in p.keys:  # folded between words, the rest under the line's start
            self.env.echo(fold_for(self.env.stdout, f"  {key}"))
        self.env.echo(
            fold_for(
                self.env.stdout, _("  a command word is always a command (next ANSWER answers too); help lists them")
            )
        )

    def bare(self, words: list[str], line: str) -> list[str] | int | None:
        """A line read as an answer to the pending step: the words of ``next`` it runs, an exit code
        (refused: the line reads two ways, or as no answer at all), or None (not an answer)."""
        p = self.pending
        if p is None or not words:
            return None
        first = words[0]
        if first in SHELL_WORDS or first in self.command_names() or re.fullmatch(SECTION_FORM, first):
            return None  # a command word stays a command (and §213 is section 213)
        if first in SHORT_FORMS:
            # A one-letter short form that is also this step's answer reads two ways: refused.
            from companion.engine.pending import read_bare

            if len(words) == 1 and read_bare(p, first).ok:
                self.env.error(
                    _(
                        "{word!r} reads two ways: the command {command} (type {command}) or this step's answer "
                        "(type next {word})"
                    ).format(word=first, command=" ".join(SHORT_FORMS[first]))
                )
                return 2
            return None
        if first.startswith("-") and not (p.kind == "number" and first.lstrip("-").isdigit()):
            if p.kind == "text" and not first.startswith("--"):
                return ["next", line.strip()]  # "-" for none (a card's special ability), "-2 HP"
            return None
        other = dict(p.words)
        if len(words) == 1 and first.lower() in other:
            return list(other[first.lower()])
        from companion.engine.pending import read_bare

        if p.secret and not p.enter_rolls:
            self.env.error(_("this step is secret: press Enter and type it unseen"))
            return 2
        reading = read_bare(p, " ".join(words) if p.kind != "text" else line)
        dice = _dice_expression(first)
        if p.split and all(w.replace(",", "").isdigit() for w in words):  # faces of several rolls
            return (_grouped(p, reading.words) if reading.ok else None) or self._ungrouped(p)
        if reading.both:
            self.env.error(reading.both)
            return 2
        if reading.ok and dice:
            self.env.error(
                _(
                    "{line!r} reads two ways: the roll {line} (type roll {line}) or this step's answer"
                    " (type next {line})"
                ).format(line=line.strip())
            )
            return 2
        if reading.ok:
            return [*p.run, *reading.words]
        if dice:
            return None
        import difflib

        # Three suggestions, as the shell gives for a typo off a step: "rool" is room, roll or rooms.
        near = difflib.get_close_matches(first, self.command_names(), n=3)
        maybe = ""
        if len(near) == 1:
            maybe = _("or did you mean the command {cmd}?").format(cmd=near[0]) + " "
        elif near:
            maybe = _("or did you mean one of the commands {cmds}?").format(cmds=", ".join(near)) + " "
        hint = maybe + _("? shows this step's answers; help, the commands")
        self.env.error(reading.error, hint)
        return 2

    def _ungrouped(self, p: Pending) -> int:
        from companion.i18n import _

        self.env.error(
            _("type each die, {n} in all (each roll's dice in turn, e.g. {example}), or Enter to roll them").format(
                n=sum(p.split), example=p.example
            )
        )
        return 2

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
        section = re.fullmatch(SECTION_FORM, first)
        if section:  # §213: section 213
            return ["section", section.group(1), *words[1:]]
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
            if self.pending is not None and self.pending.kind == "text" and line.strip():
                return self._answer(["next", line.strip()])  # a name with an apostrophe: O'Brien
            self.env.error(_("{what}: close the quote and try again").format(what=_(str(exc))))
            return 2
        if not words and self.pending is not None and self.pending.secret and not self.pending.enter_rolls:
            return self._secret()  # Enter at a secret step: typed unseen
        if not words:
            if self.pending is not None and self.pending.kind == "roll" and self.pending.enter_rolls:
                # Enter: the session's virtual dice
                return self._answer(["next", "roll"] if self.pending.run == ("next",) else list(self.pending.run))
            self.show_step(again=True)
            return 0
        if words[0] in EXIT_WORDS and len(words) == 1:
            return None
        if words == ["?"] and self.pending is not None:
            self.show_keys()
            return 0
        if words == ["clear"]:
            self.clear()
            return 0
        answer = self.bare(words, line)
        if isinstance(answer, int):
            return answer
        if answer is not None:
            return self._answer(answer)
        if words[0] in HELP_WORDS:
            if len(words) == 1:
                self.help()
                return 0
            words = [*words[1:], "--help"]
        if words[0] == "shell":
            self.env.error(_("this is the shell already"), hint=_("type a command, help, or exit"))
            return 2
        args = self.expand(words)
        before = self.current()
        code = self.invoke(args)
        after = self.current()
        # ``use NAME`` moves the shell even when NAME was already current (made so by another
        # terminal); any other change of the current session, by this shell's commands, moves it too.
        moved = after != before or (code == 0 and args[:1] == ["use"])
        if moved and after != self.name:
            self.follow(after)
        else:
            self.refresh()
        self._draws(args[0] if code == 0 and args[:1] in (["undo"], ["redo"]) else None)
        if args[:1] == ["next"]:
            self._shown = self._signature()  # next showed the step itself
        else:
            self.show_step()
        return code

    def _answer(self, args: list[str]) -> int:
        """Answer the pending step with ``companion next ARGS``, the same command, in this process."""
        private = self.pending is not None and self.pending.private
        code = self.invoke(args)
        if private and code == 0:
            self.clear(show=False)  # a menu for one player's eyes leaves no trace on the screen
        self.refresh()
        self._draws()
        if private and code == 0:
            self.show_step(again=True)  # the screen was cleared under next's own showing of it
        self._shown = self._signature()  # next showed the next step itself
        return code

    def _draws(self, after: str | None = None) -> None:
        """A draw companion makes from a cup it keeps (a virtual-only roll) is made at once, as guided
        play makes it: ``next roll``, with the session's virtual dice. After an ``undo`` that leaves
        one waiting, the shell goes back over it too (``undo`` again, as guided play's u does), rather
        than draw it again; after a ``redo``, the draws undo took back are redone, so that redo can
        still bring back what came after them."""
        from companion.engine.requests import RollRequest

        for _draw in range(100):  # a game draws a few chits at a time, never without end
            p = self.pending
            request = p.request if p is not None else None
            if not (isinstance(request, RollRequest) and request.virtual):
                return
            if after == "undo":
                if not self.count or self.invoke(["undo"]) != 0:
                    return
            elif self.invoke(["redo"] if after == "redo" and self.redo_left else ["next", "roll"]) != 0:
                return
            self.refresh()

    def _secret(self) -> int:
        """A secret step (a chit drawn in private): its faces are typed unseen, then answered by next."""
        from companion.i18n import _

        if not self.interactive:
            self.env.error(_("this step is secret: answer it at a terminal, unseen (or with next FACES)"))
            return 2
        from prompt_toolkit import prompt

        assert self.pending is not None
        try:
            faces = prompt(_("{what} (typed unseen): ").format(what=self.pending.text), is_password=True)
        except (EOFError, KeyboardInterrupt):
            return 130
        return self._answer(["next", *faces.replace(",", " ").split()]) if faces.strip() else 0

    def clear(self, show: bool = True) -> None:
        """Clear the screen and its scroll-back (the step waiting is shown again under it)."""
        if self.env.stdout_isatty:
            self.env.stdout.write("\x1b[H\x1b[2J\x1b[3J")
            self.env.stdout.flush()
        if show:
            self.show_step(again=True)

    def _in_shell(self) -> ExitStack:
        """While a command runs here: hints in the shell's forms, and the environment saying so."""
        from companion.cli.play_cmds import IN_SHELL
        from companion.shell.forms import ShellForms, prefix_pattern

        if self._forms is None:
            self._forms = prefix_pattern([*self.command_names(), "shell"])
        stack = ExitStack()
        saved = (sys.stdout, sys.stderr, os.environ.get(IN_SHELL))

        def restore() -> None:
            sys.stdout, sys.stderr = saved[0], saved[1]
            if saved[2] is None:
                os.environ.pop(IN_SHELL, None)
            else:
                os.environ[IN_SHELL] = saved[2]

        stack.callback(restore)
        os.environ[IN_SHELL] = "1"
        sys.stdout = ShellForms(saved[0], self._forms)  # type: ignore[assignment]
        sys.stderr = ShellForms(saved[1], self._forms)  # type: ignore[assignment]
        return stack

    def invoke(self, args: list[str]) -> int:
        """The one-shot command line ``companion ARGS``, run in this process."""
        session = ["--session", self.name] if self.name else []
        try:
            with self._in_shell():
                return int(
                    self.root.main(
                        args=[*self.root_args, *session, *args], prog_name="companion", standalone_mode=False
                    )
                    or 0
                )
        except KeyboardInterrupt as exc:
            if isinstance(exc, Terminated):
                raise  # SIGTERM or SIGHUP ends the shell: its line, the lock released, 143 or 129
            sys.stderr.write("\ncompanion: " + _("interrupted; every completed action is saved.") + "\n")
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
            self.env.echo(_("The shell is now on {name}.").format(name=self.name))

    def help(self) -> None:
        out = self.env
        out.echo(_("Every companion command works here without the 'companion' prefix:"))
        out.echo(_("  roll 2d6 --got 3,4   tally hit Adelhardt   hp -1   status --json   dark fight"))
        out.echo(_("A dice expression alone is a roll: 2d6, DC+1, 4dt."))
        out.echo("")
        out.echo(_("Short forms:"))
        for short, words in SHORT_FORMS.items():
            out.echo(f"  {short:<3} {' '.join(words)}")
        out.echo("")
        out.echo(_("Keys:"))
        import shutil
        import textwrap

        # Folded between words under their own column, one short of the terminal's edge.
        width = max(40, shutil.get_terminal_size((80, 24)).columns - 1)
        for key, what in KEYS:
            head = f"  {_(key):<13} "
            out.echo(textwrap.fill(_(what), width, initial_indent=head, subsequent_indent=" " * len(head)))
        out.echo("")
        out.echo(_("help COMMAND shows a command's options. Commands:"))
        out.echo(textwrap.fill(" ".join(self.command_names()), width, initial_indent="  ", subsequent_indent="  "))


#: What shlex says of a line it cannot split (its words, in the language shown).
SHLEX_WORDS = (N_("No closing quotation"), N_("No escaped character"))


def _dice_expression(word: str) -> bool:
    """Whether ``word`` alone is a dice expression (the shell rolls it)."""
    from companion.dice.expr import parse
    from companion.errors import InputError

    try:
        parse(word)
    except InputError:
        return False
    return True


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
    failed = 0
    for line in shell.env.stdin:
        result = shell.run(line.rstrip("\n"))
        if ended() is not None:  # SIGTERM or SIGHUP ended the command (it said so): the shell ends too
            return ended().code  # type: ignore[union-attr]
        if result is None:
            break
        failed = result or failed  # a line that failed makes the whole run fail (its last error code)
    return failed


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
    shell.env.echo(_("companion shell: type help for the short forms and keys; Ctrl-D or exit leaves."))
    shell.show_step()  # the step the game waits for, above the first prompt
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


def _grouped(p: Pending, faces: tuple[str, ...]) -> list[str] | None:
    """``4 5 3 3`` for rolls of 2 and 2 dice → ``--got 4,5/3,3`` after the step's command."""
    if len(faces) != sum(p.split) or any(not f[:1].isalnum() for f in faces):
        return None
    rolls, at = [], 0
    for n in p.split:
        rolls.append(",".join(faces[at : at + n]))
        at += n
    return [*p.run, "--got", "/".join(rolls)]
