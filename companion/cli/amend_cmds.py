"""``companion amend``: correct a mis-typed physical roll, after listing the rolls and showing the change."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from companion.cli.common import JsonOpt

if TYPE_CHECKING:
    from companion.cli.env import Env


def amend(
    ctx: typer.Context,
    reason: Annotated[
        str | None,
        typer.Option("--reason", "-r", help="Why the roll is corrected (kept in the log).", show_default=False),
    ] = None,
    got: Annotated[
        str | None, typer.Option("--got", "-g", help="The faces the dice really showed.", show_default=False)
    ] = None,
    roll_id: Annotated[
        int | None,
        typer.Option(
            "--roll",
            help="The roll's number, as `companion amend` or `companion log --rolls` lists it "
            "(default with --got: the last physical roll).",
            show_default=False,
        ),
    ] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Record without asking to confirm.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Correct a mis-entered physical roll; the log keeps both values and the reason.

    Without --roll and --got it lists the last physical rolls with their numbers. It shows the change
    before recording it and asks to confirm at a terminal; with --yes, or when stdin is not a terminal
    (a script), it records without asking.
    """
    env: Env = ctx.obj
    from companion.cli.kit import opened
    from companion.errors import CompanionError, InputError
    from companion.i18n import _
    from companion.session.amend import amend_event, physical_rolls, preview, roll_words

    with opened(env) as session:
        if roll_id is None and got is None:
            rolls = physical_rolls(session, limit=10)
            if json_out:
                env.print_json({"rolls": rolls})
                return
            if not rolls:
                env.print(_("There is no physical roll to amend (a virtual roll cannot be amended; use undo)."))
                return
            env.print(_("The last physical rolls:"))
            for r in rolls:
                env.print("  " + roll_words(r), markup=False)
            env.print(_("Correct one with: companion amend --roll N --got FACES --reason TEXT"), markup=False)
            return
        if reason is None or not reason.strip():
            raise InputError(_('--reason must say why the roll is corrected (e.g. --reason "misread the die")'))
        event, expr, mod = amend_event(session, roll_id)
        if got is None:
            if not env.interactive:
                raise InputError(_("give the corrected faces with --got (e.g. --got 5)"))
            from companion.dice.source import read_physical
            from companion.shell.prompts import ask_faces

            why = _("corrected faces for roll #{n}").format(n=event["target"])
            roll = ask_faces(expr, mod, why, reader=read_physical)
        else:
            from companion.dice.source import read_physical

            roll = read_physical(expr, got, mod)
        from companion.session.fold import roll_payload

        payload = roll_payload(roll)
        payload.pop("src", None)
        event["roll"] = payload
        event["reason"] = reason.strip()
        change = preview(session, event)  # tried on a copy: refused here, in the player's words
        if not json_out:
            env.print(change, markup=False)
        if not yes and env.interactive and not typer.confirm(_("Record this amendment?"), default=True):
            env.print(_("Nothing changed."))
            return
        try:
            eid = session.record(event)
        except CompanionError as exc:
            raise CompanionError(
                _("cannot amend roll #{n}: {why}").format(n=event["target"], why=exc.message),
                hint=_("undo back to that roll first, then roll again"),
            ) from None
        if json_out:
            env.print_json(
                {"amended": event["target"], "event": eid, "roll": payload, "reason": event["reason"], "change": change}
            )
            return
        env.print(_("Roll #{n} amended ({reason}).").format(n=event["target"], reason=event["reason"]))


app = typer.Typer(rich_markup_mode=None)
app.command("amend")(amend)
