"""What the rules hide, from whom and until when, and the one filter every output passes through.

A game declares its secrets (``Game.secrets``), each a :class:`Secret`:

- **what** it is, in words (``"the dragon's chit"``);
- **who holds it**: a seat's name (the dragon player's ``dragon`` seat knows its dragon: a *secret*
  in Game Park's words), or :data:`HIDDEN`, nobody (the chits set aside unseen, a face-down pile:
  *hidden* information);
- **until when**: ``kept(state)`` is true while the secret is kept; once the game reveals it, false;
- how to **withhold** it: ``mask(game_state)`` withholds it in a copy of the game's own state, the
  request keys whose **answers** would give it away (a secret draw), and the **words** that would
  name it (the dragon's name: no public text may hold them while it is kept).

Every output asks one filter for what a viewer may see: ``view = view_for(game, state, viewer)``,
``viewer`` being :data:`PUBLIC` (what everyone at the table, and everyone a log or an export is shared
with, may see) or a seat's name (issue 38: that seat sees the secrets it holds). The view gives:

- :meth:`View.state`: the state with every withheld secret masked (the same object when nothing is
  withheld, so a game without secrets pays nothing);
- :meth:`View.events`: the events with the answers that would give a secret away withheld;
- :meth:`View.pending`: the pending step with the options and lines that name a secret left out;
- :meth:`View.text`: a text with every word that names a kept secret replaced (the last guard: an
  output built from something the other methods missed still names nothing).

The markdown log, every export (html, Lonelog, json, md), ``status --json``, the page and its event
stream, and the dice audit all pass through it (see docs/architecture.md, "Secrets"). This is the
lesson of boardgame.io's ``playerView`` and its issue #1159: a secret leaked through the one path
(the initial state) that skipped the filter, so here there is one filter and every path takes it.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

#: The viewer every shared output is for: no seat's secrets.
PUBLIC = "public"
#: The holder of hidden information: no seat at all (a cup, a pile set aside unseen).
HIDDEN = ""
#: What a withheld word reads as in a text.
WITHHELD = "▒▒▒"

State = Any


#: Whose step a request is when any seat at the table may answer it (a setup question, a table menu).
ANYONE = "*"


@dataclass(frozen=True)
class Seat:
    """A place at the table with its own view and its own page (``companion serve``): ``table`` in a
    solo game; the Dragon's Den's ``dragon`` and ``heroes`` (or one a hero); one a player in the
    Haunted and the Dark Tower.

    A seat sees the secrets it holds (``Secret.holder`` is its name) and answers the steps of the
    figures it ``plays`` (``Game.turn`` names the figure or player a step is for): the dragon seat
    plays the dragon, the heroes' seat every hero. A seat that names no figures plays its own name."""

    name: str
    title: str
    #: The figures (a hero's key, ``dragon``) or players whose steps this seat answers; () its name alone.
    plays: tuple[str, ...] = ()
    #: The title is plural ("the heroes"): the other pages say "the heroes are choosing".
    plural: bool = False

    @property
    def figures(self) -> tuple[str, ...]:
        return self.plays or (self.name,)

    def answers(self, actor: str) -> bool:
        """Whether this seat answers a step of ``actor`` (a figure or player, or :data:`ANYONE`)."""
        return actor == ANYONE or actor in self.figures


@dataclass(frozen=True)
class Secret:
    """One thing the rules hide (see the module's docstring)."""

    what: str
    #: The seat that knows it, or HIDDEN (nobody).
    holder: str
    #: True while the secret is kept (the game has not revealed it).
    kept: Callable[[State], bool]
    #: Withhold it in a copy of the game's own state (``State.game``), in place.
    mask: Callable[[Any], None]
    #: Request keys (or prefixes ending in ``.``) whose answers give it away while it is kept.
    answers: tuple[str, ...]
    #: The words that would name it (its name), while it is kept.
    words: Callable[[State], tuple[str, ...]]
    #: What its holder's page says of it while it is kept ("your dragon: chit 2, the Adult Black
    #: Dragon ..."); None for hidden information, which nobody is told.
    told: Callable[[State], str] | None = None

    def answered_by(self, key: str) -> bool:
        return any(key == k or (k.endswith(".") and key.startswith(k)) for k in self.answers)


