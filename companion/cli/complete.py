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


def completion_words(incomplete: str = "") -> list[Item]:
    """``companion completion``'s first word: a shell, or install."""
    return [(s, "") for s in ("install", *shells()) if s.startswith(incomplete)]


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


def pack_names(ctx: Any = None, incomplete: str = "") -> list[Item]:
    """``tables export`` and ``tables reset``: the packs in use (and, for reset, their unique tables)."""
    try:
        from companion.cli.pack_use import packs_for_completion

        root = _root(ctx)
        env = getattr(root, "obj", None)
        override = getattr(env, "data_dir", None) or (getattr(root, "params", None) or {}).get("data_dir")
        if override is None and os.environ.get("COMPANION_HOME"):
            override = Path(os.environ["COMPANION_HOME"])
        unique = (getattr(ctx, "command_path", "") or "").endswith("reset")
        names = packs_for_completion(_data_dir(ctx), override, _active_session(ctx), unique=unique)
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
        elif getattr(param, "name", None) in _LIVE_PARAMS:
            param._custom_shell_complete = _live
    for sub in (getattr(command, "commands", None) or {}).values():
        attach(sub)
    return command


def _click_completer(completer: Any) -> Any:
    def complete(ctx: Any, param: Any, incomplete: str) -> list[Any]:
        from typer._click.shell_completion import CompletionItem

        return [CompletionItem(value, help=about or None) for value, about in completer(ctx, incomplete)]

    return complete


# ---- live values from the open session ---------------------------------------------------------
#
# Names that only the session knows: tallies, heroes and monsters, a game's tables, the Dark Tower's
# cards, the options of the question ``next`` answers. They are attached by (command path, parameter
# name) in VALUES below, by :func:`attach`, so bash/zsh/fish completion and ``companion shell`` offer
# the same. Each reads the session without waiting for its lock: a session busy elsewhere completes
# nothing (``companion shell`` holds the lock itself, and its commands re-enter it).


def _session_state(ctx: Any, *, engine: bool = False) -> Any:
    """The active session (opened and released at once), or None."""
    from companion.cli.env import Env
    from companion.cli.kit import opened

    root = _root(ctx)
    env = getattr(root, "obj", None)
    if not isinstance(env, Env):
        env = Env.from_process(data_dir=_data_dir(ctx), session=_active_session(ctx))
    try:
        with opened(env, engine=engine, wait=0) as session:
            return session
    except Exception:
        return None


def _matching(names: Any, incomplete: str) -> list[Item]:
    low = incomplete.lower()
    seen: list[str] = []
    for name in names:
        if name and name not in seen and str(name).lower().startswith(low):
            seen.append(str(name))
    return [(name, "") for name in seen]


def _by_start(names: Any, incomplete: str) -> list[Item]:
    """The names ``incomplete`` starts, or one of whose words it starts (``cad`` and ``creep`` for the
    Cadaver Creeper), as a command takes them (:mod:`companion.cli.names`)."""
    from companion.cli.names import matches

    names = [str(n) for n in names if n]
    if not incomplete:
        return [(n, "") for n in dict.fromkeys(names)]
    return [(n, "") for n in matches(incomplete, names)]


def tally_names(ctx: Any = None, incomplete: str = "") -> list[Item]:
    """The session's hit tallies, and the heroes and monsters its game knows (the Adventure's area list:
    ``tally hit cad`` marks the Cadaver Creeper)."""
    session = _session_state(ctx)
    if session is None:
        return []
    names = session.spec.names_of(session.state)
    return _by_start([*session.state.trackers.tallies, *names.heroes, *names.monsters], incomplete)


def item_names(ctx: Any = None, incomplete: str = "") -> list[Item]:
    """The items the session keeps, and those its game's heroes hold."""
    session = _session_state(ctx)
    if session is None:
        return []
    return _by_start([*session.state.trackers.items, *session.spec.names_of(session.state).items], incomplete)


def tracker_names(ctx: Any = None, incomplete: str = "") -> list[Item]:
    """The trackers a table pack gave the session (SKILL, LUCK, STAMINA), as ``tracker`` shows them."""
    session = _session_state(ctx)
    if session is None:
        return []
    counters = session.state.trackers.counters
    shown = [c.label or (k.upper() if len(k) <= 3 else k.capitalize()) for k, c in counters.items()]
    return [(n, "") for n in shown if n.lower().startswith(incomplete.lower())]


