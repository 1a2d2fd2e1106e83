"""A game's words for what each of its actions did: what undo, redo, history and the page say.

A game declares one :class:`Words` (its ``words`` member): for each of its own one-shot events, and
for the guided steps it wants said otherwise than by the step's own question, a **catalogue message
with named placeholders** (``N_("{hero} takes {item}")``), so a language gives its own word order
and case (docs/translations.md). The placeholders are filled from the event's own fields (any text
or number it holds: ``{item}``, ``{delta}``), from what :attr:`Words.fields` reads of the table as
it stood before the action (a hero's name from its seat number), and for an answer from the step it
answered (``{question}``, ``{answer}``).

This module is data only: :mod:`companion.session.labels` reads it, with the shared words of the
generic actions (a roll, a note, a tracker), into the one label every front end shows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Words:
    """What a game's own actions did, in the player's words (see the module's docstring)."""

    #: A one-shot event by ``"t"``, or ``"t op"`` (``"dark health"``; the event's ``op``, else its ``do``):
    #: a catalogue message with named placeholders. An event a game records must have one.
    events: Mapping[str, str] = field(default_factory=dict)
    #: A guided step's answer by its request key, or by a prefix ending in ``.`` (the longest wins),
    #: where the step's own question does not say it well: ``{question}`` and ``{answer}`` are the step's.
    answers: Mapping[str, str] = field(default_factory=dict)
    #: The placeholders an event's message reads from the table as it stood before the event (names,
    #: not seat numbers): ``fields(state, event) -> {"hero": "Ann"}``. None: the event's fields only.
    fields: Callable[[Any, dict[str, Any]], dict[str, Any]] | None = None

    def message(self, event: dict[str, Any]) -> str | None:
        """The message for a one-shot ``event`` (by its type and ``op``/``do``, else its type)."""
        t = str(event.get("t", ""))
        op = event.get("op", event.get("do"))
        if op is not None and f"{t} {op}" in self.events:
            return self.events[f"{t} {op}"]
        return self.events.get(t)

    def answer(self, key: str) -> str | None:
        """The message for an answer to the step ``key``: its own, else the longest prefix's."""
        if key in self.answers:
            return self.answers[key]
        found = [k for k in self.answers if k.endswith(".") and key.startswith(k)]
        return self.answers[max(found, key=len)] if found else None


#: A game with no actions of its own (every action is a shared one: a roll, a note, a tracker).
NONE = Words()
