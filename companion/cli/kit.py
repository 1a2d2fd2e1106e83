"""The command kit: what every command that acts on a session needs, written once.

- find the active session (``--session``, else the current one) and open it under its lock
  (:func:`opened`), checked to be the right game (:func:`game_session`);
- answer a roll: the faces given with ``--got``, the faces a person types at a terminal when the
  session uses physical dice, else the session's virtual dice (:class:`Roller`, :func:`roll_faces`);
- try an action on a copy of the state first (:func:`dry`), then record it;
- render: the log entries an action added, as text or in one ``--json`` object
  (:func:`new_entries`, :func:`print_entries`, :func:`entry_texts`, :func:`info`).

A game's command file keeps only what is the game's own. Kept light to import: ``roll`` asks "is a
session active?" on every run, and that must not load TinyDB or filelock unless one is; rich,
questionary and the games are imported only inside the helpers that use them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError, InputError
from companion.i18n import _
from companion.store.paths import data_dir, read_small

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.dice.expr import Expr
    from companion.dice.roll import Roll
    from companion.session.service import Session
    from companion.session.state import State
    from companion.store.sessions import SessionFiles, Store


def store(env: Env) -> Store:
    from companion.store.sessions import Store

    return Store(data_dir(env.data_dir))


def active_name(env: Env) -> str | None:
    """``--session``/``COMPANION_SESSION``, else the current session, else None."""
    if env.session:
        return env.session
    folder = data_dir(env.data_dir)
    name = (read_small(folder / "current") or "").strip()  # never through a link, never a FIFO's wait
    if not name:
        return None
    there = folder / "sessions" / name
    if not (os.path.lexists(there / "session.json") or os.path.lexists(there / "events" / "journal.jsonl")):
        return None
    return name


def require_name(env: Env) -> str:
    name = active_name(env)
    if name is None:
        raise CompanionError(
            _("no session is active"), hint=_("start one with: companion new GAME (or pick one: companion use NAME)")
        )
    return name


#: Sessions whose lock this process holds for longer than one command (``companion shell``), by
#: folder: a command run inside the shell re-enters that lock instead of waiting for itself.
_HELD: dict[Any, SessionFiles] = {}
#: The session kept in memory between the commands of a shell that holds its lock, by folder, with
#: the state of its files when it was kept.
_KEPT: dict[Any, tuple[Session, tuple[int, ...]]] = {}


@contextmanager
def holding(files: SessionFiles, wait: float) -> Iterator[SessionFiles]:
    """Hold a session's lock until the block ends; every :func:`opened` of it meanwhile re-enters it,
    and gets the session as the last command left it, without reading it again."""
    with files.locked(wait):
        _HELD[files.dir] = files
        try:
            yield files
        finally:
            _HELD.pop(files.dir, None)
            _KEPT.pop(files.dir, None)


@contextmanager
def opened(env: Env, *, engine: bool = False, name: str | None = None, wait: float | None = None) -> Iterator[Session]:
    """The active (or named) session, loaded while its lock is held.

    In a shell (:func:`holding`), the session stays in memory from one command to the next: nobody
    else can change it while the lock is held. It is read again when its files changed all the same (a
    rename), when a command needs the game's engine it lacks, and after a command that failed or that
    left it apart from its events (see ``Session.reusable``)."""
    from companion.session.service import Session

    files = store(env).open(name or require_name(env))
    held = _HELD.get(files.dir)
    files = held or files
    with files.locked(wait):
        kept = _KEPT.pop(files.dir, None) if held is not None else None
        session = kept[0] if kept is not None and kept[0].reusable(engine, kept[1]) else None
        if session is None:
            with save_shape(files.slug):
                session = Session.open(files, engine=engine)
        if held is not None:
            _KEPT[files.dir] = (session, session.stamp())  # a command that opens it again gets this one
        try:
            yield session
        except BaseException:
            _KEPT.pop(files.dir, None)
            raise
        finally:
            for line in session.warnings:
                env.warn(line)
            session.warnings.clear()
            say_notices(env)
        if held is not None and session.reusable(False, None):
            _KEPT[files.dir] = (session, session.stamp())
        else:
            _KEPT.pop(files.dir, None)


@contextmanager
def save_shape(slug: str) -> Iterator[None]:
    """A save of the wrong shape (a list where companion writes a table...): one line, not a traceback."""
    from companion.errors import StoreError

    try:
        yield
    except (AttributeError, KeyError, TypeError, IndexError) as exc:
        if os.environ.get("COMPANION_DEBUG"):  # the traceback, in case it is companion's own mistake
            raise
        from companion.i18n import _

        raise StoreError(
            _("session {name!r} cannot be opened: a file in it is not in the shape companion writes ({why})").format(
                name=slug, why=f"{type(exc).__name__}: {exc}"
            ),
            hint=_("put the session's files back from a backup"),
        ) from None


def warn_all(env: Env, session: Session) -> None:
    """Say the session's warnings (a derived file that could not follow), once."""
    for line in session.warnings:
        env.warn(line)
    session.warnings.clear()
    say_notices(env)


