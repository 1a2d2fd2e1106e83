"""``companion dragon setup`` and ``peek`` (the secret dragon), ``health`` and ``score``.

Registered on ``companion dragon`` by :mod:`companion.games.dragons_den.cli`; only typer is imported
at module level.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from companion.cli.common import JsonOpt
from companion.games.dragons_den.cli.common import _den, act

if TYPE_CHECKING:
    from companion.cli.env import Env

app = typer.Typer()


@app.command()
def setup(
    ctx: typer.Context,
    heroes: Annotated[list[str], typer.Argument(help="The heroes played: numbers 1-7 or names (sam, 7, cara).")],
    chits: Annotated[
        str, typer.Option("--chits", help="virtual: companion draws every chit; physical: you type the chits drawn.")
    ] = "virtual",
    dragon: Annotated[
        int | None,
        typer.Option(
            "--dragon", help="Physical chits: the dragon chit drawn (asked unseen if omitted).", min=1, max=12
        ),
    ] = None,
    discard: Annotated[
        list[int] | None,
        typer.Option("--discard", help="Physical chits: a dragon chit set aside (twice in the standard game)."),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Choose the heroes and how chits are drawn; the dragon player draws the dragon in secret."""
    from companion.errors import InputError
    from companion.games.dragons_den import data

    numbers: list[int] = []
    for word in heroes:
        for part in word.replace(",", " ").split():
            t = part.strip().lower().lstrip("#")
            card = data.HERO_BY_KEY.get(t) or (data.HERO_BY_NUMBER.get(int(t)) if t.isdigit() else None)
            if card is None:
                matches = [c for c in data.HEROES if c.name.lower().startswith(t)]
                card = matches[0] if len(matches) == 1 else None
            if card is None:
                raise InputError(
                    f"{part!r} is not a hero; the heroes: " + ", ".join(f"{c.number} {c.key}" for c in data.HEROES)
                )
            numbers.append(card.number)
    chits = chits.strip().lower()
    typed = [str(dragon)] if dragon is not None else []
    typed += [str(d) for d in discard or []]
    if typed and chits != "physical":
        raise InputError("--dragon and --discard are for physical chits (--chits physical)")
    env: Env = ctx.obj
    if chits == "physical" and dragon is None and not env.interactive:
        raise InputError("physical chits: give the dragon chit with --dragon (and the chits set aside with --discard)")
    act(
        ctx,
        "setup",
        {"heroes": numbers, "chits": chits},
        chits=typed,
        typed_chits=chits == "physical",
        json_out=json_out,
    )


@app.command()
def peek(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """Dragon player only: show the secret dragon (at a terminal, Enter hides it again)."""
    from companion.cli.kit import opened
    from companion.games.dragons_den import rules

    env: Env = ctx.obj
    with opened(env) as session:
        den = _den(session)
        if den.dragon is None:
            from companion.errors import InputError

            raise InputError("no dragon is drawn yet", hint="companion dragon setup")
        note = rules.dragon_note(den)
    text = f"Dragon chit {note.chit}: the {note.name}. Health {note.health}, speed {note.speed}, {note.breath_title}."
    if json_out:
        env.print_json(
            {
                "chit": note.chit,
                "name": note.name,
                "health": note.health,
                "speed": note.speed,
                "breath": note.breath,
                "breath_name": note.breath_name,
            }
        )
        return
    env.echo(text)
    if env.interactive:
        import questionary

        questionary.password("Enter hides it again").unsafe_ask()
        import shutil

        width = max(20, shutil.get_terminal_size().columns)
        up = -(-len(text) // width) + 1  # the dragon's lines (wrapped) and the prompt's
        env.stdout.write(f"\x1b[{up}F\x1b[J")  # back up over them, then clear to the end of the screen
        env.stdout.flush()
        env.echo("(hidden)")


# ---- looking ----------------------------------------------------------------------------------------


@app.command()
def health(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """Every figure on the board at a glance: health bars, speed, abilities left, treasure."""
    from companion.cli.kit import opened
    from companion.games.dragons_den import view

    env: Env = ctx.obj
    with opened(env) as session:
        _den(session)
        if json_out:
            env.print_json(view.den_json(session.state))
            return
        env.print(view.health_table(session.state))


@app.command()
def score(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """The heroes' haul and the dragon's happiness against both victory charts (final, or if the gates shut now)."""
    from companion.cli.kit import opened
    from companion.games.dragons_den.engine import turns
    from companion.session import codec

    env: Env = ctx.obj
    with opened(env) as session:
        den = _den(session)
        final = den.score is not None
        s = turns.reckoning(den, session.state.data)
        lines = turns.score_lines(den, session.state.data)
    if json_out:
        env.print_json({"final": final, **codec.dump(s)})
        return
    if not final:
        env.print("The game goes on. If the gates shut now (heroes inside trapped):", style="dim")
    for line in lines:
        env.print(line)
