"""Session commands: new, sessions, use, status, undo, redo, note, mode, log, gamedata.

``export`` lives in companion.cli.export_cmds, ``amend`` in companion.cli.amend_cmds."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.cli.common import GotStartOpt, JsonOpt, check_name, dump_state
from companion.cli.complete import game_names, session_names, variant_names
from companion.cli.sessions_rename import sessions_rename
from companion.cli.sessions_repair import sessions_repair
from companion.i18n import _, owned, quote

if TYPE_CHECKING:
    from companion.cli.env import Env


def new(
    ctx: typer.Context,
    game: Annotated[
        str,
        typer.Argument(
            help="The game: inverted-tower, talisman, haunted-tower, dragons-den, dark-tower or freeform.",
            autocompletion=game_names,
            show_default=False,
        ),
    ],
    name: Annotated[
        str | None, typer.Option("--name", "-n", help="A name for the session (default: GAME-N).", show_default=False)
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", help="Seed the virtual dice (default: a fresh one, kept in the save).", show_default=False
        ),
    ] = None,
    physical: Annotated[
        bool, typer.Option("--physical", help="Default to physical dice: you type what you rolled.")
    ] = False,
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant",
            "-V",
            help="A named rule variant (repeat for several).",
            autocompletion=variant_names,
            show_default=False,
        ),
    ] = None,
    hero: Annotated[
        str | None, typer.Option("--hero", help="The hero's name, for the log.", show_default=False)
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help="The language to play in: en or ru (default: COMPANION_LANG, then the locale; "
            "a game without that language plays in English).",
            show_default=False,
        ),
    ] = None,
    tables: Annotated[
        list[str] | None,
        typer.Option(
            "--tables",
            help="A table pack (a .toml file, or a pack's name in your tables folder); the session keeps a copy. "
            "Repeat for several. See docs/tables.md.",
            show_default=False,
        ),
    ] = None,
    got: GotStartOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Start a session for a game and make it the current one."""
    env: Env = ctx.obj
    from companion.cli.kit import store, warn_all
    from companion.dice.source import new_seed
    from companion.games import canonical
    from companion.i18n import choose
    from companion.session.service import Session
    from companion.store.paths import logs_dir

    check_name(name, hero)
    game = canonical(game)
    language = choose(game, lang)
    if language is not None:  # the session's language from its first line: its mistakes too
        from companion import i18n

        i18n.activate(language, game)
    from companion.cli import pack_start, pack_use  # packs and rolled scores first: a mistake leaves no session

    packs, starting = pack_use.prepare(env, list(tables or []), game, got, physical)
    st = store(env)
    if name is None:
        n = 1
        while st.exists(f"{game}-{n}"):
            n += 1
        name = f"{game}-{n}"
    session = Session.create(
        st,
        name,
        game,
        seed=new_seed() if seed is None else seed,
        physical=physical,
        variants=list(variant or []),
        logs_dir=logs_dir(env.logs_dir),
        hero=hero,
        lang=language,
    )
    warn_all(env, session)  # e.g. a logs folder that cannot be written
    created, scores = pack_use.attach(env, session, packs, starting) if packs else ([], {})
    st.make_current(session.files.slug)  # made: if the mark cannot be written, it says so
    if json_out:
        env.print_json(
            {
                "session": session.name,
                "slug": session.files.slug,
                "game": game,
                "seed": session.meta.seed,
                "dice": session.meta.dice,
                "variants": session.meta.variants,
                "log": session.meta.log_path,
                "lang": language,
                "tables": [p.name for p in packs],
                **({"rolled": scores} if scores else {}),
            }
        )
        return
    from companion.cli.env import styled

    env.print(
        styled(
            _("[bold]{game}[/bold]: session [bold]{session}[/bold] started (seed {seed}, {dice} dice)."),
            game=_(session.spec.title),
            session=session.files.slug,
            seed=session.meta.seed,
            dice=_(session.meta.dice),
        )
    )
    env.print(_("Log: {path}").format(path=session.meta.log_path))
    for p in packs:
        names = ", ".join(f"DR {t}" for t in p.tables) + "".join(f", check {c}" for c in p.checks)
        env.print(_("Tables: {title} ({names})").format(title=p.title, names=names.lstrip(", ")))
    pack_start.show(env, created)
    if session.spec.guided:
        env.print(styled(_("Next: [bold]companion play[/bold]")))
    for line in session.spec.ways:  # the other way to play this game, at the table
        env.print(line)


