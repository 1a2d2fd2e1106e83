"""``--help`` in the language shown: the commands' own help texts, and the framework's words.

A command's help (its docstring or ``help=``), its options' and arguments' help and its epilog are
message ids as they are: ``scripts/i18n.py`` collects them from the command tree itself
(:func:`texts`), and :func:`speak` puts each through the catalogue when help is shown. typer and its
vendored click write their own words (Usage, Options, Commands, "Show this message and exit.") in
English; they come from companion's catalogue too. Only called when the words are not English, so
English help is exactly what it was.
"""

from __future__ import annotations

from typing import Any

from companion.i18n import N_, _

#: typer's help panel words (module constants of ``typer.rich_utils``, read when help is drawn).
PANEL_WORDS = {
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "ERRORS_PANEL_TITLE": N_("Error"),
    "REQUIRED_LONG_STRING": N_("[required]"),
    "DEFAULT_STRING": N_("[default: {}]"),
    "DEPRECATED_STRING": N_("(deprecated) "),
}
USAGE = N_("Usage:")
HELP = N_("Show this message and exit.")


def speak(command: Any) -> None:
    """Put the framework's words of ``command`` and every command under it into the language shown now."""
    import typer.core
    from typer import rich_utils
    from typer._click.formatting import HelpFormatter

    for name, words in PANEL_WORDS.items():
        setattr(rich_utils, name, _(words))
    # Plain help: typer.core titles its sections with gettext's _("Options") / _("Commands"), and the
    # vendored click's formatter writes "Usage: " itself. Both go through companion's catalogue.
    typer.core._ = _  # type: ignore[attr-defined]
    if not getattr(HelpFormatter.write_usage, "_spoken", False):
        write_usage = HelpFormatter.write_usage

        def spoken_usage(self: Any, prog: str, args: str = "", prefix: str | None = None) -> None:
            write_usage(self, prog, args, f"{_(USAGE)} " if prefix is None else prefix)

        spoken_usage._spoken = True  # type: ignore[attr-defined]
        HelpFormatter.write_usage = spoken_usage  # type: ignore[method-assign]
    _command(command)


def texts(command: Any) -> list[str]:
    """Every help text of ``command`` and the commands under it (what the catalogue translates)."""
    found = [t for t in (command.help, command.short_help, command.epilog) if t]
    found += [p.help for p in command.params if getattr(p, "help", None)]
    for sub in getattr(command, "commands", {}).values():
        found += texts(sub)
    return found


def _command(command: Any) -> None:
    # The texts as written are kept the first time, and every call translates those: one process may
    # show help in Russian, then in English (the shell, tests that run commands in-process).
    source = command.__dict__.setdefault("_help_source", {})
    for attr in ("help", "short_help", "epilog"):
        text = source.setdefault(attr, getattr(command, attr, None))
        if text:
            setattr(command, attr, _(text))
    for param in command.params:
        if getattr(param, "help", None):
            text = param.__dict__.setdefault("_help_source", param.help)
            param.help = _(text)
    if not command.__dict__.get("_help_spoken"):
        _spoken_words(command)
    for sub in getattr(command, "commands", {}).values():
        _command(sub)


def _spoken_words(command: Any) -> None:
    command._help_spoken = True
    usage, help_option = command.get_usage, command.get_help_option

    def get_usage(ctx: Any) -> str:
        return usage(ctx).replace("Usage:", _(USAGE), 1)

    def get_help_option(ctx: Any) -> Any:
        option = help_option(ctx)
        if option is not None:
            option.help = _(HELP)
        return option

    command.get_usage, command.get_help_option = get_usage, get_help_option
