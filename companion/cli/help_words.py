"""The CLI framework's own words in ``--help`` (Usage, Options, Commands, "Show this message and exit.").

typer and its vendored click write these in English; a command tree shown in another language gets
them from companion's catalogue instead. Only called when the words are not English, so English help
is exactly the framework's.
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
    from typer import rich_utils

    for name, words in PANEL_WORDS.items():
        setattr(rich_utils, name, _(words))
    _command(command)


def _command(command: Any) -> None:
    usage, help_option = command.get_usage, command.get_help_option

    def get_usage(ctx: Any) -> str:
        return usage(ctx).replace("Usage:", _(USAGE), 1)

    def get_help_option(ctx: Any) -> Any:
        option = help_option(ctx)
        if option is not None:
            option.help = _(HELP)
        return option

    command.get_usage, command.get_help_option = get_usage, get_help_option
    for sub in getattr(command, "commands", {}).values():
        _command(sub)
