"""Sharing a session: ``companion export`` (md, html, lonelog, json) and ``companion dice audit``.

Only typer is imported here at module level; the exports are made by :mod:`companion.export`,
whose html page alone imports Jinja2 and pygal (see docs/log-format.md).
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.cli import dice_cmds
from companion.cli.common import JsonOpt
from companion.i18n import _, ngettext

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.export.source import Source

EXPORT_HELP = """\
Write the session's log, regenerated from its events, as markdown, an html page, Lonelog or JSON.

\b
Examples:
  companion export                     the markdown log, rewritten
  companion export --format html       a page with charts: logs/NAME.html
  companion export run -f html         ... written where you say: run.html
  companion export evening -f html     the session evening, not the current one
  companion export -s evening run.md   evening's log, written to run.md
  companion export - --format lonelog  Lonelog notation, printed
  companion export --format json       events and state: logs/NAME.json
  companion export --all -f html       every session, and logs/index.html
  companion export notes.md --force    replace notes.md though companion did not write it

A file that is there already is replaced only when companion wrote it (an earlier export); another
is refused (at a terminal, companion asks), unless --force. A symbolic link, a save in the data
folder and a system file (/etc, /usr, ...) are never written.
"""


def _make(fmt: str, source: Source) -> str:
    """The text of one export (not md, which the session writes itself)."""
    if fmt == "json":
        import json

        from companion.export.document import document

        return source.shown(json.dumps(document(source), ensure_ascii=False, indent=1) + "\n")
    from companion.export.replay import replay

    played = source.played or source.events  # the replay folds the events as recorded, and filters each step
    if fmt == "lonelog":
        from companion.export.lonelog import render

        return source.shown(render(source, replay(source.meta, played, view=source.view)))
    from companion.export.html import page
    from companion.export.moments import probe_for

    probe = probe_for(source.meta.game, source.packs)
    return source.shown(page(source, replay(source.meta, played, probe, view=source.view)))


def _check_format(fmt: str) -> str:
    from companion.errors import InputError
    from companion.export import FORMATS

    fmt = fmt.strip().lower()
    if fmt == "markdown":
        fmt = "md"
    if fmt not in FORMATS:
        raise InputError(
            _("{fmt!r} is not an export format; use {formats}").format(fmt=fmt, formats=", ".join(FORMATS))
        )
    return fmt


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:  # a name too long for a file: writing it says so in one line
        return False


def _asker(env: Env) -> Any:
    """At a terminal, the question before replacing a file companion did not write (else None: refused)."""
    if not env.interactive:
        return None

    def ask(question: str) -> bool:
        env.stdout.write(question + " [y/N] ")
        env.stdout.flush()
        return env.stdin.readline().strip().lower() in ("y", "yes", "д", "да")

    return ask


def _write(env: Env, target: Path, text: str, force: bool = False) -> None:
    """Never inside the data folder, never a system file, never through a link, never a file companion did
    not write without --force (or a yes); a device or a FIFO as a stream (companion.store.exports)."""
    from companion.cli.kit import store
    from companion.store.exports import write_export

    write_export(target, text, store(env).data, force=force, ask=_asker(env))


def _export_one(
    env: Env, fmt: str, path: Path | None, name: str | None = None, force: bool = False, reveal: bool = False
) -> dict[str, Any]:
    from companion.cli.kit import opened
    from companion.export import EXTENSIONS
    from companion.export.source import Source

    with opened(env, name=name, read=True) as session:  # held elsewhere: a copy read at once
        own = path is None or os.path.abspath(path) == os.path.abspath(session.meta.log_path)
        if fmt == "md" and own and not session.files.is_locked:
            # The session's own log: the process that holds the session keeps it, up to date.
            return {"session": session.files.slug, "format": fmt, "file": session.meta.log_path, "kept": True}
        if fmt == "md" and str(path) != "-" and session.files.is_locked:
            session.rebuild()
            target = session.write_log(path, force=force, ask=_asker(env))
            return {"session": session.files.slug, "format": fmt, "file": str(target)}
        source = Source.of(session, reveal=reveal)
        text = source.markdown if fmt == "md" else _make(fmt, source)
        slug = session.files.slug
        default = Path(session.meta.log_path).with_name(slug + EXTENSIONS[fmt])
    if str(path) == "-":
        env.write(text, json=fmt == "json")
        return {"session": slug, "format": fmt, "file": "-"}
    target = path if path is not None else default
    _write(env, target, text, force)
    return {"session": slug, "format": fmt, "file": str(target), "source": source}


def export(
    ctx: typer.Context,
    target: Annotated[
        str | None,
        typer.Argument(
            metavar="[NAME or PATH]",
            help="A session to export (default: the current one), or where to write (default: beside the "
            "session's log; - prints it; a name without an extension gets the format's; with --all, a folder).",
            show_default=False,
        ),
    ] = None,
    path: Annotated[
        Path | None,
        typer.Argument(metavar="[PATH]", help="Where to write, after a session's NAME.", show_default=False),
    ] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="md, html, lonelog or json.", show_default=True)] = "md",
    session: Annotated[
        str | None,
        typer.Option("--session", "-s", help="The session to export (default: the current one).", show_default=False),
    ] = None,
    every: Annotated[bool, typer.Option("--all", help="Every session (html adds an index.html page).")] = False,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Replace a file that is there already though companion did not write it (without it, that is "
            "refused, or asked at a terminal). Never a link, a save or a system file.",
        ),
    ] = False,
    reveal: Annotated[
        bool,
        typer.Option(
            "--reveal-secrets",
            help="With --format json: keep what the rules still hide (the Dragon's Den's face-down dragon) in "
            "the file, for your own backup. Do not share that file.",
        ),
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    env: Env = ctx.obj
    fmt = _check_format(fmt)
    if reveal and (fmt != "json" or every):
        from companion.errors import InputError

        raise InputError(_("--reveal-secrets is for one session's --format json (your own backup)"))
    if every:
        if session is not None or path is not None:
            from companion.errors import InputError

            raise InputError(_("--all exports every session: give a folder at most, not a session"))
        _export_all(env, fmt, Path(target) if target is not None else None, json_out, force)
        return
    name, where = _target(env, fmt, target, path, session)
    done = _export_one(env, fmt, where, name, force, reveal)
    done.pop("source", None)
    if json_out:
        env.print_json(done)
    elif done.get("kept"):
        env.echo(
            _("The log is at {path}, kept up to date by the companion process that holds the session").format(
                path=done["file"]
            )
        )
    elif done["file"] != "-":
        written = {
            "md": _("Log written to {path}"),
            "html": _("Page written to {path}"),
            "lonelog": _("Lonelog written to {path}"),
            "json": _("JSON written to {path}"),
        }[fmt]
        env.echo(written.format(path=done["file"]))


def _target(
    env: Env, fmt: str, target: str | None, path: Path | None, session: str | None
) -> tuple[str | None, Path | None]:
    """The session to export (None: the current one) and where to write it (None: beside its log).

    ``companion export NAME`` exports the session NAME when there is one; otherwise NAME is where to
    write, and a name without an extension gets the format's (``run`` → ``run.html``)."""
    from companion.cli.kit import store
    from companion.errors import InputError

    if path is not None:  # export NAME PATH
        if session is not None:
            raise InputError(
                _("name the session once: --session {session} or {name}, not both").format(session=session, name=target)
            )
        store(env).open(str(target))  # no such session: one line naming the sessions there are
        return target, _with_extension(_not_a_folder(path), fmt)
    if target is None or target == "-":
        return session, Path(target) if target else None
    if session is None and target and store(env).files(target).session_file.exists():
        return target, None
    return session, _with_extension(_not_a_folder(Path(target)), fmt)


