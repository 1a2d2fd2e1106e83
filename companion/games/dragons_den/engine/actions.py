"""One-shot actions: the ``dragon`` event, its reducer, and the answerer a command fills it with.

A one-shot command runs an action step (:mod:`.engine.steps`) on a *copy* of the state, answering each
request from its options, ``--got`` faces, typed chits or the session's virtual dice
(:class:`LiveAnswers`). What it answered is recorded as one event::

    {"t": "dragon", "do": "attack", "args": {"attacker": "jared", "target": "goblin"},
     "rolls": [{"expr": "1d6<=6", "faces": [4], "src": "virtual"}], "picks": ["yes"]}

The reducer (:func:`reduce`) runs the same step on the session's state with those answers
(:class:`Recorded`), so the log, undo and replay see exactly what the command did; the fold counts
the virtual dice in ``rolls`` so the seeded stream resumes after them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.dice.roll import Roll
from companion.engine.requests import Choice, Number, Request, RollRequest, Text
from companion.errors import InputError
from companion.games.dragons_den.engine import common, steps
from companion.i18n import ngettext
from companion.log.rolls import draw_line, roll_line
from companion.session.fold import ReplayError, roll_from, roll_payload
from companion.session.state import State

EVENT = "dragon"

Answerer = Callable[[Request], Any]


def drive(state: State, do: str, args: dict[str, Any], answer: Answerer, *, event_id: int | None = None) -> None:
    """Run action ``do`` to its end, answering each request with ``answer``; log rolls as the fold does."""
    gen = steps.run(state, do, args)
    value: Any = None
    first = True
    while True:
        try:
            request = next(gen) if first else gen.send(value)
        except StopIteration:
            return
        first = False
        value = answer(request)
        if isinstance(request, RollRequest):
            state.rolls += 1
            if not request.secret:
                line = roll_line(value, request.why)
                state.log.roll(draw_line(line) if is_draw_key(request.key) else line, event=event_id)


def is_draw_key(key: str) -> bool:
    """Whether a request of ``key`` draws a chit from a cup, as the game declares its draws."""
    from companion.contract.registry import load

    return load("dragons-den").is_draw({"t": "answer", "key": key}, {})


class Recorded:
    """Answers from a recorded ``dragon`` event, checked against what the step asks."""

    def __init__(self, event: dict[str, Any]) -> None:
        self.event = event
        self.rolls = list(event.get("rolls", []))
        self.picks = list(event.get("picks", []))

    def __call__(self, request: Request) -> Any:
        where = f"event {self.event.get('id')} ({self.event.get('do')})"
        if isinstance(request, RollRequest):
            if not self.rolls:
                raise ReplayError(f"the save does not match the rules: {where} has no roll for {request.why!r}")
            payload = self.rolls.pop(0)
            if payload.get("expr") not in (None, str(request.expr)):
                raise ReplayError(
                    f"the save does not match the rules: {where} rolled {payload['expr']} "
                    f"but the game asks for {request.expr}"
                )
            return roll_from(request.expr, payload, request.mod, request.parts)
        if not self.picks:
            raise ReplayError(f"the save does not match the rules: {where} has no answer for {request.key!r}")
        value = self.picks.pop(0)
        if isinstance(request, Choice) and value not in request.values():
            raise ReplayError(f"the save does not match the rules: {where} chose {value!r} at {request.key!r}")
        if isinstance(request, Number) and not (isinstance(value, int) and request.lo <= value <= request.hi):
            raise ReplayError(f"the save does not match the rules: {where} gave {value!r} at {request.key!r}")
        return value


def reduce(state: State, event: dict[str, Any]) -> None:
    """The fold's reducer for ``dragon`` events."""
    answers = Recorded(event)
    drive(state, event["do"], dict(event.get("args", {})), answers, event_id=event.get("id"))


