"""The Haunted Tower's contract (:class:`companion.contract.game.Game`): every member a front end needs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.contract.game import Chance, Game, Names, NotApplicable, Refresh, Variant
from companion.contract.secrets import ANYONE, Seat
from companion.games.haunted_tower.data import DEAD_SCORE, RUN_FAIL_TURN, SPECTER_UNDEAD
from companion.games.haunted_tower.model import HauntedTower
from companion.games.haunted_tower.rules import hand
from companion.games.haunted_tower.words import WORDS

if TYPE_CHECKING:
    from companion.engine.requests import Engine, Request
    from companion.session.state import State

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant(
            RUN_FAIL_TURN,
            "A failed run-away only loses the hero's attack",
            "The rulebook says that after a failed run-away 'the monster now gets its attack roll'. By default, "
            "when the monster has already attacked in that round, it attacks once more at once; with this "
            "variant it attacks only on its next turn.",
        ),
        Variant(
            SPECTER_UNDEAD,
            "The specter counts as undead",
            "The monster listing does not mark the Specter of Sir Jameson as undead; with this variant hero "
            "abilities against the undead work on it.",
        ),
        Variant(
            DEAD_SCORE,
            "Heroes out of the game still score",
            "By default a hero who died twice is out of the game and out of the score; with this variant "
            "the chits and stand-ups they won still count.",
        ),
    )
}


def setup(state: State) -> None:
    state.game = HauntedTower()


# The rules load when a session of this game is played or changed, not when ``companion haunted
# --help`` or the root help lists the command group: these thin functions import them then.


def play(state: State) -> Engine:
    from companion.games.haunted_tower.engine import play as run

    return run(state)


def reduce(state: State, event: dict[str, Any]) -> None:
    from companion.games.haunted_tower.rules.events import reduce as fold

    fold(state, event)


def advise(state: State, request: Request) -> list[str]:
    """The exact odds of the whole fight before the hero decides (computed only when shown)."""
    if request.key != "fight.turn" or state.game is None or state.game.fight is None:
        return []
    from companion.games.haunted_tower.view import fight_advice

    return fight_advice(state)


def chances(state: State, request: Request) -> list[Chance]:
    """At a hero's turn in a fight, the two ways shown with odds: the attack with the best chance to win
    a duel to the end (the one the whole-fight odds are shown for, listed first), and running away now
    (its chance to get away, the odds "Run away now" shows). The best is the higher: a hopeless attack
    is never starred over an escape."""
    if request.key != "fight.turn" or state.game is None or state.game.fight is None:
        return []
    from companion.games.haunted_tower import odds as O
    from companion.games.haunted_tower.rules import lookup
    from companion.games.haunted_tower.view import best_weapon, duel_for

    _f, hero, monster = lookup.fighting(state)
    weapon = best_weapon(state, hero, monster)
    return [
        Chance(f"attack:{weapon.name if weapon else ''}", duel_for(state, weapon).win),
        Chance("run", O.run_chance(monster.att), of="get away"),
    ]


def status(state: State) -> list[tuple[str, object]]:
    from companion.games.haunted_tower.view import status_rows

    return status_rows(state)


def controls(state: State) -> list[object]:
    from companion.games.haunted_tower.view import controls as made

    return made(state)


def board(state: State) -> object:
    from companion.games.haunted_tower.view import board as made

    return made(state)


def hero_line(state: State) -> str | None:
    heroes = state.game.heroes if state.game else []
    return ", ".join(h.name for h in heroes) or None


def names(state: State) -> Names:
    """The heroes, the monster listing (by key, as the commands take it), the items the heroes hold."""
    from companion.games.haunted_tower.data.monsters import MONSTERS

    g: HauntedTower = state.game
    items = tuple(dict.fromkeys(i.name for h in g.heroes for i in h.items))
    return Names(tuple(h.name for h in g.heroes), tuple(m.key for m in MONSTERS.values()), items)


def seats(state: State, per_player: bool = False) -> tuple[Seat, ...]:
    """One seat a hero once the heroes are known (each its own page); the table before."""
    heroes = state.game.heroes if state.game else []
    if not heroes:
        return (Seat("table", "the table"),)
    return tuple(Seat(h.name, h.name) for h in heroes)


#: A fight's steps that are its hero's: the hero's initiative, turn, attack and run.
HERO_STEPS = frozenset(("fight.initiative.hero", "fight.turn", "fight.hero-attack", "fight.run"))
#: A fight's steps that are the monster's player's (the hero on its hero's right): its initiative,
#: attack, hit table and what it takes.
MONSTER_STEPS = frozenset(("fight.initiative.monster", "fight.monster-attack", "fight.table", "fight.pick"))


def turn(state: State, request: Request, option: str | None = None) -> str:
    """Whose step it is: in a fight, the hero's own rolls and turn are the hero's, and the monster's are
    its player's ("any monster attacks against a hero are handled by the player to his or her
    right"); each roll of a roll-off is its hero's; the table's menu and what it leads to are anyone's."""
    from companion.games.haunted_tower.rules import lookup

    g = state.game
    key = request.key
    if not isinstance(g, HauntedTower):
        return ANYONE
    if key == "order.roll":
        why = getattr(request, "why", "")
        return next((name for name in g.rolloff if why.endswith(f": {name}")), ANYONE)
    if g.fight is None or key not in HERO_STEPS | MONSTER_STEPS:
        return ANYONE
    hero = next((h for h in g.heroes if h.name == g.fight.hero), None)
    if hero is None:
        return ANYONE
    if key in HERO_STEPS:
        return hero.name
    player = lookup.right_of(g, hero)
    return (player or hero).name


GAME = Game(
    name="haunted-tower",
    title="D&D The Haunted Tower",
    log_title="D&D: The Haunted Tower",
    variants=VARIANTS,
    tables={},
    ways=(),
    words=WORDS,
    state_type=HauntedTower,
    setup=setup,
    play=play,
    refresh=Refresh(),
    reducers={"haunted": reduce},
    gamedata=NotApplicable("every rule number is in the rulebook: nothing is asked from the player's book"),
    needs=NotApplicable("no generic command needs a number from the players' book"),
    tracked=NotApplicable("the game keeps every figure's health in its own state, not in the generic trackers"),
    talisman_left=NotApplicable("no Talisman in this game"),
    guided_tallies=NotApplicable("health is the game's own (companion haunted hp), not a tally"),
    lacks=hand.LACKS,
    xp_to_next=NotApplicable("heroes have no levels in this game"),
    commands="companion.games.haunted_tower.cli:app",
    allows=hand.refuse,
    advise=advise,
    risk=NotApplicable("the whole-fight odds are shown before the hero decides; no key is refused twice"),
    chances=chances,
    status=status,  # type: ignore[arg-type]
    board=board,
    controls=controls,
    hero=hero_line,
    moments="companion.games.haunted_tower.moments:Probe",
    odds="haunted-tower",
    names=names,
    seats=seats,
    turn=turn,
    secrets=NotApplicable("every chit and stand-up is face up on the board"),
    draws=NotApplicable("the players draw the chits from the board; every roll companion makes is a die"),
)
