"""Guided play of the Dark Tower: the table's turn-by-turn menu, as an engine generator.

This module is the loop; each step is a module of this folder: ``setup``, ``draw`` (the top
card), ``fights`` (a check or a fight), ``end`` (the end of a turn), over ``cards``
(card menus and entry) and ``asks`` (the small requests they share).

The engine asks (Choices, Numbers, Texts, Rolls) and calls the ``rules/`` modules with the answers; it never
rolls, prints or reads the clock. It reads the game's ``phase`` fresh at the top of every step, so a
one-shot command run between two answers (``companion dark ...``) is simply where the next step
starts; a step that notices the game moved on under it (``game.step`` changed) gives up and lets the
loop start the step the game is in now.

Random picks come from the session's dice through the protocol: ``1dN`` picks one of N cards (a
random starting item, a quest, the next card of a deck when companion draws, the item a monster
takes), and the shell answers it with virtual dice or the number the players rolled or picked.

Request keys (a replay checks them): ``setup.lang``, ``setup.cards``, ``setup.more``, ``setup.player``,
``setup.first``, ``setup.decks``, ``card.<kind>`` (pick a card), ``card.<kind>.<field>`` and
``data.<kind>`` (enter a new card; the ``data.`` answer puts it in the catalogue), ``pick.<what>``
(a 1dN pick), ``turn.card``, ``draw.floor``, ``draw.group``, ``draw.summon``, ``fight.help``, ``fight.use``,
``fight.condition``, ``fight.roll``, ``fight.cast``, ``check.use``, ``check.roll``, ``lose.item``,
``end.menu``, ``end.discard``, ``end.to``, ``trade.*``, ``health.*``.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from companion.engine.requests import REFRESH, Choice
from companion.games.dark_tower.engine.asks import Flow
from companion.games.dark_tower.engine.cards import CARD_MENUS
from companion.games.dark_tower.engine.draw import draw_step
from companion.games.dark_tower.engine.end import end_step
from companion.games.dark_tower.engine.fights import check_step, fight_step
from companion.games.dark_tower.engine.setup import setup as setup_step
from companion.games.dark_tower.rules.lookup import game

if TYPE_CHECKING:
    from companion.session.state import State


STEPS = {"setup": setup_step, "draw": draw_step, "obstacle": check_step, "fight": fight_step, "end": end_step}


def play(state: State) -> Flow:
    while not state.finished:
        step = STEPS.get(game(state).phase)
        if step is None:
            return
        yield from refreshed(state, step(state))


def refreshed(state: State, flow: Flow) -> Flow:
    """Run one step, answering :data:`REFRESH` (a one-shot command changed the table) for it.

    The fold sends ``REFRESH`` instead of an answer when a one-shot event (``companion dark ...``)
    is folded while a request waits (``Game.refresh``). If the event changed the table (the game's
    state: a card drawn, a trade, a hero's health, a deck count), the step is dropped and the loop asks
    again from the fresh state, so the player's next answer goes to a question built from what is on the
    table now. If it changed only the card catalogue (``companion dark card``), the question keeps its
    place, and a card menu is asked again with the new card in it.
    """
    try:
        request = next(flow)
    except StopIteration as stop:
        return stop.value
    while True:
        table = copy.deepcopy(game(state))
        answer = yield request
        while answer is REFRESH:
            if state.finished or game(state) != table:
                flow.close()
                return None
            if isinstance(request, Choice) and request.key in CARD_MENUS:
                try:
                    request = flow.send(REFRESH)
                except StopIteration as stop:  # pragma: no cover - a card menu always asks again
                    return stop.value
            answer = yield request
        try:
            request = flow.send(answer)
        except StopIteration as stop:
            return stop.value
