"""What the action in progress is, and whether it is saved: for the line a signal ends a command with.

A signal (SIGTERM, SIGHUP, Ctrl-C) can end a command anywhere. Its line must say what happened to the
action ("ended by SIGTERM: the note was saved (#3)" or "... was not saved"), so that a player or a
script that retries on 143 never does it twice. The truth is whether the action's journal line was
made durable (written and fsynced): :func:`critical` holds the signals back while that happens, and
the durable moment is marked (:func:`saved`) before they are let through, so a signal lands either
before it (not saved) or after it (saved), never in between.

The command line names the action a one-shot command is about to do (:func:`command`), and it stays
named until the next command begins (in the shell, a signal at the prompt says what became of the last
command's action); a command that records many (guided play, the page) has each recording name its
own (:func:`begin`, :func:`end`).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass
class Act:
    #: What is being done: a command's name ("note", "tally", "sessions rename") or an event's type.
    what: str
    #: The event it recorded or took back, once saved (None for a session made or renamed).
    id: int | None = None
    saved: bool = False
    #: Named by one recording (guided play, the shell), not by the whole command.
    recording: bool = False


_current: Act | None = None
_SIGNALS = {getattr(signal, n) for n in ("SIGTERM", "SIGHUP", "SIGINT") if hasattr(signal, n)}


def current() -> Act | None:
    return _current


def command(what: str | None) -> None:
    """A one-shot command begins (``what`` None: one that records many actions, or none)."""
    global _current
    _current = Act(what) if what else None


def begin(what: str) -> None:
    """A recording begins; it names the act only when the command did not (guided play, the shell)."""
    global _current
    if _current is None or _current.recording:
        _current = Act(what, recording=True)


def saved(event_id: int | None) -> None:
    """The act's journal line (or the rename that makes a session) is durable now."""
    if _current is not None:
        _current.id, _current.saved = event_id, True


def end() -> None:
    """A recording is over: a signal after it (at the next prompt) ends no action."""
    global _current
    if _current is not None and _current.recording:
        _current = None


@contextmanager
def critical() -> Iterator[None]:
    """Hold SIGTERM, SIGHUP and Ctrl-C back while an action is made durable and marked so: one that comes
    meanwhile is delivered once the block ends, and its line tells the truth."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signals are handled in the main thread; nothing to hold back here
        return
    try:
        held = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
    except (AttributeError, OSError, ValueError):  # a platform without it
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
