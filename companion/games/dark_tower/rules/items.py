"""The Dark Tower's rules for items: taking them, the ones a hero can use in a roll, single-use items,
the random item a monster takes, discards, trades and the limit of one item of a class.

Plain Python on the state, shared by guided play and the one-shot commands: see :mod:`.lookup`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.errors import InputError
from companion.games.dark_tower import data
from companion.games.dark_tower.model import Held
from companion.games.dark_tower.rules import cards as C
from companion.games.dark_tower.rules.lookup import game, item_card, lang, name_of, require_phase, waiting_for, word
from companion.i18n import _, ngettext, owned

if TYPE_CHECKING:
    from companion.session.state import State


def class_refusal(state: State, who: int, item: str, *, verb: str = "take") -> str | None:
    """Why ``who`` cannot hold ``item`` too: they hold another of its class (one of each, the text says:
    «Предметов каждого класса, можно иметь только по 1»). None when they can."""
    hero = game(state).heroes[who]
    cls = item_card(state, item).cls
    if not cls:
        return None
    for held in hero.items:
        if held.card != item and item_card(state, held.card).cls == cls:
            held_name = name_of(state, "item", held.card)
            line = (
                _(
                    "{player} already holds {held} ({cls}): one item of each class; to take {item}, "
                    "discard it first: companion dark discard {player_arg} {held_arg}"
                )
                if verb == "take"
                else _(
                    "{player} already holds {held} ({cls}): one item of each class; to pick up {item}, "
                    "{player} discards it first: companion dark discard {player_arg} {held_arg}"
                )
            )
            return line.format(
                player=hero.player,
                cls=C.class_name(cls, lang(state)).lower(),
                held=held_name,
                item=name_of(state, "item", item),
                player_arg=word(hero.player),
                held_arg=word(held_name),
            )
    return None


def check_take(state: State, who: int, item: str, *, limit: bool = True) -> None:
    """Refuse an item a hero cannot take: a fallen hero takes nothing, each card is in the game once, and
    (``limit``) one item of each class. A drawn item card is taken whatever its class (``limit=False``):
    "если это Предмет – возьмите себе!", and the extra is discarded before the turn passes."""
    g = game(state)
    hero = g.heroes[who]
    if hero.fallen:
        raise InputError(
            _("{player} has fallen: a fallen hero takes no items (their cards stay with them)").format(
                player=hero.player
            )
        )
    for other in g.heroes:
        if any(held.card == item for held in other.items):
            line = (
                _("{player} already holds {item}: each card is in the game once")
                if other is hero
                else _("{other} holds {item}: each card is in the game once")
            )
            raise InputError(line.format(player=hero.player, other=other.player, item=name_of(state, "item", item)))
    refusal = class_refusal(state, who, item) if limit else None
    if refusal:
        raise InputError(refusal)


def gain_item(
    state: State, who: int, item: str, *, fresh: bool = False, how: str = "takes", limit: bool = True
) -> None:
    g = game(state)
    hero = g.heroes[who]
    card = item_card(state, item)
    check_take(state, who, item, limit=limit)
    hero.items.append(Held(item, fresh))
    later = _(" (usable from their next turn)") if fresh else ""
    text = C.describe(card, lang(state))
    if how == "takes":
        line = _("{player} takes {item}{later}.")
    elif how == "gets":
        line = _("{player} gets {item}{later}.")
    else:  # a word a saved event kept as it was typed
        line = "{player} " + how + " {item}{later}."
    state.log.text(line.format(player=hero.player, item=text, later=later))


def usable_items(state: State, who: int, ignores: frozenset[str] = frozenset()) -> list[tuple[Held, C.ItemCard]]:
    """The items a hero can use now: not fresh from a trade, and not of a class the monster ignores."""
    hero = game(state).heroes[who]
    out = []
    for held in hero.items:
        if held.fresh:
            continue
        card = item_card(state, held.card)
        if card.cls and card.cls in ignores:
            continue
        out.append((held, card))
    return out


def single_use(state: State, who: int, ignores: frozenset[str] = frozenset()) -> list[str]:
    """The single-use items a hero may choose to use in this roll (slugs)."""
    return [held.card for held, card in usable_items(state, who, ignores) if card.single]


def check_use(state: State, who: int, use: list[str], ignores: frozenset[str] = frozenset()) -> None:
    allowed = single_use(state, who, ignores)
    for item in use:
        if item not in allowed:
            raise InputError(
                _("{item} is not a single-use item {player} can use now").format(
                    item=name_of(state, "item", item), player=game(state).heroes[who].player
                )
            )


def extra_dice(state: State, who: int, use: list[str], ignores: frozenset[str] = frozenset()) -> list[str]:
    """The "+1 кубик" items that add a die to this hero's roll (single-use ones only when used)."""
    return [
        held.card
        for held, card in usable_items(state, who, ignores)
        if card.die and (not card.single or held.card in use)
    ]


def spend_single(state: State, who: int, use: list[str]) -> None:
    hero = game(state).heroes[who]
    for item in use:
        for i, held in enumerate(hero.items):
            if held.card == item:
                del hero.items[i]
                state.log.text(
                    _("{player} used up {item} (single use).").format(
                        player=hero.player, item=name_of(state, "item", item)
                    )
                )
                break


