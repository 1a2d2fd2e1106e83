"""``companion sessions repair``: keep a damaged session's intact events, move the rest aside."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from companion.cli.common import JsonOpt
from companion.cli.complete import session_names
from companion.i18n import _, quote

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
            if json_out:
                env.print_json({"session": files.slug, "repaired": False, "events": found.intact})
                return
            env.echo(
                _("Session {name} is intact ({n} events): nothing to repair.").format(name=files.slug, n=found.intact)
            )
            return
        env.echo(fold_for(env.stdout, _("Session {name}: {problem}.").format(name=files.slug, problem=found.problem)))
        env.echo(
            fold_for(
                env.stdout,
                _("The first {n} events are intact; repairing keeps them and moves the rest aside.").format(
                    n=found.intact
                ),
            )
        )
        if not yes:
            if not env.interactive:
                raise InputError(
                    _("repairing {name} needs --yes when no one is at a terminal to confirm").format(
                        name=quote(files.slug)
                    )
                )
            env.stdout.write(_("Keep the {n} intact events of {name}? [y/N] ").format(n=found.intact, name=files.slug))
            env.stdout.flush()
            if env.stdin.readline().strip().lower() not in ("y", "yes"):
                raise CompanionError(_("nothing repaired"))
        aside = repair(files, found)
        session = Session.open(files)
    if json_out:
        env.print_json({"session": files.slug, "repaired": True, "events": session.count, "moved": str(aside)})
        return
    kept = _("Kept {n} events; the rest, the damaged files and a copy of the log are in {path}.")
    env.echo(fold_for(env.stdout, kept.format(n=session.count, path=aside)))
    env.echo(fold_for(env.stdout, _("Log: {path}").format(path=session.meta.log_path)))
