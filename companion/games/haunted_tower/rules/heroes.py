"""The Haunted Tower's heroes: hero cards checked and corrected, heroes joining, and who goes first.

One implementation of the rules for guided play and the one-shot commands: see :mod:`.lookup`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.errors import InputError
from companion.games.haunted_tower import data as D
from companion.games.haunted_tower.data.monsters import HITS
from companion.games.haunted_tower.model import Card, HauntedTower, Hero
from companion.games.haunted_tower.rules.lookup import find_hero, game, living, norm
from companion.i18n import possessive

if TYPE_CHECKING:
    from companion.session.state import State


def check_card(card: Card) -> None:
    if not card.name.strip():
        raise InputError("a hero needs a name")
    for label, value, lo, hi in (
        ("speed", card.speed, 0, 30),
        ("hit points", card.hp, 1, 99),
        ("attack number", card.attack, -9, 30),
        ("armor class", card.ac, 0, 40),
    ):
        if not lo <= value <= hi:
            raise InputError(f"{possessive(card.name)} {label} {value} is out of range ({lo} to {hi})")
    if card.bonus.vs not in ("all", "undead"):
        raise InputError(f"an ability bonus applies against 'all' or 'undead', not {card.bonus.vs!r}")
    for h in card.bonus.hits:
        if h not in HITS:
            raise InputError(f"{h!r} is not one of: {', '.join(HITS)}")
    for kind, n in card.limits.items():
        if kind not in D.LIMITS or not 0 <= n <= 9:
            raise InputError(f"a limit is a count from 0 to 9 for armor, weapon or shield, not {kind}={n}")


def add_hero(state: State, card: Card) -> Hero:
    g = game(state)
    check_card(card)
    if any(norm(h.name) == norm(card.name) for h in g.heroes):
        raise InputError(f"{card.name} is already in this game")
    if len(g.heroes) >= D.MAX_PLAYERS:
        raise InputError(f"the Haunted Tower is played by {D.MIN_PLAYERS} to {D.MAX_PLAYERS} heroes, no more")
    if g.phase == "over":
        raise InputError("the game is over")
    hero = Hero(name=card.name.strip(), card=card, hp=card.hp, seat=len(g.heroes))
    g.heroes.append(hero)
    state.log.text(
        f"{hero.name} joins: speed {card.speed}, HP {card.hp}, Att {card.attack}, AC {card.ac}"
        + (f"; {card.ability}" if card.ability else "")
        + (f" ({card.bonus.text()})" if card.bonus.any() else ""),
        under=False,
    )
    return hero


def update_card(state: State, card: Card) -> None:
    """A corrected hero card: the hero in play (if any) takes the new numbers; HP keeps its wounds."""
    check_card(card)
    g = game(state)
    for hero in g.heroes:
        if norm(hero.name) == norm(card.name):
            wounds = hero.card.hp - hero.hp
            hero.card = card
            hero.hp = max(0 if hero.out else 1, card.hp - wounds)
            state.log.text(
                f"{possessive(hero.name)} card corrected: HP {hero.hp}/{card.hp}, Att {card.attack}, AC {card.ac}."
            )


def check_ready(g: HauntedTower) -> None:
    if g.phase == "over":
        raise InputError("the game is over (companion haunted score shows the final score)")
    if len(g.heroes) < D.MIN_PLAYERS:
        raise InputError(
            f"the Haunted Tower is played by {D.MIN_PLAYERS} to {D.MAX_PLAYERS} heroes; add "
            f"{D.MIN_PLAYERS - len(g.heroes)} more with: companion haunted hero NAME"
        )


def start_rolloff(state: State, purpose: str) -> None:
    g = game(state)
    check_ready(g)
    if purpose not in ("placement", "round"):
        raise InputError(f"unknown roll {purpose!r}")
    if g.fight is not None:
        raise InputError("finish the fight first")
    g.rolloff = [h.name for h in living(g)]
    g.rolloff_for = purpose
    if not g.dealt:
        g.dealt = len(g.rolloff)
        state.log.text(f"{g.dealt} players: each draws {D.BLUE_CHITS[g.dealt]} blue chits.", under=False)


def order_roll(state: State, faces: list[int]) -> str | None:
    """1d10 for each hero still rolling (seat order); the highest goes first, a tie at the top rolls again.

    Returns the winner, or None when tied heroes must roll again.
    """
    g = game(state)
    if not g.rolloff:
        raise InputError("nobody is rolling for who goes first")
    if len(faces) != len(g.rolloff):
        raise InputError(f"give one 1d10 face for each of {', '.join(g.rolloff)} ({len(g.rolloff)} faces)")
    for face in faces:
        if not 1 <= face <= D.D10:
            raise InputError(f"{face} is not a face of 1d10")
    results = dict(zip(g.rolloff, faces, strict=True))
    top = max(faces)
    tied = [name for name, face in results.items() if face == top]
    if len(tied) > 1:
        g.rolloff = tied
        state.log.text(f"Tie at {top} between {' and '.join(tied)}: they roll again.")
        return None
    winner = tied[0]
    seats = [h.name for h in living(g)]
    start = seats.index(winner)
    order = seats[start:] + seats[:start]
    purpose = g.rolloff_for
    g.rolloff = []
    g.rolloff_for = ""
    if purpose == "placement":
        state.log.text(f"{winner} rolled highest ({top}) and places the first chit; then {', '.join(order[1:])}.")
        return winner
    g.phase = "play"
    g.round += 1
    g.order = order
    for hero in g.heroes:
        if hero.held_round is not None and g.round > hero.held_round + 1:
            hero.held_round = None
    state.log.heading(f"Round {g.round}")
    state.log.text(f"{winner} rolled highest ({top}) and goes first; order: {', '.join(order)}.")
    return winner


def moved(state: State, name: str) -> None:
    """The ghoul-bitten hero has sat out the move it lost."""
    hero = find_hero(game(state), name)
    if hero.held_round is None:
        raise InputError(f"{hero.name} has no move to sit out")
    hero.held_round = None
    state.log.text(f"{hero.name} sat out the move the ghoul took; free to move again.")