def section_names(ctx: Any = None, incomplete: str = "") -> list[Item]:
    """``back`` (where there is a way back), and the sections read so far, the latest first."""
    session = _session_state(ctx)
    if session is None:
        return []
    sections = session.state.trackers.sections
    here = sections.current
    found: list[Item] = [("back", "")] if len(sections.trail) > 1 else []
    for n in reversed(dict.fromkeys(sections.path)):
        if n != here:
            found.append((str(n), ""))
    return [(v, about) for v, about in found if v.startswith(incomplete)]


def pack_paths(ctx: Any = None, incomplete: str = "") -> list[Item]:
    """A table pack: a ``.toml`` file or a folder under what is typed (``~`` for home), and the packs
    in the player's tables folder by name."""
    found: list[Item] = []
    try:
        typed = Path(incomplete).expanduser() if incomplete else Path(".")
        folder = typed if incomplete.endswith("/") or not incomplete else typed.parent
        stem = "" if incomplete.endswith("/") or not incomplete else typed.name
        lead = incomplete[: len(incomplete) - len(stem)] if stem else incomplete
        for entry in sorted(folder.iterdir(), key=lambda e: e.name)[:500]:
            if not entry.name.startswith(stem) or (entry.name.startswith(".") and not stem.startswith(".")):
                continue
            if entry.is_dir():
                found.append((lead + entry.name + "/", ""))
            elif entry.suffix.lower() == ".toml":
                found.append((lead + entry.name, ""))
    except OSError:
        pass
    if "/" not in incomplete:
        try:
            from companion.packs.find import config_dir, scan

            root = _root(ctx)
            override = getattr(getattr(root, "obj", None), "data_dir", None)
            for pack in scan(config_dir(override)).packs:
                if pack.name.startswith(incomplete) and all(v != pack.name for v, _a in found):
                    found.append((pack.name, pack.title))
        except Exception:
            pass
    return found


def next_answers(ctx: Any = None, incomplete: str = "") -> list[Item]:
    """The answers the pending question of a guided game takes: its choices, or ``roll`` for a roll."""
    session = _session_state(ctx, engine=True)
    request = None if session is None else session.waiting().pending
    if request is None:
        return []
    options = getattr(request, "options", None)
    if options is not None:
        return option_keys(request, incomplete)
    if hasattr(request, "expr"):
        return [("roll", f"virtual dice for {request.expr}")] if "roll".startswith(incomplete) else []
    return []


def option_keys(request: Any, incomplete: str = "") -> list[Item]:
    """A menu's answers for Tab: each option's key (:mod:`companion.engine.keys`) with its label, where
    the key, or a word of the label, starts with what is typed."""
    from companion.engine.keys import keys_of, words

    low = incomplete.lower()
    pairs = list(zip(request.options, keys_of(request.options), strict=True))
    keyed = [(key, o.label) for o, key in pairs if key.startswith(low)]
    worded = [
        (key, o.label) for o, key in pairs if not key.startswith(low) and any(w.startswith(low) for w in words(o.label))
    ]
    return keyed + worded  # the keys that start so first, then the options a word of which does


def _game_figures(ctx: Any, incomplete: str, *, heroes: bool = True, monsters: bool = True) -> list[Item]:
    """The heroes and monsters the session's game names on the table (``Game.names_of``: a secret's name
    is never among them); a game without names: the tallies."""
    session = _session_state(ctx)
    if session is None:
        return []
    known = session.spec.names_of(session.state)
    names = [*(known.heroes if heroes else ()), *(known.monsters if monsters else ())]
    if heroes and not names:
        names += list(session.state.trackers.tallies)
    return _matching(names, incomplete)


def hero_names(ctx: Any = None, incomplete: str = "") -> list[Item]:
    """The heroes (players, in the Dark Tower) of the session's game."""
    return _game_figures(ctx, incomplete, monsters=False)


def monster_names(ctx: Any = None, incomplete: str = "") -> list[Item]:
    """The monsters of the session's game."""
    return _game_figures(ctx, incomplete, heroes=False)


def figure_names(ctx: Any = None, incomplete: str = "") -> list[Item]:
    """Heroes and monsters."""
    return _game_figures(ctx, incomplete)


