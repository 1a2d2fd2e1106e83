"""What a checkpoint keeps of a session, and which events can be folded onto one.

A checkpoint (companion.store.checkpoints) is the state after an event, encoded with
:mod:`companion.session.codec`, except the log: of it only its window (the count of entries and the
open lines, :meth:`companion.log.model.Log.window`) is kept, since the markdown file holds the rest.
Beside the state: the position in the seeded dice stream, whether the game's engine had started, the
layout of the log file after that event (companion.log.writer), and the fingerprint of the event, so a
checkpoint is never used for events it was not made from.

A checkpoint has no engine: a guided game's engine is a generator, rebuilt only by replaying the game
from its start. So the events after a checkpoint are folded onto it only when none needs the engine
(:func:`needs_engine`); otherwise the session is folded from its first event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.log.model import Log
from companion.session import codec
from companion.session.fold import NO_REFRESH, REBUILD_AFTER
from companion.session.state import State

if TYPE_CHECKING:
    from companion.contract.game import Game

#: The checkpoint document's version (a checkpoint of another version is not used: it is a cache).
VERSION = 2


def needs_engine(event: dict[str, Any], spec: Game, started: bool, meta: Any = None) -> bool:
    """Whether folding ``event`` onto a state without its engine would differ from folding the whole
    session: an answer to an engine that had started, an amendment (it changes earlier rolls), or, in a
    game whose engine is told about the table's changes (``Game.refresh``), any such change once
    the engine runs."""
    kind = event.get("t")
    if kind in REBUILD_AFTER:
        return True
    if kind == "answer":
        return started
    return bool(spec.refreshes(meta) and started and kind not in NO_REFRESH)


def encode(
    state: State,
    *,
    events: int,
    fp: str,
    draws: int,
    stream: Any,
    started: bool,
    layout: dict | None,
    summary: dict,
) -> dict:
    body = codec.dump(_without_log(state))
    body["log"] = state.log.window()
    version, internal, gauss = stream
    return {
        "version": VERSION,
        "events": events,
        "fp": fp,
        "draws": draws,
        "stream": [version, list(internal), gauss],
        "engine": started,
        "state": body,
        "layout": layout,
        "summary": summary,
    }


def _without_log(state: State) -> State:
    import copy

    light = copy.copy(state)
    light.log = Log()
    return light


def decode(doc: dict[str, Any], spec: Game) -> State:
    """The state a checkpoint holds (its log partial: see companion.log.model)."""
    data = dict(doc["state"])
    window = data.pop("log")
    state = codec.load(State, data)
    if spec.provides("state_type") and state.game is not None:
        state.game = codec.load(spec.state_type, state.game)  # type: ignore[arg-type]
    state.log = Log.from_window(window)
    return state


def stream(doc: dict[str, Any]) -> tuple[Any, int] | None:
    """The seeded dice stream's state a checkpoint kept, and its draws (None if it kept none)."""
    kept = doc.get("stream")
    if not isinstance(kept, list) or len(kept) != 3 or not isinstance(kept[1], list):
        return None
    return (kept[0], tuple(kept[1]), kept[2]), int(doc.get("draws", 0))
