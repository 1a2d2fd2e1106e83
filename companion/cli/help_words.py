"""``--help`` in the language shown: the commands' own help texts, and the framework's words.

A command's help (its docstring or ``help=``), its options' and arguments' help and its epilog are
message ids as they are: ``scripts/i18n.py`` collects them from the command tree itself
(:func:`texts`), and :func:`speak` puts each through the catalogue when help is shown. typer and its
vendored click write their own words (Usage, Options, Commands, "Show this message and exit.",
``[required]``, ``[default: 0]``) in English; they come from companion's catalogue too, and so do the
names in the usage line (``[OPTIONS]``, an argument's ``{kind}``, an option's ``<int>``: the
``metavar`` context, :func:`metavars`). Only called when the words are not English, so English help
is exactly what it was.
"""

from __future__ import annotations

import re
from typing import Any

from companion.i18n import N_, _, language, pgettext

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
#: What typer.core puts through gettext when it writes a parameter's help line (its ``_``).
FRAMEWORK = (N_("required"), N_("default: {default}"), N_("env var: {var}"), N_("Options"), N_("Commands"))
#: A number option's range in its help line (``[1<=x<=12]``).
RANGE_WORDS = {
    "both": N_("{lo} to {hi}"),
    "lo": N_("{lo} or more"),
    "hi": N_("at most {hi}"),
}
#: The usage line's own placeholders (a command's ``options_metavar`` and ``subcommand_metavar``).
OPTIONS_METAVAR = "[OPTIONS]"
SUBCOMMAND_METAVAR = "COMMAND [ARGS]..."
#: A word in a metavar: ``{kind}``, ``[numbers]...``, ``<int range>``, ``EXPR`` (a choice, ``<a|b>``, is
#: what is typed, and kept).
_METAVAR_WORD = re.compile(r"[A-Za-z][A-Za-z ]*[A-Za-z]")


def speak(command: Any) -> None:
    """Put the framework's words of ``command`` and every command under it into the language shown now."""
    import typer.core
    from typer._click.formatting import HelpFormatter

    panel_words()
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


def panel_words() -> None:
    """typer's help panel words in the language shown: now, when ``typer.rich_utils`` is loaded; else
    as typer loads it (to draw help or an error panel), so a command that draws neither never imports
    it (rich's markdown and all: a third of a Russian session's command start-up)."""
    import sys

    rich_utils = sys.modules.get("typer.rich_utils")
    if rich_utils is not None:
        for name, words in PANEL_WORDS.items():
            setattr(rich_utils, name, _(words))
    elif not any(isinstance(finder, _PanelWords) for finder in sys.meta_path):
        sys.meta_path.insert(0, _PanelWords())


