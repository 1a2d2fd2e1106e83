"""``companion play`` (guided play at a terminal) and ``companion next`` (one step, scriptable)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.cli.common import SIGNED, JsonOpt
from companion.cli.complete import session_names

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.engine.pending import Pending


def play(
    ctx: typer.Context,
    name: Annotated[
        str | None,
        typer.Argument(
            help="The session (default: the current one).", autocompletion=session_names, show_default=False
        ),
    ] = None,
) -> None:
    """Play the current session's game, guided: every roll shows its odds; Enter rolls, or type your dice."""
    env: Env = ctx.obj
    from companion.cli.kit import opened
    from companion.errors import CompanionError

    if not env.interactive:
        from companion.i18n import _

        raise CompanionError(
            _("companion play needs a terminal"), hint=_("answer one step at a time with: companion next [ANSWER]")
        )
    with opened(env, engine=True, name=name, wait=0.5) as session:
        from companion.shell.play import play as run

        run(env, session)


def next_cmd(
    ctx: typer.Context,
    answer: Annotated[
        list[str] | None,
        typer.Argument(
            help="The answer: the faces you rolled (or 'roll' for virtual dice); on a menu, the option's number "
            "in the list (a number always means that, even where the values are numbers), =VALUE for a value as "
            "--json shows it, or a value or the start of a label; a number; or a text.",
            show_default=False,
        ),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Show what the game asks now; with ANSWER, answer it and show what it asks next.

    With ANSWER it first says which question it answered and with what, then what happened. On a
    menu a number is always the option's number in the list (=VALUE gives a value); a negative
    number is an answer too (next -2).

    \b
    Examples:
      companion new inverted-tower --name example-run
      companion next Aria
      companion next 1
      companion next roll
    """
    env: Env = ctx.obj
    from companion.cli.kit import opened
    from companion.dice.source import read_physical
    from companion.engine.describe import answered, parse_choice, parse_number, parse_text, request_json
    from companion.engine.requests import Choice, Number, RollRequest
    from companion.i18n import SOURCE, _, language
    from companion.session.fold import answer_event

    said: tuple[str, str] | None = None
    with opened(env, engine=True) as session:
        # Only an answer starts the game's own engine (as the fold of the events does); a look does not.
        fold = session.fold if answer else session.waiting()
        fold.start()
        before = len(session.state.log.entries)
        if answer and fold.done:
            from companion.errors import CompanionError

            raise CompanionError(
                _("the game is over ({result}); there is nothing to answer").format(
                    result=_(session.state.finished or "ended")
                )
            )
        if answer:
            request = fold.pending
            assert request is not None
            text = " ".join(answer)
            if isinstance(request, RollRequest):
                if text.strip().lower() in ("roll", "r", "virtual", _("roll")):
                    value = session.dice().roll(request.expr, request.mod, request.parts)
                else:
                    value = read_physical(request.expr, text, request.mod, allow_total=True, parts=request.parts)
            elif isinstance(request, Choice):
                value = parse_choice(request, text)
            elif isinstance(request, Number):
                value = parse_number(request, text)
            else:
                value = parse_text(request, text)  # type: ignore[arg-type]
            was = language()
            session.record(answer_event(request, value))
            said = answered(request, value)
            if language() != was == SOURCE:  # the answer chose the language: the question as it now reads
                said = (_(said[0]), _(said[1]))
            if getattr(request, "secret", False):
                said = (said[0], _("(kept secret)"))  # hidden information is not shown back
        new = session.state.log.entries[before:] if answer else []
        from companion.engine.pending import of_session

        pending = of_session(session)
        fold = session.waiting()
        advice = list(pending.info[len(getattr(fold.pending, "info", ())) :]) if pending is not None else []
        if json_out:
            from companion.cli.kit import entry_texts

            env.print_json(
                {
                    "session": session.name,
                    "events": session.count,
                    "done": fold.done,
                    "finished": session.state.finished,
                    "answered": None if said is None else {"question": said[0], "answer": said[1]},
                    "log": entry_texts(new),
                    "request": None if fold.pending is None else request_json(fold.pending, advice),
                    "pending": None if pending is None else pending.as_json(),
                }
            )
            return
        from companion.cli.env import styled
        from companion.cli.kit import print_entries

        if said is not None:
            line = styled("[dim]{question}[/dim] → [bold]{answer}[/bold]", question=said[0].rstrip(":"), answer=said[1])
            if env.stdout_isatty:  # wrapped between words, the rest indented (never at column 0)
                from companion.shell.panels import NBSP, hang

                answer = said[1].replace("] [", "]" + NBSP + "[")  # a roll's faces are one block
                line = styled(
                    "[dim]{question}[/dim] → [bold]{answer}[/bold]", question=said[0].rstrip(":"), answer=answer
                )
                line = hang(line, max(20, env.out.width - 1), 2)
            env.print(line)
        print_entries(env, new)
        if fold.done:
            env.print(_("The game is over: {result}.").format(result=_(session.state.finished or "ended")))
            return
        assert pending is not None
        show_pending(env, pending, shell=env.environ.get(IN_SHELL) == "1")


#: Set in the environment while a command runs inside ``companion shell``: hints name the shell's
#: answers (Enter, the faces, a number), not ``companion next``.
IN_SHELL = "COMPANION_IN_SHELL"


def show_pending(env: Env, pending: Pending, *, shell: bool = False) -> None:
    """The step the game waits for, as ``companion next`` and the shell show it: the question (with
    who acts, in the shell), a roll's exact odds, the menu numbered, the game's odds and advice."""
    from companion.cli.env import styled
    from companion.engine.requests import RollRequest
    from companion.i18n import _, language

    if shell and env.stdout_isatty:
        env.out.width = max(20, env.out.width - 1)  # never the terminal's last column (it would wrap there)
    from companion.shell.panels import hang

    def say(line: Any, style: str | None = None, indent: int = 2) -> None:
        """A line whose wrapped part stays indented under it (never back at column 0)."""
        from rich.text import Text

        text = line if isinstance(line, Text) else Text(str(line), style=style or "")
        if not env.stdout_isatty:  # a pipe or a file gets the line whole, as before
            env.print(text)
            return
        lead = len(text.plain) - len(text.plain.lstrip(" "))
        env.print(hang(text, env.out.width, lead + indent))

    head = pending.text
    if shell and pending.actor and pending.actor not in head:
        head = f"{pending.actor}: {head}"
    if shell:  # the odds and advice first: the step's own lines sit right above the prompt
        for line in pending.info:
            say(line, "dim")
    if pending.kind == "roll":
        say(styled("[bold]{head}[/bold]: {odds}", head=head, odds=pending.odds or pending.dice))
        request = pending.request
        if shell and not (isinstance(request, RollRequest) and request.virtual):  # a draw is made at once
            hint = (
                _("Enter rolls, or type what the dice show (e.g. {example})")
                if pending.enter_rolls
                else _("type what the dice show (e.g. {example})")
            ).format(example=pending.example)
            say(hint + _(" · ? keys"), "dim")
        else:
            say(_("answer with: companion next roll   (or the faces you rolled)"), "dim")
    elif pending.kind == "choice":
        say(head, "bold")
        # In English the value a script may answer with is shown too; in another language the
        # number answers (the values are English words). The shell answers with the number.
        english = language() == "en" and not shell
        for o in pending.options:
            about = ", ".join(([o.value] if english else []) + ([o.hint] if o.hint else []))
            mark = " ★" if o.best else ""
            template = "  {n}. {label}{mark}" + (" [dim]({about})[/dim]" if about else "")
            option = styled(template, n=o.number, label=o.label, mark=mark, about=about)
            say(option, indent=len(f"{o.number}. "))  # at a terminal, wrapped under the label
        if shell:
            say(_("type its number or its first letters · ? keys"), "dim")
    else:
        template = "[bold]{head}[/bold]" + (" [dim]({where})[/dim]" if pending.where else "")
        say(styled(template, head=head, where=pending.where or ""))
    if not shell:
        for line in pending.info:
            say(line, "dim")


app = typer.Typer(rich_markup_mode=None)
app.command("play")(play)
app.command("next", context_settings=SIGNED)(next_cmd)
