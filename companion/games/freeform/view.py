"""A freeform session at a glance, for the shell's bar: a table pack's fight in progress (yours and the
foe's numbers, its round) and the session's other trackers. Without a fight there is no board, and the
bar shows the session's figures as ``companion status`` lists them."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.engine.board import Board
    from companion.session.state import State


def board(state: State) -> Board | None:
    from companion.engine.board import Board, Figure
    from companion.i18n import _

    fight = state.trackers.fight
    if fight is None:
        return None
    counters = state.trackers.counters

    def shown(label: str, value: int, top: int | None) -> str:
        return f"{label} {value}/{top}" if top is not None else f"{label} {value}"

    mine = [(key, label) for key, label in fight.yours.items() if key in counters]
    you = Figure(
        _("you"),
        shown(mine[0][1], counters[mine[0][0]].value, counters[mine[0][0]].max) if mine else "",
        " ".join(f"{label} {counters[key].value}" for key, label in mine[1:]),
        turn=True,
    )
    theirs = sorted(fight.values, key=lambda k: k not in fight.bounds)
    foe = Figure(
        fight.foe,
        shown(fight.labels[theirs[0]], fight.values[theirs[0]], fight.maxes.get(theirs[0])) if theirs else "",
        " ".join(f"{fight.labels[k]} {fight.values[k]}" for k in theirs[1:]),
    )
    rest = []
    for key, c in counters.items():
        if key in fight.yours:
            continue
        label = c.label or (key.upper() if len(key) <= 3 else key.capitalize())
        rest.append(shown(label, c.value, c.max))
    return Board(
        fight=(you, foe),
        fight_title=_("{title}, round {n}").format(title=fight.title, n=fight.rounds + 1),
        rest=tuple(rest),
    )
