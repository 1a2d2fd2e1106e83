"""What a game package provides to the session layer, the shells and the simulator.

Everything is optional except the name and title: a table-assistant game may have only tables and
one-shot commands; a guided game adds ``play``, an engine generator over the session state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.dice.tables import Table

if TYPE_CHECKING:
    from companion.engine.requests import Engine, Request
    from companion.session.state import State


@dataclass(frozen=True)
class Variant:
    """A named reading of the rules, or an open question of the author's, that changes play."""

    name: str
    title: str
    description: str


@dataclass(frozen=True)
class Need:
    """A number from the player's own book that a one-shot command needs before it can act: the
    ``gamedata`` key it is kept under, the request that asks for it at a terminal (kept in the player's
    catalogue for every next game), and the one line that refuses the command without a terminal
    (saying where the number is and the command that gives it once)."""

    key: str
    request: Request
    refusal: str


@dataclass(frozen=True)
class GameSpec:
    name: str
    title: str
    #: Tables a ``DR NAME`` reads, by name.
    tables: dict[str, Table] = field(default_factory=dict)
    variants: dict[str, Variant] = field(default_factory=dict)
    #: The dataclass of the game's own state in ``State.game`` (None for freeform).
    state_type: type | None = None
    #: Fill a new session's state (trackers, game state) from its meta.
    setup: Callable[[State], None] | None = None
    #: The guided engine; yields requests and reads and changes the state.
    play: Callable[[State], Engine] | None = None
    #: Reducers for the game's own one-shot events, by event type ``t``.
    reducers: dict[str, Callable[[State, dict[str, Any]], None]] = field(default_factory=dict)
    #: Called after a ``gamedata`` event stored the player's numbers in ``state.data``: the game may
    #: read them at once (e.g. write the party's tallies); returns the values the log lists.
    gamedata: Callable[[State, dict[str, Any]], dict[str, Any]] | None = None
    #: Rows for the status panel: (label, value) pairs, in order.
    status: Callable[[State], list[tuple[str, str]]] | None = None
    #: Extra lines (odds) to show before a request; the game's advice to the player.
    advise: Callable[[State, Request], list[str]] | None = None
    #: Each option's chance of death at a choice (value → probability), for the choices where a
    #: wrong key can kill the hero: the shell asks once more before Enter takes a deadly one.
    risk: Callable[[State, Request], dict[str, float]] | None = None
    #: Trackers the game does not have (``hp``, ``xp``, ``gold``), each with what to use instead:
    #: the one-shot command is refused with "TITLE has no HP: <this>".
    lacks: dict[str, str] = field(default_factory=dict)
    #: True when guided play keeps the tallies (a hero's hits follow the rules): ``tally`` changes
    #: by hand are refused once the game has written them, with the guided way to play on.
    guided_tallies: Callable[[State], bool] | None = None
    #: XP needed to go from ``level`` to the next one (None: XP is a plain counter).
    xp_to_next: Callable[[int], int] | None = None
    #: A typer app of the game's own one-shot commands, as "module:attribute", mounted by name.
    commands: str | None = None
    #: One line for the log's front matter ``hero`` key.
    hero: Callable[[State], str | None] | None = None
    #: Headline of the markdown log.
    log_title: str | None = None
    #: The table at a glance for the shell's bar: the fight, every hero with its health and the
    #: figure that matters most in the game, whose turn it is, and the rest (:mod:`companion.engine.board`).
    board: Callable[[State], Any] | None = None
    #: The buttons of the game's own figures a player changes by hand (a hero's health), each with
    #: the words of the game's one-shot command (:class:`companion.engine.board.Control`).
    controls: Callable[[State], list[Any]] | None = None
    #: The option of a choice the game's odds favour (the highest chance to win), or None: a menu
    #: starts on it.
    best: Callable[[State, Request], str | None] | None = None
    #: True when ``play`` accepts :data:`companion.engine.requests.REFRESH` at every yield: the fold
    #: sends it after a one-shot event changes the state while the engine waits on a request, so
    #: a table game's menu is always built from the current state (replays send it at the same place).
    refresh: bool = False
    #: A game that keeps its own state in step with the generic trackers (the Adventure's area map
    #: follows the monsters' tallies): called for every generic event with a function that folds it.
    tracked: Callable[[State, dict[str, Any], Callable[[], None]], None] | None = None
    #: The numbers from the player's book a generic one-shot event needs first (tally, talisman).
    needs: Callable[[State, dict[str, Any]], list[Need]] | None = None
    #: For ``companion talisman``: the monsters left alive after the kill being rolled for (None: not
    #: known, but more than one); raises InputError when no kill waits for its roll.
    talisman_left: Callable[[State], int | None] | None = None
    #: Lines ``companion new`` prints after "Next: companion play": the other way to play.
    ways: tuple[str, ...] = ()
