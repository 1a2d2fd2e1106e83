"""``companion sessions repair``: keep a damaged session's intact events, move the rest aside."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from companion.cli.common import JsonOpt
from companion.cli.complete import session_names
from companion.i18n import _, ngettext, quote

if TYPE_CHECKING:
    from companion.cli.env import Env


def sessions_repair(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The damaged session.", autocompletion=session_names, show_default=False)],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask (for scripts).")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Keep a damaged session's intact events; move the damaged files and the rest aside (nothing is deleted).

    A session whose events file is missing or damaged is refused, and says how many events before the
    damage are intact. Putting the file back from a backup keeps everything; this keeps those events,
    moves everything else (and a copy of the log) to a damaged-N folder in the session's folder, and
    writes the log again from what is kept.

    \b
    Examples:
      companion sessions repair example --yes
    """
    env: Env = ctx.obj
    from companion.cli.env import fold_for
    from companion.cli.kit import store
    from companion.errors import CompanionError, InputError
    from companion.session.service import Session
    from companion.store.repair import repair, survey

    files = store(env).open(name)
    with files.locked():
        found = survey(files)
        if not found.problem:
            found.problem = _still_refused(files)
        if not found.problem:
            if json_out:
                env.print_json({"session": files.slug, "repaired": False, "events": found.intact})
                return
            env.echo(
                _("Session {name} is intact ({n} events): nothing to repair.").format(name=files.slug, n=found.intact)
            )
            return
        env.echo(fold_for(env.stdout, _("Session {name}: {problem}.").format(name=files.slug, problem=found.problem)))
        intact = ngettext(
            "The first {n} event is intact; repairing keeps it and moves the rest aside.",
            "The first {n} events are intact; repairing keeps them and moves the rest aside.",
            found.intact,
        )
        env.echo(fold_for(env.stdout, intact.format(n=found.intact)))
        if not yes:
            if not env.interactive:
                raise InputError(
                    _("repairing {name} needs --yes when no one is at a terminal to confirm").format(
                        name=quote(files.slug)
                    )
                )
            keep = ngettext(
                "Keep the {n} intact event of {name}? [y/N] ",
                "Keep the {n} intact events of {name}? [y/N] ",
                found.intact,
            )
            env.stdout.write(keep.format(n=found.intact, name=files.slug))
            env.stdout.flush()
            if env.stdin.readline().strip().lower() not in ("y", "yes", "д", "да"):
                raise CompanionError(_("nothing repaired"))
        aside = repair(files, found)
        session = Session.open(files)
    lost = found.lost
    if json_out:
        env.print_json(
            {"session": files.slug, "repaired": True, "events": session.count, "lost": lost, "moved": str(aside)}
        )
        return
    if lost:
        first, last = session.count + 1, session.count + lost
        span = _("event {first}") if first == last else _("events {first}-{last}")
        kept = ngettext(
            "Kept {n} event; {span} could not be kept: with the damaged files, what was made from them and a copy "
            "of the log, in {path}.",
            "Kept {n} events; {span} could not be kept: with the damaged files, what was made from them and a copy "
            "of the log, in {path}.",
            session.count,
        ).format(n=session.count, span=span.format(first=first, last=last), path=aside)
    else:
        kept = ngettext(
            "Kept {n} event (every one); the damaged files and a copy of the log are in {path}.",
            "Kept {n} events (every one); the damaged files and a copy of the log are in {path}.",
            session.count,
        ).format(n=session.count, path=aside)
    env.echo(fold_for(env.stdout, kept))
    env.echo(fold_for(env.stdout, _("Log: {path}").format(path=session.meta.log_path)))


def _still_refused(files: object) -> str:
    """What opening the session still says is wrong when the survey found nothing ("" if it opens): a
    damage the survey does not name is repaired all the same (its intact events kept), never a dead end."""
    from companion.errors import StoreError
    from companion.session.service import Session
    from companion.store.damage import Damaged

    try:
        Session.open(files)  # type: ignore[arg-type]
    except Damaged as exc:
        return exc.problem
    except StoreError:
        return ""  # not damage of the events (a lock, a disk): said when the session is used
    return ""
