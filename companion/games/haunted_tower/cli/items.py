"""``companion haunted item``, ``drop``, ``give``, ``use``, ``hp``, ``climb``, ``trade``, ``moved``, ``end``.

Registered on ``companion haunted`` by :mod:`companion.games.haunted_tower.cli`; only typer is
imported at module level.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.cli.common import SIGNED, JsonOpt
from companion.games.haunted_tower.cli.common import (
    HeroArg,
    ItemArg,
    _known,
    _record,
    _session,
    _sim,
    _split,
)

if TYPE_CHECKING:
    from companion.cli.env import Env

app = typer.Typer()


@app.command("item")
def item_cmd(
    ctx: typer.Context,
    hero: Annotated[str, typer.Argument(help="The hero who takes the chit.", show_default=False)],
    name: Annotated[str, typer.Argument(help="The item's name, as on the chit.", show_default=False)],
    kind: Annotated[str | None, typer.Option(help="armor, weapon, shield or other.", show_default=False)] = None,
    back: Annotated[str | None, typer.Option(help="blue or purple.", show_default=False)] = None,
    attack: Annotated[int | None, typer.Option(help="Attack bonus on the chit.", show_default=False)] = None,
    damage: Annotated[int | None, typer.Option(help="Damage bonus on the chit.", show_default=False)] = None,
    ac: Annotated[int | None, typer.Option(help="Armor class bonus on the chit.", show_default=False)] = None,
    metal: Annotated[bool | None, typer.Option("--metal/--not-metal", help="Metal or not.", show_default=False)] = None,
    hits: Annotated[
        str | None,
        typer.Option(
            help="An attack with it counts as: magical, magic, silver, holy, stake (comma list; "
            "a weapon chit is a magical weapon unless you say otherwise).",
            show_default=False,
        ),
    ] = None,
    use: Annotated[
        str | None,
        typer.Option(help="worn, attack or spend (weapons attack; armor and shields are worn).", show_default=False),
    ] = None,
    uses: Annotated[
        int | None, typer.Option(help="Limited uses on the chit (0: not limited).", show_default=False)
    ] = None,
    swap: Annotated[
        str | None, typer.Option(help="Over the limit: drop this item of the same kind.", show_default=False)
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """A hero takes a magic item chit (typed once, kept in your game data for next time)."""
    env: Env = ctx.obj
    from companion.errors import InputError
    from companion.games.haunted_tower.model import Item
    from companion.games.haunted_tower.rules import items as rules_items
    from companion.games.haunted_tower.rules import lookup

    with _session(env) as session:
        state = session.state
        known, item_name = _known(state, "item", name)
        given: dict[str, Any] = {
            "kind": kind.strip().lower() if kind else None,
            "back": back.strip().lower() if back else None,
            "attack": attack,
            "damage": damage,
            "ac": ac,
            "metal": metal,
            "hits": _split(hits) if hits is not None else None,
            "use": use.strip().lower() if use else None,
        }
        define = any(v is not None for k, v in given.items() if k != "back") or uses is not None or not known
        values = {**known, **{k: v for k, v in given.items() if v is not None}}
        if uses is not None:
            values["uses"] = uses or None  # 0: not limited
        if "kind" not in values:
            raise InputError(f"{item_name} is not in your game data yet: give --kind (armor, weapon, shield or other)")
        kind_ = values["kind"]
        if "use" not in values:
            if kind_ == "other":
                raise InputError("say how it is used: --use worn, attack or spend")
            values["use"] = "attack" if kind_ == "weapon" else "worn"
        if "hits" not in values and kind_ == "weapon":
            values["hits"] = ["magical"]
        item = Item.from_data(item_name, values)
        rules_items.check_item(item)
        sim = _sim(session)
        rules_items.take_item(sim, hero, item, swap or "")
        hero_name = lookup.find_hero(sim.game, hero).name
        event = {"op": "item", "hero": hero_name, "item": item.name, "chit": item.to_data(), "define": define}
        if swap:
            event["swap"] = swap
        _record(env, session, event, json_out, data=define)


def _apply(env: Env, event: dict[str, Any], json_out: bool) -> None:
    """Try an event on a copy (so bad input changes nothing), then record it."""
    from companion.games.haunted_tower.rules.events import reduce

    with _session(env) as session:
        sim = _sim(session)
        reduce(sim, {"t": "haunted", **event})
        _record(env, session, event, json_out)


@app.command("drop")
def drop_cmd(
    ctx: typer.Context,
    hero: HeroArg,
    item: ItemArg,
    json_out: JsonOpt = False,
) -> None:
    """Drop a magic item in an adjacent square."""
    _apply(ctx.obj, {"op": "drop", "hero": hero, "item": item}, json_out)


@app.command("give")
def give_cmd(
    ctx: typer.Context,
    hero: HeroArg,
    item: ItemArg,
    to: Annotated[str, typer.Argument(help="The adjacent hero who takes it.", show_default=False)],
    json_out: JsonOpt = False,
) -> None:
    """Trade: give a magic item to an adjacent hero (the limits still hold)."""
    _apply(ctx.obj, {"op": "give", "hero": hero, "item": item, "to": to}, json_out)


@app.command("use")
def use_cmd(
    ctx: typer.Context,
    hero: HeroArg,
    item: ItemArg,
    json_out: JsonOpt = False,
) -> None:
    """Use a limited item once (a potion); its last use removes it from the game."""
    _apply(ctx.obj, {"op": "use", "hero": hero, "item": item}, json_out)


@app.command("hp", context_settings=SIGNED)
def hp_cmd(
    ctx: typer.Context,
    hero: HeroArg,
    change: Annotated[str, typer.Argument(help="+N or -N.", show_default=False)],
    json_out: JsonOpt = False,
) -> None:
    """Change a hero's HP by hand (a potion, a correction); HP reaching zero is a death."""
    from companion.cli.common import parse_change
    from companion.errors import InputError

    op, n = parse_change(change, "HP")
    if op == "set":
        raise InputError("HP change by +N or -N here")
    _apply(ctx.obj, {"op": "hp", "hero": hero, "delta": n}, json_out)


