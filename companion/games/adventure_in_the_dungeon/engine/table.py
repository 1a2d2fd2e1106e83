"""The Adventure at the table: the player fights from the book with real dice and a pencil, and companion
keeps the party's tallies, the area map and the Talisman search, with no guided play.

- The party's tallies exist at once: Adelhardt's from the rule text, each other hero's as soon as the
  hits they withstand are known. A hero whose number is not entered yet is asked for it at their first
  hit (:func:`needs`), not before.
- ``companion tally hit Xorn`` tallies a monster by its name in the area list (any case); a monster
  tallied to its last hit is slain, and its area is cleared on the map guided play and
  ``companion dungeon areas`` show (:func:`tracked`). A slain monster takes no more hits.
- ``companion talisman`` after a kill: the monsters left come from the map, Area 12's kind is asked
  only when the count needs it, and a roll with no kill waiting for it is refused (:func:`talisman_left`).

Guided play and these hand commands go side by side (sessions made at contract revision 2 or later):
guided play reads the tallies fresh at every step, and after a hand command the step it waits for is
built again from the table (``Game.refresh``): a monster tallied to its last hit by hand ends its
fight and asks the Talisman roll, ``companion talisman`` answers that roll, and a monster marked by
hand between guided fights is the party's fight at the table (:attr:`Dungeon.hand`: the bar's fight
line, and the step says so). In a session made before, guided play keeps the tallies once it has
begun, and these hand commands are refused there with the guided way (:func:`side_by_side`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.contract.game import Need
from companion.errors import InputError
from companion.games.adventure_in_the_dungeon import data as D
from companion.games.adventure_in_the_dungeon import rules as R
from companion.games.adventure_in_the_dungeon.engine.numbers import ask_field
from companion.games.adventure_in_the_dungeon.engine.words import cure_words
from companion.session.trackers import Tally

if TYPE_CHECKING:
    from collections.abc import Callable

    from companion.session.state import State


def _norm(text: str) -> str:
    return " ".join(str(text).split()).casefold()


def hero_named(text: str) -> int | None:
    """A hero by name, key or class (``krylla``, ``rangeress``), in any case."""
    t = _norm(text)
    for i, hero in enumerate(D.HEROES):
        if t in (hero.name.casefold(), hero.key, hero.role.casefold()):
            return i
    return None


def area_named(values: dict[str, Any], text: str) -> int | None:
    """The area whose monster ``text`` names, in any case (``xorn``, ``ogre mage``)."""
    t = _norm(text)
    for n, area in R.areas(values).items():
        if t == _norm(area.monster):
            return n
    return None


def hero_hits(state: State, i: int) -> int | None:
    """The hits hero ``i`` withstands: the text's, or the player's number (None: not entered yet)."""
    hero = D.HEROES[i]
    if hero.hits is not None:
        return hero.hits
    value = state.data.get(f"{hero.key}.hits")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def party(state: State) -> None:
    """Write every hero's tally whose hits are known, in the book's order (the others follow later)."""
    tallies = state.trackers.tallies
    for i, hero in enumerate(D.HEROES):
        hits = hero_hits(state, i)
        if hits is None:
            continue
        t = tallies.get(hero.name)
        if t is None:
            tallies[hero.name] = Tally(hero.name, hits, 0, hero.role)
        elif t.max_hits != hits:
            t.max_hits = hits
    heroes = [h.name for h in D.HEROES if h.name in tallies]
    if list(tallies)[: len(heroes)] != heroes:  # the party first, Paladin to Wizard, as the book lists it
        ordered = {name: tallies[name] for name in heroes}
        ordered.update((k, v) for k, v in tallies.items() if k not in ordered)
        tallies.clear()
        tallies.update(ordered)


def needs(state: State, event: dict[str, Any]) -> list[Need]:
    """The book's numbers a tally or Talisman event needs first (see :class:`companion.contract.game.Need`)."""
    kind = event.get("t")
    if kind == "tally" and event.get("op") != "add":
        i = hero_named(str(event.get("name", "")))
        if i is not None and hero_hits(state, i) is None:
            hero = D.HEROES[i]
            fld = D.hero_fields(hero)[0]
            refusal = (
                f"the hits {hero.name} withstands are your book's number (the characters' table, after "
                f"{hero.role}): give it once with companion dungeon data {fld.key}=N --session"
            )
            return [Need(fld.key, ask_field(fld), refusal)]
    if kind == "talisman" and _twelve_decides(state):
        fld = D.AREA12_KIND_FIELD
        refusal = (
            "the monsters left turn on Area 12, which only your book shows: say once whether it holds one, "
            "with companion dungeon data area12.kind=monster --session (or =empty)"
        )
        return [Need(fld.key, ask_field(fld), refusal)]
    return []


