"""``companion history``, ``undo [--to N]`` and ``redo [--all]``: the session as a timeline in the
player's words, and the way back along it.

Every action is said by its label (companion.session.labels): what it did, to whom, its dice and
their odds; never an internal key. Only typer is imported at module level.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.cli.common import JsonOpt, off_the_edge

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.session.service import Session
    from companion.session.timeline import Said, TakenBack

YesOpt = Annotated[bool, typer.Option("--yes", "-y", help="Do not ask (for scripts): take them all back.")]


def history(
    ctx: typer.Context,
    last: Annotated[
        int | None,
        typer.Option("--last", "-n", help="Only the last N actions.", min=1, show_default=False),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """The session's actions as a numbered timeline, each in words; undone ones shown apart.

    Each line is one action: its number (what undo --to takes), what it did, to whom, and its dice
    with their odds where it had them. What undo took back is listed after it: the actions redo can
    still bring back, and those left for something else (kept for the record).

    \b
    Examples:
      companion history
      companion history --last 10
      companion history --json
      companion undo --to 12 --yes
    """
    env: Env = ctx.obj
    off_the_edge(env)
    from companion.cli.kit import opened
    from companion.session.timeline import said, taken_back

    with opened(env) as session:
        first = 1 if last is None else max(1, session.count - last + 1)
        actions = said(session, first, session.count)
        apart = [t for t in taken_back(session) if last is None or t.after >= first - 1]
    if json_out:
        env.print_json(
            {
                "session": session.name,
                "events": session.count,
                "actions": [a.as_json() for a in actions],
                "undone": [t.as_json() for t in apart],
            }
        )
        return
    _print_history(env, session, actions, apart, shown_from=first)


def _print_history(env: Env, session: Session, actions: list[Said], apart: list[TakenBack], shown_from: int) -> None:
    from rich.text import Text

    from companion.i18n import _, ngettext

    env.print(
        Text(
            ngettext("{name}: {n} action", "{name}: {n} actions", session.count).format(
                name=session.name, n=session.count
            ),
            style="bold",
        )
    )
    if shown_from > 1:
        env.print(
            Text(
                ngettext(
                    "… the first action left out (companion history shows them all)",
                    "… the first {n} left out (companion history shows them all)",
                    shown_from - 1,
                ).format(n=shown_from - 1)
            )
        )
    if not actions:
        env.print(_("No action yet."))
    env.print(_rows(actions))
    for taken in apart:
        if taken.redo:
            head = ngettext(
                "Taken back after #{after}, at {at}: companion redo brings it back",
                "Taken back after #{after}, at {at}: companion redo brings them back, the first first",
                len(taken.actions),
            )
        else:
            head = ngettext(
                "Taken back after #{after}, at {at}, and left for another way",
                "Taken back after #{after}, at {at}, and left for another way",
                len(taken.actions),
            )
        env.print()
        env.print(Text(head.format(after=taken.after, at=_clock(taken.at)), style="yellow"))
        env.print(_rows(taken.actions, dim=True))


def _rows(actions: list[Said], dim: bool = False) -> Any:
    from rich.table import Table
    from rich.text import Text

    table = Table(box=None, show_header=False, padding=(0, 1), pad_edge=False)
    table.add_column(justify="right", no_wrap=True, style="dim" if dim else "bold")
    table.add_column(overflow="fold", style="dim" if dim else None)
    for a in actions:
        table.add_row(f"#{a.id}", Text(a.label.line()))
    return table


def _clock(at: str) -> str:
    """An undo's time as the history shows it: ``21:04``, in the player's own time zone."""
    from companion.export.when import local

    moment = local(at)
    return moment.strftime("%H:%M") if moment is not None else at


# ---- undo and redo ---------------------------------------------------------------------------------


def undo(
    ctx: typer.Context,
    to: Annotated[
        int | None,
        typer.Option(
            "--to",
            help="Back to just after action N (history numbers them): every action after it, in one step.",
            min=0,
            show_default=False,
        ),
    ] = None,
    yes: YesOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Take back the last action, or every action after N (--to N); redo brings them back.

    With --to, it says how many actions it takes back and names the first and the last; at a
    terminal it asks once when that is more than one (--yes does not ask; without a terminal,
    --yes is needed). What is taken back can be redone until a new action is recorded, and stays
    in companion history for the record.

    \b
    Examples:
      companion undo
      companion undo --to 12
      companion undo --to 2 --yes
      companion history
    """
    env: Env = ctx.obj
    off_the_edge(env)
    from companion import i18n
    from companion.cli.kit import opened
    from companion.errors import CompanionError, InputError
    from companion.i18n import _, ngettext
    from companion.session.timeline import said

    with opened(env) as session:
        spoken = i18n.language()
        target = session.count - 1 if to is None else to
        if to is not None and to >= session.count:
            raise InputError(
                _("undo --to {n}: the session has {count} actions, so nothing comes after #{n}").format(
                    n=to, count=session.count
                )
                if to > 0 and session.count
                else _("nothing to undo: the session has no actions yet")
            )
        n = session.count - target
        named = said(session, target + 1, session.count) if n > 1 else []
        if n > 1 and not yes:
            if not env.interactive:
                raise InputError(
                    _(
                        "undo --to {to} takes back {n} actions (#{first} to #{last}): give --yes to take them "
                        "back without a terminal to confirm"
                    ).format(to=target, n=n, first=named[0].id, last=named[-1].id)
                )
            ask = _("Take back {n} actions, #{first} ({first_words}) to #{last} ({last_words})?").format(
                n=n,
                first=named[0].id,
                first_words=named[0].label.line(),
                last=named[-1].id,
                last_words=named[-1].label.line(),
            )
            env.print(ask)
            env.write(_("[y/N] "))
            if env.stdin.readline().strip().lower() not in ("y", "yes", "д", "да"):
                raise CompanionError(_("nothing undone"))
        taken = session.undo_to(target)
        if not named:  # one action: said with the table as it stood before it, now the session's
            named = [_said_now(session, taken[0])]
        if json_out:
            env.print_json(
                {
                    "undone": taken[0] if len(taken) == 1 else None,
                    "taken_back": [{"event": e, **w.label.as_json()} for e, w in zip(taken, named, strict=True)],
                    "events": session.count,
                }
            )
            return
        from companion.cli.env import styled

        with i18n.using(spoken, session.meta.game):  # an undone choice of language is said in the old one
            if len(taken) == 1:
                env.print(
                    styled(
                        _("Undone: {what} (#{n}). [dim]companion redo[/dim] brings it back."),
                        what=named[0].label.line(),
                        n=taken[0]["id"],
                    )
                )
                return
            env.print(
                styled(
                    ngettext(
                        "Took back {n} action: #{first} {first_words} … #{last} {last_words}.",
                        "Took back {n} actions: #{first} {first_words} … #{last} {last_words}.",
                        len(taken),
                    ),
                    n=len(taken),
                    first=named[0].id,
                    first_words=named[0].label.line(),
                    last=named[-1].id,
                    last_words=named[-1].label.line(),
                )
            )
            env.print(
                styled(
                    _(
                        "Now after #{n}. [dim]companion redo[/dim] brings them back one at a time, "
                        "[dim]companion redo --all[/dim] all of them."
                    ),
                    n=session.count,
                )
            )


