"""Guided play at a terminal: show the status and the odds, ask, record, repeat.

The loop holds the session's lock while it runs, records every answer through the session (so a
kill at any moment loses nothing that was answered), and lets Ctrl-C / Ctrl-D through to the root
group, which exits 130 / 1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text as RichText

from companion.dice.roll import Roll
from companion.dice.source import read_physical, total_note
from companion.engine.pending import odds_line
from companion.engine.requests import Choice, Number, RollRequest, Text
from companion.errors import InputError
from companion.i18n import _, ngettext
from companion.session.fold import answer_event
from companion.shell import prompts
from companion.shell.panels import entry_renderable, hanging, status_panel

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.session.service import Session

#: How many log entries to show again when play resumes.
RESUME_TAIL = 8


def play(env: Env, session: Session) -> None:
    prompts.settle_memory()
    fold = session.fold
    fold.start()
    # Write one column short of the edge, as the prompts do: nothing the terminal could wrap or cut.
    width = prompts.columns()
    env.out.width = width
    panel_width = min(width, 80)  # one width through the whole game, whatever the rows hold
    entries = session.state.log.entries
    if session.count and _played(session):
        env.print(
            RichText(
                ngettext(
                    "Resuming {name} after {n} action.", "Resuming {name} after {n} actions.", session.count
                ).format(name=session.meta.name, n=session.count),
                style="dim",
            )
        )
        for entry in entries[-RESUME_TAIL:]:
            env.print(hanging(entry_renderable(entry)))
    else:
        for entry in entries:
            env.print(hanging(entry_renderable(entry)))
    shown = len(session.state.log.entries)
    last_panel = None
    #: The risky choices confirmed in this fight (asked once per decision, not before every roll).
    confirmed: set[str] = set()
    #: Faces typed at "Go on anyway?": the next roll (after any choice that comes first, a dagger).
    ahead: list[str] = []
    while True:
        fold = session.fold
        entries = session.state.log.entries
        for entry in entries[shown:]:
            env.print(hanging(entry_renderable(entry)))
        shown = len(entries)
        if fold.done:
            env.print(status_panel(session, panel_width))
            env.print(
                RichText(
                    _("The game is over: {result}. Log: {path}").format(
                        result=_(session.state.finished or "ended"), path=session.meta.log_path
                    ),
                    style="bold",
                )
            )
            return
        panel = status_panel(session, panel_width)
        signature = (
            repr(session.spec.status_rows(session.state)) if session.spec.provides("status") else str(session.count)
        )
        if signature != last_panel:
            env.print(panel)
            last_panel = signature
        request = fold.pending
        assert request is not None
        if _draw(request):
            assert isinstance(request, RollRequest)
            # A draw from a cup companion keeps: nothing for the player to roll, so draw at once.
            session.record(answer_event(request, session.dice().roll(request.expr, request.mod, request.parts)))
            continue
        for line in list(getattr(request, "info", ())) + session.spec.advice(session.state, request):
            env.print(hanging(RichText(line, style="dim")))
        physical = session.state.dice == "physical"
        if isinstance(request, RollRequest) and ahead:
            typed = ahead.pop()
            try:
                roll = read_physical(request.expr, typed, request.mod, allow_total=True, parts=request.parts)
            except InputError as exc:
                prompts.say(f"  {typed}: {exc.message}", "fg:ansired")
            else:
                session.record(answer_event(request, roll))
                continue
        risk = session.spec.risks(session.state, request) if isinstance(request, Choice) else None
        if isinstance(request, Choice) and not risk:
            confirmed.clear()  # a choice with nothing deadly in it: the risky decision is over
        if isinstance(request, RollRequest):
            line = odds_line(request.expr, request.mod, request.parts)
            if ": " in line:  # a roll with no chance to show (a bare 1d6) would only repeat the prompt
                env.print(hanging(RichText("  " + line, style="cyan")))
            answer = prompts.ask_roll(request, physical, reader=read_physical)
            if answer == "virtual":
                answer = session.dice().roll(request.expr, request.mod, request.parts)
            elif isinstance(answer, Roll) and answer.faces is None:
                env.print(RichText("  " + total_note(answer), style="cyan"))
        elif isinstance(request, Choice):
            best = session.spec.best(session.state, request)
            answer = prompts.ask_choice(
                request, risk=risk, best=best, confirmed=confirmed, ahead=ahead, physical=physical
            )
            answer = {"__undo__": "undo", "__quit__": "quit", "__switch__": "switch"}.get(answer, answer)
            if answer not in ("undo", "quit", "switch"):
                answer = ("choice", answer)
        elif isinstance(request, Number):
            answer = prompts.ask_number(request)
        else:
            assert isinstance(request, Text)
            answer = prompts.ask_text(request)
            answer = ("text", answer)
        if answer in ("quit", "undo", "switch"):
            ahead.clear()  # dice typed ahead are for the roll that was next, not after a step back
        if answer == "quit":
            env.print(
                RichText(
                    _("Saved. Resume with: companion play   (log: {path})").format(path=session.meta.log_path),
                    style="bold",
                )
            )
            return
        if answer == "undo":
            if session.count == 0:
                env.print(RichText(_("Nothing to undo yet."), style="yellow"))
                continue
            event = session.undo()
            session.fold.start()
            while session.count and _draw(session.fold.pending):
                event = session.undo()  # a draw made at once is undone with the answer that led to it
                session.fold.start()
            shown = len(session.state.log.entries)
            from companion.session.labels import label

            words = label(session.spec, event, session.state, session.fold.pending)
            words = words.seen(session.spec.view(session.state)).line()
            env.print(RichText(_("Undone: {what} (#{n}).").format(what=words, n=event["id"]), style="yellow"))
            continue
        if answer == "switch":
            session.record({"t": "mode", "dice": "virtual" if physical else "physical"})
            continue
        if isinstance(answer, tuple):
            answer = answer[1]
        session.record(answer_event(request, answer))


#: How many events are looked at to tell a session only set up (its dice, its language) from one played.
SETTINGS_LOOKED_AT = 4


def _played(session: Session) -> bool:
    """Whether anything but a setting (the dice, the language: ``dark lang ru``) has been recorded, so
    that play resumes rather than begins. More events than a few settings are a game played."""
    if session.count > SETTINGS_LOOKED_AT:
        return True
    try:
        events = [session.files.events.event(i) for i in range(1, session.count + 1)]
    except Exception:
        return True  # unreadable here: say it resumes, as before
    return not all(e.get("t") == "mode" or (e.get("t") == "dark" and e.get("op") == "lang") for e in events)


def _draw(request: object) -> bool:
    """A draw companion makes at once (a virtual-only roll), which undo steps back over."""
    return isinstance(request, RollRequest) and request.virtual
