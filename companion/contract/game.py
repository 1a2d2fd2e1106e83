"""The game contract: one :class:`Game` per game, every member provided or declared not applicable.

A game is built once, in its package's ``spec.py``, as ``GAME = Game(...)`` with **every** member
named (there are no defaults): a member the game does not have is ``NotApplicable("the reason")``.
A game that leaves a member out fails to build (a ``TypeError`` naming it), and one that gives a
member of the wrong kind fails :meth:`Game.__post_init__` with a ``TypeError`` naming it, at import,
so ``tests/test_every_game.py`` and every other test that loads the game catch it.

Front ends ask the game through its methods (:meth:`Game.status_rows`, :meth:`Game.advice`,
:meth:`Game.best`, :meth:`Game.board_of` ...): each one gives the member's answer, or the
declared empty answer where the member is not applicable, so no front end tests for a missing hook
or reads a game's raw state to guess. What is hidden passes one filter,
:func:`companion.contract.secrets.view_for`.

The members, by what they are for:

- **identity**: ``name``, ``title``, ``log_title`` (the log's headline), ``variants``, ``tables`` (the
  ``DR NAME`` tables), ``ways`` (the lines ``companion new`` prints about the other way to play);
- **the model**: ``state_type`` (the dataclass kept in ``State.game``), ``setup`` (fill a new state);
- **the engine**: ``play`` (the guided engine, a generator of requests), ``refresh`` (True: the
  engine takes :data:`~companion.engine.requests.REFRESH` at every request and asks again from the
  table as it stands after a hand command), ``reducers`` (the game's own one-shot events),
  ``gamedata``, ``needs``, ``tracked``, ``talisman_left``, ``guided_tallies``, ``lacks``,
  ``xp_to_next``, ``commands`` (its one-shot command group), ``allows`` (the game's word on a generic
  tracker command, before it is recorded);
- **the pending step**: ``advise`` (odds and advice lines), ``risk`` (each option's chance of death),
  ``chances`` (each option shown with odds, and its chance of a good end: the best option is the
  highest, running away included);
- **the screens**: ``status`` (rows), ``board`` (the bar and the page), ``controls`` (the page's
  buttons), ``hero`` (the log's hero line);
- **moments and odds**: ``moments`` (the exports' probe), ``odds`` (its ``companion odds fight`` entry);
- **the table's people and secrets**: ``seats`` (who sits at the table, each with its own page),
  ``turn`` (whose step a request is: the figure or player that answers it, or anyone), ``secrets``
  (:mod:`companion.contract.secrets`), ``draws`` (which rolls are draws from a cup or a deck, not dice);
- **words**: ``words``, what each of the game's own actions did in the player's words
  (:class:`companion.contract.words.Words`: what undo, redo, history and the page say).

This module sits below the session layer: a game's state is ``Any`` here (it is
:class:`companion.session.state.State`, which imports this module, not the reverse).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from companion.contract.secrets import ANYONE, PUBLIC, Seat, Secret, View, held_by, view_for
from companion.contract.words import NONE, Words

if TYPE_CHECKING:  # below the session layer: the engine's requests are plain data, imported for types only
    from companion.engine.requests import Request

#: A session's state (:class:`companion.session.state.State`): ``Any`` at this layer, below the session.
State = Any


@dataclass(frozen=True)
class NotApplicable:
    """A member a game does not have, and why: ``NotApplicable("no guided play: a table assistant")``.

    It is false (``if game.play``), and a front end that wants to say why reads ``reason``."""

    reason: str

    def __post_init__(self) -> None:
        if not isinstance(self.reason, str) or not self.reason.strip():
            raise TypeError("NotApplicable needs the reason, in words")

    def __bool__(self) -> bool:
        return False


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


#: The contract's revision a new session is made with (``Meta.revision``). A session keeps the revision
#: it was made with, so its events replay as they were played: 1 rebuilds the pending step after a
#: hand command in every game that declares ``Refresh(since=1)`` (sessions made before replay as they were);
#: 2 does it in the Adventure in the Dungeon too, whose hand commands then work beside guided play, and
#: the Dark Tower asks for no ★ spell once the dice have won the fight.
REVISION = 2


@dataclass(frozen=True)
class Refresh:
    """The engine accepts :data:`companion.engine.requests.REFRESH` at every request and asks again from
    the table as it stands, in sessions made at contract revision ``since`` or later."""

    since: int = 0


#: How much more likely an escape must be than the best way to win to be the best option (a point).
WIN_OVER_ESCAPE = 0.01


@dataclass(frozen=True)
class Chance:
    """One option of a step shown with odds, and its chance of a good end (a won fight, a run that
    gets away): :meth:`Game.best` is the option with the highest."""

    value: str
    chance: Fraction | float
    #: What the chance is of, in words ("win", "get away").
    of: str = "win"


@dataclass(frozen=True)
class Draws:
    """The rolls that are draws from a cup or a deck (a chit, a card), not dice: the dice audit and the
    page's dice section leave them out (issue 34), and the log may call them draws.

    ``keys`` are the request keys (or their prefixes, ending in ``.``) a draw answers; a game's own
    one-shot event marks a draw's payload with ``"draw": true``."""

    what: str
    keys: tuple[str, ...]

    def answers(self, key: str) -> bool:
        return any(key == k or (k.endswith(".") and key.startswith(k)) for k in self.keys)

    def is_draw(self, event: dict[str, Any], payload: dict[str, Any]) -> bool:
        """Whether ``payload`` (a roll that ``event`` holds) is a draw."""
        if payload.get("draw"):
            return True
        return event.get("t") == "answer" and self.answers(str(event.get("key", "")))


