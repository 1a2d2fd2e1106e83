"""The page's +/- buttons: each a figure a player changes by hand, with the one-shot command words of
a step down and a step up (:class:`companion.engine.board.Control`).

The table's own trackers give theirs here (HP, gold and XP as ``companion hp|gold|xp ±1``, each item
as ``companion item NAME ±1``, each tally as ``companion tally hit|heal NAME``); a game adds those of
its own figures (``Game.controls``: a hero's health through the game's command). A tap runs the
words as typed, so a game that refuses a change by hand (guided play keeps the tallies) refuses it on
the page too, with its own line; where a game closes a way for good, it has no button.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.contract.secrets import PUBLIC
from companion.engine.board import Control
from companion.i18n import _

if TYPE_CHECKING:
    from companion.engine.board import Board
    from companion.session.service import Session

#: The counters with a command of their own, in the order shown.
COUNTERS = ("hp", "gold", "xp")


def controls(session: Session, board: Board | None = None, viewer: str = PUBLIC) -> list[Control]:
    """Every +/- button of the table: the game's own figures first (as ``viewer`` may see them), then the
    trackers (shown with the hero on a table of one hero, where they are that hero's)."""
    spec, state = session.spec, session.state
    out: list[Control] = spec.controls_of(state, viewer)
    t = state.trackers
    owner = board.heroes[0].name if board is not None and len(board.heroes) == 1 and not out else ""
    for name in COUNTERS:
        c = t.counters.get(name)
        if name in spec.lacks or c is None:
            continue
        label = c.label or (_("HP") if name == "hp" else _("gold") if name == "gold" else _("XP"))
        value = f"{c.value}/{c.max}" if c.max is not None else str(c.value)
        minus = (name, "-1") if c.value > 0 else ()
        out.append(Control(f"counter:{name}", label, value, minus, (name, "+1"), who=owner))
    for item, n in t.items.items():
        minus = ("item", "--", item, "-1") if n > 0 else ()
        out.append(Control(f"item:{item}", item, str(n), minus, ("item", "--", item, "+1"), who=owner))
    guided = spec.keeps_tallies(state)
    for tally in t.tallies.values():
        if tally.monster:
            value = _("{hits} of {max} hits").format(hits=tally.hits, max=tally.max_hits)
            down, up = ("tally", "heal", tally.name), ("tally", "hit", tally.name)
            down_ok, up_ok = tally.hits > 0, not tally.slain
        else:
            value = _("{left} of {max} left").format(left=tally.left, max=tally.max_hits)
            down, up = ("tally", "hit", tally.name), ("tally", "heal", tally.name)
            down_ok, up_ok = not tally.slain, tally.hits > 0
        if guided:  # the rules keep them: shown, not changed by hand
            down_ok = up_ok = False
        out.append(
            Control(
                f"tally:{tally.name}",
                _("hits") if tally.monster else _("left"),
                value,
                down if down_ok else (),
                up if up_ok else (),
                who=tally.name,
            )
        )
    return out
