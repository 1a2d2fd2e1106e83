"""The whole state of a session, folded from its events.

It is plain data (dataclasses) so it can be snapshotted with :mod:`companion.session.codec` and
rebuilt from the events at any time; the two must always agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.contract.game import Game
from companion.log.model import Log
from companion.session.trackers import Trackers


@dataclass
class Meta:
    """What a session was created with. Never changes after ``companion new``."""

    name: str
    slug: str
    game: str
    seed: int
    dice: str  # the starting dice mode: "virtual" or "physical"
    variants: list[str] = field(default_factory=list)
    created: str = ""
    log_path: str = ""
    hero: str | None = None
    #: The language the session is played in ("en", "ru"), chosen at ``companion new`` (see
    #: ``companion/i18n.py``); None in sessions started before there was a choice (English).
    lang: str | None = None
    #: The game contract's revision the session was made with (companion.contract.game.REVISION): its
    #: events replay as they were played (0: made before the contract).
    revision: int = 0
    #: Sealed dice (``companion new --sealed``): the commitment (SHA-256 of ``SEED:SALT``, hex) shown
    #: instead of the seed until it is revealed, and the salt; None for a session whose seed is known.
    sealed: str | None = None
    salt: str | None = None


@dataclass
class State:
    meta: Meta
    dice: str = "virtual"
    updated: str = ""
    hero: str | None = None
    trackers: Trackers = field(default_factory=Trackers)
    log: Log = field(default_factory=Log)
    #: The game's own state (a dataclass of the game package), or None for freeform play.
    game: Any = None
    #: "won", "lost" or another end the game names; None while play goes on.
    finished: str | None = None
    rolls: int = 0
    #: Game data the player entered once (numbers their own book prints), kept with the session.
    data: dict[str, Any] = field(default_factory=dict)
    #: The event that revealed a sealed session's seed (``companion dice reveal``, or the game's end).
    revealed: int | None = None

    @property
    def seed_shown(self) -> bool:
        """Whether the seed may be shown: a session not sealed, or sealed and revealed."""
        return not self.meta.sealed or self.revealed is not None


def new_state(spec: Game, meta: Meta) -> State:
    """The state before the first event: the game's own setup, in the session's language."""
    from companion import i18n

    # The words a fold writes (the log) are in the session's language from the first event on.
    i18n.activate(meta.lang, meta.game)
    state = State(meta=meta, dice=meta.dice, hero=meta.hero, updated=meta.created)
    spec.new_game(state)
    return state