def _not_a_folder(path: Path) -> Path:
    """``path`` when it can name a file: a folder (or '' or .) is one line saying what to give."""
    from companion.errors import InputError

    if str(path) in ("", ".") or _is_dir(path):
        shown = "''" if str(path) in ("", ".") else str(path)
        raise InputError(
            _("export {path}: that is a folder; give a file name (e.g. run.html), or - to print it").format(path=shown)
        )
    return path


def _there(path: Path) -> bool:
    try:
        return path.exists() or path.is_symlink()
    except OSError:  # a name too long for a file: writing it says so in one line
        return False


def _with_extension(path: Path, fmt: str) -> Path:
    """``run`` → ``run.html`` for html (``.md``, ``.lonelog.md``, ``.json``); a path with one keeps it, and
    so does one that is there already (a file, a FIFO, a device such as /dev/stdout, a link)."""
    from companion.export import EXTENSIONS

    if str(path) == "-" or path.suffix or _there(path):  # one that is there already: as named
        return path
    return path.with_name(path.name + EXTENSIONS[fmt])


def _export_all(env: Env, fmt: str, path: Path | None, json_out: bool, force: bool = False) -> None:
    from companion.cli.kit import store
    from companion.errors import CompanionError, InputError
    from companion.export import EXTENSIONS
    from companion.store.paths import logs_dir

    if path is not None and str(path) == "-":
        raise InputError(_("--all writes one file per session: give a folder, not -"))
    folder = path if path is not None else logs_dir(env.logs_dir)
    slugs = store(env).slugs()
    if not slugs:
        raise CompanionError(_("there are no sessions to export"), hint=_("start one with: companion new GAME"))
    written, failed, pages = [], [], []
    for slug in slugs:
        try:
            done = _export_one(env, fmt, folder / (slug + EXTENSIONS[fmt]), name=slug, force=force)
        except CompanionError as exc:
            failed.append({"session": slug, "error": exc.message})
            env.warn(_("{session}: not exported: {why}").format(session=slug, why=exc.message))
            continue
        source = done.pop("source", None)
        written.append(done)
        if source is not None:
            pages.append((slug + EXTENSIONS[fmt], source))
    index = None
    if fmt == "html" and pages:
        from companion.export.html import index_page

        index = folder / "index.html"
        _write(env, index, index_page(pages), force)
    if json_out:
        env.print_json({"written": written, "failed": failed, "index": str(index) if index else None})
    else:
        for done in written:
            env.echo(f"{done['session']}: {done['file']}")
        if index is not None:
            env.echo(_("Index: {path}").format(path=index))
    if failed:
        raise typer.Exit(1)


