"""SIGTERM and SIGHUP end companion as Ctrl-C does: one line, every completed action kept, 143 or 129.

Installed first thing (:func:`companion.cli.main.main` imports this module before typer, click or
any command): the window before it is Python's own start-up, where the default death (silent, and
nothing begun) is as safe as the handler. Once the command is done, :func:`finish` gives the signals
back their default death, so one landing while Python exits is silent too, never a traceback.

- The first signal raises :class:`Terminated` where the program is (a KeyboardInterrupt, so every
  place that ends a command on Ctrl-C ends it the same way), or ends the prompt that is open with it.
- A second signal while the first is being handled (the line printed, the lock released) is the
  default death at once: the actions already completed are saved, as after kill -9.
- :func:`ended` tells ``companion shell`` that a command inside it was ended by a signal, so the
  shell ends too (the command already said so) instead of prompting again.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

EXIT_INTERRUPTED = 130
NAMES = ("SIGTERM", "SIGHUP")


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP, ended like Ctrl-C (every completed action is saved), with exit code 128 + N."""

    def __init__(self, signum: int, name: str) -> None:
        super().__init__(name)
        self.code = 128 + signum
        self.name = name


#: The signal that is ending this process (None until one came).
_ended: Terminated | None = None
#: The handlers :func:`on_signals` replaced, for :func:`finish` (the default ones in a process of its own).
_before: dict[int, Any] = {}


def ended() -> Terminated | None:
    """The SIGTERM or SIGHUP that is ending this process, if one came since :func:`on_signals`."""
    return _ended


def _die(signum: int) -> None:
    """The default death for ``signum``, now: silent, and as safe as kill -9 (the store survives it)."""
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def _handler(signum: int, frame: Any) -> None:
    global _ended
    if _ended is not None:  # the first is being handled: do not interrupt its line or its clean-up
        _die(signum)
        return
    _ended = Terminated(signum, signal.Signals(signum).name)
    # At a prompt, the signal may land inside one of prompt_toolkit's event-loop tasks (loading the
    # history), which would print "Unhandled exception in event loop" and keep the prompt open. End
    # the running prompt with the exception instead, so it is raised where the prompt was asked.
    if "prompt_toolkit" in sys.modules:
        from prompt_toolkit.application import get_app_or_none

        app = get_app_or_none()
        # A prompt being set up is running before it has its future: the signal is raised there,
        # like anywhere else (and what that leaves half-built is not shown, see below).
        future = getattr(app, "future", None)
        if app is not None and app.is_running and future is not None and not future.done():
            app.exit(exception=_ended)
            return
    raise _ended


def on_signals() -> None:
    """Make SIGTERM and SIGHUP end a command as Ctrl-C does: one line, nothing lost, exit 143 or 129."""
    global _ended
    _ended = None
    for name in NAMES:
        if hasattr(signal, name):
            signum = getattr(signal, name)
            previous = signal.signal(signum, _handler)
            if previous is not _handler:
                _before[signum] = previous
    _quiet_interrupted_prompts()


def finish() -> None:
    """The command is done: from here a signal is the default death (silent; nothing is left to save).

    (The handlers there were before :func:`on_signals`: the default ones, in a process of its own.)
    """
    held = signal.pthread_sigmask(signal.SIG_BLOCK, set(_before)) if _before else None
    try:
        for signum, previous in list(_before.items()):
            signal.signal(signum, signal.SIG_DFL if previous is None else previous)
            del _before[signum]
    finally:
        if held is not None:  # one that came meanwhile is delivered now, to the default death
            signal.pthread_sigmask(signal.SIG_SETMASK, held)


def N_(text: str) -> str:
    """Marks a word for the catalogue (scripts/i18n.py), as companion.i18n's does."""
    return text


