"""Session commands: new, sessions, use, status, note, mode, log.

``export`` lives in companion.cli.export_cmds, ``amend`` in companion.cli.amend_cmds, ``gamedata`` in
companion.cli.gamedata_cmds, ``history``, ``undo`` and ``redo`` in companion.cli.history_cmds."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.cli.common import GotStartOpt, JsonOpt, check_name, dump_state
from companion.cli.complete import game_names, session_names, variant_names
from companion.cli.sessions_rename import sessions_rename
from companion.cli.sessions_repair import sessions_repair
from companion.i18n import _, quote

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
    sealed: Annotated[
        bool,
        typer.Option(
            "--sealed",
            help="Seal the virtual dice: companion draws the seed and shows only its SHA-256 commitment until "
            "companion dice reveal (or the game's end); then anyone can check every roll (companion dice verify).",
        ),
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
    if sealed and seed is not None:
        from companion.errors import InputError

        raise InputError(_("--sealed draws its own seed and keeps it hidden: leave out --seed"))
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
        sealed=sealed,
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
                "seed": None if sealed else session.meta.seed,
                "sealed": session.meta.sealed,
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

    if sealed:
        from companion.cli.common import off_the_edge

        off_the_edge(env)
        env.print(
            styled(
                _("[bold]{game}[/bold]: session [bold]{session}[/bold] started ({dice} dice, sealed)."),
                game=_(session.spec.title),
                session=session.files.slug,
                dice=_(session.meta.dice),
            )
        )
        env.print(_("Sealed dice (SHA-256):"))
        env.echo(f"  {session.meta.sealed}")
        env.print(_("Share that line now; companion dice reveal (or the game's end) shows the seed it seals."))
    else:
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
                "seed": session.meta.seed if session.state.seed_shown else None,
                "sealed": session.meta.sealed,
                "variants": session.meta.variants,
                "log": session.meta.log_path,
                "name": session.meta.name,
            }
            env.print_json(data)
            return
        from companion.shell.panels import status_panel

        env.print(status_panel(session))


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


app = typer.Typer(rich_markup_mode=None)
for _fn, _name in (
    (new, "new"),
    (use, "use"),
    (status, "status"),
    (note, "note"),
    (mode, "mode"),
    (log, "log"),
):
    app.command(_name)(_fn)
app.add_typer(sessions_app, name="sessions")
