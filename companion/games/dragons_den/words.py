"""What each of the Dragon's Den's one-shot commands did, in the players' words (its ``words``
member): what undo, redo, ``history`` and the page say ("Jared O'loria attacks the Goblin"), never
``dragon attack``. Figures are named from the table as it stood before the command; the dragon is
"the dragon" while its chit lies face down (its name would give it away)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.contract.words import Words
from companion.i18n import N_

if TYPE_CHECKING:
    from companion.session.state import State

EVENTS = {
    "dragon setup": N_("the den set up"),
    "dragon reveal": N_("{hero} enters room {room}: its chits revealed"),
    "dragon lair": N_("the dragon's chit turned face up"),
    "dragon move": N_("{who} moves"),
    "dragon attack": N_("{attacker} attacks {target}"),
    "dragon ability": N_("{hero} uses an ability against {target}"),
    "dragon special": N_("{monster}'s special attack"),
    "dragon breath": N_("the dragon breathes on {targets}"),
    "dragon take": N_("{hero} takes a treasure"),
    "dragon escape": N_("{hero} escapes from the den"),
    "dragon end-turn": N_("{hero}'s turn ends"),
}


def fields(state: State, event: dict[str, Any]) -> dict[str, Any]:
    """Each figure an action names, by its name (the hidden dragon as "the dragon")."""
    from companion.games.dragons_den.model import HIDDEN, Den

    den = state.game
    if not isinstance(den, Den):
        return {}

    def name(key: Any) -> str:
        figure = den.figure(str(key))
        if figure is None:
            return str(key)
        return "the dragon" if figure.kind == "dragon" and figure.status == HIDDEN else figure.name

    out: dict[str, Any] = {}
    if den.turn:
        out["hero"] = name(den.turn)
    args = event.get("args") or {}
    for key in ("attacker", "target", "hero", "who", "monster"):
        if isinstance(args.get(key), str):
            out[key] = name(args[key])
    if isinstance(args.get("targets"), list):
        out["targets"] = ", ".join(name(k) for k in args["targets"])
    if "room" in args:
        out["room"] = args["room"]
    return out


WORDS = Words(events=EVENTS, fields=fields)
