"""The generic tracker commands asked against the book first (``Game.allows``, the contract's hook).

At the table the player fights from the book and companion keeps the sheet (reading 23 of
``docs/rules/adventure-in-the-dungeon.md``). The sheet's numbers come from the book: each hero withstands
the hits the characters' table gives (Adelhardt 9, from the text), each monster the hits of its area.
The party is the four heroes for the whole adventure, so a hero's tally is neither removed nor started
over, and the Paladin's cure, once per game, cannot come back that way. The Talisman's monsters left come
from the map. :func:`refuse` says the rule a generic event would break and the command for it, in one
line, or None. A correction (``--correct``) may fix the sheet, never against the book's numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.errors import InputError
from companion.games.adventure_in_the_dungeon import data as D
from companion.games.adventure_in_the_dungeon import rules as R
from companion.i18n import ngettext

if TYPE_CHECKING:
    from companion.session.state import State

#: The generic commands the book has no use for, and the game's own way.
NOT_HERE = {
    "floor": "the dungeon is one level of 13 areas on the book's map: companion dungeon areas shows them "
    "(an area is cleared when its monster's tally is full: companion tally hit NAME)",
    "room": "the dungeon's rooms are its 13 areas, each with its monster: companion dungeon areas shows them "
    "(an area is cleared when its monster's tally is full: companion tally hit NAME)",
}


def refuse(state: State, event: dict[str, Any]) -> str | None:
    """The rule a generic tracker event breaks, and the command for it (one line); None: allowed."""
    kind = event.get("t")
    if kind in NOT_HERE:
        return NOT_HERE[kind]
    if state.finished is not None and not event.get("correct"):
        return (
            f"the adventure is over ({state.finished}): nothing more happens in it "
            "(companion undo takes back the step that ended it; --correct fixes the sheet)"
        )
    if kind == "talisman":
        return _talisman(state, event)
    if kind == "tally":
        return _tally(state, event)
    return None


def _talisman(state: State, event: dict[str, Any]) -> str | None:
    """The monsters left after a kill come from the map, not from ``--left``."""
    if "left" not in event:
        return None
    from companion.games.adventure_in_the_dungeon.engine.table import talisman_left

    try:
        left = talisman_left(state)
    except InputError as refusal:
        return str(refusal)
    said = int(event["left"])
    if left == said or (left is None and said > 1):
        return None
    alive = "more than one monster" if left is None else ngettext("{n} monster", "{n} monsters", left).format(n=left)
    return (
        f"the map leaves {alive} alive after this kill, not {said}: the Talisman is held by the last monster "
        "only when one remains (companion talisman, without --left; companion dungeon areas shows the map)"
    )


def _tally(state: State, event: dict[str, Any]) -> str | None:
    from companion.games.adventure_in_the_dungeon.engine.table import area_named, hero_hits, hero_named

    op, name = event.get("op"), str(event.get("name", ""))
    i = hero_named(name)
    correct = bool(event.get("correct"))
    if i is not None:
        hero = D.HEROES[i]
        if op == "add":
            book = hero_hits(state, i)
            if book is None:
                key = D.hero_fields(hero)[0].key
                return (
                    f"the hits {hero.name} withstands are your book's number (the characters' table): give it "
                    f"once with companion dungeon data {key}=N --session, and the tally follows"
                )
            if int(event.get("max", 0)) != book:
                return (
                    f"{hero.name} withstands {book} hits ({_source(hero)}), not {event.get('max')}: "
                    "the party's tallies come from the book"
                )
            if not correct:
                return _kept(hero.name)
        if op == "remove" and not correct:
            return _kept(hero.name)
        return None
    if op == "add":
        n = area_named(state.data, name)
        if n is not None:
            area = R.areas(state.data)[n]
            if int(event.get("max", 0)) != area.hits:
                return (
                    f"the {area.monster} withstands {area.hits} hits (Area {n}), not {event.get('max')}: "
                    f"companion tally hit {_typed(area.monster)} tallies it"
                )
    return None


def _source(hero: D.Hero) -> str:
    return "the rule text" if hero.hits is not None else "the number entered from your book"


def _typed(name: str) -> str:
    return f'"{name}"' if " " in name else name


def _kept(name: str) -> str:
    return (
        f"the four heroes keep their tallies for the whole adventure, and a slain hero stays slain "
        f"({name}'s tally is on the sheet already): companion undo takes back a hit marked by mistake, "
        "--correct fixes the sheet"
    )
