"""What each of the Haunted Tower's one-shot commands did, in the players' words (its ``words``
member): what undo, redo, ``history`` and the page say ("Aria attacks the Gargoyle"), never
``haunted hp``. The fight's hero and monster come from the table as it stood before the command."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.contract.words import Words
from companion.i18n import N_

if TYPE_CHECKING:
    from companion.session.state import State

EVENTS = {
    "haunted hero": N_("{hero} joins the party"),
    "haunted card": N_("{hero}'s hero card corrected"),
    "haunted first": N_("who goes first, rolled"),
    "haunted fight": N_("{hero} meets the {foe}"),
    "haunted init": N_("initiative in {hero}'s fight against the {foe}"),
    "haunted attack": N_("a turn of {hero}'s fight against the {foe}"),
    "haunted run": N_("{hero} runs from the {foe}"),
    "haunted item": N_("{hero} takes the {item}"),
    "haunted drop": N_("{hero} drops the {item}"),
    "haunted give": N_("{hero} gives the {item} to {to}"),
    "haunted use": N_("{hero} uses the {item}"),
    "haunted hp": N_("{hero}'s HP {change}"),
    "haunted climb": N_("{hero} climbs the tower"),
    "haunted trade": N_("{hero} trades {pay}"),
    "haunted moved": N_("{hero} has moved this round"),
    "haunted end": N_("the game ended: {reason}"),
}


def fields(state: State, event: dict[str, Any]) -> dict[str, Any]:
    """The fight's hero and monster by name; a monster's key as its name; HP as a signed change."""
    from companion.games.haunted_tower.data.monsters import MONSTERS
    from companion.games.haunted_tower.rules import lookup

    g = lookup.game(state)
    out: dict[str, Any] = {}
    if g.fight is not None:
        out["hero"] = g.fight.hero
        out["foe"] = MONSTERS[g.fight.monster].name
    if isinstance(event.get("hero"), str):
        out["hero"] = event["hero"]
    if event.get("monster") in MONSTERS:
        out["foe"] = MONSTERS[event["monster"]].name
    if "delta" in event:
        out["change"] = f"{int(event['delta']):+d}".replace("-", "−")
    return out


WORDS = Words(events=EVENTS, fields=fields)
