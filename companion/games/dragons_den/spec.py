"""The Dragon's Den's contract (:class:`companion.contract.game.Game`): its variants, state, engine,
reducer, screens, seats and secrets (the dragon until it is revealed; the chits set aside unseen)."""

from __future__ import annotations

from typing import Any

from companion.contract.game import Draws, Game, Names, NotApplicable, Refresh, Variant
from companion.contract.secrets import HIDDEN as NOBODY
from companion.contract.secrets import Seat, Secret
from companion.games.dragons_den import engine, rules, view
from companion.games.dragons_den.engine import actions
from companion.games.dragons_den.model import HIDDEN, OVER, Den, Figure
from companion.games.dragons_den.rules import hand
from companion.games.dragons_den.words import WORDS
from companion.session.state import State


def setup(state: State) -> None:
    state.game = rules.new_den(state.meta.variants)


def names(state: State) -> Names:
    """The heroes in the den and the foes on the board (the dragon once revealed), by key as the
    ``dragon`` commands take them."""
    den: Den = state.game
    foes = [m.key for m in den.monsters_alive()]
    if den.dragon_on_board() and den.dragon is not None:
        foes.append(den.dragon.key)
    return Names(tuple(h.key for h in den.heroes_in()), tuple(foes))


def seats(state: State) -> tuple[Seat, ...]:
    """The dragon player, who knows the dragon, and the heroes' players (issue 38 gives each a page)."""
    return (Seat("dragon", "the dragon player"), Seat("heroes", "the heroes' players"))


# ---- secrets ---------------------------------------------------------------------------------------


def _dragon_kept(state: State) -> bool:
    den: Den | None = state.game
    return den is not None and den.dragon is not None and den.dragon.status == HIDDEN


def _mask_dragon(den: Den) -> None:
    """The dragon face down in the lair: a stand-in with no chit, name, health or speed."""
    if den.dragon is not None:
        den.dragon = Figure("dragon", "the dragon", "dragon", 0, 0, 0, 0, status=HIDDEN)
    den.dragon_draw = ""


def _dragon_words(state: State) -> tuple[str, ...]:
    dragon = state.game.dragon
    return (dragon.name,) if dragon is not None and dragon.name else ()


def _aside_kept(state: State) -> bool:
    den: Den | None = state.game
    return den is not None and bool(den.discards) and den.phase != OVER


def _mask_aside(den: Den) -> None:
    """The chits set aside unseen, and so which chits the dragon cup still holds: its count only."""
    den.discards = []
    den.cup = [0] * len(den.cup)


def _no_words(state: State) -> tuple[str, ...]:
    return ()


SECRETS = (
    Secret(
        what="the dragon's chit",
        holder="dragon",
        kept=_dragon_kept,
        mask=_mask_dragon,
        answers=("dd.draw.dragon",),
        words=_dragon_words,
    ),
    Secret(
        what="the dragon chits set aside",
        holder=NOBODY,
        kept=_aside_kept,
        mask=_mask_aside,
        answers=("dd.draw.discard",),
        words=_no_words,
    ),
)


def _reduce(state: State, event: dict[str, Any]) -> None:
    actions.reduce(state, event)


GAME = Game(
    name="dragons-den",
    title="D&D The Dragon's Den",
    log_title="The Dragon's Den",
    variants={
        rules.LONG: Variant(
            rules.LONG,
            "The longer game",
            "No dragon chits are set aside at setup: 11 countdown chits instead of 9 (an option the rules give).",
        ),
        rules.SHIELD_ATTACKS_ONLY: Variant(
            rules.SHIELD_ATTACKS_ONLY,
            "The Shield Spell against attacks only",
            "Ren's Shield answers a monster's successful attack but not the dragon's breath (companion's default "
            "reading lets it answer the breath too, which the rules call the dragon's attack).",
        ),
        rules.ONE_EACH: Variant(
            rules.ONE_EACH,
            "One monster and one treasure per room",
            "The dragon player separates the room chits so every room holds one monster and one treasure "
            "(an option the rules give).",
        ),
    },
    tables={},
    ways=(),
    words=WORDS,
    state_type=Den,
    setup=setup,
    play=engine.play,
    refresh=Refresh(since=1),
    reducers={actions.EVENT: _reduce},
    gamedata=NotApplicable("every rule number is in the rulebook: nothing is asked from the players' book"),
    needs=NotApplicable("no generic command needs a number from the players' book"),
    tracked=NotApplicable("the game keeps every figure's health in its own state, not in the generic trackers"),
    talisman_left=NotApplicable("no Talisman in this game"),
    guided_tallies=NotApplicable("health is the game's own (companion dragon health), not a tally"),
    lacks=hand.LACKS,
    xp_to_next=NotApplicable("heroes have no levels in this game"),
    commands="companion.games.dragons_den.cli:app",
    allows=hand.refuse,
    advise=NotApplicable("each option's odds are in its hint (an attack's chance to hit and to win)"),
    risk=NotApplicable("no option kills a hero at once by a wrong key"),
    chances=engine.chances,
    status=view.status_rows,
    board=view.board,
    controls=NotApplicable("health changes by the game's own commands (companion dragon health)"),
    hero=view.hero_line,
    moments="companion.games.dragons_den.moments:Probe",
    odds="dragons-den",
    names=names,
    seats=seats,
    secrets=SECRETS,
    draws=Draws("chits drawn from the cups: room chits, the dragon cup, the hoard", ("dd.draw.",)),
)
