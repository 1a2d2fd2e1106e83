"""The Dark Tower's contract (:class:`companion.contract.game.Game`): every member a front end needs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.contract.game import Chance, Draws, Game, Names, NotApplicable, Refresh, Variant
from companion.contract.secrets import ANYONE, Seat
from companion.games.dark_tower import data
from companion.games.dark_tower.model import DarkTower
from companion.games.dark_tower.rules import hand
from companion.games.dark_tower.words import WORDS
from companion.i18n import N_

if TYPE_CHECKING:
    from companion.engine.requests import Engine, Request
    from companion.session.state import State


def setup(state: State) -> None:
    # The language chosen at ``companion new`` (None: English, and guided setup asks the players).
    state.game = DarkTower(lang=state.meta.lang or "en")


def play(state: State) -> Engine:
    from companion.games.dark_tower.engine import play as run

    return run(state)


def status(state: State) -> list[tuple[str, str]]:
    from companion.games.dark_tower.view import status as rows

    return rows(state)


def controls(state: State) -> list[object]:
    from companion.games.dark_tower.view import controls as made

    return made(state)


def board(state: State) -> object:
    from companion.games.dark_tower.view import board as made

    return made(state)


def chances(state: State, request: Request) -> list[Chance]:
    from companion.games.dark_tower.engine.fights import chances as shown

    return shown(state, request)


def hero(state: State) -> str | None:
    from companion.games.dark_tower.rules import cards, lookup

    g = state.game
    if not isinstance(g, DarkTower) or not g.heroes:
        return None
    return ", ".join(f"{h.player} ({cards.title(lookup.hero_card(state, h))})" for h in g.heroes)


def names(state: State) -> Names:
    """The players, the monsters on the table, the items the heroes hold (the cards' names)."""
    from companion.games.dark_tower.rules import lookup

    g: DarkTower = state.game
    monsters = tuple(lookup.name_of(state, "monster", slug) for slug in g.group)
    items = tuple(dict.fromkeys(lookup.name_of(state, "item", i.card) for h in g.heroes for i in h.items))
    return Names(tuple(h.player for h in g.heroes), monsters, items)


def seats(state: State, per_player: bool = False) -> tuple[Seat, ...]:
    """One seat a player once the players are known (each its own page); the table before."""
    g = state.game
    if not isinstance(g, DarkTower) or not g.heroes:
        return (Seat("table", "the table"),)
    return tuple(Seat(h.player, h.player) for h in g.heroes)


def turn(state: State, request: Request, option: str | None = None) -> str:
    """Whose step it is: every step of a turn is the player's whose turn it is (the card drawn, the
    check, the fight and its helpers, the trades at its end); the setup's are anyone's."""
    g = state.game
    if not isinstance(g, DarkTower) or g.phase in ("setup", "over") or not g.heroes:
        return ANYONE
    return g.heroes[g.turn].player if 0 <= g.turn < len(g.heroes) else ANYONE


def _reduce(state: State, event: dict) -> None:
    from companion.games.dark_tower.rules.events import reduce

    reduce(state, event)


GAME = Game(
    name="dark-tower",
    title=N_("Dark Tower (Тёмная Башня)"),
    log_title=N_("Dark Tower"),
    variants={
        data.FIXED_MONSTERS: Variant(
            data.FIXED_MONSTERS,
            "A fixed number of monsters per floor",
            "Reads 'по 4 монстра, 1 препятствию на каждого участника' as 4 monsters on floor 1 (3 on floors 2 "
            "and 3) whatever the number of players; only the obstacles and items scale with the players.",
        )
    },
    tables={},
    ways=(),
    words=WORDS,
    state_type=DarkTower,
    setup=setup,
    play=play,
    refresh=Refresh(),
    reducers={"dark": _reduce},
    gamedata=NotApplicable("the cards the players enter are answers in play, kept in their catalogue"),
    needs=NotApplicable("no generic command needs a number from the players' cards"),
    tracked=NotApplicable("the game keeps every figure in its own state, not in the generic trackers"),
    talisman_left=NotApplicable("no Talisman in this game"),
    guided_tallies=NotApplicable("health is the game's own (companion dark health), not a tally"),
    lacks=hand.LACKS,
    xp_to_next=NotApplicable("heroes have no levels in this game"),
    commands="companion.games.dark_tower.cli:app",
    allows=hand.refuse,
    advise=NotApplicable("the odds are in each request's own lines and its options' hints"),
    risk=NotApplicable("no choice kills a hero by a wrong key: a fight's roll decides"),
    chances=chances,
    status=status,
    board=board,
    controls=controls,
    hero=hero,
    moments="companion.games.dark_tower.moments:Probe",
    odds="dark-tower",
    names=names,
    seats=seats,
    turn=turn,
    secrets=NotApplicable("a co-operative game: every card drawn is played face up"),
    draws=Draws("cards drawn from the decks, and items picked at random", ("pick.", "lose.item")),
)