def _twelve_decides(state: State) -> bool:
    """Whether the count of monsters left turns on Area 12, which the player has not said yet."""
    if state.data.get(D.AREA12_KIND) in ("monster", "empty"):
        return False
    return len(D.AREAS) - (state.trackers.talisman.kills + 1) <= 1


#: The contract revision from which guided play and the hand commands go side by side.
SIDE_BY_SIDE = 2


def side_by_side(state: State) -> bool:
    """Whether hand commands work beside guided play in this session (made at revision 2 or later)."""
    return getattr(state.meta, "revision", 0) >= SIDE_BY_SIDE


def guided_tallies(state: State) -> bool:
    """Whether guided play keeps the tallies here, refusing changes by hand: only in a session made
    before revision 2, once guided play has begun."""
    return bool(getattr(state.game, "started", False)) and not side_by_side(state)


def tracked(state: State, event: dict[str, Any], fold: Callable[[], None]) -> None:
    """Fold a generic event, keeping the party's tallies and the area map in step with it."""
    if event.get("t") != "tally" or event.get("op") == "add":
        fold()
        if event.get("t") == "tally":
            follow(state)
        return
    name = str(event.get("name", ""))
    i = hero_named(name)
    if i is not None:
        party(state)
        event["name"] = D.HEROES[i].name
        if event.get("op") == "heal" and not event.get("correct"):  # a correction is no cure
            _cure(state, i, int(event.get("n", 1)))
    else:
        n = area_named(state.data, name)
        if n is not None:
            area = R.areas(state.data)[n]
            event["name"] = area.monster
            if area.monster not in state.trackers.tallies:
                state.trackers.tallies[area.monster] = Tally(area.monster, area.hits, 0, monster=True)
            if event.get("op") == "hit" and state.game.area is None and side_by_side(state):
                state.game.hand = n  # fought from the book: the bar's fight line, until it falls
    fold()
    follow(state)


def _cure(state: State, i: int, n: int) -> None:
    """A hit taken off a hero by hand is the Paladin's cure: one hit, once in the adventure, while he lives."""
    g = state.game
    tallies = state.trackers.tallies
    hero = D.HEROES[i]
    paladin = tallies.get(D.HEROES[0].name)
    if g.cure:
        raise InputError(
            "the Paladin's cure is spent: he removes a hit only once in the adventure "
            "(companion undo takes back a hit marked by mistake)"
        )
    if paladin is None or paladin.slain or g.dead & 1:
        raise InputError("Adelhardt has fallen: his cure is lost with him")
    if n != 1:
        raise InputError("the Paladin's cure removes one hit")
    t = tallies.get(hero.name)
    if t is None or not t.hits:
        raise InputError(f"{hero.name} has no hit to cure")
    if t.slain:
        raise InputError(f"{hero.name} is slain: the cure removes a hit from a living hero")
    g.cure = True
    if state.log.enabled:
        state.log.text(cure_words(i) + ".")


def follow(state: State) -> None:
    """The area map follows the monsters' tallies: a monster tallied to its last hit is slain."""
    g = state.game
    tallies = state.trackers.tallies
    for n, area in R.areas(state.data).items():
        t = tallies.get(area.monster)
        slain = t is not None and t.slain
        if slain and n not in g.cleared:
            g.cleared.append(n)
        elif not slain and n in g.cleared:
            g.cleared.remove(n)  # a kill taken back (companion tally heal, or removed)
    if g.hand is not None and (g.hand in g.cleared or R.areas(state.data).get(g.hand) is None):
        g.hand = None


def talisman_left(state: State) -> int | None:
    """The monsters left after the kill the Talisman roll is for; refused when no kill waits for one."""
    g = state.game
    if g.started and not side_by_side(state):
        raise InputError(
            "in guided play companion asks for the Talisman roll after each kill: "
            "answer it with companion play or companion next"
        )
    ts = state.trackers.talisman
    if len(g.cleared) <= ts.kills:
        slain = len(g.cleared)
        raise InputError(
            f"no kill waits for its Talisman roll ({slain} monster{'s' if slain != 1 else ''} slain, "
            f"{ts.kills} roll{'s' if ts.kills != 1 else ''} made): mark the kill first, e.g. "
            "companion tally hit Xorn"
        )
    # The search counts kills in order: this roll is for kill ts.kills + 1.
    if state.data.get(D.AREA12_KIND) in ("monster", "empty"):
        return len(R.areas(state.data)) - (ts.kills + 1)
    left = len(D.AREAS) - (ts.kills + 1)
    return left if left <= 1 else None  # Area 12 not said: more than one either way