@dataclass(frozen=True)
class Names:
    """The names a game knows on the table as it stands, by kind: what a player types after a command
    (``tally hit``, a game's own) by any unique start or word (``cad`` for the Cadaver Creeper), and what
    Tab completes. Each is the name as the commands take it."""

    heroes: tuple[str, ...] = ()
    monsters: tuple[str, ...] = ()
    items: tuple[str, ...] = ()

    def all(self) -> tuple[str, ...]:
        return (*self.heroes, *self.monsters, *self.items)


#: The kind of value each member takes: "call" (a function), "text", "map", "lines", "flag", "type",
#: "seats", "secrets", "draws"; a member marked ``na`` may be declared NotApplicable instead.
_KINDS: dict[str, tuple[str, bool]] = {
    "name": ("text", False),
    "title": ("text", False),
    "log_title": ("text", False),
    "variants": ("map", False),
    "tables": ("map", False),
    "ways": ("lines", False),
    "state_type": ("type", True),
    "setup": ("call", True),
    "play": ("call", True),
    "refresh": ("refresh", True),
    "reducers": ("map", False),
    "gamedata": ("call", True),
    "needs": ("call", True),
    "tracked": ("call", True),
    "talisman_left": ("call", True),
    "guided_tallies": ("call", True),
    "lacks": ("map", False),
    "xp_to_next": ("call", True),
    "commands": ("text", True),
    "allows": ("call", True),
    "advise": ("call", True),
    "risk": ("call", True),
    "chances": ("call", True),
    "status": ("call", True),
    "board": ("call", True),
    "controls": ("call", True),
    "hero": ("call", True),
    "moments": ("text", True),
    "odds": ("text", True),
    "names": ("call", True),
    "seats": ("call", False),
    "turn": ("call", False),
    "secrets": ("secrets", True),
    "draws": ("draws", True),
    "words": ("words", True),
}


