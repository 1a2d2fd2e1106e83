"""Value completers for the command line and ``companion shell``: session, game and variant names.

Each completer is attached to its typer parameter (``autocompletion=``), so the one-shot CLI's shell
completion (``companion completion bash``) and the in-app shell (which calls each parameter's
``shell_complete``) offer the same names from one definition. The completers never raise: a broken
data folder completes nothing rather than printing a traceback at Tab.

They read only small files (the session folders' names, a session's meta) and import a game's spec
only to list its variants.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

#: What the shells see for each completion: (value, help).
Item = tuple[str, str]


def _root(ctx: Any) -> Any:
    while ctx is not None and getattr(ctx, "parent", None) is not None:
        ctx = ctx.parent
    return ctx


def _data_dir(ctx: Any) -> Path:
    """The data folder this command line would use: ``--data-dir``, COMPANION_HOME, or the default."""
    from companion.store.paths import data_dir

    root = _root(ctx)
    env = getattr(root, "obj", None)
    override = getattr(env, "data_dir", None)
    if override is None and root is not None:
        override = (getattr(root, "params", None) or {}).get("data_dir")
    if override is None and os.environ.get("COMPANION_HOME"):
        override = Path(os.environ["COMPANION_HOME"])
    return data_dir(override)


def _active_session(ctx: Any) -> str | None:
    root = _root(ctx)
    env = getattr(root, "obj", None)
    name = getattr(env, "session", None)
    if name is None and root is not None:
        name = (getattr(root, "params", None) or {}).get("session")
    if name:
        return str(name)
    try:
        return (_data_dir(ctx) / "current").read_text(encoding="utf-8").strip() or None
    except OSError:
        return None


def session_names(ctx: Any = None, incomplete: str = "") -> list[Item]:
    """The saved sessions (folder names, as ``use`` and ``--session`` take them), with their game."""
    try:
        from companion.store.sessions import Store

        store = Store(_data_dir(ctx))
        names = store.slugs()
    except Exception:
        return []
    return [(name, _game_of(store, name) or "") for name in names if name.startswith(incomplete)]


def _game_of(store: Any, name: str) -> str | None:
    try:
        return str(store.files(name).read_meta()["meta"]["game"])
    except Exception:
        return None


def game_names(ctx: Any = None, incomplete: str = "") -> list[Item]:
    """The games ``companion new`` starts (the names, not the aliases)."""
    from companion.games import GAMES

    return [(name, "") for name in GAMES if name.startswith(incomplete.lower())]


def _game_for_variants(ctx: Any) -> str | None:
    """Whose variants to offer: the GAME argument on this command line, else the active session's game."""
    params = getattr(ctx, "params", None) or {}
    game = params.get("game") or _game_word(ctx)
    if game:
        return str(game)
    name = _active_session(ctx)
    if not name:
        return None
    try:
        from companion.store.sessions import Store

        return _game_of(Store(_data_dir(ctx)), name)
    except Exception:
        return None


def _game_word(ctx: Any) -> str | None:
    """The GAME word on the line being completed, when the parser left it unread.

    Completing ``new it --variant <Tab>``, click stops at the option that lacks its value before it
    reads the positional arguments; the shell's words (bash's COMP_WORDS, zsh's and fish's
    _TYPER_COMPLETE_ARGS) still hold it: the first plain word after the command's name.
    """
    import shlex

    command = getattr(ctx, "command", None)
    if command is None or not any(getattr(p, "name", None) == "game" for p in command.params):
        return None
    line = os.environ.get("COMP_WORDS") or os.environ.get("_TYPER_COMPLETE_ARGS") or ""
    try:
        words = shlex.split(line)
    except ValueError:
        return None
    name = getattr(ctx, "info_name", None)
    if name not in words:
        return None
    takes_value = {o for p in command.params if not getattr(p, "is_flag", True) for o in getattr(p, "opts", ())}
    rest = words[words.index(name) + 1 :]
    for i, word in enumerate(rest):
        if word.startswith("-"):
            continue
        if i and rest[i - 1] in takes_value:
            continue
        return word
    return None


def variant_names(ctx: Any = None, incomplete: str = "") -> list[Item]:
    """The named variants of the game on the command line (or of the active session's game)."""
    game = _game_for_variants(ctx)
    if game is None:
        return []
    try:
        from companion.games import load

        spec = load(game)
    except Exception:
        return []
    return [(name, v.title) for name, v in spec.variants.items() if name.startswith(incomplete)]


def shells() -> list[str]:
    return ["bash", "zsh", "fish"]


def shell_names(incomplete: str = "") -> list[Item]:
    return [(s, "") for s in shells() if s.startswith(incomplete)]


#: Options completed by name wherever a command defines them (the games' own groups included).
BY_OPTION = {"--variant": variant_names, "--session": session_names}


def table_names(ctx: Any = None, incomplete: str = "") -> list[Item]:
    """After ``DR`` or ``check`` in ``roll``/``odds``: the tables (or checks) of the table packs in use
    and of the session's own game (docs/tables.md)."""
    try:
        words = [str(w) for w in ((getattr(ctx, "params", None) or {}).get("expr") or ())]
        if len(words) != 1 or words[0].lower() not in ("dr", "check"):
            return []
        from companion.cli.pack_use import names_for_completion

        root = _root(ctx)
        env = getattr(root, "obj", None)
        override = getattr(env, "data_dir", None) or (getattr(root, "params", None) or {}).get("data_dir")
        if override is None and os.environ.get("COMPANION_HOME"):
            override = Path(os.environ["COMPANION_HOME"])
        names = names_for_completion(words[0].lower(), _data_dir(ctx), override, _active_session(ctx))
    except Exception:
        return []
    return [(name, about) for name, about in names if name.startswith(incomplete.lower())]


def attach(command: Any) -> Any:
    """Give every ``--variant``/``--session`` option under ``command`` its completer, if it has none.

    The commands defined in ``companion/cli`` name their completers on the typer parameter; the
    games' own groups are built through :func:`companion.cli.group._built`, which calls this, so
    the same names complete there without each game repeating them.
    """
    if hasattr(command, "params"):
        # typer adds --install-completion/--show-completion to a sub-app made with add_completion on;
        # completion lives in `companion completion SHELL`, once, for the whole tree.
        command.params = [p for p in command.params if p.name not in ("install_completion", "show_completion")]
    for param in getattr(command, "params", ()):
        if getattr(param, "_custom_shell_complete", None) is not None or getattr(param, "is_flag", False):
            continue
        completer = next((BY_OPTION[o] for o in getattr(param, "opts", ()) if o in BY_OPTION), None)
        if completer is not None:
            param._custom_shell_complete = _click_completer(completer)
    for sub in (getattr(command, "commands", None) or {}).values():
        attach(sub)
    return command


def _click_completer(completer: Any) -> Any:
    def complete(ctx: Any, param: Any, incomplete: str) -> list[Any]:
        from typer._click.shell_completion import CompletionItem

        return [CompletionItem(value, help=about or None) for value, about in completer(ctx, incomplete)]

    return complete
