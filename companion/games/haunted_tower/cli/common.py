"""What the Haunted Tower's commands share: the session check, the ``haunted`` event and what it shows,
the next step's hint, the faces of ``--got``.

The generic part (the lock, ``--got`` or virtual dice, entries as text or JSON) is the command kit,
:mod:`companion.cli.kit`; this module keeps what is the Haunted Tower's own. Only typer at module level.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.i18n import possessive

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.cli.kit import Roller
    from companion.games.haunted_tower.data.monsters import Monster
    from companion.games.haunted_tower.model import Hero, Item
    from companion.session.service import Session
    from companion.session.state import State

GAME = "haunted-tower"

HeroArg = Annotated[str, typer.Argument(help="The hero (a unique start of the name will do).", show_default=False)]
ItemArg = Annotated[str, typer.Argument(help="The item, as on the chit (a unique start will do).", show_default=False)]
GotOpt = Annotated[
    str | None, typer.Option("--got", "-g", help="The faces you rolled (physical dice).", show_default=False)
]


def _session(env: Env, *, read: bool = False) -> AbstractContextManager[Session]:
    """The active session, under its lock, refused unless it is a Haunted Tower game (``read``: only read,
    a copy of one held elsewhere at once)."""
    from companion.cli.kit import game_session

    return game_session(env, GAME, _refuse, read=read)


def _refuse(session: Session) -> Exception:
    from companion.errors import CompanionError

    return CompanionError(
        f"the current session plays {session.meta.game}, not the Haunted Tower",
        hint="start one with: companion new haunted-tower",
    )


def _record(env: Env, session: Session, event: dict[str, Any], json_out: bool, data: bool = False) -> None:
    """Record one event, then show what it did and what comes next."""
    before = len(session.state.log.entries)
    event_id = session.record({"t": "haunted", **event})
    if data:
        from companion.session import catalogue

        catalogue.merge(session.data_dir, GAME, session.state.data)
    _show_new(env, session, before, json_out, event_id)


def _show_new(env: Env, session: Session, before: int, json_out: bool, event_id: int) -> None:
    from companion.cli.kit import entry_texts, new_entries, print_entries
    from companion.games.haunted_tower import view

    entries = new_entries(session, before)
    hint = next_hint(session.state)
    if json_out:
        env.print_json(
            {
                "session": session.name,
                "event": event_id,
                "log": entry_texts(entries),
                "fight": _fight_json(session.state),
                "figures": view.figures(session.state),
                "next": hint,
                "finished": session.state.finished,
            }
        )
        return
    print_entries(env, entries)
    if hint:
        env.print(hint, style="dim")


def _fight_json(state: State) -> dict[str, Any] | None:
    from companion.games.haunted_tower.data.monsters import MONSTERS

    f = state.game.fight
    if f is None:
        return None
    m = MONSTERS[f.monster]
    return {
        "n": f.n,
        "hero": f.hero,
        "monster": m.name,
        "hp": f.hp,
        "max_hp": m.hp,
        "round": f.round,
        "phase": f.phase,
        "slowed": f.slowed,
        "drained": f.drained,
    }


def next_hint(state: State) -> str:
    """What the table does next, with the command that does it."""
    from companion.games.haunted_tower.rules import lookup
    from companion.games.haunted_tower.rules import rolls as rules_rolls

    g = state.game
    if state.finished:
        return f"The game is over: {state.finished}."
    if g.rolloff:
        return f"{' and '.join(g.rolloff)} roll 1d10 again: companion haunted first"
    n = rules_rolls.need(state)
    if n is None:
        return ""
    _, hero, monster = lookup.fighting(state)
    return {
        "initiative": "Next: initiative, 1d6 each: companion haunted init",
        "hero": f"Next: {possessive(hero.name)} turn: companion haunted attack [--with ITEM], or companion haunted run",
        "monster": f"Next: the {monster.name} attacks: companion haunted attack",
        "table": f"Next: the {monster.name}'s hit rolls 1d10: companion haunted attack",
        "pick": f"Next: the {monster.name}'s player picks an item: companion haunted attack --take ITEM",
    }[n.step]


def _Roller(env: Env, session: Session) -> Roller:
    """Rolls for one command (``.answer(spec, got)``): the faces given, a prompt in physical mode, or the
    session's dice; ``.payloads`` keeps each roll for the event."""
    from companion.cli.kit import Roller

    return Roller(env, session)


def _faces(got: str | None, count: int, what: str) -> list[str | None]:
    """Split ``--got 4,2`` into one face per roll (None each when nothing was given)."""
    if got is None:
        return [None] * count
    from companion.errors import InputError

    parts = [p for p in got.replace(",", " ").split() if p]
    if len(parts) != count:
        from companion.i18n import ngettext

        raise InputError(
            ngettext("--got needs {n} face: {what}", "--got needs {n} faces: {what}", count).format(n=count, what=what)
        )
    return parts  # type: ignore[return-value]


def _sim(session: Session) -> State:
    """A copy of the state to work a command's steps out on, before anything is recorded."""
    from companion.cli.kit import dry

    return dry(session)


def _known(state: Any, kind: str, name: str) -> tuple[dict[str, Any], str]:
    """A hero card or item chit already in the game data, whatever case the player types its name in:
    a copy of its values ({} if new), and the name to keep (the stored one if known)."""
    wanted = f"{kind}.{name.strip().lower()}"
    key = next((k for k in state.data if k.lower() == wanted), None)
    known: dict[str, Any] = dict(state.data[key]) if key else {}
    return known, key[len(kind) + 1 :] if key else name.strip()


def _split(text: str | None) -> list[str]:
    return [p.strip().lower() for p in (text or "").replace(";", ",").split(",") if p.strip()]


#: ``--with`` words for an attack without an item.
NO_ITEM = ("none", "nothing", "bare", "-")


def attack_item(state: State, hero: Hero, monster: Monster, with_: str | None) -> Item | None:
    """What a hero attacks with: ``--with ITEM``, ``--with none`` (no item), or else the best chance to win
    the duel, which is what ``companion haunted odds`` shows, so the attack and its odds never disagree."""
    from companion.games.haunted_tower import view
    from companion.games.haunted_tower.rules import lookup

    if with_ is None:
        return view.best_weapon(state, hero, monster)
    if lookup.norm(with_) in NO_ITEM:
        return None
    return lookup.find_item(hero, with_)