def say_notices(env: Env) -> None:
    """Say, once, what the store replaced (a link where a cache of its own should be)."""
    from companion.store.atomic import taken_notices

    for line in taken_notices():
        env.warn(line)


def active_meta(env: Env) -> dict[str, Any] | None:
    """The active session's meta (its game, its language), read from its small meta file (no lock, no
    state); None when no session is active."""
    name = active_name(env)
    if name is None:
        return None
    with save_shape(name):
        meta = store(env).open(name).read_meta()["meta"]
        meta.get("game")  # a meta of the wrong shape is said here, once
    return meta


def spoken(env: Env, name: str, meta: dict[str, Any]) -> str | None:
    """The language session ``name`` (its ``meta``) speaks now: chosen at ``new`` or later (the setup
    question, ``dark lang``). For a game with one language the meta says it; for a game with more, the
    newest checkpoint's summary (written whenever the language changes), without the lock or a fold."""
    from companion import i18n

    lang = meta.get("lang")
    if len(i18n.languages(meta.get("game"))) > 1:
        with suppress(Exception):  # an unreadable session says so when the command opens it
            summary = store(env).open(name).summary()
            lang = summary.get("lang", lang)
    return lang


def active_language(env: Env) -> tuple[str | None, str | None] | None:
    """The active session's language now and its game; None when no session is active."""
    meta = active_meta(env)
    if meta is None:
        return None
    name = active_name(env)
    return spoken(env, name, meta) if name else meta.get("lang"), meta.get("game")


def active_game(env: Env) -> str | None:
    """The active session's game."""
    meta = active_meta(env)
    return None if meta is None else meta["game"]


def speak_session(env: Env) -> None:
    """Speak the active session's language from here on, for a command that checks what was typed
    before it opens the session (``roll --got``): its mistakes are said in the game's language too."""
    try:
        found = active_language(env)
    except Exception:  # an unreadable session says so when the command opens it; words only here
        return
    if found is not None and found[0] not in (None, "en"):
        from companion import i18n

        i18n.activate(*found)


def scratch_note(session: str) -> str:
    """The line under a roll given --seed while a session is active: it was rolled aside."""
    return "  " + _("a scratch roll (--seed): not recorded in {session}").format(session=session)


def record_roll(
    env: Env, expr: Expr, mod: int, *, got: str | None, seed: int | None, why: str | None
) -> tuple[Roll, str] | None:
    """Roll in the active session and record it; None when no session is active (or ``seed`` is
    given: a session rolls from its own seed, so the caller rolls that one aside)."""
    name = active_name(env)
    if name is None or seed is not None:
        return None
    from companion.dice.source import read_physical
    from companion.session.fold import roll_event

    with opened(env, name=name) as session:
        if session.state.finished is not None:
            return None  # a finished game takes no more rolls: the roll is made aside (the caller says so)
        _refuse_stray(session, expr, got)
        if got is not None:
            roll = read_physical(expr, got, mod)
        elif session.state.dice == "physical":
            roll = ask_physical(env, expr, mod, why)
        else:
            roll = session.dice().roll(expr, mod)
        session.record(roll_event(roll, why))
        return roll, session.name


