"""``companion haunted setup``, ``monsters``, ``hero``, ``first``: the table, the heroes, who goes first.

Registered on ``companion haunted`` by :mod:`companion.games.haunted_tower.cli`; only typer is
imported at module level.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from companion.cli.common import JsonOpt
from companion.games.haunted_tower.cli.common import (
    _faces,
    _known,
    _record,
    _Roller,
    _session,
    _sim,
    _split,
)
from companion.i18n import possessive

if TYPE_CHECKING:
    from companion.cli.env import Env

app = typer.Typer()


@app.command("setup")
def setup_cmd(
    ctx: typer.Context,
    players: Annotated[
        int | None, typer.Option("--players", "-p", min=3, max=6, help="Only this number of players.")
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Setting up: blue chits per player, the purple chits' order, the specter's chit."""
    env: Env = ctx.obj
    from companion.games.haunted_tower import data as D

    if json_out:
        env.print_json(
            {"blue_chits": {str(k): v for k, v in D.BLUE_CHITS.items()}, "reminders": D.setup_lines(players)}
        )
        return
    for line in D.setup_lines(players):
        env.print(f"• {line}")


@app.command("monsters")
def monsters_cmd(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """The monster listing: HP, attack, armor class, undead, stand-ups and special rules."""
    env: Env = ctx.obj
    from companion.games.haunted_tower import view
    from companion.games.haunted_tower.data.monsters import MONSTERS

    if json_out:
        env.print_json(
            [
                {
                    "key": m.key,
                    "name": m.name,
                    "hp": m.hp,
                    "att": m.att,
                    "ac": m.ac,
                    "undead": m.undead,
                    "listed": m.listed,
                    "standups": m.standups,
                    "on_hit": m.on_hit,
                    "hurt_by": sorted(m.hurt_by) if m.hurt_by is not None else None,
                    "initiative": m.initiative,
                    "special": m.special,
                }
                for m in MONSTERS.values()
            ]
        )
        return
    env.print(view.monster_table([]))


@app.command("hero")
def hero_cmd(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The hero's name, as on the hero card.", show_default=False)],
    speed: Annotated[int | None, typer.Option(help="Speed, from the card.", show_default=False)] = None,
    hp: Annotated[int | None, typer.Option(help="Hit points, from the card.", show_default=False)] = None,
    attack: Annotated[int | None, typer.Option(help="Attack number, from the card.", show_default=False)] = None,
    ac: Annotated[int | None, typer.Option(help="Armor class, from the card.", show_default=False)] = None,
    ability: Annotated[
        str | None, typer.Option(help="Special ability, as the card words it.", show_default=False)
    ] = None,
    bonus_attack: Annotated[int | None, typer.Option(help="The ability's attack bonus.", show_default=False)] = None,
    bonus_damage: Annotated[int | None, typer.Option(help="The ability's damage bonus.", show_default=False)] = None,
    bonus_ac: Annotated[int | None, typer.Option(help="The ability's armor class bonus.", show_default=False)] = None,
    vs: Annotated[
        str | None, typer.Option(help="The bonus applies against: all or undead.", show_default=False)
    ] = None,
    hits: Annotated[
        str | None,
        typer.Option(
            help="The hero's own attacks count as: magic, magical, silver, holy (comma list).", show_default=False
        ),
    ] = None,
    armor: Annotated[
        int | None, typer.Option(help="Armor chits allowed, if the card differs.", show_default=False)
    ] = None,
    weapons: Annotated[
        int | None, typer.Option(help="Weapon chits allowed, if the card differs.", show_default=False)
    ] = None,
    shields: Annotated[
        int | None, typer.Option(help="Shield chits allowed, if the card differs.", show_default=False)
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Add a hero (the card's numbers are typed once and kept), or correct a hero card's numbers."""
    env: Env = ctx.obj
    from companion.errors import InputError
    from companion.games.haunted_tower.model import Card
    from companion.games.haunted_tower.rules import heroes as rules_heroes

    with _session(env) as session:
        state = session.state
        known, card_name = _known(state, "hero", name)
        given = {"speed": speed, "hp": hp, "attack": attack, "ac": ac, "ability": ability}
        values = {**known, **{k: v for k, v in given.items() if v is not None}}
        missing = [f"--{k}" for k in ("speed", "hp", "attack", "ac", "ability") if k not in values]
        if missing:
            raise InputError(
                f"{possessive(card_name)} card is not in your game data yet: give {', '.join(missing)} "
                "(from the hero card)"
            )
        bonus = dict(known.get("bonus") or {})
        for k, v in (("attack", bonus_attack), ("damage", bonus_damage), ("ac", bonus_ac), ("vs", vs)):
            if v is not None:
                bonus[k] = v.strip().lower() if isinstance(v, str) else v
        if hits is not None:
            bonus["hits"] = _split(hits)
        values["bonus"] = bonus
        limits = dict(known.get("limits") or {})
        for k, v in (("armor", armor), ("weapon", weapons), ("shield", shields)):
            if v is not None:
                limits[k] = v
        values["limits"] = limits
        card = Card.from_data(card_name, values)
        rules_heroes.check_card(card)
        changed = any(v is not None for v in given.values()) or any(
            v is not None for v in (bonus_attack, bonus_damage, bonus_ac, vs, hits, armor, weapons, shields)
        )
        in_game = any(h.name.lower() == card.name.lower() for h in state.game.heroes)
        if in_game and not changed:
            raise InputError(f"{card.name} is already in this game (give new numbers to correct the card)")
        event = {"op": "card" if in_game else "hero", "hero": card.name, "card": card.to_data()}
        _record(env, session, event, json_out, data=True)


@app.command("first")
def first_cmd(
    ctx: typer.Context,
    placement: Annotated[
        bool, typer.Option("--placement", help="Who places the first chit (setup), not who moves first.")
    ] = False,
    got: Annotated[
        str | None,
        typer.Option("--got", "-g", help="Each hero's 1d10 in seat order, e.g. 7,3,10,2.", show_default=False),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Roll 1d10 each: the highest goes first (ties roll again, with this command)."""
    env: Env = ctx.obj
    from companion.games.haunted_tower.rules import heroes as rules_heroes
    from companion.games.haunted_tower.rules import rolls as rules_rolls

    with _session(env) as session:
        sim = _sim(session)
        g = sim.game
        purpose = "placement" if placement else "round"
        if not g.rolloff:
            rules_heroes.start_rolloff(sim, purpose)
        roller = _Roller(env, session)
        names = list(g.rolloff)
        faces = []
        for name, face in zip(names, _faces(got, len(names), ", ".join(names)), strict=True):
            faces.append(roller.answer(rules_rolls.order_spec(name, g.rolloff_for), face).faces[0])  # type: ignore[index]
        rules_heroes.order_roll(sim, faces)
        _record(env, session, {"op": "first", "purpose": purpose, "rolls": roller.payloads}, json_out)