#: The one-shot commands that record one action, and how its line names it (companion.store.acts).
ACTS = {
    "roll": N_("the roll"),
    "note": N_("the note"),
    "tally": N_("the tally change"),
    "hp": N_("the HP change"),
    "gold": N_("the gold change"),
    "xp": N_("the XP change"),
    "item": N_("the item change"),
    "room": N_("the room"),
    "floor": N_("the floor change"),
    "talisman": N_("the Talisman roll"),
    "undo": N_("the undo"),
    "redo": N_("the redo"),
    "amend": N_("the amendment"),
    "next": N_("the answer"),
    "new": N_("the new session"),
    "mode": N_("the change of dice"),
    "gamedata": N_("the game data"),
    "section": N_("the section"),
    "fight": N_("the fight's step"),
    "tracker": N_("the tracker change"),
    "sessions rename": N_("the rename"),
}
#: What one recording is, by its event's type, in a command that records many (guided play, the shell).
EVENT_ACTS = {
    "answer": N_("the answer"),
    "roll": N_("the roll"),
    "note": N_("the note"),
    "tally": N_("the tally change"),
    "counter": N_("the change"),
    "xp": N_("the XP change"),
    "item": N_("the item change"),
    "room": N_("the room"),
    "floor": N_("the floor change"),
    "talisman": N_("the Talisman roll"),
    "undo": N_("the undo"),
    "amend": N_("the amendment"),
    "mode": N_("the change of dice"),
    "section": N_("the section"),
}


def act_of(words: list[str]) -> str | None:
    """The action a one-shot command line is about to do (a key of :data:`ACTS`), or None."""
    if not words:
        return None
    if words[0] == "sessions":
        return "sessions rename" if words[1:2] == ["rename"] else None
    return words[0] if words[0] in ACTS else None


def _what(act: object) -> str:
    from companion.i18n import _

    what = getattr(act, "what", "")
    return _(ACTS.get(what) or EVENT_ACTS.get(what) or "the action")


def interrupted_line(exc: BaseException) -> tuple[str, int]:
    """What to say when ``exc`` (Ctrl-C, SIGTERM or SIGHUP) ends a command, and the exit code: what
    happened to the action in progress, as its journal line says (saved once it was made durable)."""
    from companion.i18n import _

    act = sys.modules["companion.store.acts"].current() if "companion.store.acts" in sys.modules else None
    code = exc.code if isinstance(exc, Terminated) else EXIT_INTERRUPTED
    if act is None:
        if isinstance(exc, Terminated):
            return "companion: " + _("ended by {signal}; every completed action is saved.").format(
                signal=exc.name
            ), code
        return "companion: " + _("interrupted; every completed action is saved."), code
    what = _what(act)
    if isinstance(exc, Terminated):
        if not act.saved:
            line = _("ended by {signal}: {what} was not saved").format(signal=exc.name, what=what)
        elif act.id is None:
            line = _("ended by {signal}: {what} was saved").format(signal=exc.name, what=what)
        else:
            line = _("ended by {signal}: {what} was saved (#{n})").format(signal=exc.name, what=what, n=act.id)
    elif not act.saved:
        line = _("interrupted: {what} was not saved").format(what=what)
    elif act.id is None:
        line = _("interrupted: {what} was saved").format(what=what)
    else:
        line = _("interrupted: {what} was saved (#{n})").format(what=what, n=act.id)
    return "companion: " + line, code


def _quiet_interrupted_prompts() -> None:
    """Say nothing of what an interruption leaves half-built inside asyncio and prompt_toolkit.

    Ctrl-C or a signal can land while a prompt is being set up, between prompt_toolkit's call and its
    event loop running: the half-built loop, freed on the way out, prints "Exception ignored in ...
    BaseEventLoop.__del__" with a traceback, and the prompt's coroutine "was never awaited". The
    player has already been told that every completed action is saved; those lines are only noise.
    Everything else still reaches the default hooks, and COMPANION_DEBUG=1 keeps even these.
    """
    if getattr(sys.unraisablehook, "companion", False):
        return
    debug = bool(os.environ.get("COMPANION_DEBUG"))
    if not debug:
        import warnings

        warnings.filterwarnings("ignore", r"coroutine '\w+\.run_async' was never awaited", RuntimeWarning)
    previous = sys.unraisablehook

    def hook(unraisable: Any) -> None:
        global _ended
        exc = unraisable.exc_value
        if isinstance(exc, Terminated) and exc is _ended:
            # The signal landed where Python cannot raise (a finalizer, importlib's weakref callback)
            # and was swallowed: send it again from another thread, once this hook has returned, so
            # it is raised at the next place that can (sent from here, it would be raised in here).
            import threading

            _ended = None
            again = threading.Timer(0.05, os.kill, (os.getpid(), exc.code - 128))
            again.daemon = True
            again.start()
            return
        where = getattr(unraisable.object, "__module__", None) or ""
        if not debug and where.split(".")[0] in ("asyncio", "prompt_toolkit"):
            return
        previous(unraisable)

    hook.companion = True  # type: ignore[attr-defined]  # installed once per process
    sys.unraisablehook = hook