def _said_now(session: Session, event: dict[str, Any]) -> Said:
    """An event just undone (or about to be redone), in words: the session stands just before it."""
    from companion.session.labels import label
    from companion.session.timeline import Said

    request = session.waiting().pending if event.get("t") == "answer" else None
    words = label(session.spec, event, session.state, request).seen(session.spec.view(session.state))
    return Said(int(event["id"]), str(event.get("at", "")), words)


def redo(
    ctx: typer.Context,
    every: Annotated[bool, typer.Option("--all", help="Bring back every action undo took back, in order.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Record again the last action taken back by undo (--all: every one of them, in order).

    \b
    Examples:
      companion redo
      companion redo --all
    """
    env: Env = ctx.obj
    off_the_edge(env)
    from companion.cli.kit import opened
    from companion.errors import CompanionError
    from companion.i18n import _

    with opened(env) as session:
        if not session.redo_entries:
            raise CompanionError(_("nothing to redo"))
        done: list[tuple[dict[str, Any], Said]] = []
        while session.redo_entries and (every or not done):
            words = _said_now(session, session.redo_stack[-1])
            done.append((session.redo(), words))
        if json_out:
            env.print_json(
                {
                    "redone": done[0][0] if len(done) == 1 else None,
                    "brought_back": [{"event": e, **w.label.as_json()} for e, w in done],
                    "events": session.count,
                }
            )
            return
        for event, words in done:
            env.print(_("Redone: {what} (#{n}).").format(what=words.label.line(), n=event["id"]))
        if session.redo_entries:
            from companion.i18n import ngettext

            n = len(session.redo_entries)
            env.print(
                ngettext(
                    "{n} more action can be redone (companion redo).",
                    "{n} more actions can be redone (companion redo, or companion redo --all).",
                    n,
                ).format(n=n)
            )


app = typer.Typer(rich_markup_mode=None)
app.command("history")(history)
app.command("undo")(undo)
app.command("redo")(redo)