sessions_app = typer.Typer(
    help="List the sessions in the store (the current one is marked); remove, restore, rename or repair one.",
    invoke_without_command=True,
    rich_markup_mode=None,
)


@sessions_app.callback()
def sessions(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """List the sessions in the store (the current one is marked); remove, restore, rename or repair one.

    \b
    Examples:
      companion sessions
      companion sessions --json
    """
    if ctx.invoked_subcommand is not None:
        return
    env: Env = ctx.obj
    from companion.cli.kit import active_name, store
    from companion.store.paths import safe_name

    st = store(env)
    current = active_name(env)
    current = safe_name(current) if current else None
    rows: list[dict[str, Any]] = []
    for slug in st.slugs():
        files = st.files(slug)
        try:
            meta = files.read_meta()["meta"]
            summary = files.summary()
            row = {
                "session": slug,
                "name": meta["name"],
                "game": meta["game"],
                "events": summary.get("events", 0),
                "updated": summary.get("updated"),
                "finished": summary.get("finished"),
                "dice": summary.get("dice", meta["dice"]),
                "current": slug == current,
            }
        except Exception as exc:  # a damaged session (or one of the wrong shape) is listed, not fatal to the list
            rows.append({"session": slug, "error": str(exc) or type(exc).__name__})
            continue
        rows.append(row)
    if json_out:
        env.print_json(rows)
        return
    from companion.i18n import N_, _

    if not rows:
        from companion.cli.env import styled

        env.print(styled(_("No sessions yet. Start one with [bold]companion new GAME[/bold].")))
        return
    from rich.table import Table
    from rich.text import Text

    table = Table(box=None, pad_edge=False)
    for col in ("", N_("session"), N_("game"), N_("events"), N_("dice"), N_("updated"), N_("state")):
        table.add_column(_(col) if col else col)
    for r in rows:
        if "error" in r:
            table.add_row("", r["session"], Text(_("unreadable"), style="red"), "", "", "", r["error"])
            continue
        table.add_row(
            "*" if r["current"] else "",
            r["session"],
            game_title(r["game"]),
            str(r["events"]),
            _(r["dice"]),
            r["updated"] or "",
            _(r["finished"]) if r["finished"] else _("in play"),
        )
    env.print(table)


def game_title(game: str) -> str:
    """A game as a list names it: its id (as typed) in English; in another language its title in that
    language when the game speaks it (Тёмная Башня), else its id."""
    from companion import i18n

    lang = i18n.language()
    if lang == i18n.SOURCE or lang not in i18n.languages(game):
        return game
    from companion.games import load

    return i18n.translator(lang, game).gettext(load(game).title)


@sessions_app.command("rm")
def sessions_rm(
    ctx: typer.Context,
    name: Annotated[
        str, typer.Argument(help="The session to remove.", autocompletion=session_names, show_default=False)
    ],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask (for scripts).")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Move a session to the trash folder in the data folder (companion sessions restore brings it back).

    \b
    Examples:
      companion sessions rm example --yes
      companion sessions restore example
    """
    env: Env = ctx.obj
    from companion.cli.kit import store
    from companion.errors import CompanionError, InputError
    from companion.i18n import _

    st = store(env)
    files = st.open(name)
    if not yes:
        if not env.interactive:
            raise InputError(
                _("removing {name} needs --yes when no one is at a terminal to confirm").format(name=quote(files.slug))
            )
        env.write(_("Move session {name} to the trash? [y/N] ").format(name=files.slug))
        if env.stdin.readline().strip().lower() not in ("y", "yes", "д", "да"):
            raise CompanionError(_("nothing removed"))
    target = st.remove(files.slug)
    if json_out:
        env.print_json({"removed": files.slug, "trash": str(target)})
        return
    env.echo(_("Session {name} moved to {path}.").format(name=files.slug, path=target))
    env.echo(_("Bring it back with: companion sessions restore {name}").format(name=files.slug))


@sessions_app.command("restore")
def sessions_restore(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The removed session.", show_default=False)],
    json_out: JsonOpt = False,
) -> None:
    """Bring back a session removed with companion sessions rm.

    \b
    Examples:
      companion sessions restore example
    """
    env: Env = ctx.obj
    from companion.cli.kit import store

    files = store(env).restore(name)
    if json_out:
        env.print_json({"restored": files.slug})
        return
    from companion.i18n import _

    env.echo(_("Session {name} is back. Make it current with: companion use {name}").format(name=files.slug))


sessions_app.command("rename")(sessions_rename)
sessions_app.command("repair")(sessions_repair)


def use(
    ctx: typer.Context,
    name: Annotated[
        str, typer.Argument(help="The session to make current.", autocompletion=session_names, show_default=False)
    ],
) -> None:
    """Make a session the current one."""
    env: Env = ctx.obj
    from companion.cli.kit import store

    st = store(env)
    files = st.open(name)
    st.set_current(files.slug)
    from companion import i18n
    from companion.cli.env import styled
    from companion.cli.kit import active_language
    from companion.i18n import _

    found = active_language(env)  # said in the language of the session it switches to
    if found is not None:
        i18n.activate(found[0] or i18n.choose(found[1]), found[1])
    env.print(styled(_("Current session: [bold]{name}[/bold]"), name=files.slug))


def status(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """Show the current session: game, dice, trackers and the game's own status."""
    env: Env = ctx.obj
    from companion.cli.kit import opened

    with opened(env) as session:
        if json_out:
            data = dump_state(session)
            data["meta"] = session.summary() | {
                "seed": session.meta.seed,
                "variants": session.meta.variants,
                "log": session.meta.log_path,
                "name": session.meta.name,
            }
            env.print_json(data)
            return
        from companion.shell.panels import status_panel

        env.print(status_panel(session))


def describe_event(event: dict[str, Any], game: str | None = None) -> str:  # undo, redo, the page's undo button
    from companion.i18n import _, language

    t = event.get("t")
    if t == "roll":
        return _("roll {dice}").format(dice=event.get("expr"))
    if t == "note":
        return _("note")
    if t == "table":  # a table pack's roll (docs/tables.md), with every table it led to
        return f"DR {event['table']}" if event.get("table") else f"check {event.get('check')}"
    if t == "table_reset":  # companion tables reset NAME: a unique table's drawn rows put back
        return "tables reset " + ", ".join(k.rpartition("/")[2] for k in event.get("tables", ()))
    words = _tracker_words(event)
    if words:
        return words
    if language() != "en":  # the event's own words are English data: say what kind of step it was
        return _game_words(event, game)
    if t == "answer":
        from companion.cli.answer_words import answer_words

        return answer_words(event)
    return f"{t} {event.get('name') or event.get('op') or ''}".strip()


def _game_words(event: dict[str, Any], game: str | None) -> str:
    """What a game's step was, in the game's own words (its ``data.EVENT_WORDS`` by the command's ``op``,
    ``data.ANSWER_WORDS`` by a guided answer's key), with what was answered when it reads in any language
    (a number, the faces rolled, text typed); a generic phrase for a game that names none."""
    import importlib

    from companion.games import COMMAND_GROUPS, GAMES
    from companion.i18n import _, quote

    t = event.get("t")
    package = GAMES.get(game or "") if t == "answer" else COMMAND_GROUPS.get(str(t), "").partition(".cli")[0]
    data: Any = None
    if package:
        try:
            data = importlib.import_module(package + ".data")
        except ImportError:
            data = None
    if t != "answer":
        words = getattr(data, "EVENT_WORDS", {}).get(event.get("op"))
        return _(words) if words else _("a step")
    answers: dict[str, str] = getattr(data, "ANSWER_WORDS", {})
    key = str(event.get("key", ""))
    found = next(
        (answers[k] for k in sorted(answers, key=len, reverse=True) if key == k or key.startswith(k + ".")), None
    )
    what = _(found) if found else _("an answer")
    v = event.get("v") or {}
    if "faces" in v:
        shown = " ".join(str(f) for f in v["faces"])
    elif "total" in v:
        shown = f"={v['total']}"
    elif "n" in v:
        shown = str(v["n"])
    elif "text" in v:
        shown = quote(str(v["text"]))
    else:
        return what
    return _("{what}: {answer}").format(what=what, answer=shown)


def _tracker_words(event: dict[str, Any]) -> str | None:
    """A tracker change in the words the player typed it: ``HP −1``, ``2 hits on Orc``, ``rope +1``."""
    from companion.i18n import _, ngettext

    t = event.get("t")
    name = str(event.get("name", ""))

    def signed(n: Any) -> str:
        return f"{int(n):+d}".replace("-", "−")

    if t == "counter":
        label = event.get("label") or (name.upper() if len(name) <= 3 else name.capitalize())
        parts = []
        if "max" in event:
            parts.append(_("max {n}").format(n=event["max"]))
        if event.get("op") == "set":
            parts.append(f"={event['value']}")
        elif event.get("op") == "add":
            parts.append(signed(event["value"]))
        return f"{label} " + ", ".join(parts) if parts else None
    if t in ("xp", "item"):
        return f"XP {signed(event.get('n', 0))}" if t == "xp" else f"{name} {signed(event.get('delta', 0))}"
    if t == "tally":
        n = int(event.get("n", 1))
        words = {
            "hit": ngettext("{n} hit on {name}", "{n} hits on {name}", n),
            "heal": ngettext("{n} hit taken off {name}", "{n} hits taken off {name}", n),
            "add": _("a tally for {name}"),
            "remove": _("{name}'s tally removed"),
        }.get(str(event.get("op")))
        return owned(words.format(n=n, name=name), name) if words else None
    return None


def undo(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """Take back the last action (it can be redone until a new action is recorded)."""
    env: Env = ctx.obj
    from companion.cli.kit import opened

    with opened(env) as session:
        from companion import i18n

        spoken = i18n.language()  # an undone choice of language is said in the language it was made in
        event = session.undo()
        if json_out:
            env.print_json({"undone": event, "events": session.count})
            return
        from companion.cli.env import styled
        from companion.i18n import _

        with i18n.using(spoken, session.meta.game):
            env.print(
                styled(
                    _("Undone: {what} (#{n}). [dim]companion redo[/dim] brings it back."),
                    what=describe_event(event, session.meta.game),
                    n=event["id"],
                )
            )


def redo(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """Record again the last action taken back by undo."""
    env: Env = ctx.obj
    from companion.cli.kit import opened

    with opened(env) as session:
        event = session.redo()
        if json_out:
            env.print_json({"redone": event, "events": session.count})
            return
        from companion.i18n import _

        env.print(_("Redone: {what} (#{n}).").format(what=describe_event(event, session.meta.game), n=session.count))


def note(
    ctx: typer.Context,
    text: Annotated[list[str], typer.Argument(help="The note.", show_default=False)],
    json_out: JsonOpt = False,
) -> None:
    """Add a note to the log."""
    env: Env = ctx.obj
    from companion.cli.kit import opened
    from companion.errors import InputError
    from companion.i18n import _

    body = " ".join(text).strip()
    if not body:
        raise InputError(_("a note needs some text"))
    with opened(env) as session:
        eid = session.record({"t": "note", "text": body})
    if json_out:
        env.print_json({"event": eid, "note": body})
        return
    env.print(_("Noted (#{n}).").format(n=eid))


def mode(
    ctx: typer.Context,
    dice: Annotated[str, typer.Argument(help="virtual or physical.", show_default=False)],
    json_out: JsonOpt = False,
) -> None:
    """Switch the session's default dice between virtual and physical."""
    env: Env = ctx.obj
    from companion.cli.kit import opened
    from companion.errors import InputError
    from companion.i18n import _

    typed = dice.strip().lower()
    dice = {_("virtual"): "virtual", _("physical"): "physical"}.get(typed, typed)  # the words as shown, too
    if dice not in ("virtual", "physical"):
        raise InputError(_("{dice} is not a dice mode; use virtual or physical").format(dice=quote(typed)))
    with opened(env) as session:
        if session.state.dice != dice:
            session.record({"t": "mode", "dice": dice})
    if json_out:
        env.print_json({"dice": dice})
        return
    env.print(_("Dice: {dice}.").format(dice=_(dice)))


def log(
    ctx: typer.Context,
    raw: Annotated[bool, typer.Option("--raw", help="Print the markdown itself.")] = False,
    rolls: Annotated[
        bool, typer.Option("--rolls", help="List the physical rolls with the numbers amend --roll takes.")
    ] = False,
) -> None:
    """Show the dungeon log in the terminal."""
    env: Env = ctx.obj
    from companion.cli.kit import opened

    with opened(env) as session:
        if rolls:
            from companion.i18n import _
            from companion.session.amend import physical_rolls, roll_words

            found = physical_rolls(session)
            if not found:
                env.print(_("No physical rolls in this session."))
            for r in found:
                env.print(roll_words(r), markup=False)
            return
        text = session.log_text()
    if raw or not env.stdout_isatty:
        env.write(text)
        return
    from rich.markdown import Markdown

    body = text.split("---\n", 2)[-1] if text.startswith("---\n") else text
    env.print(Markdown(body))


def gamedata(
    ctx: typer.Context,
    game: Annotated[
        str | None,
        typer.Argument(
            help="The game whose data to show or change (default: the current session's).", show_default=False
        ),
    ] = None,
    assignments: Annotated[
        list[str] | None,
        typer.Argument(help="KEY=VALUE pairs to set (a number, true/false, or text).", show_default=False),
    ] = None,
    unset: Annotated[
        list[str] | None, typer.Option("--unset", help="Remove a key (repeat for several).", show_default=False)
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Show or edit the numbers you entered from your own book or cards (kept for every new session).

    \b
    Examples:
      companion gamedata dark-tower
      companion gamedata dark-tower Lich.strength=13
      companion gamedata dark-tower --unset Lich
    """
    env: Env = ctx.obj
    import copy
    import json

    from companion.cli.kit import active_game
    from companion.errors import InputError
    from companion.games import canonical
    from companion.i18n import _
    from companion.session import catalogue
    from companion.store.paths import data_dir

    if game is not None and "=" in game:  # no game named: KEY=VALUE for the current session's game
        assignments, game = [game, *(assignments or [])], None
    if game is None:
        game = active_game(env)
        if game is None:
            raise InputError(_("name the game (companion gamedata GAME), or start a session of it"))
    game = canonical(game)
    folder = data_dir(env.data_dir)
    values = catalogue.load(folder, game)
    own = _gamedata_words(game)
    changed = False
    for item in assignments or []:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise InputError(_("{item} is not KEY=VALUE (e.g. paladin.hit=4)").format(item=quote(item)))
        try:
            value = json.loads(raw)
        except ValueError:
            value = raw
        found = None if key in values or own is None else own.resolve(values, key)
        if found is not None and found[1] is not None:  # a card's number: change it in the card
            card = copy.deepcopy(values[found[0]])
            card[found[1]] = value
            own.check(found[0], card)
            values[found[0]] = card
        else:
            values[key] = value
        changed = True
    for key in unset or []:
        found = None if key in values or own is None else own.resolve(values, key)
        if values.pop(found[0] if found and found[1] is None else key, None) is not None:
            changed = True
    if changed:
        catalogue.save(folder, game, values)
    if json_out:
        env.print_json({"game": game, "values": values, "file": str(catalogue.path(folder, game))})
        return
    if not values:
        env.print(
            _("No game data for {game} yet; companion asks for it the first time it is needed.").format(game=game)
        )
        return
    from companion import i18n

    if own is not None and i18n.language() != i18n.SOURCE:  # the game's words, not its raw keys
        for line in own.shown(values):
            env.print(line)
        return
    for key in sorted(values):
        value = values[key]
        shown = json.dumps(value, ensure_ascii=False) if isinstance(value, (dict, list)) else str(value)
        env.print(f"{key} = {shown}")


def _gamedata_words(game: str) -> Any:
    """A game's own way to show and edit its game data (``<package>.cli.gamedata``), or None."""
    import importlib

    from companion.games import GAMES

    try:
        return importlib.import_module(GAMES[game] + ".cli.gamedata")
    except ModuleNotFoundError:
        return None


app = typer.Typer(rich_markup_mode=None)
for _fn, _name in (
    (new, "new"),
    (use, "use"),
    (status, "status"),
    (undo, "undo"),
    (redo, "redo"),
    (note, "note"),
    (mode, "mode"),
    (log, "log"),
    (gamedata, "gamedata"),
):
    app.command(_name)(_fn)
app.add_typer(sessions_app, name="sessions")
