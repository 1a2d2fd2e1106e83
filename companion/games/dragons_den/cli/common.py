"""What the Dragon's Den's commands share: the session check, the names players type for figures, the
answerer of an action (``--got`` faces, ``--chit`` chits, a prompt, or virtual dice), and :func:`act`.

The generic part (the lock, the dry run, entries as text or JSON) is the command kit,
:mod:`companion.cli.kit`; this module keeps what is the Dragon's Den's own. Only typer at module level.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.engine.requests import Request, RollRequest
    from companion.games.dragons_den.model import Den
    from companion.session.service import Session

GotOpt = Annotated[
    list[str] | None,
    typer.Option("--got", "-g", help="The die you rolled yourself (else the session's dice).", show_default=False),
]
ChitOpt = Annotated[
    list[str] | None,
    typer.Option("--chit", help="The chit you drew from a real cup (repeat for several).", show_default=False),
]


def _den(session: Session) -> Den:
    from companion.errors import CompanionError

    if session.meta.game != "dragons-den":
        raise CompanionError(
            f"session {session.name!r} plays {session.meta.game}, not the Dragon's Den",
            hint="start one with: companion new dragons-den",
        )
    return session.state.game


def resolve(den: Den, text: str, *, kinds: tuple[str, ...] = ("hero", "monster", "dragon")) -> str:
    """A figure's key from what a player types: ``sam``, ``#7``, ``7`` (a hero), ``m15``, ``troll``, ``dragon``."""
    from companion.errors import InputError
    from companion.games.dragons_den.model import HIDDEN

    t = " ".join(text.strip().lower().split()).lstrip("#")
    figures = [f for f in den.figures() if f.kind in kinds]

    def name(f) -> str:  # a hidden dragon answers to "dragon" only: its name would give it away
        return "dragon" if f.status == HIDDEN else f.name.lower()

    for f in figures:
        if t in (f.key, name(f)) or (f.kind == "dragon" and t in ("dragon", "d")):
            return f.key
        if f.kind == "hero" and t == str(f.number):
            return f.key
        if f.kind == "monster" and t in (f"m{f.number}", f"m {f.number}"):
            return f.key
    dashed = t.replace(" ", "-")
    matches = [
        f.key
        for f in figures
        if f.key.startswith(dashed) or name(f).startswith(t) or any(w.startswith(t) for w in name(f).split())
    ]
    if len(set(matches)) == 1:
        return matches[0]
    known = ", ".join(f.key for f in figures) or "nobody yet"
    if matches:
        raise InputError(f"{text!r} could be {', '.join(sorted(set(matches)))}; say which")
    raise InputError(f"nobody called {text!r} is on the board; on the board: {known}")


def _current_hero(den: Den) -> str:
    from companion.errors import InputError

    if not den.turn:
        raise InputError("it is not a hero's turn: name who acts")
    return den.turn


def _queues(got: list[str] | None, key: str) -> dict[str, list[str]]:
    return {key: list(got)} if got else {}


def _answers(
    env: Env,
    session: Session,
    *,
    got: dict[str, list[str]],
    picks: dict[str, list[str]],
    chits: list[str],
    typed_chits: bool | None = None,
    chit_flag: str = "--chit",
):
    """The answerer of a one-shot action: options first, then a prompt at a terminal, else virtual dice."""
    from companion.errors import InputError
    from companion.games.dragons_den.engine.actions import LiveAnswers

    dice = session.dice()
    physical_chits = _den(session).chits == "physical" if typed_chits is None else typed_chits
    if chits and not physical_chits:
        raise InputError(f"companion draws the chits in this game (it was set up with virtual chits); drop {chit_flag}")

    def ask_faces(request: RollRequest):
        from companion.dice.source import read_physical
        from companion.shell.prompts import ask_faces as prompt_faces

        return prompt_faces(request.expr, request.mod, request.why, reader=read_physical)

    def ask_chit(request: Request) -> str:
        import questionary

        prompt = getattr(request, "prompt", "Which chit?")
        ask = questionary.password if getattr(request, "secret", False) else questionary.text
        return ask(prompt).unsafe_ask()

    return LiveAnswers(
        roll_virtual=lambda r: dice.roll(r.expr, r.mod, r.parts),
        physical=session.state.dice == "physical",
        got=got,
        picks=picks,
        chits=chits,
        ask_faces=ask_faces if env.interactive else None,
        ask_chit=ask_chit if (env.interactive and physical_chits) else None,
        chit_flag=chit_flag,
    )


def act(
    ctx: typer.Context,
    do: str,
    build: Any,
    *,
    got: Any = None,
    picks: dict[str, list[str]] | None = None,
    chits: list[str] | None = None,
    typed_chits: bool | None = None,
    json_out: bool = False,
    chit_flag: str = "--chit",
) -> None:
    """Run one action: try it on a copy of the state, then record it as one event and show what happened.

    ``build(den)`` names the action's arguments (resolving the names players type); ``got`` gives the
    typed faces by request key, or is a function of the den that does.
    """
    from companion.cli.kit import dry, entry_texts, new_entries, opened, print_entries
    from companion.games.dragons_den import view
    from companion.games.dragons_den.engine import actions

    env: Env = ctx.obj
    with opened(env) as session:
        den = _den(session)
        args = build(den) if callable(build) else dict(build)
        faces = got(den) if callable(got) else (got or {})
        live = _answers(
            env,
            session,
            got=faces,
            picks=picks or {},
            chits=list(chits or []),
            typed_chits=typed_chits,
            chit_flag=chit_flag,
        )
        actions.drive(dry(session), do, args, live)  # bad input stops here, nothing saved
        for extra in live.unused():
            env.warn(f"{extra} was not needed (no such roll or draw came up); it is ignored")
        before = len(session.state.log.entries)
        event = {"t": actions.EVENT, "do": do, "args": args, "rolls": live.rolls, "picks": live.picks}
        event_id = session.record(event)
        new = new_entries(session, before)
        if json_out:
            env.print_json(
                {
                    "session": session.name,
                    "event": event_id,
                    "log": entry_texts(new),
                    "den": view.den_json(session.state),
                }
            )
            return
        from companion.cli.env import styled

        print_entries(env, new)
        if session.state.finished:
            env.print(styled("[bold]The game is over:[/bold] {result}", result=session.state.finished))
        elif do in ("end-turn", "escape"):
            env.print(f"Now: {view.phase_text(session.state.game)}.")
        elif do == "setup":
            env.print(
                styled("The dragon player sees the dragon with [bold]companion dragon peek[/bold] (heroes look away).")
            )