def lose_item(state: State, who: int, index: int) -> str:
    """The hero owed to a monster that takes an item loses the ``index``-th item they hold (0-based)."""
    g = game(state)
    if who not in g.owed:
        raise InputError(_("{player} owes no item").format(player=g.heroes[who].player))
    hero = g.heroes[who]
    if not 0 <= index < len(hero.items):
        raise InputError(
            ngettext(
                "{player} holds {n} item; pick 1 to {n}", "{player} holds {n} items; pick 1 to {n}", len(hero.items)
            ).format(player=hero.player, n=len(hero.items))
        )
    held = hero.items.pop(index)
    g.owed.remove(who)
    g.step += 1
    from companion.games.dark_tower.rules.lookup import monster_card

    takers = [m for m in g.group if monster_card(state, m).takes_item]
    item = name_of(state, "item", held.card)
    if takers:  # the monster on the table that takes it: «Желатиновый Куб забирает у Саши случайный предмет»
        said = _("{monster} takes a random item from {player}: {item}.").format(
            monster=name_of(state, "monster", takers[0]), player=hero.player, item=item
        )
    else:
        said = _("{player} discards {item} (a random item the monster takes).").format(player=hero.player, item=item)
    state.log.text(said)
    settle_owed(state)
    return held.card


def settle_owed(state: State) -> None:
    """A "random" item needs no roll when a hero holds one item (or none left to take)."""
    g = game(state)
    for who in list(g.owed):
        if who not in g.owed:
            continue
        items = g.heroes[who].items
        if not items:
            g.owed.remove(who)
        elif len(items) == 1:
            lose_item(state, who, 0)


def discard(state: State, who: int, index: int, to: int | None = None) -> None:
    """Discard an item; another player may pick it up (usable from their next turn)."""
    g = game(state)
    if g.phase == "over":  # at setup too: a starting item put back, to take another of its class
        raise InputError(_("cannot {doing} now: {waiting}").format(doing=_("discard"), waiting=waiting_for(state)))
    hero = g.heroes[who]
    if hero.fallen:
        raise InputError(_("{player} has fallen: their cards stay with them").format(player=hero.player))
    if not 0 <= index < len(hero.items):
        raise InputError(
            ngettext("{player} holds {n} item", "{player} holds {n} items", len(hero.items)).format(
                player=hero.player, n=len(hero.items)
            )
        )
    if to is not None and (to == who or not 0 <= to < len(g.heroes) or g.heroes[to].fallen):
        raise InputError(_("the item goes to another living player, or to the discard pile"))
    if to is not None:
        refusal = class_refusal(state, to, hero.items[index].card, verb="pick up")
        if refusal:
            raise InputError(refusal)
    held = hero.items.pop(index)
    name = name_of(state, "item", held.card)
    if to is None:
        state.log.text(_("{player} discards {item}.").format(player=hero.player, item=name))
    else:
        g.heroes[to].items.append(Held(held.card, fresh=True))
        state.log.text(
            _("{player} discards {item}; {other} picks it up (usable from their next turn).").format(
                player=hero.player, item=name, other=g.heroes[to].player
            )
        )
    g.step += 1


def trade(state: State, a: int, item_a: int, b: int, item_b: int | None) -> None:
    """A trade at the end of a turn: received items are usable from their new owner's next turn."""
    g = require_phase(state, "end", doing=_("trade"))
    if a == b:
        raise InputError(_("a trade is between two players"))
    if not (0 <= a < len(g.heroes) and 0 <= b < len(g.heroes)):
        raise InputError(_("a trade is between two players at the table"))
    ha, hb = g.heroes[a], g.heroes[b]
    if ha.fallen or hb.fallen:
        raise InputError(_("a fallen hero cannot trade"))
    if not 0 <= item_a < len(ha.items) or (item_b is not None and not 0 <= item_b < len(hb.items)):
        raise InputError(_("each side of a trade gives an item they hold"))
    given = ha.items.pop(item_a)
    got = hb.items.pop(item_b) if item_b is not None else None
    hb.items.append(Held(given.card, fresh=True))
    if got is not None:
        ha.items.append(Held(got.card, fresh=True))
        state.log.text(
            owned(
                _("{player} trades {item} for {other}'s {other_item} (usable from their next turns).").format(
                    player=ha.player,
                    item=name_of(state, "item", given.card),
                    other=hb.player,
                    other_item=name_of(state, "item", got.card),
                ),
                hb.player,
            )
        )
    else:
        state.log.text(
            _("{player} gives {item} to {other} (usable from their next turn).").format(
                player=ha.player, item=name_of(state, "item", given.card), other=hb.player
            )
        )
    g.step += 1


def over_limit(state: State) -> list[tuple[int, str, list[str]]]:
    """Heroes holding more than one item of a class: (hero, class, item slugs)."""
    g = game(state)
    out = []
    for i, hero in enumerate(g.heroes):
        if hero.fallen:
            continue
        by_class: dict[str, list[str]] = {}
        for held in hero.items:
            cls = item_card(state, held.card).cls
            if cls:
                by_class.setdefault(cls, []).append(held.card)
        for cls, items in by_class.items():
            if len(items) > data.ITEMS_PER_CLASS:
                out.append((i, cls, items))
    return out