@dataclass(frozen=True)
class View:
    """What ``viewer`` may see of a session whose game declares ``secrets`` (built by :func:`view_for`)."""

    viewer: str
    #: The secrets kept from this viewer now.
    withheld: tuple[Secret, ...]
    #: The words that would name them.
    words: tuple[str, ...]

    @property
    def hides(self) -> bool:
        return bool(self.withheld)

    def state(self, state: State) -> State:
        """``state`` with every withheld secret masked in a copy of its game (``state`` itself when
        nothing is withheld)."""
        if not self.withheld or state.game is None:
            return state
        game = copy.deepcopy(state.game)
        for secret in self.withheld:
            secret.mask(game)
        return replace(state, game=game)

    def withholds_answer(self, event: dict[str, Any]) -> bool:
        key = str(event.get("key", ""))
        return event.get("t") == "answer" and any(s.answered_by(key) for s in self.withheld)

    def events(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """``events`` with the answers that would give a withheld secret away replaced by
        ``{"withheld": WHAT}`` (the event stays: something was drawn, and when)."""
        if not self.withheld:
            return events
        out = []
        for event in events:
            if self.withholds_answer(event):
                secret = next(s for s in self.withheld if s.answered_by(str(event.get("key", ""))))
                event = {k: v for k, v in event.items() if k not in ("v", "expr", "mod")}
                event["v"] = {"withheld": secret.what}
            out.append(event)
        return out

    def text(self, text: str) -> str:
        """``text`` with every word naming a withheld secret replaced by :data:`WITHHELD`."""
        if not self.words or not text:
            return text
        return _pattern(self.words).sub(WITHHELD, text)

    def names(self, text: str) -> bool:
        """Whether ``text`` names a withheld secret."""
        return bool(self.words) and bool(text) and _pattern(self.words).search(text) is not None

    def pending(self, pending: Any) -> Any:
        """The pending step (:class:`companion.engine.pending.Pending`) as this viewer may see it: a
        menu's options that name a withheld secret left out, every line of it filtered."""
        if pending is None or not self.words:
            return pending
        options = tuple(o for o in pending.options if not self.names(o.label) and not self.names(o.hint))
        return replace(
            pending,
            text=self.text(pending.text),
            odds=self.text(pending.odds),
            info=tuple(self.text(line) for line in pending.info),
            options=options,
        )


#: A view that withholds nothing (a game with no secrets, or every secret revealed).
OPEN = View(PUBLIC, (), ())


def view_for(secrets: tuple[Secret, ...] | Any, state: State, viewer: str = PUBLIC) -> View:
    """The one filter: what ``viewer`` may see of ``state`` for a game declaring ``secrets`` (a
    NotApplicable declaration: nothing is hidden). A seat sees the secrets it holds; nobody sees
    the hidden ones; the public sees none while they are kept."""
    if not isinstance(secrets, tuple) or not secrets:
        return OPEN if viewer == PUBLIC else View(viewer, (), ())
    withheld = tuple(s for s in secrets if (s.holder == HIDDEN or s.holder != viewer) and s.kept(state))
    if not withheld:
        return View(viewer, (), ())
    words = tuple(dict.fromkeys(w for s in withheld for w in s.words(state) if w and w.strip()))
    return View(viewer, withheld, words)


def held_by(secrets: tuple[Secret, ...] | Any, state: State, viewer: str) -> tuple[str, ...]:
    """What ``viewer``'s page tells it of the secrets it holds, while they are kept (``Secret.told``):
    the dragon player's dragon on the dragon seat's page. Nothing for the public or a seat holding none."""
    if viewer == PUBLIC or not isinstance(secrets, tuple):
        return ()
    return tuple(s.told(state) for s in secrets if s.holder == viewer and s.told is not None and s.kept(state))


_PATTERNS: dict[tuple[str, ...], re.Pattern[str]] = {}


def _pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    found = _PATTERNS.get(words)
    if found is None:
        alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
        found = _PATTERNS[words] = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)
    return found
