"""What the CLI asks of sessions: find the active one, open it under its lock, record into it.

Kept light to import: ``roll`` asks "is a session active?" on every run, and that must not load
TinyDB or filelock unless one is.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError
from companion.store.paths import data_dir

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.dice.expr import Expr
    from companion.dice.roll import Roll
    from companion.session.service import Session
    from companion.store.sessions import Store


def store(env: Env) -> Store:
    from companion.store.sessions import Store

    return Store(data_dir(env.data_dir))


def active_name(env: Env) -> str | None:
    """``--session``/``COMPANION_SESSION``, else the current session, else None."""
    if env.session:
        return env.session
    folder = data_dir(env.data_dir)
    try:
        name = (folder / "current").read_text(encoding="utf-8").strip()
    except OSError:
        return None
    if not name or not (folder / "sessions" / name / "session.json").exists():
        return None
    return name


def require_name(env: Env) -> str:
    name = active_name(env)
    if name is None:
        raise CompanionError(
            "no session is active", hint="start one with: companion new GAME (or pick one: companion use NAME)"
        )
    return name


@contextmanager
def opened(env: Env, *, engine: bool = False, name: str | None = None, wait: float | None = None) -> Iterator[Session]:
    """The active (or named) session, loaded while its lock is held."""
    from companion.session.service import Session
    from companion.store.sessions import LOCK_WAIT

    files = store(env).open(name or require_name(env))
    with files.locked(LOCK_WAIT if wait is None else wait):
        yield Session.open(files, engine=engine)


def active_game(env: Env) -> str | None:
    """The active session's game, read from its small meta file (no lock, no state)."""
    name = active_name(env)
    if name is None:
        return None
    return store(env).open(name).read_meta()["meta"]["game"]


def roll_event(roll: Roll, why: str | None) -> dict[str, Any]:
    from companion.session.fold import roll_payload

    event: dict[str, Any] = {"t": "roll", "expr": str(roll.expr), "mod": roll.modifier - roll.expr.const}
    if roll.parts:
        event["parts"] = [list(p) for p in roll.parts]
    event.update(roll_payload(roll))
    if why:
        event["why"] = why
    return event


def record_roll(
    env: Env, expr: Expr, mod: int, *, got: str | None, seed: int | None, why: str | None
) -> tuple[Roll, str] | None:
    """Roll in the active session and record it; None when no session is active."""
    name = active_name(env)
    if name is None:
        return None
    if seed is not None:
        raise CompanionError(
            f"session {name!r} rolls from its own seed; drop --seed, or add --scratch to roll outside it"
        )
    from companion.dice.source import read_physical

    with opened(env, name=name) as session:
        if got is not None:
            roll = read_physical(expr, got, mod)
        elif session.state.dice == "physical":
            roll = ask_physical(env, expr, mod, why)
        else:
            roll = session.dice().roll(expr, mod)
        session.record(roll_event(roll, why))
        return roll, session.name


def ask_physical(env: Env, expr: Expr, mod: int, why: str | None) -> Roll:
    """Ask a person at a terminal for the faces they rolled; refuse cleanly without a terminal."""
    from companion.dice.source import read_physical
    from companion.errors import InputError

    if not env.interactive:
        raise InputError(f"this session uses physical dice: give the faces with --got (e.g. --got {_example(expr)})")
    from companion.shell.prompts import ask_faces

    return ask_faces(expr, mod, why or "", reader=read_physical)


def _example(expr: Expr) -> str:
    return ",".join("3" for _ in expr.dice)