export.__doc__ = EXPORT_HELP

AUDIT_HELP = """\
Are your own dice fair? Counts each face of your physical rolls and tests them against a fair die.

A chi-square goodness-of-fit test per die type (d6, d10, 2d6 counted as two d6, the Dark Tower
die), with the virtual dice beside them as a control. A verdict needs at least 5 expected rolls of
every face (30 rolls of a d6); below that it says "too few to say". A die is flagged below p = 0.01.

\b
Examples:
  companion dice audit                     the current session
  companion dice audit --all               every session together
  companion dice audit --session run-1 --json
"""


def _public_events(env: Env, name: str) -> list[dict[str, Any]]:
    """A session's events as the public may see them (the one filter): a draw that gives a kept
    secret away is withheld, and not counted. A session held elsewhere (a shell, a page) is not
    waited for: every secret of its game then counts as kept."""
    from companion.cli.kit import opened, store
    from companion.contract.registry import load
    from companion.contract.secrets import PUBLIC, View
    from companion.errors import CompanionError

    files = store(env).open(name)
    events = files.read_events()
    game = load(files.read_meta()["meta"]["game"])
    if not game.provides("secrets"):
        return events
    try:
        with opened(env, name=name, wait=0) as session:
            view = session.spec.view(session.state)
    except CompanionError:
        view = View(PUBLIC, tuple(game.secrets), ())  # type: ignore[arg-type]
    return view.events(events)