@dataclass(frozen=True, kw_only=True)
class Game:
    """What every front end needs from a game. Every member is named when the game is built."""

    # ---- identity ----------------------------------------------------------------------------
    name: str
    title: str
    #: The markdown log's headline.
    log_title: str
    variants: dict[str, Variant]
    #: Tables a ``DR NAME`` reads, by name (``{}``: the game has none).
    tables: dict[str, Any]
    #: Lines ``companion new`` prints after "Next: companion play": the other way to play (``()``: none).
    ways: tuple[str, ...]
    # ---- the model ---------------------------------------------------------------------------
    #: The dataclass of the game's own state in ``State.game``.
    state_type: type | NotApplicable
    #: Fill a new session's state (trackers, game state) from its meta.
    setup: Callable[[State], None] | NotApplicable
    # ---- the engine --------------------------------------------------------------------------
    #: The guided engine; yields requests and reads and changes the state.
    play: Callable[[State], Any] | NotApplicable
    #: :class:`Refresh`: ``play`` accepts :data:`companion.engine.requests.REFRESH` at every yield, and
    #: the fold sends it after a one-shot event changes the table while the engine waits, so the pending
    #: step is always built from the table as it stands. (There is no "no": a stale step is a defect;
    #: a game whose hand commands cannot change a waiting step says why, NotApplicable.)
    refresh: Refresh | NotApplicable
    #: Reducers for the game's own one-shot events, by event type ``t``.
    reducers: dict[str, Callable[[State, dict[str, Any]], None]]
    #: Called after a ``gamedata`` event stored the player's numbers in ``state.data``: the game may
    #: read them at once; returns the values the log lists.
    gamedata: Callable[[State, dict[str, Any]], dict[str, Any]] | NotApplicable
    #: The numbers from the player's book a generic one-shot event needs first (:class:`Need`).
    needs: Callable[[State, dict[str, Any]], list[Need]] | NotApplicable
    #: A game that keeps its own state in step with the generic trackers: called for every generic
    #: event with a function that folds it.
    tracked: Callable[[State, dict[str, Any], Callable[[], None]], None] | NotApplicable
    #: For ``companion talisman``: the monsters left alive after the kill being rolled for (None: not
    #: known); raises InputError when no kill waits for its roll.
    talisman_left: Callable[[State], int | None] | NotApplicable
    #: True when guided play keeps the tallies: ``tally`` changes by hand are refused.
    guided_tallies: Callable[[State], bool] | NotApplicable
    #: Trackers the game does not have (``hp``, ``xp``, ``gold``), each with what to use instead.
    lacks: dict[str, str]
    #: XP needed to go from ``level`` to the next one.
    xp_to_next: Callable[[int], int] | NotApplicable
    #: A typer app of the game's own one-shot commands, as "module:attribute".
    commands: str | NotApplicable
    #: The game's word on a generic tracker event (``hp``, ``xp``, ``gold``, ``item``, ``tally``,
    #: ``talisman``, ``room``, ``floor``) before it is recorded: None allows it, a line refuses it
    #: (the rule, and the game's own command for it). Not applicable: every generic command is the
    #: player's (a declared choice, with the reason).
    allows: Callable[[State, dict[str, Any]], str | None] | NotApplicable
    # ---- the pending step --------------------------------------------------------------------
    #: Extra lines (odds, advice) to show before a request.
    advise: Callable[[State, Request], list[str]] | NotApplicable
    #: Each option's chance of death at a choice (value → probability), where a wrong key can kill.
    risk: Callable[[State, Request], dict[str, float]] | NotApplicable
    #: Every option of a choice shown with odds, each with its chance of a good end (a won fight, a
    #: run that gets away): :meth:`best` is the highest, running away and fleeing included.
    chances: Callable[[State, Request], list[Chance]] | NotApplicable
    # ---- the screens -------------------------------------------------------------------------
    #: Rows for the status panel: (label, value) pairs, in order.
    status: Callable[[State], list[tuple[str, Any]]] | NotApplicable
    #: The table at a glance (:class:`companion.engine.board.Board`), or None where nothing is on it.
    board: Callable[[State], Any] | NotApplicable
    #: The buttons of the game's own figures a player changes by hand (:class:`companion.engine.board.Control`).
    controls: Callable[[State], list[Any]] | NotApplicable
    #: One line for the log's front matter ``hero`` key (None: the session's hero).
    hero: Callable[[State], str | None] | NotApplicable
    # ---- moments and odds --------------------------------------------------------------------
    #: "module:class" of the game's probe for the exports' big moments: ``before(state, request, event)``
    #: the :class:`companion.sim.fights.Reading` before an event, ``after(reading, state, request)`` the
    #: same fight's after it (None when over or not countable), ``result(reading, state)`` "won", "lost"
    #: or "fled" once that fight is over (None while it goes on). See companion/export/moments.py.
    moments: str | NotApplicable
    #: The name of its entry in ``companion odds fight`` (:data:`companion.sim.fights.FIGHT_ODDS`).
    odds: str | NotApplicable
    # ---- the table's people and secrets ------------------------------------------------------
    #: The names on the table (:class:`Names`: heroes, monsters, items), for the commands that take a
    #: name by any unique start or word, and for Tab.
    names: Callable[[State], Names] | NotApplicable
    #: The seats at the table (solo: one ``table`` seat), for the state as it stands:
    #: ``seats(state, per_player)``; ``per_player`` asks for one seat a player where players share one
    #: (``companion serve --seat-per-player``: the Dragon's Den's heroes each on their own page).
    seats: Callable[[State, bool], tuple[Seat, ...]]
    #: Whose step a request is: ``turn(state, request, option)`` names the figure or player that
    #: answers it (a seat answers the steps of the figures it plays, ``Seat.plays``), or
    #: :data:`~companion.contract.secrets.ANYONE` (a setup question, the table's own menu). With
    #: ``option`` (an option's value of a Choice) it names whose that option is (the dragon player's
    #: look at the dragon on the heroes' menu); it is the step's by default.
    turn: Callable[[State, Request, str | None], str]
    #: What the rules hide, from whom and until when (:class:`companion.contract.secrets.Secret`).
    secrets: tuple[Secret, ...] | NotApplicable
    #: Which rolls are draws from a cup or a deck, not dice.
    draws: Draws | NotApplicable
    # ---- words -------------------------------------------------------------------------------
    #: What each of the game's own one-shot actions did, in the player's words (catalogue messages
    #: with named placeholders), and any guided step it words otherwise than by the step's question:
    #: undo, redo, history and the page say it (companion/session/labels.py). Not applicable: the game
    #: records no action of its own (every one is a shared one: a roll, a note, a tracker...).
    words: Words | NotApplicable

    def __post_init__(self) -> None:
        for f in fields(self):
            kind, na = _KINDS[f.name]
            value = getattr(self, f.name)
            if isinstance(value, NotApplicable):
                if not na:
                    raise TypeError(f"{self.name}: {f.name} must be provided (it cannot be not applicable)")
                continue
            if not _fits(kind, value):
                raise TypeError(
                    f"{self.name}: {f.name} must be {kind} or NotApplicable(reason), not {type(value).__name__}"
                )

    # ---- asking the game (front ends call these, never the members' None) ---------------------
    def provides(self, member: str) -> bool:
        """Whether ``member`` is provided (not declared not applicable)."""
        return not isinstance(getattr(self, member), NotApplicable)

    def why_not(self, member: str) -> str:
        """The reason ``member`` is not applicable ("" when it is provided)."""
        value = getattr(self, member)
        return value.reason if isinstance(value, NotApplicable) else ""

    @property
    def guided(self) -> bool:
        """Whether the game has guided play (an engine ``next`` and ``play`` run)."""
        return self.provides("play")

    def refreshes(self, meta: Any) -> bool:
        """Whether the fold sends REFRESH to this game's engine in a session with ``meta``."""
        return isinstance(self.refresh, Refresh) and getattr(meta, "revision", 0) >= self.refresh.since

    @property
    def levels(self) -> bool:
        """Whether XP counts towards levels (else XP is a plain count)."""
        return self.provides("xp_to_next")

    def new_game(self, state: State) -> None:
        if self.provides("setup"):
            self.setup(state)  # type: ignore[operator]

    def engine(self, state: State) -> Any:
        """The guided engine over ``state``; a game without one raises with its declared reason."""
        if not self.provides("play"):
            raise TypeError(f"{self.name} has no guided play: {self.why_not('play')}")
        return self.play(state)  # type: ignore[operator]

    def xp_needed(self, level: int) -> int | None:
        return self.xp_to_next(level) if self.provides("xp_to_next") else None  # type: ignore[operator]

    def read_data(self, state: State, values: dict[str, Any]) -> dict[str, Any]:
        return self.gamedata(state, values) if self.provides("gamedata") else values  # type: ignore[operator]

    def needs_for(self, state: State, event: dict[str, Any]) -> list[Need]:
        return list(self.needs(state, event)) if self.provides("needs") else []  # type: ignore[operator]

    def keeps_tallies(self, state: State) -> bool:
        return bool(self.guided_tallies(state)) if self.provides("guided_tallies") else False  # type: ignore[operator]

    def refusal(self, state: State, event: dict[str, Any]) -> str | None:
        """The game's refusal of a generic tracker event (one line), or None: it may be recorded."""
        return self.allows(state, event) if self.provides("allows") else None  # type: ignore[operator]

    # What a front end shows passes the game's one filter (:mod:`companion.contract.secrets`): each
    # method below reads the state as ``viewer`` may see it (the public, unless a seat is named).
    def view(self, state: State, viewer: str = PUBLIC) -> View:
        """What ``viewer`` may see of ``state``: the one filter every output passes through."""
        return view_for(self.secrets, state, viewer)

    def held(self, state: State, viewer: str) -> tuple[str, ...]:
        """What ``viewer`` (a seat) is told of the secrets it holds while they are kept (its page's lines)."""
        return held_by(self.secrets, state, viewer)

    def status_rows(self, state: State, viewer: str = PUBLIC) -> list[tuple[str, Any]]:
        if not self.provides("status"):
            return []
        seen = self.view(state, viewer)
        return list(self.status(seen.state(state)))  # type: ignore[operator]

    def advice(self, state: State, request: Request, viewer: str = PUBLIC) -> list[str]:
        if not self.provides("advise"):
            return []
        seen = self.view(state, viewer)
        return [seen.text(line) for line in self.advise(seen.state(state), request)]  # type: ignore[operator]

    def risks(self, state: State, request: Request) -> dict[str, float]:
        return dict(self.risk(state, request)) if self.provides("risk") else {}  # type: ignore[operator]

    def option_chances(self, state: State, request: Request) -> list[Chance]:
        """The options of ``request`` shown with odds, each with its chance (only options it offers)."""
        from companion.engine.requests import Choice

        if not self.provides("chances") or not isinstance(request, Choice):
            return []
        offered = set(request.values())
        return [c for c in self.chances(state, request) if c.value in offered]  # type: ignore[operator]

    def best(self, state: State, request: Request) -> str | None:
        """The option with the highest chance of a good end among every option shown with odds,
        running away and fleeing included; None where none can end well.

        A win is worth more than an escape (a run gives up what winning takes): where a way to win is
        within :data:`WIN_OVER_ESCAPE` of the highest chance, the best way to win is starred. Of
        equal chances, the first listed."""
        shown = self.option_chances(state, request)
        if not shown:
            return None
        top = max(shown, key=lambda c: c.chance)  # max keeps the first of equals
        if top.chance <= 0:
            return None
        wins = [c for c in shown if c.of == "win"]
        near = max(wins, key=lambda c: c.chance) if wins else None
        if near is not None and top.of != "win" and near.chance > 0 and top.chance - near.chance <= WIN_OVER_ESCAPE:
            return near.value
        return top.value

    def board_of(self, state: State, viewer: str = PUBLIC) -> Any:
        """The table at a glance (a Board), or None where the game shows none now."""
        if not self.provides("board"):
            return None
        return self.board(self.view(state, viewer).state(state))  # type: ignore[operator]

    def controls_of(self, state: State, viewer: str = PUBLIC) -> list[Any]:
        if not self.provides("controls"):
            return []
        return list(self.controls(self.view(state, viewer).state(state)))  # type: ignore[operator]

    def hero_line(self, state: State, viewer: str = PUBLIC) -> str | None:
        """The log's hero line: the game's, else the session's hero."""
        seen = self.view(state, viewer)
        line = self.hero(seen.state(state)) if self.provides("hero") else None  # type: ignore[operator]
        line = line if line is not None else state.hero
        return seen.text(line) if line else line

    def seats_of(self, state: State, per_player: bool = False) -> tuple[Seat, ...]:
        """The seats at the table as it stands (``per_player``: one a player where players share one)."""
        return tuple(self.seats(state, per_player))

    def actor(self, state: State, request: Request | None, option: str | None = None) -> str:
        """The figure or player whose step ``request`` is (or whose ``option`` of it is), or ANYONE."""
        if request is None:
            return ANYONE
        return self.turn(state, request, option) or ANYONE

    def seat_for(self, seats: tuple[Seat, ...], actor: str) -> Seat | None:
        """The seat among ``seats`` that answers a step of ``actor``; None where any seat may (ANYONE,
        or a figure no seat plays)."""
        if actor == ANYONE:
            return None
        return next((s for s in seats if actor in s.figures), None)

    def names_of(self, state: State, viewer: str = PUBLIC) -> Names:
        """The names on the table as ``viewer`` may see them (a secret's name is not among them)."""
        if not self.provides("names"):
            return Names()
        seen = self.view(state, viewer)
        names = self.names(seen.state(state))  # type: ignore[operator]
        kept = [n for n in names.all() if seen.text(n) == n]
        return Names(*(tuple(n for n in group if n in kept) for group in (names.heroes, names.monsters, names.items)))

    def is_draw(self, event: dict[str, Any], payload: dict[str, Any]) -> bool:
        """Whether a roll ``payload`` of ``event`` is a draw from a cup or a deck (not a die)."""
        return self.draws.is_draw(event, payload) if isinstance(self.draws, Draws) else False

    def words_of(self) -> Words:
        """The game's words for its own actions (none where it has no action of its own)."""
        return self.words if isinstance(self.words, Words) else NONE

    def probe(self) -> Any:
        """A fresh probe of the game's fights for one replay (companion/export/moments.py), or None."""
        if not self.provides("moments"):
            return None
        import importlib

        module, _sep, attr = str(self.moments).partition(":")
        return getattr(importlib.import_module(module), attr)()


def _fits(kind: str, value: Any) -> bool:
    if kind == "call":
        return callable(value)
    if kind == "text":
        return isinstance(value, str) and bool(value)
    if kind == "map":
        return isinstance(value, dict)
    if kind == "lines":
        return isinstance(value, tuple) and all(isinstance(v, str) for v in value)
    if kind == "refresh":
        return isinstance(value, Refresh)
    if kind == "type":
        return isinstance(value, type)
    if kind == "secrets":
        return isinstance(value, tuple) and bool(value) and all(isinstance(v, Secret) for v in value)
    if kind == "draws":
        return isinstance(value, Draws)
    if kind == "words":
        return isinstance(value, Words)
    return False


#: One seat for a game a single player (or one table) plays.
def one_table(state: State, per_player: bool = False) -> tuple[Seat, ...]:
    """The seats of a game played at one screen: the ``table`` seat."""
    return (Seat("table", "the table"),)


def anyone(state: State, request: Request, option: str | None = None) -> str:
    """Whose step it is in a game with one seat: the table's, any step (``Game.turn``)."""
    return ANYONE