class _PanelWords:
    """Finds nothing itself: when ``typer.rich_utils`` is found, its loader sets the panel words (in the
    language shown then) once the module has run, and this finder leaves ``sys.meta_path``."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname != "typer.rich_utils":
            return None
        import sys
        from importlib.machinery import PathFinder

        sys.meta_path.remove(self)
        spec = PathFinder.find_spec(fullname, path, target)
        if spec is None or spec.loader is None:
            return spec
        run = spec.loader.exec_module

        def exec_module(module: Any) -> None:
            run(module)
            for name, words in PANEL_WORDS.items():
                setattr(module, name, _(words))

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def texts(command: Any) -> list[str]:
    """Every help text of ``command`` and the commands under it (what the catalogue translates)."""
    found = [t for t in (command.help, command.short_help, command.epilog) if t]
    found += [p.help for p in command.params if getattr(p, "help", None)]
    for sub in getattr(command, "commands", {}).values():
        found += texts(sub)
    return found


def metavars(command: Any) -> list[str]:
    """The words of every usage placeholder under ``command`` (translated in the ``metavar`` context)."""
    import typer._click

    found = [*_words(OPTIONS_METAVAR), *_words(SUBCOMMAND_METAVAR)]
    with typer._click.Context(command) as ctx:
        for param in command.params:
            if param.name != "help":
                found += _words(_english_metavar(param, ctx))
    for sub in getattr(command, "commands", {}).values():
        found += metavars(sub)
    return list(dict.fromkeys(found))


def metavar(text: str) -> str:
    """A usage placeholder in the language shown: ``{kind}`` → ``{вид}``, ``<int>`` → ``<число>``."""
    if language() == "en" or "|" in text:
        return text
    return _METAVAR_WORD.sub(lambda m: pgettext("metavar", m.group(0)), text)


def name(hint: str) -> str:
    """A parameter as an error names it (``'kind'``, ``'--got' / '-g'``) in the language shown, in «»."""
    parts = [p.strip().strip("'") for p in hint.split(" / ")]
    return " / ".join(f"«{p if p.startswith('-') else pgettext('metavar', p)}»" for p in parts)


def _words(text: str) -> list[str]:
    return [] if "|" in text else _METAVAR_WORD.findall(text)


def _english_metavar(param: Any, ctx: Any) -> str:
    make = getattr(param, "_english_make_metavar", param.make_metavar)
    if getattr(param, "param_type_name", "") == "argument":
        return make(ctx, usage=True)
    return "" if getattr(param, "is_flag", False) else make(ctx)


def _command(command: Any) -> None:
    # The texts as written are kept the first time, and every call translates those: one process may
    # show help in Russian, then in English (the shell, tests that run commands in-process).
    source = command.__dict__.setdefault("_help_source", {})
    for attr in ("help", "short_help", "epilog"):
        text = source.setdefault(attr, getattr(command, attr, None))
        if text:
            setattr(command, attr, _(text))
    for attr in ("options_metavar", "subcommand_metavar"):
        english = source.setdefault(attr, getattr(command, attr, None))
        if english in (OPTIONS_METAVAR, SUBCOMMAND_METAVAR):
            setattr(command, attr, metavar(english))
    for param in command.params:
        if getattr(param, "help", None):
            text = param.__dict__.setdefault("_help_source", param.help)
            param.help = _(text)
        if "_english_make_metavar" not in param.__dict__:
            _spoken_metavar(param)
        _spoken_range(param)
    if not command.__dict__.get("_help_spoken"):
        _spoken_words(command)
    for sub in getattr(command, "commands", {}).values():
        _command(sub)


def spoken_range(kind: Any) -> str | None:
    """A number range as ``--help`` says it (``1<=x<=12`` → ``от 1 до 12``), or None where the English
    notation stays (an open bound, ``0<x``)."""
    if getattr(kind, "min_open", False) or getattr(kind, "max_open", False):
        return None
    lo, hi = getattr(kind, "min", None), getattr(kind, "max", None)
    if lo is not None and hi is not None:
        return _(RANGE_WORDS["both"]).format(lo=lo, hi=hi)
    if lo is not None:
        return _(RANGE_WORDS["lo"]).format(lo=lo)
    if hi is not None:
        return _(RANGE_WORDS["hi"]).format(hi=hi)
    return None


def _spoken_range(param: Any) -> None:
    """The range typer adds to a number option's help line (``[1<=x<=12]``), said in the language shown."""
    from typer._click.types import _NumberRangeBase

    if not isinstance(getattr(param, "type", None), _NumberRangeBase) or "_english_help_record" in param.__dict__:
        return
    english = param.get_help_record
    param._english_help_record = english

    def get_help_record(ctx: Any) -> Any:
        record = english(ctx)
        spoken = spoken_range(param.type) if language() != "en" else None
        described = param.type._describe_range()
        at = record[1].rfind(described) if record is not None and spoken is not None else -1
        if at < 0:
            return record
        return record[0], record[1][:at] + spoken + record[1][at + len(described) :]

    param.get_help_record = get_help_record


def _spoken_metavar(param: Any) -> None:
    english = param.make_metavar
    param._english_make_metavar = english

    def make_metavar(*args: Any, **kwargs: Any) -> str:
        return metavar(english(*args, **kwargs))

    param.make_metavar = make_metavar


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
