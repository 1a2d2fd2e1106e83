"""The root command group: the one place where errors become one line and an exit code.

- the words of a command are checked before anything reads them (:func:`check_arguments`): an
  argument that is not UTF-8, holds a control character or is longer than any command takes is
  refused in one line (exit 2), so no name, note or number ever holds one;
- a :class:`~companion.errors.CompanionError` prints its line and exits with its code (1, or 2 for
  bad input);
- a usage error from the CLI framework prints one line (not a panel) and exits 2;
- a number too long for Python to read (over 4,300 digits) is bad input, in one line (exit 2);
- Ctrl-C exits 130 and Ctrl-D (end of input) exits 1, after saying that completed actions are saved.

Every command runs inside :meth:`CompanionGroup.invoke`, so no command repeats this.
"""

from __future__ import annotations

import functools
import os
import sys
from typing import Any

from typer.core import TyperGroup

from companion.cli import click_words
from companion.cli.signals import EXIT_INTERRUPTED, act_of, ended, interrupted_line
from companion.errors import CompanionError
from companion.i18n import N_, _, number

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2


#: The longest argument a command takes (a note of a few pages), and all of them together.
MAX_ARGUMENT = 10_000
MAX_ARGUMENTS = 100_000


def check_arguments(words: list[str]) -> str | None:
    """What is wrong with the words of a command line, if anything (a refusal's line)."""
    import re

    from companion.controls import ANY_CONTROL, named

    total = 0
    for word in words:
        total += len(word)
        if len(word) > MAX_ARGUMENT:
            return _("an argument of {n} characters ({word}); an argument holds at most {limit}").format(
                n=number(len(word), group=True), word=shown_word(word), limit=number(MAX_ARGUMENT, group=True)
            )
        bad = re.search("[\udc80-\udcff]", word)
        if bad is not None:  # a byte that is not UTF-8, as Python keeps it from the command line
            return _("{word} is not UTF-8 text (byte {byte}); type it in UTF-8").format(
                word=shown_word(word), byte=hex(ord(bad.group()) - 0xDC00)
            )
        control = ANY_CONTROL.search(word)
        if control is not None:
            return _("{word} holds a control character, {char}; type plain text").format(
                word=shown_word(word), char=named(control.group())
            )
    if total > MAX_ARGUMENTS:
        return _("the arguments hold {n} characters; at most {limit} together").format(
            n=number(total, group=True), limit=number(MAX_ARGUMENTS, group=True)
        )
    return None


def shown_word(word: str) -> str:
    """An argument as a refusal quotes it: control characters as pictures, a long one shortened."""
    from companion.controls import visible

    text = word.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    text = visible(text).replace("\n", "␊").replace("\t", "␉")
    return "'" + (text if len(text) <= 60 else text[:40] + "…" + text[-10:]) + "'"


def _stderr_line(text: str) -> None:
    """One line on stderr, control characters shown as pictures; a broken stderr says nothing more."""
    from companion.cli.env import fold_for, said

    try:
        sys.stderr.write(fold_for(sys.stderr, said(text)) + "\n")
        sys.stderr.flush()
    except OSError:
        pass


def _is_click_exception(exc: BaseException) -> bool:
    # typer vendors click privately; recognise its exceptions by their interface, not their module.
    return hasattr(exc, "format_message") and hasattr(exc, "exit_code") and hasattr(exc, "show")


