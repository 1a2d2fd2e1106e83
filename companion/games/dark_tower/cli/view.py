"""``companion dark status`` and ``odds``, and ``companion odds fight dark-tower``: the table as it stands, the odds.

Registered on ``companion dark`` by :mod:`companion.games.dark_tower.cli`; only typer is imported at
module level.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from companion.games.dark_tower.cli.common import (
    JsonOpt,
    _env,
    _session,
    _shown_in,
)
from companion.i18n import _, pair, quote

app = typer.Typer()


@app.command("status")
def status_cmd(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """The table: the floor and its deck, each hero's health, level, energy and items, what comes next."""
    from companion.games.dark_tower import view

    env = _env(ctx)
    with _session(ctx, read=True) as session:
        if json_out:
            env.print_json(view.status_json(session.state))
            return
        from companion.shell.panels import status_panel

        with _shown_in(ctx, session):
            env.print(status_panel(session))


@app.command("odds")
def odds_cmd(
    ctx: typer.Context,
    what: Annotated[str, typer.Argument(help="check or fight.", show_default=False)],
    numbers: Annotated[
        list[int] | None,
        typer.Argument(help="check: VALUE; fight: BONUS STRENGTH.", show_default=False),
    ] = None,
    dice: Annotated[
        int | None,
        typer.Option("--dice", help="Dice rolled (3 for a check, 4 for a fight).", min=1, max=12, show_default=False),
    ] = None,
    boost: Annotated[
        list[str] | None,
        typer.Option(
            "--boost", help="fight: an activated spell BONUS[:COST] the ★ can cast (repeat).", show_default=False
        ),
    ] = None,
    health: Annotated[
        int | None,
        typer.Option("--health", help="fight: the roller's health, for the chance to fall.", show_default=False),
    ] = None,
    max_health: Annotated[
        int | None,
        typer.Option(
            "--max-health", help="fight: the most health the ♥ can heal to (default: --health).", show_default=False
        ),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Exact odds: 3 dice over a check value, or 4 dice bringing a bonus above a monster's strength."""
    from companion.dice.render import fraction
    from companion.errors import InputError
    from companion.games.dark_tower import data, odds
    from companion.i18n import _, ngettext

    env = _env(ctx)
    nums = numbers or []

    def frac(p: Any) -> str:
        return f"{p.numerator}/{p.denominator}"

    if what in ("check", "проверка"):
        if len(nums) != 1:
            raise InputError(_("odds check takes the check VALUE, e.g. companion dark odds check 5"))
        co = odds.check_odds(nums[0], dice or data.CHECK_DICE)
        if json_out:
            env.print_json(
                {
                    "check": co.check,
                    "dice": co.dice,
                    "pass": frac(co.passed),
                    "hearts": {str(k): frac(v) for k, v in co.hearts.items()},
                }
            )
            return
        env.print(
            ngettext(
                "{n} die, numbers more than {check}: pass {odds}",
                "{n} dice, numbers more than {check}: pass {odds}",
                co.dice,
            ).format(n=co.dice, check=co.check, odds=fraction(co.passed))
        )
        env.print("  ♥ " + ", ".join(pair(k, odds_pct(v)) for k, v in co.hearts.items()))
        return
    if what not in ("fight", "бой"):
        raise InputError(_("{what!r}: use check or fight").format(what=what))
    if len(nums) != 2:
        raise InputError(_("odds fight takes BONUS STRENGTH, e.g. companion dark odds fight 4 9"))
    boosts = []
    for b in boost or []:
        v, _sep, c = b.partition(":")
        try:
            boosts.append((int(v), int(c) if c else 1))
        except ValueError:
            raise InputError(_("{text!r} is not BONUS[:COST], e.g. 4:1").format(text=b)) from None
    fo = odds.fight_odds(nums[0], nums[1], dice or data.FIGHT_DICE, boosts)
    top = max(health or 0, max_health or 0)
    fall = odds.fall_chance(fo, health, top) if health else None
    if json_out:
        env.print_json(
            {
                "bonus": nums[0],
                "strength": nums[1],
                "dice": fo.dice,
                "boosts": [list(b) for b in boosts],
                "win": frac(fo.win),
                "tie": frac(fo.tie),
                "damage": {str(k): frac(v) for k, v in fo.damage.items()},
                "hearts": {str(k): frac(v) for k, v in fo.hearts.items()},
                "energy": {str(k): frac(v) for k, v in fo.energy.items()},
                "fall": frac(fall) if fall is not None else None,
            }
        )
        return
    head = (
        ngettext(
            "{n} die {bonus} vs {strength}: win {win} · tie {tie} (no damage)",
            "{n} dice {bonus} vs {strength}: win {win} · tie {tie} (no damage)",
            fo.dice,
        )
        if fo.tie
        else ngettext(  # no tie can happen: none is shown as 0.0%
            "{n} die {bonus} vs {strength}: win {win}", "{n} dice {bonus} vs {strength}: win {win}", fo.dice
        )
    )
    env.print(
        head.format(n=fo.dice, bonus=f"{nums[0]:+d}", strength=nums[1], win=fraction(fo.win), tie=odds_pct(fo.tie))
    )
    damage = [pair(k, odds_pct(v)) for k, v in fo.damage.items() if k and v]
    env.print("  " + (_("damage: {list}").format(list=", ".join(damage)) if damage else _("damage: none possible")))
    env.print("  ♥ " + ", ".join(pair(k, odds_pct(v)) for k, v in fo.hearts.items()))
    env.print("  ★ " + ", ".join(pair(k, odds_pct(v)) for k, v in fo.energy.items()))
    if fall is not None:
        env.print(
            "  "
            + _("the roller at {health}/{max} health falls (♥ heal first): {p}").format(
                health=health, max=top, p=fraction(fall)
            )
        )


def odds_pct(p: Any) -> str:
    """``12.5%``; a possible outcome never reads 0.0% (``<0.1%``): the rule every chance follows."""
    from fractions import Fraction

    from companion.dice.odds import percent

    return percent(Fraction(p))


def _health(text: str, option: str) -> tuple[int, int]:
    """``4`` or ``4/6`` (health, max health), or one clear error."""
    from companion.errors import InputError

    now, _sep, top = text.partition("/")
    try:
        health = int(now)
        most = int(top) if top else health
    except ValueError:
        raise InputError(
            _("{option} {text}: give HEALTH or HEALTH/MAX, e.g. 4/6").format(option=option, text=quote(text))
        ) from None
    if health < 0 or most < health or most > 99:
        raise InputError(
            _("{option} {text}: health is 0 to MAX, and MAX at most 99").format(option=option, text=quote(text))
        )
    return health, most


def odds_fight(
    ctx: typer.Context,
    bonus: Annotated[
        int | None,
        typer.Option(
            "--bonus", help="The heroes' total combat bonus (default: the fight on the table).", show_default=False
        ),
    ] = None,
    strength: Annotated[
        list[int] | None,
        typer.Option(
            "--strength",
            help="The monster's strength; repeat it for a group (their strengths add up).",
            show_default=False,
        ),
    ] = None,
    dice: Annotated[
        int | None,
        typer.Option("--dice", help="Dice rolled (4, plus one per extra die).", min=1, max=12, show_default=False),
    ] = None,
    boost: Annotated[
        list[str] | None,
        typer.Option("--boost", help="An activated spell BONUS[:COST] the ★ can cast (repeat).", show_default=False),
    ] = None,
    health: Annotated[
        str | None,
        typer.Option("--health", help="The roller's HEALTH[/MAX], for the chance to fall.", show_default=False),
    ] = None,
    helper: Annotated[
        str | None,
        typer.Option("--helper", help="A helper's HEALTH[/MAX] (no hearts heal a helper).", show_default=False),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Exact odds of a fight against a monster or a group: beaten, tie, damage, the health left.

    With a Dark Tower session in a fight, what you leave out comes from the fight on the table as it
    stands (the roller alone, no single-use item): its bonus, strength, dice, spells and health.
    """
    from companion.cli.kit import active_game
    from companion.errors import InputError
    from companion.games.dark_tower import data
    from companion.games.dark_tower.odds import fight_outcome
    from companion.games.dark_tower.rules import fights as rules_fights
    from companion.games.dark_tower.rules import lookup
    from companion.sim.fights import show

    env = _env(ctx)
    boosts: list[tuple[int, int]] | None = None
    if boost is not None:
        boosts = []
        for b in boost:
            v, _sep, c = b.partition(":")
            try:
                boosts.append((int(v), int(c) if c else data.DEFAULT_SPELL_COST))
            except ValueError:
                raise InputError(_("--boost {text}: give BONUS[:COST], e.g. 4:1").format(text=quote(b))) from None
    roller = _health(health, "--health") if health is not None else None
    table: dict[str, Any] = {}
    if (bonus is None or strength is None) and active_game(env) == "dark-tower":
        with _session(ctx, read=True) as session:
            state = session.state
            g = state.game
            if g.phase == "fight" and g.group:
                fb = rules_fights.fight_bonus(state, rules_fights.Plan())
                hero = g.current()
                table = {
                    "bonus": fb.total,
                    "strength": [lookup.monster_card(state, m).strength for m in g.group],
                    "dice": fb.dice,
                    "boosts": rules_fights.boosts(state, fb),
                    "health": (hero.health, hero.max_health),
                }
    if bonus is None:
        bonus = table.get("bonus")
    if not strength:
        strength = table.get("strength")
    if bonus is None or not strength:
        raise InputError(
            _(
                "give --bonus and --strength (no Dark Tower fight is on the table to read them from), "
                "e.g. companion odds fight dark-tower --bonus 3 --strength 9"
            )
        )
    if any(s < 0 for s in strength):
        raise InputError(_("a strength cannot be negative"))
    if roller is None:
        roller = table.get("health")
    o = fight_outcome(
        bonus,
        strength,
        dice or table.get("dice") or data.FIGHT_DICE,
        boosts if boosts is not None else table.get("boosts", ()),
        health=roller[0] if roller else None,
        max_health=roller[1] if roller else None,
        helper=_health(helper, "--helper") if helper is not None else None,
    )
    show(env, o, json_out)