def _refuse_stray(session: Session, expr: Expr, got: str | None) -> None:
    """A loose roll of the very roll a guided game waits for would be logged apart and leave the game
    waiting: refused, pointing to the answer (``companion next``), or to ``--scratch`` for a roll aside."""
    if not session.spec.guided:
        return
    from companion.engine.requests import RollRequest

    fold = session.waiting()  # what the game waits for, without starting its engine just to look
    request = fold.pending
    if not isinstance(request, RollRequest) or str(request.expr) != str(expr) or fold.done:
        return
    answer = f"companion next {got.replace(' ', ',')}" if got else "companion next"
    raise InputError(
        _(
            "the game waits for this roll ({why}): answer it with {answer} (a roll apart from the game: add --scratch)"
        ).format(why=request.why, answer=answer)
    )


def ask_physical(env: Env, expr: Expr, mod: int, why: str | None) -> Roll:
    """Ask a person at a terminal for the faces they rolled; refuse cleanly without a terminal."""
    from companion.dice.source import read_physical
    from companion.errors import InputError

    if not env.interactive:
        raise InputError(
            _("this session uses physical dice: give the faces with --got (e.g. --got {faces})").format(
                faces=_example(expr)
            )
        )
    from companion.shell.prompts import ask_faces

    return ask_faces(expr, mod, why or "", reader=read_physical)


def _example(expr: Expr) -> str:
    """Faces the dice can show, for the refusal's example: 3 on a d6, 2 on a d2 (never a face the die lacks)."""
    return ",".join("3" if d.custom else str(min(3, d.sides)) for d in expr.dice)


# ---- a game's session ------------------------------------------------------------------------------


@contextmanager
def game_session(env: Env, game: str, refuse: Callable[[Session], Exception]) -> Iterator[Session]:
    """The active session, opened under its lock, refused with ``refuse(session)`` unless it plays ``game``."""
    with opened(env) as session:
        if session.meta.game != game:
            raise refuse(session)
        yield session


def fill_needs(env: Env, session: Session, event: dict[str, Any]) -> None:
    """Ask for the numbers from the player's own book that ``event`` needs first (``Game.needs``):
    at a terminal each is asked once, kept in the player's catalogue and recorded in the session;
    without one the command is refused with one line saying how to give it."""
    from companion.errors import InputError

    for need in session.spec.needs_for(session.state, event):
        request = need.request
        if not env.interactive:
            raise InputError(need.refusal)
        from companion.shell import prompts

        kind = type(request).__name__
        answer: Any = (
            prompts.ask_number(request)  # type: ignore[arg-type]
            if kind == "Number"
            else prompts.ask_choice(request, extras=False)  # type: ignore[arg-type]
            if kind == "Choice"
            else prompts.ask_text(request)  # type: ignore[arg-type]
        )
        if answer in ("undo", "quit"):
            raise InputError(_("nothing recorded: the number was not given"))
        from companion.session import catalogue

        folder = data_dir(env.data_dir)
        values = catalogue.load(folder, session.meta.game)
        values[need.key] = answer
        catalogue.save(folder, session.meta.game, values)
        session.record({"t": "gamedata", "values": {need.key: answer}, "source": "asked"})


def dry(session: Session) -> State:
    """A copy of the state to try an action on first (for its result, or its refusal) before it is recorded."""
    import copy

    return copy.deepcopy(session.state)


# ---- rolls -----------------------------------------------------------------------------------------