@app.command("climb")
def climb_cmd(
    ctx: typer.Context,
    hero: HeroArg,
    cleared: Annotated[
        bool, typer.Option("--cleared", help="Every chit of the hero's tower is gone: climb anyway.")
    ] = False,
    check: Annotated[bool, typer.Option("--check", help="Only check; record nothing.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """The climbing check (3 blue chits for Tower 2, 6 for Tower 3; purple counts 2); climbs if allowed."""
    env: Env = ctx.obj
    if check:
        from companion.games.haunted_tower.rules import climb as rules_climb
        from companion.games.haunted_tower.rules import lookup

        with _session(env) as session:
            c = rules_climb.climb_check(lookup.find_hero(session.state.game, hero), cleared)
            if json_out:
                env.print_json({"hero": c.hero, "to": c.to, "have": c.have, "needs": c.needs, "ok": c.ok})
                return
            env.print(c.text())
        return
    _apply(env, {"op": "climb", "hero": hero, "cleared": cleared}, json_out)


@app.command("trade")
def trade_cmd(
    ctx: typer.Context,
    hero: HeroArg,
    pay: Annotated[str, typer.Argument(help="blue (two blue monster chits) or purple (one).", show_default=False)],
    json_out: JsonOpt = False,
) -> None:
    """Trade in monster chits to remove a −1 chit: two blue, or one purple."""
    _apply(ctx.obj, {"op": "trade", "hero": hero, "pay": pay.strip().lower()}, json_out)


@app.command("moved")
def moved_cmd(ctx: typer.Context, hero: HeroArg, json_out: JsonOpt = False) -> None:
    """The hero has sat out the move a ghoul's bite took."""
    _apply(ctx.obj, {"op": "moved", "hero": hero}, json_out)


@app.command("end")
def end_cmd(
    ctx: typer.Context,
    reason: Annotated[
        str, typer.Option("--reason", help="Why the game ends (kept in the log).")
    ] = "the players ended it",
    json_out: JsonOpt = False,
) -> None:
    """End the game now: the final score (the game also ends when the specter is killed)."""
    _apply(ctx.obj, {"op": "end", "reason": reason}, json_out)
