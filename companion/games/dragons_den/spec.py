"""The Dragon's Den's contract (:class:`companion.contract.game.Game`): its variants, state, engine,
reducer, screens, seats and secrets (the dragon until it is revealed; the chits set aside unseen)."""

from __future__ import annotations

from typing import Any

from companion.contract.game import Draws, Game, Names, NotApplicable, Refresh, Variant
from companion.contract.secrets import ANYONE, Seat, Secret
from companion.contract.secrets import HIDDEN as NOBODY
from companion.games.dragons_den import data, engine, rules, view
from companion.games.dragons_den.engine import actions
from companion.games.dragons_den.model import HEROES, HIDDEN, OVER, SETUP, Den, Figure
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


#: Who plays the dragon (and the monsters): the dragon player's seat plays this figure.
DRAGON_PLAYER = "dragon"
#: The dragon player's steps whatever the phase: the secret draws, the look at the dragon, the countdown.
DRAGON_STEPS = frozenset(("dd.draw.dragon", "dd.draw.discard", "dd.peek", "dd.draw.countdown"))
#: The dragon player's options on a hero's menu (a look at the secret dragon).
DRAGON_OPTIONS = frozenset(("peek",))


def seats(state: State, per_player: bool = False) -> tuple[Seat, ...]:
    """The dragon player, who knows the dragon and plays the dragon and the monsters, and the heroes'
    players, who play every hero; ``per_player``: a seat a hero, once the heroes are chosen."""
    den: Den | None = state.game
    heroes = list(den.heroes) if den is not None else []
    dragon = Seat("dragon", "the dragon player", plays=(DRAGON_PLAYER,))
    if per_player:
        return (dragon, *(Seat(h.key, h.name, plays=(h.key,)) for h in heroes))
    return (dragon, Seat("heroes", "the heroes", plays=tuple(h.key for h in heroes), plural=True))


def turn(state: State, request: Any, option: str | None = None) -> str:
    """Whose step it is: the dragon player's secret draws and look, and everything on the dragon
    player's turn (the dragon, the monsters); a hero's turn is that hero's, and so are a hero's
    saving throw and Ren's Shield Spell whenever they come; the setup's questions are anyone's."""
    den: Den | None = state.game
    key = str(getattr(request, "key", ""))
    if option is not None and option in DRAGON_OPTIONS:
        return DRAGON_PLAYER
    if key in DRAGON_STEPS:
        return DRAGON_PLAYER
    if key.startswith("dd.save."):
        return key.removeprefix("dd.save.")
    if key in ("dd.shield", "dd.shield.roll"):
        return next(c.key for c in data.HEROES if "shield" in c.abilities)
    if den is None or den.phase in (SETUP, OVER):
        return ANYONE
    if den.phase == HEROES:
        return den.turn or ANYONE
    return DRAGON_PLAYER


# ---- secrets ---------------------------------------------------------------------------------------


def _dragon_kept(state: State) -> bool:
    den: Den | None = state.game
    return den is not None and den.dragon is not None and den.dragon.status == HIDDEN


def _mask_dragon(den: Den) -> None:
    """The dragon face down in the lair: a stand-in with no chit, name, health or speed."""
    if den.dragon is not None:
        den.dragon = Figure("dragon", "the dragon", "dragon", 0, 0, 0, 0, status=HIDDEN)
    den.dragon_draw = ""
    # Which chits the dragon cup still holds would name the dragon's by elimination (the longer game
    # sets none aside): its count only.
    den.cup = [0] * len(den.cup)


def _dragon_words(state: State) -> tuple[str, ...]:
    dragon = state.game.dragon
    return (dragon.name,) if dragon is not None and dragon.name else ()


def _dragon_told(state: State) -> str:
    """The dragon player's own look at the dragon face down in the lair."""
    note = rules.dragon_note(state.game)
    return (
        f"Your dragon, face down in the lair: chit {note.chit}, the {note.name}, health {note.health}, "
        f"speed {note.speed}, {note.breath_title}."
    )


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
        told=_dragon_told,
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
    turn=turn,
    secrets=SECRETS,
    draws=Draws("chits drawn from the cups: room chits, the dragon cup, the hoard", ("dd.draw.",)),
)
