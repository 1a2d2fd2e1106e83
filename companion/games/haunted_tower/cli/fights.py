"""``companion haunted fight``, ``init``, ``attack``, ``run``: a fight, step by step, by the rules.

Registered on ``companion haunted`` by :mod:`companion.games.haunted_tower.cli`; only typer is
imported at module level.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.cli.common import JsonOpt
from companion.games.haunted_tower.cli.common import (
    GotOpt,
    _faces,
    _record,
    _Roller,
    _session,
    _sim,
    attack_item,
)
from companion.i18n import possessive

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.session.state import State

app = typer.Typer()


@app.command("fight")
def fight_cmd(
    ctx: typer.Context,
    hero: Annotated[str, typer.Argument(help="The hero who reveals the chit.", show_default=False)],
    monster: Annotated[list[str], typer.Argument(help="The monster, e.g. ghoul or 'giant rat'.", show_default=False)],
    purple: Annotated[bool, typer.Option("--purple", help="The chit has a purple back (default blue).")] = False,
    json_out: JsonOpt = False,
) -> None:
    """A hero reveals a monster chit: the fight starts (the monster's stats and rule are shown)."""
    env: Env = ctx.obj
    from companion.games.haunted_tower.data.monsters import SPECTER, find
    from companion.games.haunted_tower.rules import fights as rules_fights
    from companion.games.haunted_tower.rules import lookup

    m = find(" ".join(monster))
    back = "purple" if purple or m.key == SPECTER else "blue"
    with _session(env) as session:
        sim = _sim(session)
        h = lookup.find_hero(sim.game, hero)
        rules_fights.start_fight(sim, h.name, m.key, back)
        _record(env, session, {"op": "fight", "hero": h.name, "monster": m.key, "back": back}, json_out)


@app.command("init")
def init_cmd(
    ctx: typer.Context,
    got: Annotated[
        str | None,
        typer.Option("--got", "-g", help="The hero's and the monster's 1d6, e.g. 4,2.", show_default=False),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Initiative: 1d6 each (the pit viper adds 1); the higher attacks first; a tie rolls again."""
    env: Env = ctx.obj
    from companion.games.haunted_tower.rules import fights as rules_fights
    from companion.games.haunted_tower.rules import rolls as rules_rolls

    with _session(env) as session:
        sim = _sim(session)
        rules_rolls.expect(sim, "initiative", "roll initiative")
        hero_spec, monster_spec = rules_rolls.initiative_specs(sim)
        h_face, m_face = _faces(got, 2, "the hero's 1d6 and the monster's, e.g. --got 4,2")
        roller = _Roller(env, session)
        h = roller.answer(hero_spec, h_face)
        m = roller.answer(monster_spec, m_face)
        rules_fights.initiative(sim, h.faces[0], m.faces[0])  # type: ignore[index]
        _record(env, session, {"op": "init", "steps": [{"do": "init"}], "rolls": roller.payloads}, json_out)


@app.command("attack")
def attack_cmd(
    ctx: typer.Context,
    with_: Annotated[
        str | None,
        typer.Option(
            "--with",
            "-w",
            help="The hero attacks with this item, or 'none' (default: the best one, as companion haunted odds shows).",
            show_default=False,
        ),
    ] = None,
    got: GotOpt = None,
    table: Annotated[
        int | None, typer.Option("--table", "-t", help="The 1d10 after a hit (physical dice).", show_default=False)
    ] = None,
    take: Annotated[
        str | None,
        typer.Option(
            "--take", help="The item the robber fly or rust monster takes (its player's choice).", show_default=False
        ),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """The attack of whoever's turn it is (the hero, or the monster with what its hit does)."""
    env: Env = ctx.obj
    from companion.errors import InputError
    from companion.games.haunted_tower.rules import fights as rules_fights
    from companion.games.haunted_tower.rules import lookup
    from companion.games.haunted_tower.rules import rolls as rules_rolls

    with _session(env) as session:
        sim = _sim(session)
        f, _, monster = lookup.fighting(sim)
        n = rules_rolls.need(sim)
        assert n is not None
        if n.step == "initiative":
            raise InputError("roll initiative first: companion haunted init")
        if with_ and n.step != "hero":
            raise InputError(f"--with is for the hero's attack; now the {monster.name} acts")
        roller = _Roller(env, session)
        steps: list[dict[str, Any]] = []
        first = True
        while sim.game.fight is not None and sim.game.fight.n == f.n:
            n = rules_rolls.need(sim)
            assert n is not None
            if n.step in ("hero", "monster", "initiative") and not first:
                break
            if n.step == "hero":
                weapon = _weapon(sim, with_)
                roll = roller.answer(rules_rolls.attack_spec(sim, weapon), got)
                rules_fights.hero_attack(sim, weapon, roll.faces[0])  # type: ignore[index]
                steps.append({"do": "attack", "weapon": weapon})
            elif n.step == "monster":
                right = lookup.right_of(sim.game, lookup.fighting(sim)[1])
                if right is not None and not json_out:  # as guided play says it, before the roll
                    hero_name = lookup.fighting(sim)[1].name
                    env.print(
                        f"{possessive(right.name)} player (on {possessive(hero_name)} right) "
                        f"rolls for the {monster.name}."
                    )
                roll = roller.answer(rules_rolls.monster_spec(sim), got)
                rules_fights.monster_attack(sim, roll.faces[0])  # type: ignore[index]
                steps.append({"do": "monster"})
            elif n.step == "table":
                given = str(table) if table is not None else (got if first else None)
                if given is None and sim.dice == "physical" and not env.interactive:
                    raise InputError(
                        f"the {monster.name} hits: {monster.table_text()}; give the 1d10 with --table N (1-10)"
                    )
                roll = roller.answer(rules_rolls.table_spec(sim), given)
                rules_fights.table_roll(sim, roll.faces[0])  # type: ignore[index]
                steps.append({"do": "table"})
            else:
                item = _choose_take(env, sim, n.items, take)
                rules_fights.pick(sim, item)
                steps.append({"do": "pick", "item": item})
            first = False
        done = {step["do"] for step in steps}
        for flag, value, used in (("--table", table, "table"), ("--take", take, "pick")):
            if value is not None and used not in done:  # as the Dragon's Den says of a chit it did not need
                env.warn(f"{flag} {value} was not needed (no such roll or choice came up); it is ignored")
        _record(env, session, {"op": "attack", "steps": steps, "rolls": roller.payloads}, json_out)


def _weapon(state: State, with_: str | None) -> str:
    """What the hero attacks with (see :func:`.common.attack_item`): its name, "" for no item."""
    from companion.games.haunted_tower.rules import lookup

    _, hero, monster = lookup.fighting(state)
    item = attack_item(state, hero, monster, with_)
    return item.name if item else ""


def _choose_take(env: Env, state: State, items: tuple[str, ...], take: str | None) -> str:
    from companion.errors import InputError
    from companion.games.haunted_tower.rules import lookup

    f, hero, monster = lookup.fighting(state)
    if take is not None:
        item = lookup.find_item(hero, take)
        if item.name not in items:
            raise InputError(f"the {monster.name} can take {', '.join(items)}; not {item.name}")
        return item.name
    if not env.interactive:
        raise InputError(f"the {monster.name} hits: its player picks one of {', '.join(items)} with --take NAME")
    import questionary

    what = "eats" if f.pick == "rust" else "takes"
    return questionary.select(f"The {monster.name}'s player chooses what it {what}", choices=list(items)).unsafe_ask()


@app.command("run")
def run_cmd(ctx: typer.Context, got: GotOpt = None, json_out: JsonOpt = False) -> None:
    """The hero runs away instead of attacking: 1d10 at or above the monster's attack number."""
    env: Env = ctx.obj
    from companion.games.haunted_tower.rules import fights as rules_fights
    from companion.games.haunted_tower.rules import rolls as rules_rolls

    with _session(env) as session:
        sim = _sim(session)
        rules_rolls.expect(sim, "hero", "run away")
        roller = _Roller(env, session)
        roll = roller.answer(rules_rolls.run_spec(sim), got)
        rules_fights.run_away(sim, roll.faces[0])  # type: ignore[index]
        _record(env, session, {"op": "run", "steps": [{"do": "run"}], "rolls": roller.payloads}, json_out)
