"""``companion dice reveal`` and ``companion dice verify FILE``: sealed dice anyone can check
(docs/dice.md, "Sealed dice"). Only typer is imported at module level."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from companion.cli.common import JsonOpt, off_the_edge

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.export.verify import Report


def reveal(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """Show a sealed session's seed and salt, so anyone can check its dice (the game's end does it too).

    Once revealed, the seed stays revealed: undo cannot go back past the reveal. A game that still
    keeps a secret its dice would give away (a card drawn face down) reveals it at its end.

    \b
    Examples:
      companion new freeform --sealed
      companion dice reveal
      companion export g.json -f json
      companion dice verify g.json
    """
    env: Env = ctx.obj
    off_the_edge(env)
    from companion.cli.kit import opened
    from companion.i18n import _

    with opened(env) as session:
        eid = session.reveal("asked")
        meta = session.meta
    if json_out:
        env.print_json({"revealed": eid, "seed": meta.seed, "salt": meta.salt, "commitment": meta.sealed})
        return
    env.echo(_("The seed: {seed}").format(seed=meta.seed))
    env.echo(_("The salt: {salt}").format(salt=meta.salt))
    env.print(_("Sealed as (SHA-256 of SEED:SALT):"))
    env.echo(f"  {meta.sealed}")
    env.print(
        _("Revealed at #{n}. Export the session (companion export NAME.json -f json) and anyone can run:").format(n=eid)
    )
    env.echo("  companion dice verify NAME.json")


def verify(
    ctx: typer.Context,
    file: Annotated[
        Path, typer.Argument(help="A session's JSON export (companion export -f json).", show_default=False)
    ],
    json_out: JsonOpt = False,
) -> None:
    """Check a sealed session's virtual dice from its JSON export: every roll, in order, from its seed.

    It checks the revealed seed against the commitment the session showed from its start, draws
    every virtual die again and compares it with the file (the first difference fails, exit 1),
    counts the dice at the reveal (a roll left out fails), and checks every roll undo took back,
    saying whether the same dice were drawn again. Physical rolls are the player's own. What it
    proves and what it does not: docs/dice.md, "Sealed dice".

    \b
    Examples:
      companion export g.json -f json
      companion dice verify g.json
      companion dice verify g.json --json
    """
    env: Env = ctx.obj
    off_the_edge(env)
    from companion.errors import InputError
    from companion.export.verify import NotVerified, load
    from companion.export.verify import verify as check
    from companion.i18n import _

    try:
        text = Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = getattr(exc, "strerror", None) or exc
        raise InputError(_("cannot read {path}: {why}").format(path=file, why=why)) from None
    doc = load(text)
    try:
        report = check(doc)
    except NotVerified as exc:
        raise NotVerified(_("not verified: {why}").format(why=exc.message)) from None
    if json_out:
        env.print_json(report.as_json())
        return
    for line in lines(report):
        env.print(line)


def lines(report: Report) -> list[str]:
    """The report as the terminal says it."""
    from companion.i18n import _, ngettext

    out = []
    if report.sealed:
        out.append(
            _("The seed {seed} and its salt match the commitment {commitment} (SHA-256).").format(
                seed=report.seed, commitment=report.sealed
            )
        )
    else:
        out.append(
            _("Not sealed: the seed {seed} was known from the start (companion new --sealed hides it).").format(
                seed=report.seed
            )
        )
    events = sorted({d.event for d in report.virtual})
    if events:
        out.append(
            ngettext(
                "Every virtual roll matches the seed: {dice} die in {rolls} roll (#{first} to #{last}), in order.",
                "Every virtual roll matches the seed: {dice} dice in {rolls} rolls (#{first} to #{last}), in order.",
                report.dice,
            ).format(dice=report.dice, rolls=len(report.virtual), first=events[0], last=events[-1])
        )
    else:
        out.append(_("No virtual roll to check."))
    if report.unnamed:
        out.append(
            ngettext(
                "{n} die of a roll that does not name its dice: drawn in its place, its face not read.",
                "{n} dice of rolls that do not name their dice: drawn in their place, their faces not read.",
                report.unnamed,
            ).format(n=report.unnamed)
        )
    if report.physical:
        shown = ", ".join(f"#{e}" for e, _x, _f in report.physical[:12]) + ("…" if len(report.physical) > 12 else "")
        out.append(
            ngettext(
                "{n} physical roll: the player's own dice ({events}), which nobody can check from a file.",
                "{n} physical rolls: the player's own dice ({events}), which nobody can check from a file.",
                len(report.physical),
            ).format(n=len(report.physical), events=shown)
        )
    out.extend(_undone_lines(report))
    if report.revealed is not None:
        if report.after_reveal:
            out.append(
                ngettext(
                    "The seed was revealed at #{n}; {k} roll came after it, rolled with the seed known.",
                    "The seed was revealed at #{n}; {k} rolls came after it, rolled with the seed known.",
                    report.after_reveal,
                ).format(n=report.revealed, k=report.after_reveal)
            )
        else:
            out.append(_("The seed was revealed at #{n}, after the last roll.").format(n=report.revealed))
    out.append(_("Verified."))
    return out


def _undone_lines(report: Report) -> list[str]:
    from companion.i18n import _, ngettext

    if not report.undone:
        return [_("No roll was undone.")]
    out = [
        ngettext(
            "{n} roll was undone (it is in the file, checked at its place in the stream):",
            "{n} rolls were undone (they are in the file, each checked at its place in the stream):",
            len(report.undone),
        ).format(n=len(report.undone))
    ]
    for u in report.undone:
        head = f"  #{u.roll.event} {u.roll.expr} {u.roll.shown()}"
        if u.same:
            out.append(_("{roll}: drawn again as #{n}, the same dice").format(roll=head, n=u.again[0].event))
        elif u.again:
            others = ", ".join(f"#{a.event} {a.expr} {a.shown()}" for a in u.again)
            out.append(_("{roll}: its dice were drawn again by {others}").format(roll=head, others=others))
        else:
            out.append(_("{roll}: not drawn again").format(roll=head))
    return out
