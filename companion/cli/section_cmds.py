"""``companion section N [--note TEXT]``, ``section back [K]`` and ``companion sections``: a gamebook's
numbered sections in any session, kept as the decision log (one line a section in the log, with what
was chosen and rolled there) and the way back (the finger in the page).

Only typer is imported at module level.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.cli.common import JsonOpt

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.session.trackers import Sections

#: The highest section number taken (books run to a few hundred, some to a few thousand).
MAX_SECTION = 99_999


def section(
    ctx: typer.Context,
    where: Annotated[str, typer.Argument(help="The section you are at (213), or back.", show_default=False)],
    words: Annotated[
        list[str] | None,
        typer.Argument(
            help="With back: how many sections back (1 when left out). Then any words: the note, as --note.",
            show_default=False,
        ),
    ] = None,
    note: Annotated[
        str | None,
        typer.Option("--note", help="What you chose or found there (kept on its line of the log).", show_default=False),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Record the section you are at (section 213), or go back along your way (section back, back 2).

    Each section is a line of the log, the decision log: what you chose there (--note, or the words
    after the number) and every roll made there hang under it. Going back is recorded as a visit of
    the section you return to, so the whole path is kept. In companion shell, §213 (or s213) is
    section 213.

    \b
    Examples:
      companion section 1
      companion section 213 --note "took the left stair"
      companion section 40 the cold stair
      companion section back 1 --note "the other door"
      companion section back
      companion sections
    """
    env: Env = ctx.obj
    from companion.cli.kit import opened
    from companion.errors import InputError
    from companion.i18n import _, number

    word = where.strip().lower()
    rest = list(words or [])
    event: dict[str, Any] = {"t": "section"}
    if word in ("back", _("back")):
        steps = rest.pop(0) if rest and rest[0].lstrip("+-").isdigit() else None
        event["back"] = 1 if steps is None else int(steps)
        if event["back"] < 1:
            raise InputError(_("section back {k}: give how many sections back, 1 or more").format(k=steps))
    elif word.isdigit() and 1 <= int(word) <= MAX_SECTION:
        if len(rest) == 1 and rest[0].isdigit():
            raise InputError(
                _("section {n} takes no second number; section back {k} goes back").format(n=word, k=rest[0])
            )
        event["n"] = int(word)
    else:
        raise InputError(
            _(
                "{where!r} is not a section; write its number (section 213, from 1 to {most}) or section back [K]"
            ).format(where=where, most=number(MAX_SECTION, group=True))
        )
    note = " ".join([note or "", *rest]).strip()  # section 213 took the left stair: the note unquoted too
    if note:
        event["note"] = " ".join(note.split())
    with opened(env) as session:
        sections = session.state.trackers.sections
        if "back" in event and not 1 <= event["back"] < len(sections.trail):
            from companion.session.sections import back_refusal

            raise InputError(back_refusal(sections.trail, event["back"]))
        before = len(session.state.log.entries)
        session.record(event)
        entries = session.state.log.entries[before:]
        sections = session.state.trackers.sections
        if json_out:
            env.print_json(shape(sections))
            return
        from companion.cli.kit import print_entries

        print_entries(env, entries)


def shape(sections: Sections) -> dict[str, Any]:
    """``{"path": [1, 213, 1], "visits": {"1": 2, "213": 1}, "current": 1, "branches": [...]}``: each
    branch a way tried and left, ``{"from": 1, "path": [213], "how": "back"}`` (``undo``: taken back)."""
    return {
        "path": list(sections.path),
        "visits": {str(n): k for n, k in sections.visits().items()},
        "current": sections.current,
        "branches": [{"from": b.start, "path": list(b.path), "how": b.how} for b in sections.branches],
    }


def sections_cmd(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """The sections read so far: the path (returns included), how often each was visited, where you are.

    \b
    Examples:
      companion sections
      companion sections --json
    """
    env: Env = ctx.obj
    from companion.cli.kit import opened
    from companion.i18n import _, ngettext

    with opened(env) as session:
        sections = session.state.trackers.sections
    if json_out:
        env.print_json(shape(sections))
        return
    if not sections.path:
        env.echo(_("No section yet: companion section N records where you are."))
        return
    env.echo(_("Path: {path}").format(path=" → ".join(f"§{n}" for n in sections.path)))
    visits = sections.visits()
    shown = ", ".join(f"§{n} ×{k}" for n, k in sorted(visits.items()))
    env.echo(
        ngettext("Visited: {n} section ({list})", "Visited: {n} sections ({list})", len(visits)).format(
            n=len(visits), list=shown
        )
    )
    env.echo(_("Now at §{n}; the way back: {trail}").format(
        n=sections.current, trail=" ← ".join(f"§{n}" for n in reversed(sections.trail[:-1])) or _("none")
    ))  # fmt: skip
    for b in sections.branches:
        way = " → ".join(f"§{n}" for n in b.path)
        if b.how == "undo":
            text = _("Tried from §{start}: {way}, taken back by undo").format(start=b.start, way=way)
        else:
            text = _("Tried from §{start}: {way}, went back").format(start=b.start, way=way)
        env.echo(text)


app = typer.Typer(rich_markup_mode=None)
app.command("section")(section)
app.command("sections")(sections_cmd)