def audit(
    ctx: typer.Context,
    session: Annotated[
        str | None, typer.Option("--session", "-s", help="The session to audit (default: the current one).")
    ] = None,
    every: Annotated[bool, typer.Option("--all", help="Every session's rolls together.")] = False,
    json_out: JsonOpt = False,
) -> None:
    env: Env = ctx.obj
    from companion.cli.kit import require_name, store
    from companion.errors import InputError
    from companion.export.audit import audit as run_audit
    from companion.export.audit import die_label, die_order, needed
    from companion.export.rolls import Rolls, session_rolls

    if every and session:
        raise InputError(_("give --session NAME or --all, not both"))
    st = store(env)
    names = st.slugs() if every else [session or require_name(env)]
    rolls = Rolls()
    for name in names:
        part = session_rolls(str(st.open(name).read_meta()["meta"]["game"]), _public_events(env, name))
        rolls.faces += part.faces
        rolls.unknown += part.unknown
        rolls.amended += part.amended
        rolls.draws += part.draws
    results = run_audit(rolls.faces)
    scope = _("all sessions") if every else names[0]
    if json_out:
        env.print_json(
            {
                "sessions": [st.open(n).slug for n in names],
                "dice": [r.to_json() for r in results],
                "unknown": rolls.unknown,
                "amended": rolls.amended,
                "draws": len(rolls.draws),
            }
        )
        return
    if not results:
        env.echo(_("Dice audit of {scope}: no dice rolled yet.").format(scope=scope))
        _drawn(functools.partial(_say, env, _width(env)), len(rolls.draws))
        return
    width = _width(env)
    say = functools.partial(_say, env, width)
    say(_("Dice audit of {scope}: each die type against a fair die (a chi-square test).").format(scope=scope))
    for r in results:
        heads = {"physical": _("{die}, physical"), "virtual": _("{die}, virtual (control)")}
        head = heads.get(r.source, "{die}, " + r.source).format(die=die_label(r.die))
        env.echo("")
        env.echo(head)
        say(r.verdict, indent="  ")
        if r.rolls:
            say("  ".join(f"{face}: {n}" for face, n in r.counts.items()), indent="  ", sep="  ")
    dice = sorted({r.die for r in results}, key=die_order)
    env.echo("")
    needs = ", ".join(
        ngettext("{n} roll of a {die}", "{n} rolls of a {die}", needed(d)).format(n=needed(d), die=die_label(d))
        for d in dice
    )
    say(_("A verdict needs {rolls}.").format(rolls=needs))
    if rolls.amended:
        say(
            ngettext(
                "{amended} amended roll counted with the faces you corrected it to.",
                "{amended} amended rolls counted with the faces you corrected them to.",
                rolls.amended,
            ).format(amended=rolls.amended)
        )
    if rolls.unknown:
        say(
            ngettext(
                "{unknown} roll left out: its event does not say which dice it was.",
                "{unknown} rolls left out: their event does not say which dice they were.",
                rolls.unknown,
            ).format(unknown=rolls.unknown)
        )
    _drawn(say, len(rolls.draws))


def _drawn(say: Any, n: int) -> None:
    """The draws left out of the audit: chits and cards from a cup or a deck are no dice."""
    if n:
        say(
            ngettext(
                "{n} draw from a cup or a deck left out: a chit or a card drawn is no die.",
                "{n} draws from a cup or a deck left out: a chit or a card drawn is no die.",
                n,
            ).format(n=n)
        )


def _width(env: Env) -> int:
    """The terminal's width (80 when printing to a pipe), at most 100 for reading."""
    if not env.stdout_isatty:
        return 80
    import shutil

    return max(40, min(100, shutil.get_terminal_size((80, 24)).columns))


def _say(env: Env, width: int, text: str, indent: str = "", sep: str = " ") -> None:
    """Print ``text`` wrapped at ``width`` between words (``sep`` separates them), later lines indented."""
    words = text.split(sep)
    line = indent
    for word in words:
        candidate = line + (sep if line.strip() else "") + word
        if len(candidate) > width - 1 and line.strip():
            env.echo(line)
            line = "  " + (indent if indent else "") + word
        else:
            line = candidate
    env.echo(line)


audit.__doc__ = AUDIT_HELP

dice = typer.Typer(
    rich_markup_mode=None,
    help="Your dice: is each one fair (companion dice audit); sealed dice anyone can check (dice reveal, dice verify).",
)
dice.command("audit")(audit)
dice.command("reveal")(dice_cmds.reveal)
dice.command("verify")(dice_cmds.verify)

app = typer.Typer(rich_markup_mode=None)
app.command("export")(export)
app.add_typer(dice, name="dice")
