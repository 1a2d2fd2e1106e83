"""``companion haunted health``, ``score``, ``odds``, and ``companion odds fight haunted-tower``.

Registered on ``companion haunted`` by :mod:`companion.games.haunted_tower.cli`; only typer is
imported at module level.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.cli.common import JsonOpt
from companion.games.haunted_tower.cli.common import (
    GAME,
    _fight_json,
    _session,
    attack_item,
    next_hint,
)
from companion.i18n import possessive

if TYPE_CHECKING:
    from companion.cli.env import Env

app = typer.Typer()


@app.command("health")
def health_cmd(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """The health of every figure on the board at a glance."""
    env: Env = ctx.obj
    from companion.games.haunted_tower import view

    with _session(env, read=True) as session:
        if json_out:
            env.print_json({"figures": view.figures(session.state), "fight": _fight_json(session.state)})
            return
        env.print(view.health_table(session.state))
        hint = next_hint(session.state)
        if hint:
            env.print(hint, style="dim")


@app.command("score")
def score_cmd(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """The score table: stand-ups, chits, the stake and the specter bonuses."""
    env: Env = ctx.obj
    from companion.games.haunted_tower import view

    with _session(env, read=True) as session:
        if json_out:
            env.print_json(view.score_json(session.state))
            return
        env.print(view.score_table(session.state))


@app.command("odds")
def odds_cmd(
    ctx: typer.Context,
    hero: Annotated[
        str | None, typer.Argument(help="A hero (default: the fight in progress).", show_default=False)
    ] = None,
    monster: Annotated[list[str] | None, typer.Argument(help="A monster.", show_default=False)] = None,
    with_: Annotated[
        str | None,
        typer.Option(
            "--with", "-w", help="Attack with this item, or 'none' (default: the best one here).", show_default=False
        ),
    ] = None,
    run_at: Annotated[
        int, typer.Option("--run-at", min=0, help="Run away at this HP or less (0: fight to the end).")
    ] = 0,
    json_out: JsonOpt = False,
) -> None:
    """Exact odds: one attack each way, the initiative, running away, and the whole fight."""
    env: Env = ctx.obj
    from companion.dice.render import fraction
    from companion.errors import InputError
    from companion.games.haunted_tower import odds as O
    from companion.games.haunted_tower import view
    from companion.games.haunted_tower.data.monsters import find
    from companion.games.haunted_tower.rules import lookup
    from companion.games.haunted_tower.rules import numbers as rules_numbers

    with _session(env, read=True) as session:
        state = session.state
        g = state.game
        current = g.fight is not None and hero is None
        if current:
            f, h, m = lookup.fighting(state)
            monster_hp, slowed = f.hp, f.slowed
        else:
            if hero is None or not monster:
                raise InputError("no fight is in progress: give HERO MONSTER (e.g. companion haunted odds Aria ghoul)")
            h, m = lookup.find_hero(g, hero), find(" ".join(monster))
            monster_hp, slowed = m.hp, False
        weapon = attack_item(state, h, m, with_)
        if weapon is not None and weapon.use != "attack":
            raise InputError(f"{weapon.name} is not used to attack")
        variants = state.meta.variants
        parts = rules_numbers.attack_parts(h, m, weapon, variants, slowed=slowed)
        p_hit = O.hit_chance(rules_numbers.total(parts), m.ac)
        amount, why = rules_numbers.damage_of(h, m, weapon, variants)
        ac = rules_numbers.armor_class(h, m, variants)
        p_monster = O.hit_chance(m.att, ac)
        p_first = O.initiative_chance(m)
        p_run = O.run_chance(m.att)
        if current:
            duel = view.duel_for(state, weapon, run_at=run_at)
        else:
            duel = view.hero_duel(state, h, m, weapon, run_at=run_at)
        if json_out:

            def fr(p: Any) -> str:
                return f"{p.numerator}/{p.denominator}"

            env.print_json(
                {
                    "hero": h.name,
                    "monster": m.name,
                    "weapon": weapon.name if weapon else None,
                    "hero_attack": rules_numbers.total(parts),
                    "hero_hits": fr(p_hit),
                    "hero_damage": amount,
                    "hero_first": fr(p_first),
                    "monster_hits": fr(p_monster),
                    "run_away": fr(p_run),
                    "run_at": run_at,
                    "duel": {k: fr(v) for k, v in duel.as_dict().items()},
                }
            )
            return
        with_text = f" with {weapon.name}" if weapon else ""
        from companion.cli.env import styled

        hero = f" (HP {h.hp}/{h.max_hp}, Att {rules_numbers.total(parts)}{with_text}, AC {ac}) vs "
        monster = f" (HP {monster_hp}/{m.hp}, Att {m.att}, AC {m.ac})"
        env.print(
            styled(
                "[bold]{h}[/bold]{hero}[bold]the {m}[/bold]{monster}", h=h.name, hero=hero, m=m.name, monster=monster
            )
        )
        env.print(f"  Initiative: {h.name} attacks first {fraction(p_first)} (ties rolled again)")
        dmg = f"{amount} damage" if amount else f"no damage: {why}"
        attack = rules_numbers.total(parts)
        env.print(f"  {possessive(h.name)} attack: 1d6 + {attack} ≥ {m.ac} → {fraction(p_hit)}, {dmg}")
        env.print(f"  The {m.name}'s attack: 1d6 + {m.att} ≥ {ac} → {fraction(p_monster)}")
        env.print(f"  Running away: 1d10 ≥ {m.att} → {fraction(p_run)}")
        plan = f"running at {run_at} HP or less" if run_at else "to the end"
        env.print(styled("  The whole fight, {plan}: [bold]{duel}[/bold]", plan=plan, duel=O.duel_text(duel)))
        if O.uses_note(weapon):
            env.print(f"  ({O.uses_note(weapon)})")
        for k, v in duel.as_dict().items():
            if v:
                env.print(f"    {k}: {fraction(v)}")


# ---- companion odds fight haunted-tower ----------------------------------------------------------


def odds_fight(
    ctx: typer.Context,
    monster: Annotated[
        list[str] | None,
        typer.Argument(help="The monster, as in the listing (default: the fight in progress).", show_default=False),
    ] = None,
    hero: Annotated[
        str | None, typer.Option("--hero", help="A hero of the game: their HP and numbers.", show_default=False)
    ] = None,
    with_: Annotated[
        str | None,
        typer.Option(
            "--with",
            "-w",
            help="The hero attacks with this item, or 'none' (default: the best one).",
            show_default=False,
        ),
    ] = None,
    hp: Annotated[int | None, typer.Option("--hp", help="The hero's HP now.", min=1, show_default=False)] = None,
    attack: Annotated[
        int | None,
        typer.Option("--attack", help="The hero's attack number, bonuses and −1 chits counted.", show_default=False),
    ] = None,
    ac: Annotated[int | None, typer.Option("--ac", help="The hero's armor class.", show_default=False)] = None,
    damage: Annotated[
        int | None,
        typer.Option("--damage", help="HP a hit takes off the monster (1; 0 if it cannot hurt it).", min=0),
    ] = None,
    monster_hp: Annotated[
        int | None, typer.Option("--monster-hp", help="The monster's HP now (default: the listing's).", min=1)
    ] = None,
    run_at: Annotated[
        int | None, typer.Option("--run-at", help="The hero runs away at this HP or less (0: never).", min=0)
    ] = None,
    items: Annotated[
        int | None, typer.Option("--items", help="Magic items the hero holds (the robber fly takes them).", min=0)
    ] = None,
    turn: Annotated[
        str | None,
        typer.Option(
            "--turn",
            help="Where the round stands: round (before initiative), hero-first, hero-last, monster-first, "
            "monster-last or monster-extra (its extra attack when the hero fails to run away).",
            metavar="WHERE",
            show_default=False,
        ),
    ] = None,
    drained: Annotated[
        bool, typer.Option("--drained", help="The monster has already given the hero its one −1 chit.")
    ] = False,
    slowed: Annotated[
        bool, typer.Option("--slowed", help="The carrion crawler's venom: −2 on the hero's next attack.")
    ] = False,
    run_fail_turn: Annotated[
        bool,
        typer.Option(
            "--run-fail-turn", help="The run-fail-turn variant: no extra attack when the hero fails to run away."
        ),
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """Exact odds of a duel with initiative: win, fall (a death), get away, and the hero's HP at the end.

    With a Haunted Tower game active and no monster named, the fight in progress as it stands (its
    hero, the monster's HP, where the round is, the best weapon); with --hero, that hero against the
    monster named. Without a game, give the hero's --hp, --attack and --ac (and, for a fight under
    way, --monster-hp, --turn and the rest, as an exported page names its big moments).
    """
    env: Env = ctx.obj
    from companion.cli.kit import active_game
    from companion.errors import InputError
    from companion.games.haunted_tower import data as D
    from companion.games.haunted_tower import view
    from companion.games.haunted_tower.data.monsters import find
    from companion.games.haunted_tower.odds import fight_outcome
    from companion.games.haunted_tower.rules import lookup
    from companion.sim.fights import show

    named = find(" ".join(monster)) if monster else None
    args: dict[str, Any] = {}
    who = "The hero"
    if active_game(env) == GAME and (named is None or hero is not None):
        with _session(env, read=True) as session:
            state = session.state
            g = lookup.game(state)
            if named is None and hero is None:
                _, h, named = lookup.fighting(state)  # no fight: one line saying how to start one
                weapon = attack_item(state, h, named, with_)
                args = view.fight_args(state, weapon, run_at=run_at or 0)
            else:
                if named is None:
                    raise InputError("name the monster, e.g. companion odds fight haunted-tower ghoul --hero Aria")
                h = lookup.find_hero(g, hero or "")
                weapon = attack_item(state, h, named, with_)
                args = view.duel_args(state, h, named, weapon, run_at=run_at or 0)
            if weapon is not None and weapon.use != "attack":
                raise InputError(f"{weapon.name} is not used to attack")
            who = h.name + (f" with {weapon.name}" if weapon else "")
    elif hero is not None or with_ is not None:
        raise InputError("--hero and --with need a Haunted Tower game; without one give --hp, --attack and --ac")
    if named is None:
        raise InputError(
            "name the monster and give the hero's numbers, e.g. "
            "companion odds fight haunted-tower ghoul --hp 6 --attack 3 --ac 5 (or start a fight in a game)"
        )
    from companion.games.haunted_tower.odds import TURNS

    if turn is not None and turn not in TURNS:
        raise InputError(f"--turn {turn!r}: give one of {', '.join(TURNS)}")
    given = {"hero_hp": hp, "hero_attack": attack, "hero_ac": ac, "hero_damage": damage, "monster_hp": monster_hp}
    given |= {"run_at": run_at, "items": items, "turn": turn}
    given |= {"drained": drained or None, "slowed": slowed or None, "free_attack": False if run_fail_turn else None}
    args |= {k: v for k, v in given.items() if v is not None}
    missing = [
        opt for key, opt in (("hero_hp", "--hp"), ("hero_attack", "--attack"), ("hero_ac", "--ac")) if key not in args
    ]
    if missing:
        raise InputError(f"give the hero's {', '.join(missing)} (the hero card's numbers), or --hero NAME in a game")
    args.setdefault("hero_damage", D.NORMAL_DAMAGE)
    show(env, fight_outcome(named, **args, hero=who), json_out)