class Roller:
    """The rolls of one command: the faces given, the faces typed at a terminal (physical dice), or the
    session's virtual dice, drawn from one stream so that two rolls in one command differ."""

    def __init__(self, env: Env, session: Session) -> None:
        self.env = env
        self.session = session
        self._dice: Any = None
        #: ``{"expr": ..., "faces": [...], "src": ...}`` of every roll so far, for events that keep several
        #: (the dice named, so ``dice verify`` and the dice audit read each die).
        self.payloads: list[dict[str, Any]] = []

    def roll(self, expr: Expr, got: str | None, why: str, mod: int = 0, parts: Sequence[Any] = ()) -> Roll:
        from companion.dice.source import read_physical

        if got is not None:
            roll = read_physical(expr, got, mod, parts=tuple(parts))
        elif self.session.state.dice == "physical":
            roll = ask_physical(self.env, expr, mod, why)
        else:
            if self._dice is None:
                self._dice = self.session.dice()
            roll = self._dice.roll(expr, mod, tuple(parts))
        self.payloads.append({"expr": str(expr), "faces": list(roll.faces or ()), "src": roll.source})
        return roll

    def answer(self, request: Any, got: str | None) -> Roll:
        """Roll what a request asks (anything with ``expr``, ``mod``, ``parts`` and ``why``)."""
        return self.roll(request.expr, got, request.why, request.mod, request.parts)


def roll_faces(env: Env, session: Session, expr: Expr, got: str | None, why: str) -> tuple[Roll, dict[str, Any]]:
    """One roll of ``expr`` and what a game event keeps of it: ``{"expr": ..., "faces": [...], "src": ...}``."""
    from companion.session.fold import roll_payload

    roll = Roller(env, session).roll(expr, got, why)
    return roll, {"expr": str(expr), **roll_payload(roll)}


# ---- rendering -------------------------------------------------------------------------------------


def new_entries(session: Session, before: int) -> list[dict[str, Any]]:
    """The log entries recorded since the log held ``before`` entries."""
    return session.state.log.entries[before:]


def entry_texts(entries: Sequence[dict[str, Any]]) -> list[str]:
    """Log entries as the plain lines ``--json`` gives."""
    from companion.log.markdown import entry_text

    return [entry_text(e) for e in entries]


def print_entries(env: Env, entries: Sequence[dict[str, Any]]) -> None:
    """Log entries as the terminal shows them."""
    from rich.text import Text

    from companion.shell.panels import NBSP, entry_renderable, hang

    for entry in entries:
        text = entry_renderable(entry)
        if env.stdout_isatty:  # wrapped between words, under the line's first word (never at column 0)
            if entry["k"] == "roll":  # its faces ([♥] [♥]) one block, the dash before why never first
                glued = text.plain.replace("] [", "]" + NBSP + "[").replace(" — ", NBSP + "— ")
                text = Text(glued, style=text.style)
            plain = text.plain
            body = plain.lstrip(" ")
            lead = len(plain) - len(body) + (3 if body.startswith(("🎲 ", "✎ ")) else 0)  # 🎲 is two cells
            text = hang(text, max(20, env.out.width - 1), lead if lead else 2)
        env.print(text)


def info(env: Env, lines: Sequence[str], json_out: bool) -> None:
    """Dim lines shown before a result (odds, reminders); nothing with ``--json``."""
    if json_out:
        return
    from rich.text import Text

    for line in lines:
        env.print(Text(line, style="dim"))


def fraction_text(p: Any) -> str:
    """A probability as ``"N/D"``, the form every ``--json`` gives."""
    return f"{p.numerator}/{p.denominator}"


def root_options(ctx: Any) -> list[str]:
    """The root's folder options as given (``--data-dir``, ``--logs-dir``), for a command that runs
    further commands in its own process (the shell, serve): each of them is read with these."""
    root = ctx.find_root().params
    args: list[str] = []
    if root.get("data_dir") is not None:
        args += ["--data-dir", str(root["data_dir"])]
    if root.get("logs_dir") is not None:
        args += ["--logs-dir", str(root["logs_dir"])]
    return args