class CompanionGroup(TyperGroup):
    """A TyperGroup that turns every expected failure into one line and the documented exit code.

    It also finds commands lazily: the module of a command (``COMMAND_MODULES`` in
    :mod:`companion.cli.registry`) or of a game's own group (``COMMAND_GROUPS`` in :mod:`companion.games`)
    is imported, and its click command built, only when that command is run or help lists it.
    """

    def list_commands(self, ctx: Any) -> list[str]:
        names = list(super().list_commands(ctx))
        if ctx.parent is None:
            from companion.cli.registry import COMMAND_MODULES
            from companion.games import COMMAND_GROUPS

            names.extend(n for n in [*COMMAND_MODULES, *COMMAND_GROUPS] if n not in names)
        return names

    def get_command(self, ctx: Any, name: str) -> Any:
        from companion.cli.bounds import bound_numbers

        command = super().get_command(ctx, name)
        if command is not None or ctx.parent is not None:
            return bound_numbers(command) if command is not None else None
        from companion.cli.registry import COMMAND_MODULES
        from companion.games import COMMAND_GROUPS

        if name in COMMAND_MODULES:
            built = _built(COMMAND_MODULES[name] + ":app")
            command = built.commands.get(name) if hasattr(built, "commands") else built
            speak_help(command)
            return bound_numbers(command)
        if name in COMMAND_GROUPS:
            _speak_for_game(ctx, COMMAND_GROUPS[name])
            built = _built(COMMAND_GROUPS[name])
            speak_help(built)
            built.name = name
            return bound_numbers(built)
        return None

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """List the root's commands from their typer definitions, without building each one.

        Building a click command means typer inspecting every parameter of every command (and of
        every game's group): most of ``companion --help``'s time. The short help is the same text.
        """
        if ctx.parent is not None:
            return super().format_commands(ctx, formatter)
        from companion.cli.registry import SECTIONS

        names = self.list_commands(ctx)
        if not names:
            return None
        limit = formatter.width - 6 - max(len(name) for name in names)
        placed = {name for members in SECTIONS.values() for name in members}
        sections = [(title, [n for n in members if n in names]) for title, members in SECTIONS.items()]
        sections.append((N_("Other commands"), [n for n in names if n not in placed]))
        for title, members in sections:
            if members:
                with formatter.section(_(title)):
                    formatter.write_dl([(name, _shorten(_(_short_help(name)), limit)) for name in members])
        return None

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        # ``companion odds EXPR`` takes free words, so ``odds fight GAME ...`` is routed here to its
        # own group (companion.cli.fight_cmds) rather than read as a dice expression.
        if ctx.parent is None and len(args) >= 2 and args[0] == "odds" and args[1] == "fight":
            return "odds fight", _built("companion.cli.fight_cmds:app"), args[2:]
        try:
            return super().resolve_command(ctx, args)
        except Exception as exc:
            # typer suggests from the commands already built; the root builds its commands lazily.
            if ctx.parent is None and args and _is_click_exception(exc) and "Did you mean" not in exc.message:  # type: ignore[attr-defined]
                from difflib import get_close_matches

                matches = get_close_matches(args[0], self.list_commands(ctx))
                if matches:
                    suggestions = ", ".join(repr(m) for m in matches)
                    exc.message = f"{exc.message.rstrip('.')}. Did you mean {suggestions}?"  # type: ignore[attr-defined]
            raise

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        # typer's main turns a KeyboardInterrupt while the root's options are read into a silent 130:
        # SIGTERM, SIGHUP and Ctrl-C say their line and exit with their own code there too.
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except KeyboardInterrupt as exc:
            line, code = interrupted_line(exc)
            _stderr_line("\n" + line)
            raise _exit(code) from None

    def get_help(self, ctx: Any) -> str:
        if ctx.parent is None:  # companion --help: in the active session's language, as its commands
            speak_active(ctx)
            speak_help(self)
        return super().get_help(ctx)

    def invoke(self, ctx: Any) -> Any:
        if ctx.parent is None:
            speak_active(ctx)
            from companion.store import acts

            acts.command(act_of([*getattr(ctx, "_protected_args", []), *ctx.args]))
        try:
            return super().invoke(ctx)
        except CompanionError as exc:
            if not getattr(exc, "quiet", False):  # a pipe's reader that has gone is told nothing
                _stderr_line(f"companion: {exc.message}")
                if exc.hint:
                    _stderr_line(f"  {_(exc.hint)}")
            raise _exit(exc.exit_code) from None
        except EOFError:
            _stderr_line("\ncompanion: " + _("end of input; every completed action is saved."))
            raise _exit(EXIT_ERROR) from None
        except KeyboardInterrupt as exc:
            line, code = interrupted_line(exc)
            _stderr_line("\n" + line)
            raise _exit(code) from None
        except ValueError as exc:
            if "integer string conversion" not in str(exc):
                raise
            # Python reads no number of over 4,300 digits; it is read before anything is recorded.
            _stderr_line("companion: " + _("a number of more than 4,300 digits; give a number companion can use"))
            raise _exit(EXIT_USAGE) from None

    def main(  # type: ignore[override]
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if os.environ.get(complete_var or "_COMPANION_COMPLETE"):
            # Tab in a shell: typer registers its completion classes only for apps with
            # add_completion=True, which would add its own options to every command.
            from typer.completion import completion_init

            completion_init()
        else:
            refused = check_arguments(list(sys.argv[1:] if args is None else args))
            if refused is not None:
                _stderr_line(f"companion: {refused}")
                if standalone_mode:
                    sys.exit(EXIT_USAGE)
                return EXIT_USAGE
        try:
            rv = super().main(
                args=args,
                prog_name=prog_name or "companion",
                complete_var=complete_var,
                standalone_mode=False,
                **extra,
            )
            code = rv if isinstance(rv, int) else EXIT_OK
            stop = ended()
            if stop is not None and code == EXIT_INTERRUPTED:  # typer's silent 130 between parse and run
                _stderr_line("\n" + interrupted_line(stop)[0])
                code = stop.code
        except Exception as exc:
            if _is_click_exception(exc):
                code = exc.exit_code  # type: ignore[attr-defined]
                command = getattr(getattr(exc, "ctx", None), "command_path", None) or "companion"
                where = getattr(exc, "ctx", None)
                if where is None or where.parent is None:  # a mistake in the root's own options
                    speak_active(where)
                message = click_words.message(exc)
                help_hint = _(" (see '{command} --help')").format(command=command) if code == EXIT_USAGE else ""
                if help_hint and command == "companion" and os.environ.get("COMPANION_IN_SHELL") == "1":
                    help_hint = _(" (see 'help')")  # the shell's own form ('companion dark' it says as 'dark')
                if type(exc).__name__ == "NoArgsIsHelpError":  # no arguments at all: the help is the message
                    sys.stderr.write(message + "\n")
                elif message:
                    _stderr_line(f"{command}: {message}{help_hint}")
            elif type(exc).__name__ == "Abort":  # typer's Ctrl-D while parsing
                _stderr_line("companion: " + _("end of input; every completed action is saved."))
                code = EXIT_ERROR
            else:
                raise
        if standalone_mode:
            sys.exit(code)
        return code


def _speak_for_game(ctx: Any, target: str) -> str:
    """Show a game's own commands (their help, errors and output) in the language it is played in.

    The active session's language when it plays this game, else the one asked for (COMPANION_LANG,
    the locale) when the game has it; English otherwise. Read before the game's command module is
    imported, since its help texts are words too. Nothing is read for a game with no catalogue.
    """
    from companion.games import GAMES

    game = next((g for g, package in GAMES.items() if target.startswith(package + ".")), None)
    return speak_game(ctx, game)


def speak_active(ctx: Any) -> str:
    """Show every command's words in the active session's language, or with none active in the one
    asked for (``COMPANION_LANG``, the locale); the language shown. English reads no catalogue."""
    from companion import i18n

    try:
        from companion.cli.env import Env
        from companion.cli.kit import active_language

        # Before the root's options are read (its --help, a mistake in them), their variables say it.
        params = {} if ctx is None else ctx.find_root().params
        folder = params.get("data_dir") or os.environ.get("COMPANION_HOME") or None
        env = Env.from_process(data_dir=folder, session=params.get("session") or os.environ.get("COMPANION_SESSION"))
        found = active_language(env)
    except Exception:  # an unreadable session says so when the command opens it; words only here
        return i18n.language()
    if found is None:
        return i18n.activate(i18n.choose(None))
    return i18n.activate(*found)


def speak_help(command: Any) -> None:
    """A command's help and usage in the language shown (again in English after another language, in
    one process: the shell, the tests, ``companion dark --lang en COMMAND --help`` in a Russian
    session)."""
    from companion import i18n

    if i18n.language() != i18n.SOURCE or getattr(command, "_help_spoken", False):
        from companion.cli.help_words import speak

        speak(command)


def speak_game(ctx: Any, game: str | None) -> str:
    """Show ``game``'s words in its session's language (or the one asked for); the language shown."""
    from companion import i18n

    if game is None or len(i18n.languages(game)) == 1:
        return i18n.language()
    ctx = ctx.find_root()
    lang = None
    try:
        from companion.cli.env import Env
        from companion.cli.kit import active_language

        env = Env.from_process(data_dir=ctx.params.get("data_dir"), session=ctx.params.get("session"))
        found = active_language(env)
        if found is not None and found[1] == game:
            lang = found[0]
    except Exception:  # an unreadable session says so when the command opens it; words only here
        lang = None
    return i18n.activate(lang or i18n.choose(game), game)


def _typer_app(target: str) -> Any:
    import importlib

    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def _short_help(name: str) -> str:
    """The help of root command ``name`` as its typer definition gives it (no click command built)."""
    from companion.cli.registry import COMMAND_MODULES
    from companion.games import COMMAND_GROUPS

    if name in COMMAND_GROUPS:
        info = _typer_app(COMMAND_GROUPS[name]).info
        return _text(info.help) or _text(info.callback.__doc__ if info.callback else None)
    app = _typer_app(COMMAND_MODULES[name] + ":app")
    for command in app.registered_commands:
        if command.name == name:
            return _text(command.help) or _text(command.callback.__doc__ if command.callback else None)
    for group in app.registered_groups:
        if group.name == name:
            info = group.typer_instance.info
            return _text(group.help) or _text(info.help)
    return ""


def _text(value: Any) -> str:
    import inspect

    return inspect.cleandoc(value) if isinstance(value, str) else ""


def _shorten(text: str, limit: int) -> str:
    """The first sentence of ``text`` (or its first paragraph cut at ``limit`` with "..."), as click does."""
    paragraph = " ".join(text.strip().split("\n\n")[0].split())
    end = paragraph.find(". ")
    first = paragraph if end == -1 else paragraph[: end + 1]
    if len(first) <= limit:
        return first
    cut = first[: limit - 3].rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:") + "..."


@functools.cache
def _built(target: str) -> Any:
    """The click command (or group) of the typer app at ``module:attribute``, built once."""
    import importlib

    import typer

    from companion.cli.complete import attach

    module, _, attr = target.partition(":")
    return attach(plain(typer.main.get_command(getattr(importlib.import_module(module), attr))))


def plain(command: Any) -> Any:
    """One look for help: plain text, as the root's (typer's rich boxes cost start-up, docs/startup.md).

    The games' own groups are typer apps with typer's default rich help; this sets every command
    under ``command`` to the plain formatter the root uses.
    """
    if hasattr(command, "rich_markup_mode"):
        command.rich_markup_mode = None
    for sub in (getattr(command, "commands", None) or {}).values():
        plain(sub)
    return command


def _exit(code: int) -> BaseException:
    import typer

    return typer.Exit(code)