class LiveAnswers:
    """Answers a one-shot command gives: options, typed faces and chits, prompts, or virtual dice.

    ``rolls`` and ``picks`` collect what was answered, for the event.
    """

    def __init__(
        self,
        *,
        roll_virtual: Callable[[RollRequest], Roll],
        physical: bool,
        got: dict[str, list[str]] | None = None,
        picks: dict[str, list[Any]] | None = None,
        chits: list[str] | None = None,
        ask_faces: Callable[[RollRequest], Roll] | None = None,
        ask_chit: Callable[[Request], str] | None = None,
        chit_flag: str = "--chit",
    ) -> None:
        self.roll_virtual = roll_virtual
        self.physical = physical
        #: Typed faces by request key ("dd.attack"); a key also serves its sub-keys ("dd.save" → "dd.save.sam").
        self.got = {k: list(v) for k, v in (got or {}).items()}
        self.choices = {k: list(v) for k, v in (picks or {}).items()}
        self.chits = list(chits or [])
        #: The chits typed and used so far (a chit typed twice is refused as such).
        self.taken: list[str] = []
        self.ask_faces = ask_faces
        self.ask_chit = ask_chit
        #: The command's option that gives a chit (``--chit``; ``--hoard`` for an ability's hoard chits).
        self.chit_flag = chit_flag
        self.rolls: list[dict[str, Any]] = []
        self.picks: list[Any] = []

    def unused(self) -> list[str]:
        """Typed faces and chits the action did not need (an automatic success asks for no roll)."""
        left = [f"--got {face}" for queue in self.got.values() for face in queue]
        flags = [f"--{key.rsplit('.', 1)[-1]}" for key, queue in self.choices.items() for v in queue if v == "yes"]
        return left + [f"{self.chit_flag} {c}" for c in self.chits] + flags

    def __call__(self, request: Request) -> Any:
        error = common.reask_error(request)
        if error:
            raise InputError(error)
        if isinstance(request, RollRequest):
            roll = self._roll(request)
            payload: dict[str, Any] = {"expr": str(request.expr), **roll_payload(roll)}
            if request.virtual:  # a draw from a cup companion keeps, not a die (Game.draws)
                payload["draw"] = True
            self.rolls.append(payload)
            return roll
        if isinstance(request, Choice):
            queue = self.choices.get(request.key)
            if not queue:
                options = ", ".join(o.value for o in request.options)
                raise InputError(f"{request.prompt} needs an answer ({options})")
            value = queue.pop(0)
            if value not in request.values():
                raise InputError(f"{value!r} is not one of: {', '.join(request.values())}")
        else:
            value = self._chit(request)
        self.picks.append(value)
        return value

    def _roll(self, request: RollRequest) -> Roll:
        from companion.dice.source import read_physical

        if request.virtual:
            return self.roll_virtual(request)
        queue = self.got.get(request.key) or self.got.get(request.key.rsplit(".", 1)[0])
        if queue:
            return read_physical(request.expr, queue.pop(0), request.mod, allow_total=True, parts=request.parts)
        if not self.physical:
            return self.roll_virtual(request)
        if self.ask_faces is None:
            raise InputError(f"this session uses physical dice: give the {request.expr} for {request.why!r} with --got")
        return self.ask_faces(request)

    def _chit(self, request: Request) -> Any:
        if self.chits:
            text = self.chits.pop(0)
            if _norm(text) in map(_norm, self.taken):
                raise InputError(f"{text} is given twice with {self.chit_flag}: each chit is drawn once")
            self.taken.append(text)
        elif self.ask_chit is not None:
            text = self.ask_chit(request)
        elif self.taken:
            given = ngettext("{n} chit", "{n} chits", len(self.taken)).format(n=len(self.taken))
            raise InputError(
                f"{self.chit_flag} gave {given} ({', '.join(self.taken)}), and another is drawn: "
                f"{getattr(request, 'prompt', 'a chit')}; give each with {self.chit_flag}"
            )
        else:
            raise InputError(f"{getattr(request, 'prompt', 'a chit')}: give it with {self.chit_flag}")
        if isinstance(request, Number):
            t = str(text).strip().lstrip("#")
            if not t.isdigit() or not request.lo <= int(t) <= request.hi:
                raise InputError(f"{text!r} is not a chit number from {request.lo} to {request.hi}")
            return int(t)
        assert isinstance(request, Text)
        return str(text).strip()


def _norm(chit: str) -> str:
    """A typed chit as the cup knows it: ``t3``, ``T3`` and ``#3`` alike."""
    return str(chit).strip().lstrip("#").upper()
