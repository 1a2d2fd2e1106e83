"""The framework's own error sentences in the language shown, said at the one place errors are printed.

typer and the click it vendors write their usage errors in English, and not through gettext
("Missing argument 'kind'.", "No such option: --wiht", "Invalid value for 'floor': 5 is not in the
range 1<=x<=3."). :func:`message` reads such a sentence back by its English pattern and says it again
from the catalogue (:data:`SENTENCES`, :data:`REASONS`), naming parameters as ``--help`` names them
(:func:`companion.cli.help_words.name`) and quoting what was typed in «». A sentence of companion's
own (a callback's ``BadParameter``) is already in the language shown and passes as it is. In English
nothing is read back: the message is click's, as it always was.
"""

from __future__ import annotations

import re
from typing import Any

from companion.i18n import N_, _, language

#: A whole message: click's English pattern, and the message id said instead (its named groups).
SENTENCES: tuple[tuple[str, str], ...] = (
    (r"Missing argument (?P<name>.+?)\.(?: (?P<more>.*))?", N_("Missing argument {name}.")),
    (r"Missing option (?P<name>.+?)\.(?: (?P<more>.*))?", N_("Missing option {name}.")),
    (r"Missing parameter (?P<name>.+?)\.(?: (?P<more>.*))?", N_("Missing parameter {name}.")),
    (r"Invalid value for (?P<name>'.+?'(?: / '.+?')*): (?P<reason>.*)", N_("Invalid value for {name}: {reason}")),
    (r"Invalid value: (?P<reason>.*)", N_("Invalid value: {reason}")),
    (
        r"No such option: (?P<option>\S+) \(Possible options: (?P<options>.+)\)",
        N_("No such option: {option}; did you mean {options}?"),
    ),
    (r"No such option: (?P<option>\S+)", N_("No such option: {option}")),
    (
        r"No such command (?P<word>'.*')\. Did you mean (?P<commands>.+)\?",
        N_("No such command {word}; did you mean {commands}?"),
    ),
    (r"No such command (?P<word>'.*')\.", N_("No such command {word}.")),
    (r"Missing command\.", N_("Missing command.")),
    (r"Option (?P<option>'.+?') requires an argument\.", N_("Option {option} requires a value.")),
    (r"Option (?P<option>'.+?') requires (?P<n>\d+) arguments\.", N_("Option {option} requires {n} values.")),
    (r"Option (?P<option>'.+?') does not take a value\.", N_("Option {option} does not take a value.")),
    (r"Got unexpected extra arguments? ?(?:\(s\))? \((?P<words>.*)\)", N_("Unexpected extra words: {words}")),
    (r"Argument (?P<name>'.+?') takes (?P<n>\d+) values\.", N_("Argument {name} takes {n} values.")),
    (r"Takes (?P<n>\d+) values but (?P<m>\d+) given\.", N_("Takes {n} values, but {m} were given.")),
    (r"Could not open file (?P<path>'.*'): (?P<reason>.*)", N_("Could not open file {path}: {reason}")),
)

#: Why a value was refused (the part after "Invalid value for X: "), as the framework's types say it.
REASONS: tuple[tuple[str, str], ...] = (
    (
        r"(?P<value>.+) is not in the range (?P<lo>-?\d+)<=x<=(?P<hi>-?\d+)\.",
        N_("{value} is not a number from {lo} to {hi}."),
    ),
    (r"(?P<value>.+) is not in the range x>=(?P<lo>-?\d+)\.", N_("{value} is less than {lo}.")),
    (r"(?P<value>.+) is not in the range x<=(?P<hi>-?\d+)\.", N_("{value} is more than {hi}.")),
    (r"(?P<value>.+) is not in the range (?P<range>.+)\.", N_("{value} is not in the range {range}.")),
    (r"(?P<value>'.*') is not a valid (?:integer|int|int range)\.", N_("{value} is not a whole number.")),
    (r"(?P<value>'.*') is not a valid (?:float|float range)\.", N_("{value} is not a number.")),
    (
        r"(?P<value>'.*') is not a valid boolean\. Recognized values: (?P<states>.*)",
        N_("{value} is not yes or no; use one of {states}."),
    ),
    (r"(?P<value>'.*') is not one of (?P<choices>.*)\.", N_("{value} is not one of {choices}.")),
    (r"(?:File|Path) (?P<path>'.*') does not exist\.", N_("There is no file {path}.")),
    (r"Directory (?P<path>'.*') does not exist\.", N_("There is no folder {path}.")),
    (r"(?:File|Directory|Path) (?P<path>'.*') is a file\.", N_("{path} is a file, not a folder.")),
    (r"(?:File|Directory|Path) (?P<path>'.*') is a directory\.", N_("{path} is a folder, not a file.")),
    (r"(?:File|Directory|Path) (?P<path>'.*') is not readable\.", N_("{path} cannot be read.")),
    (r"(?:File|Directory|Path) (?P<path>'.*') is not writable\.", N_("{path} cannot be written.")),
    (r"(?P<n>\d+) values are required, but (?P<m>\d+) given\.", N_("{n} values are needed, but {m} were given.")),
)
#: What MissingParameter adds for a choice: the values it takes.
CHOOSE = (r"Choose from:\s*(?P<choices>.*)", N_("Choose one of: {choices}."))

_SENTENCES = [(re.compile(p, re.S), m) for p, m in SENTENCES]
_REASONS = [(re.compile(p, re.S), m) for p, m in REASONS]
_QUOTED = re.compile(r"'((?:[^'\\]|\\.)*)'")


def message(exc: Any) -> str:
    """A framework exception's message in the language shown (click's own in English)."""
    text = exc.format_message()
    if language() == "en":
        return text
    return sentence(text)


def sentence(text: str) -> str:
    """One of click's English sentences said in the language shown; any other text as it is."""
    for pattern, msgid in _SENTENCES:
        m = pattern.fullmatch(text.strip())
        if m:
            words = {k: _word(k, v) for k, v in m.groupdict().items() if k != "more"}
            said = _(msgid).format(**words)
            more = m.groupdict().get("more")
            if more:
                said += " " + _more(more)
            return said
    return text


def _word(key: str, value: str | None) -> str:
    from companion.cli.help_words import name

    value = value or ""
    if key == "name":
        return name(value)
    if key == "reason":
        return _reason(value)
    if key in ("option", "options"):
        return ", ".join(f"«{o.strip().strip(chr(39))}»" for o in value.split(","))
    if key in ("word", "commands", "path"):
        return _quoted(value)
    if key == "words":
        return f"«{value}»"
    return value


def _reason(text: str) -> str:
    for pattern, msgid in _REASONS:
        m = pattern.fullmatch(text.strip())
        if m:
            return _(msgid).format(**{k: _quoted(v) for k, v in m.groupdict().items()})
    return text  # a message of companion's own, already in the language shown


def _more(text: str) -> str:
    m = re.fullmatch(CHOOSE[0], text.strip(), re.S)
    if not m:
        return text
    return _(CHOOSE[1]).format(choices=", ".join(c.strip() for c in m.group("choices").split(",")))


def _quoted(text: str) -> str:
    """Python's quotes around a typed word ('abc') as the language's («abc»)."""
    return _QUOTED.sub(lambda m: "«" + m.group(1) + "»", text)
