"""User-facing words that are not marked for the catalogue: the rule ``scripts/i18n.py check`` applies.

Read from the source with :mod:`ast` (nothing is imported). A string literal (or an f-string, or a
``"...".format(...)``) is a word a player reads when it is given straight to:

- a printing call: ``print``, ``styled``, ``echo``, ``error``, ``warn``, ``info``, ``say``, ``_stderr_line``,
  ``secho``, ``fail``, ``print_formatted_text``;
- an error a player sees: any ``...Error(...)`` of companion's own (CompanionError, InputError,
  NotFoundError, StoreError, ...) and click's ``BadParameter``/``UsageError`` (Python's own errors,
  ``ValueError`` and the like, are a programmer's and never shown);
- the log: ``log.text``, ``log.heading``, ``log.line``, ``log.note`` (what the markdown log and the
  page show);
- a table's column or a panel: ``add_column``, ``Text``, ``Panel``;
- a request the engine asks: ``choice``, ``Choice``, ``Option``, ``RollRequest``, ``Number``, ``Text``;
- the keyword arguments ``hint=``, ``message=``, ``prompt=``, ``why=``, ``label=``, ``title=`` of any call.

It is marked when it sits inside ``_``, ``N_``, ``ngettext``, ``count``, ``pgettext`` or
``npgettext``. It needs no mark when it holds no word once notation is taken out: ``{placeholders}``,
``[markup]``, ``--options``, ``companion`` and its subcommands, dice (``2d6``, ``4dt``, ``DC``), ALL-CAPS
names, paths and file names, and :data:`NOT_WORDS` (key names, format names). A literal that must
stay as it is says so on its line: ``# i18n: as is`` (and why).

A command's help (its docstring, ``help=``, ``epilog=``) needs no mark: ``scripts/i18n.py`` reads
those from the command tree itself.
"""

from __future__ import annotations

import ast
import builtins
import re
from pathlib import Path

PRINTING = {
    "print",
    "styled",
    "echo",
    "error",
    "warn",
    "info",
    "say",
    "_stderr_line",
    "secho",
    "fail",
    "print_formatted_text",
}
#: Called by their own name (``choice(...)``, not a reader's ``r.choice(...)``), and a table's column.
REQUESTS = {"choice", "Choice", "Option", "RollRequest", "Number", "Text", "Panel"}
COLUMNS = {"add_column"}
LOG = {"text", "heading", "line", "note"}
KEYWORDS = {"hint", "message", "prompt", "why", "label", "title"}
MARKS = {"_", "N_", "ngettext", "count", "pgettext", "npgettext", "gettext"}
#: Python's own errors: a programmer's, never shown to a player (the root prints a traceback for them).
BUILTIN_ERRORS = set(dir(builtins))
#: Words that are not words of a language: key names, format and protocol names, units.
NOT_WORDS = {
    "Enter", "Tab", "Ctrl", "Esc", "Up", "Down", "Shift", "Alt", "md", "html", "json", "lonelog", "toml",
    "UTC", "PID", "JSON", "csv", "utf", "UTF", "dt", "bash", "zsh", "fish",
}  # fmt: skip
AS_IS = "# i18n: as is"

_NOTATION = [
    re.compile(r"\{[^{}]*\}"),  # placeholders
    re.compile(r"\[/?[a-z][a-z ]*(?:=[^\]]*)?\]"),  # rich markup
    re.compile(r"(?<![\w-])--?[a-z][a-z0-9-]*"),  # options
    re.compile(r"\bcompanion(?: [a-z][a-z-]*)*"),  # the command and its subcommands
    re.compile(r"(?<![\w])\d*d(?:\d+|t|%|N)\b"),  # dice
    re.compile(r"\b[A-Z][A-Z0-9_]+\b"),  # ALL-CAPS names: DC, NAME, KEY=VALUE
    re.compile(r"\S*[/\\.]\S*\.\w+|\S+/\S*"),  # paths and file names
]
_WORD = re.compile(r"[A-Za-z]{2,}")
#: A style (prompt_toolkit's or rich's), not words: ``fg:ansicyan``, ``bold red``.
_STYLE = re.compile(
    r"(?:(?:fg|bg):#?\w+|bold|italic|underline|dim|reverse|red|green|yellow|cyan|magenta|blue)"
    r"(?: (?:(?:fg|bg):#?\w+|bold|italic|underline|dim|reverse|red|green|yellow|cyan|magenta|blue))*"
)


def words(text: str) -> list[str]:
    """The words of a language in ``text``, once notation is taken out."""
    if _STYLE.fullmatch(text.strip()):
        return []
    for pattern in _NOTATION:
        text = pattern.sub(" ", text)
    return [w for w in _WORD.findall(text) if w not in NOT_WORDS]


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _receiver(func: ast.expr) -> str:
    return ast.unparse(func.value) if isinstance(func, ast.Attribute) else ""


def _literals(node: ast.expr) -> list[ast.expr]:
    """The literal text pieces of an expression that are not inside a marking call."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node]
    if isinstance(node, ast.JoinedStr):
        found: list[ast.expr] = [v for v in node.values if isinstance(v, ast.Constant)]
        for v in node.values:
            if isinstance(v, ast.FormattedValue):
                found += _literals(v.value)
        return found
    if isinstance(node, ast.BinOp):
        return _literals(node.left) + _literals(node.right)
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    if isinstance(node, ast.Call):
        name = _name(node.func)
        if name in MARKS:
            return []
        if name in ("format", "join") and isinstance(node.func, ast.Attribute):
            return _literals(node.func.value) + [x for a in node.args for x in _literals(a)]
    return []


def _shown(node: ast.Call) -> list[ast.expr]:
    """The arguments of ``node`` a player reads."""
    name = _name(node.func)
    args: list[ast.expr] = []
    is_error = (name.endswith("Error") and name not in BUILTIN_ERRORS) or name in ("BadParameter", "UsageError")
    if name in PRINTING or is_error:
        args += node.args
    elif name in COLUMNS:
        args += node.args[:1]
    elif name in REQUESTS and isinstance(node.func, ast.Name):  # the first is a key or a value
        args += [a for arg in node.args[1:] for a in (arg.elts[1:] if isinstance(arg, ast.Tuple) else [arg])]
        args += node.args[:1] if name in ("Text", "Panel") and len(node.args) == 1 else []
    elif name in LOG and _receiver(node.func).endswith("log"):
        args += node.args[1:] if name == "line" else node.args  # log.line(key, text)
    args += [k.value for k in node.keywords if k.arg in KEYWORDS]
    return args


def unmarked(paths: list[Path], root: Path) -> list[str]:
    """``path:line: text`` for every user-facing literal in ``paths`` that is neither marked nor notation."""
    out = []
    for path in paths:
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.Call):
                continue
            for arg in _shown(node):
                for literal in _literals(arg):
                    text = literal.value  # type: ignore[attr-defined]
                    line = lines[literal.lineno - 1] if literal.lineno <= len(lines) else ""
                    if words(text) and AS_IS not in line:
                        out.append(f"{path.relative_to(root).as_posix()}:{literal.lineno}: {text!r}")
    return out
