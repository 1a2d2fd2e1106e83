"""The Dark Tower's rules for turns and floors: a turn's start and end, going up, the deck counts,
the quest done, and the end of the game.

Plain Python on the state, shared by guided play and the one-shot commands: see :mod:`.lookup`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.errors import InputError
from companion.games.dark_tower import data
from companion.games.dark_tower.rules import cards as C
from companion.games.dark_tower.rules.items import over_limit
from companion.games.dark_tower.rules.lookup import (
    bump,
    deck_text,
    game,
    group_text,
    hero_card,
    lang,
    name_of,
    require_phase,
    t,
    waiting_for,
)
from companion.i18n import _, ngettext

if TYPE_CHECKING:
    from companion.session.state import State


def floor_heading(state: State) -> None:
    g = game(state)
    state.log.heading(_("Floor {n}").format(n=g.floor))
    state.log.text(_("Deck: {cards}.").format(cards=deck_text(g.deck(), lang(state))), under=False)


def begin_turn(state: State) -> None:
    g = game(state)
    g.turns += 1
    hero = g.current()
    for held in hero.items:
        held.fresh = False  # traded items are usable from their new owner's next turn
    state.log.line(f"turn-{g.turns}", _("Turn {n} · {player}").format(n=g.turns, player=hero.player))
    bump(g, "fight" if g.group else "draw")
    if g.group:
        state.log.text(
            ngettext(
                "{player} must fight {monsters} first.", "{player} must fight {monsters} first.", len(g.group)
            ).format(player=hero.player, monsters=group_text(state))
        )


def end_turn(state: State) -> None:
    """Pass the turn: items over the class limit must be gone, energy fades, a cleared floor is left."""
    g = require_phase(state, "end", doing=_("end the turn"))
    if g.owed:
        raise InputError(
            _("{player} must first discard a random item (companion dark lose)").format(
                player=g.heroes[g.owed[0]].player
            )
        )
    extra = over_limit(state)
    if extra:
        i, cls, items = extra[0]
        names = ", ".join(name_of(state, "item", s) for s in items)
        raise InputError(
            _(
                "{player} holds {n} items of class {cls} ({names}): "
                "discard down to {limit} first (companion dark discard PLAYER ITEM)"
            ).format(
                player=g.heroes[i].player,
                n=len(items),
                cls=C.class_name(cls, lang(state)),
                names=names,
                limit=data.ITEMS_PER_CLASS,
            )
        )
    pass_turn(state)


def pass_turn(state: State) -> None:
    """The turn passes: energy fades, a cleared floor is left, the next standing hero begins."""
    g = game(state)
    for hero in g.heroes:
        hero.energy = 0
    state.log.close()
    if not g.group and g.deck().left == 0 and g.floor < data.FLOORS:
        enter_next_floor(state)
    living = g.living()
    if not living:
        return
    n = len(g.heroes)
    for k in range(1, n + 1):
        nxt = (g.turn + k) % n
        if g.heroes[nxt].alive:
            g.turn = nxt
            break
    begin_turn(state)


def pass_if_fallen(state: State) -> None:
    """A hero who falls on their own turn plays no more of it: the turn passes to the next standing hero
    at once ("обязательно останьтесь в живых"; the fallen are out). A random item a standing helper owes
    is discarded first (``companion dark lose``), and then the turn passes."""
    g = game(state)
    if state.finished or g.phase in ("setup", "over") or g.current().alive or g.owed:
        return
    state.log.text(_("The turn passes: a fallen hero plays no more of it."))
    pass_turn(state)


def enter_next_floor(state: State, *, force: bool = False) -> None:
    """The heroes go up: every living hero rises to the new floor's level and learns its spells."""
    g = game(state)
    if g.phase in ("setup", "over"):
        raise InputError(_("cannot {doing} now: {waiting}").format(doing=_("go up"), waiting=waiting_for(state)))
    if g.floor >= data.FLOORS:
        raise InputError(_("floor {n} is the top of the tower").format(n=data.FLOORS))
    if g.group:
        raise InputError(_("{monsters} must be beaten before the heroes go up").format(monsters=group_text(state)))
    if g.deck().left and not force:
        raise InputError(
            ngettext(
                "floor {floor} still has {n} card ({cards}); add --force to go up anyway",
                "floor {floor} still has {n} cards ({cards}); add --force to go up anyway",
                g.deck().left,
            ).format(floor=g.floor, n=g.deck().left, cards=deck_text(g.deck()))
        )
    g.floor += 1
    floor_heading(state)
    for hero in g.heroes:
        if hero.fallen:
            continue
        hero.level = min(data.MAX_LEVEL, g.floor)
        new = [s for s in hero_card(state, hero).spells if s.level == hero.level]
        learnt = "; ".join(C.spell_text(s, lang(state)) for s in new)
        line = _("{player} rises to level {n}: {spells}.") if learnt else _("{player} rises to level {n}.")
        state.log.text(line.format(player=hero.player, n=hero.level, spells=learnt))
    g.step += 1


def set_deck(state: State, floor: int, counts: tuple[int, int, int]) -> None:
    """Correct a deck's counts to what the table really has (a miscounted deck, a card's own text)."""
    g = game(state)
    if not g.decks:
        raise InputError(_("the decks are built when the game starts"))
    if not 1 <= floor <= data.FLOORS or min(counts) < 0:
        raise InputError(_("floor 1 to {n}, and counts of 0 or more").format(n=data.FLOORS))
    deck = g.decks[floor - 1]
    deck.monsters, deck.obstacles, deck.items = counts
    state.log.text(_("Floor {n} deck set to {cards}.").format(n=floor, cards=deck_text(deck, lang(state))))
    g.step += 1
    if g.phase in ("draw", "end"):
        settle(state)  # an emptied top floor with no monster left is the end of the tower


def quest_done(state: State) -> None:
    g = game(state)
    if g.phase in ("setup", "over"):
        raise InputError(
            _("cannot {doing} now: {waiting}").format(doing=_("finish the quest"), waiting=waiting_for(state))
        )
    if g.quest is None:
        raise InputError(_("this game has no quest; win by beating every monster"))
    if not g.living():
        raise InputError(_("every hero has fallen"))
    state.log.text(_("The quest is done: {quest}.").format(quest=name_of(state, "quest", g.quest)), under=False)
    _finish(state, "won")


def settle(state: State) -> None:
    """End the game when it is decided: every hero fallen, or every monster in the tower beaten; else a
    hero who fell on their own turn passes it."""
    g = game(state)
    if not g.living():
        state.log.text(_("Every hero has fallen."), under=False)
        _finish(state, "lost")
        return
    if g.floor == data.FLOORS and not g.group and g.obstacle is None and g.deck().left == 0:
        survivors = ", ".join(g.heroes[i].player for i in g.living())
        state.log.text(
            _("Every monster in the tower is beaten. Standing: {players}.").format(players=survivors), under=False
        )
        _finish(state, "won")
        return
    pass_if_fallen(state)


def _finish(state: State, result: str) -> None:
    g = game(state)
    bump(g, "over")
    state.finished = result
    state.log.text(_("The end: {result}.").format(result=t(state, result)), under=False)