def _pack_items(ctx: Any, incomplete: str, what: str) -> list[Item]:
    """The session's table packs' fights (``what`` "fights") or foes ("foes"), by name."""
    session = _session_state(ctx)
    if session is None:
        return []
    from companion.packs.find import scan, session_dir

    items = [
        (key, getattr(item, "name", "") or getattr(item, "title", "") or pack.title)
        for pack in scan(session_dir(session.files.dir)).packs
        for key, item in getattr(pack, what).items()
    ]
    return [(key, about) for key, about in items if key.startswith(incomplete.lower())]


def fight_names(ctx: Any = None, incomplete: str = "") -> list[Item]:
    """The fights of the session's table packs (``[fights.NAME]``)."""
    return _pack_items(ctx, incomplete, "fights")


def foe_names(ctx: Any = None, incomplete: str = "") -> list[Item]:
    """The foes of the session's table packs (``[foes]``)."""
    return _pack_items(ctx, incomplete, "foes")


def dark_cards(ctx: Any = None, incomplete: str = "") -> list[Item]:
    """The Dark Tower cards of the kind named before (every kind if none): the rule text's, then yours."""
    session = _session_state(ctx)
    if session is None or session.meta.game != "dark-tower":
        return []
    from companion.games.dark_tower import data
    from companion.games.dark_tower.rules import cards as C

    params = getattr(ctx, "params", None) or {}
    command = (getattr(ctx, "info_name", "") or "").lower()
    fixed = {"item": "item", "quest": "quest", "group": "monster", "join": "hero"}.get(command)
    try:
        kinds = [fixed or C.kind_of(params["kind"])] if (fixed or params.get("kind")) else list(data.CARD_KINDS)
    except Exception:
        kinds = list(data.CARD_KINDS)
    names = [card.name for k in kinds for card in C.catalogue(session.state, k).values()]
    return _matching(names, incomplete)


#: (command path without ``companion``, parameter name) → the completer of its values.
VALUES = {
    ("tally hit", "name"): tally_names,
    ("tally heal", "name"): tally_names,
    ("tally remove", "name"): tally_names,
    ("next", "answer"): next_answers,
    ("item", "name"): item_names,
    ("tracker", "name"): tracker_names,
    ("section", "where"): section_names,
    ("new", "tables"): pack_paths,
    ("odds fight pack", "tables"): pack_paths,
    ("dark join", "hero"): dark_cards,
    ("dark item", "player"): hero_names,
    ("dark item", "name"): dark_cards,
    ("dark quest", "name"): dark_cards,
    ("dark draw", "name"): dark_cards,
    ("dark group", "monster"): dark_cards,
    ("dark start", "first"): hero_names,
    ("dark fight", "helper"): hero_names,
    ("dark lose", "player"): hero_names,
    ("dark discard", "player"): hero_names,
    ("dark discard", "to"): hero_names,
    ("dark trade", "player"): hero_names,
    ("dark trade", "other"): hero_names,
    ("dark hp", "player"): hero_names,
    **{(f"haunted {c}", "hero"): hero_names for c in ("fight", "item", "drop", "give", "use", "hp", "climb")},
    **{(f"haunted {c}", "hero"): hero_names for c in ("trade", "moved", "odds")},
    ("haunted give", "to"): hero_names,
    ("haunted fight", "monster"): monster_names,
    ("haunted odds", "monster"): monster_names,
    ("odds fight", "monster"): monster_names,
    ("dragon attack", "names"): figure_names,
    ("dragon move", "who"): hero_names,
    ("dragon ability", "hero"): hero_names,
    ("dragon special", "monster"): monster_names,
    ("dragon special", "targets"): figure_names,
    ("dragon breath", "heroes"): hero_names,
    ("dragon take", "hero"): hero_names,
    ("dragon escape", "hero"): hero_names,
    ("fight start", "name"): fight_names,
    ("fight start", "foe"): foe_names,
    ("odds fight pack", "fight"): fight_names,
    ("odds fight pack", "foe"): foe_names,
}


def _live(ctx: Any, param: Any, incomplete: str) -> list[Any]:
    """The completer every parameter without its own gets: VALUES by command path, else nothing."""
    path = (getattr(ctx, "command_path", "") or "").split(" ", 1)[-1]
    completer = VALUES.get((path, getattr(param, "name", "")))
    if completer is None:
        return []
    from typer._click.shell_completion import CompletionItem

    try:
        found = completer(ctx, incomplete)
    except Exception:
        return []
    return [CompletionItem(value, help=about or None) for value, about in found]


#: The parameter names :data:`VALUES` knows (so :func:`attach` leaves every other parameter alone).
_LIVE_PARAMS = frozenset(name for _, name in VALUES)
