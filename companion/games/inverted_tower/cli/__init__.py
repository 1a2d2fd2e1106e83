"""``companion tower ...``: The Inverted Tower at the table, one command per thing that happened.

For players with paper and their own dice: each command records one event in the current session
(so undo, the Dungeon Log and the trackers see it), applies the draft's consequences, and prints the
hero's state, or JSON with ``--json``. ``companion tower odds`` gives exact fight odds.

Only typer is imported here at module level; everything else is imported when a command runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.session.service import Session

from companion.cli.common import JsonOpt

app = typer.Typer(
    help="The Inverted Tower at the table: record rooms, fights, treasure and levels by hand "
    "(guided play is companion play).",
    no_args_is_help=True,
)


GAME = "inverted-tower"


def _refuse(session: Session) -> Exception:
    from companion.errors import InputError

    return InputError(
        f"session {session.name!r} plays {session.meta.game}; the tower commands need an Inverted Tower session",
    )


def _record(ctx: typer.Context, event: dict[str, Any], json_out: bool, said: str = "") -> None:
    from companion.cli.kit import game_session

    env: Env = ctx.obj
    with game_session(env, GAME, _refuse) as session:
        session.record(event)
        _show(env, session, json_out, said)


def _show(env: Env, session: Session, json_out: bool, said: str = "") -> None:
    from companion.games.inverted_tower import rules

    state = session.state
    g = state.game
    t = state.trackers
    hp, xp, gold = t.counter("hp"), t.counter("xp"), t.counter("gold")
    room = rules.find_room(state, g.floor, g.at) if g.at else None
    here = room.line() if room is not None else None
    if json_out:
        fight = None
        if g.fight is not None:
            fight = {"normal": g.fight.normal, "strong": g.fight.strong or None, "killed": g.fight.killed}
        env.print_json(
            {
                "session": session.name,
                "hero": state.hero,
                "hp": hp.value,
                "max_hp": hp.max,
                "xp": xp.value,
                "level": t.level,
                "next_level_at": rules.xp_to_next(t.level),
                "points": g.points,
                "attributes": g.attributes,
                "floor": g.floor,
                "rooms_used": len(g.rooms),
                "room": here,
                "dagger": t.items.get("dagger", 0),
                "potion": t.items.get("potion", 0),
                "gold": gold.value,
                "fight": fight,
                "finished": state.finished,
            }
        )
        return
    from companion.cli.env import styled
    from companion.games.inverted_tower.data import wares
    from companion.i18n import ngettext

    if said:
        env.print(said)
    if here:
        env.print(f"Floor {g.floor}, {here}")
    attrs = " ".join(f"{a} {v}" for a, v in g.attributes.items())
    env.print(
        f"HP {hp.value}/{hp.max} · XP {xp.value}/{rules.xp_to_next(t.level)} (level {t.level}) · {attrs} · "
        f"{wares('dagger', t.items.get('dagger', 0))}, {wares('potion', t.items.get('potion', 0))}, {gold.value} gp · "
        f"floor {g.floor}, {len(g.rooms)}/12 rooms"
    )
    if g.points:
        points = ngettext("{n} level-up point to place:", "{n} level-up points to place:", g.points).format(n=g.points)
        env.print(styled("[bold]{points}[/bold] companion tower level STR|DEX|INT", points=points))
    if state.finished == "won":
        env.print("The Necromancer is slain. Victory!", style="bold green")
    elif state.finished == "lost":
        env.print("The hero is dead.", style="bold red")


@app.command("hero")
def hero(
    ctx: typer.Context,
    attribute: Annotated[
        str, typer.Argument(help="STR, DEX or INT: where the starting point goes.", show_default=False)
    ],
    name: Annotated[str | None, typer.Option("--name", help="The hero's name.", show_default=False)] = None,
    json_out: JsonOpt = False,
) -> None:
    """Make the hero: 1 point in an attribute, Max HP 5, a dagger and a potion."""
    event: dict[str, Any] = {"t": "tower-hero", "attribute": attribute}
    if name:
        event["name"] = name
    _record(ctx, event, json_out)


@app.command("room")
def room(
    ctx: typer.Context,
    kind: Annotated[
        str,
        typer.Argument(help="trap, merchant, bonfire, stairs, empty, mobs or boss.", show_default=False),
    ],
    details: Annotated[
        list[str] | None,
        typer.Argument(
            help="trap: ATTR passed|failed (trap INT failed); mobs: how many (mobs 2); boss: its minions (boss 4).",
            show_default=False,
        ),
    ] = None,
    elite: Annotated[bool, typer.Option("--elite", help="One of the mobs is an elite (a Lich).")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Record the next room of this floor.

    \b
    Examples:
      companion tower room trap INT failed
      companion tower room stairs
      companion tower room mobs 3 --elite
    """
    from companion.errors import InputError

    words = [w.lower() for w in (details or [])]
    event: dict[str, Any] = {"t": "tower-room", "kind": kind.lower()}
    k = kind.lower()
    if k == "trap":
        if len(words) != 2:
            raise InputError("a trap needs its attribute and the result: companion tower room trap INT failed")
        result = {"pass": "passed", "passed": "passed", "fail": "failed", "failed": "failed"}.get(words[1])
        if result is None:
            raise InputError(f"{words[1]!r} is not a trap result; use passed or failed")
        event |= {"attribute": words[0], "result": result}
    elif k in ("mobs", "boss"):
        if len(words) != 1 or not words[0].isdigit():
            what = "how many mobs (1-3)" if k == "mobs" else "how many minions (2 or 4)"
            raise InputError(f"{k} needs {what}, e.g. companion tower room {k} 2")
        event["mobs" if k == "mobs" else "minions"] = int(words[0])
        if elite:
            event["elite"] = True
    elif words:
        raise InputError(f"a {k} room takes nothing more (got {' '.join(words)!r})")
    if elite and k != "mobs":
        raise InputError("--elite is for an encounter: companion tower room mobs N --elite")
    _record(ctx, event, json_out)


@app.command("back")
def back(
    ctx: typer.Context,
    number: Annotated[int, typer.Argument(help="The known room you go back to.", min=1, max=12, show_default=False)],
    mobs: Annotated[
        int, typer.Option("--mobs", help="Wandering monsters met there (the DC passed): 1-3.", min=0, max=3)
    ] = 0,
    elite: Annotated[bool, typer.Option("--elite", help="One of them is an elite (a Lich).")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Go back to a known room, meeting wandering monsters there or not.

    \b
    Examples:
      companion tower back 3             no wandering monsters
      companion tower back 2 --mobs 2    two wandering monsters
    """
    from companion.errors import InputError

    if elite and not mobs:
        raise InputError("--elite needs --mobs N")
    event: dict[str, Any] = {"t": "tower-back", "room": number}
    if mobs:
        event["mobs"] = mobs
        if elite:
            event["elite"] = True
    _record(ctx, event, json_out)


@app.command("kill")
def kill(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """A combat roll passed: the foe in front dies (1 XP, 2 for an elite or a boss)."""
    _record(ctx, {"t": "tower-kill"}, json_out)


@app.command("fail")
def fail(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """A combat roll failed: lose 1 HP (2 against an elite or a boss with elites-deal-2)."""
    _record(ctx, {"t": "tower-fail"}, json_out)


TREASURE_WORDS = {"gp": "gold", "gold": "gold", "1gp": "gold", "dagger": "dagger", "potion": "potion"}


@app.command("treasure")
def treasure(
    ctx: typer.Context,
    what: Annotated[
        str, typer.Argument(help="gp, dagger or potion, or the DR you rolled (1-4 gp, 5 dagger, 6 potion).")
    ],
    json_out: JsonOpt = False,
) -> None:
    """Record treasure after a won encounter or a passed trap."""
    from companion.errors import InputError
    from companion.games.inverted_tower.rules.tables import TREASURE_BY_TOTAL

    w = what.strip().lower()
    if w.isdigit() and 1 <= int(w) <= 6:
        item = TREASURE_BY_TOTAL[int(w)][0]
    elif w in TREASURE_WORDS:
        item = TREASURE_WORDS[w]
    else:
        raise InputError(f"{what!r} is not a treasure; use gp, dagger, potion or the DR you rolled (1-6)")
    _record(ctx, {"t": "tower-treasure", "what": item}, json_out)


@app.command("down")
def down(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """Take the stairs to the next floor."""
    _record(ctx, {"t": "tower-down"}, json_out)


@app.command("level")
def level(
    ctx: typer.Context,
    attribute: Annotated[str, typer.Argument(help="STR, DEX or INT.", show_default=False)],
    json_out: JsonOpt = False,
) -> None:
    """Place a level-up point in an attribute."""
    _record(ctx, {"t": "tower-level", "attribute": attribute}, json_out)


@app.command("potion")
def potion(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """Drink a potion: heal to Max HP."""
    _record(ctx, {"t": "tower-potion"}, json_out)


def _trade(op: str):
    def command(
        ctx: typer.Context,
        item: Annotated[str, typer.Argument(help="dagger or potion.", show_default=False)],
        n: Annotated[int, typer.Argument(help="How many.", min=1, max=99)] = 1,
        json_out: JsonOpt = False,
    ) -> None:
        _record(ctx, {"t": "tower-trade", "op": op, "item": item.lower().rstrip("s"), "n": n}, json_out)

    command.__doc__ = {
        "buy": "Buy daggers or potions from the merchant (5 gp each).",
        "sell": "Sell daggers or potions to the merchant (only with the merchant-buys variant).",
    }[op]
    return command


app.command("buy")(_trade("buy"))
app.command("sell")(_trade("sell"))


def _dagger_plan(text: str) -> int | tuple[int, ...]:
    """``--daggers``: ``N`` (one on each of the first N rolls) or a plan, daggers on each roll (``2,0,1``)."""
    from companion.errors import InputError

    parts = [p.strip() for p in text.split(",")]
    if not all(p.isdigit() for p in parts) or len(parts) > 20 or any(int(p) > 20 for p in parts):
        raise InputError(f"--daggers {text!r}: give N (0-20) or daggers on each roll, e.g. 2,0,1")
    return int(parts[0]) if len(parts) == 1 else tuple(int(p) for p in parts)


@app.command("odds")
def odds(
    ctx: typer.Context,
    mobs: Annotated[int, typer.Option("--mobs", help="Skeleton Warriors (or a boss's minions).", min=0, max=20)] = 1,
    elite: Annotated[bool, typer.Option("--elite", help="Plus a Lich (fought last).")] = False,
    boss: Annotated[bool, typer.Option("--boss", help="Plus a boss (fought last, after its minions).")] = False,
    attribute: Annotated[
        str | None,
        typer.Option(
            "--attr", help="STR/DEX/INT (your hero's value) or a number (default: your best).", show_default=False
        ),
    ] = None,
    hp: Annotated[
        int | None, typer.Option("--hp", help="HP (default: your hero's).", min=1, max=99, show_default=False)
    ] = None,
    floor: Annotated[
        int | None, typer.Option("--floor", help="The floor (default: your hero's).", min=1, max=10, show_default=False)
    ] = None,
    daggers: Annotated[
        str,
        typer.Option(
            "--daggers",
            help="Daggers to spend: N, one a roll from the first; or how many on each roll, e.g. 2,0,1.",
            metavar="N|PLAN",
        ),
    ] = "0",
    variant: Annotated[
        list[str] | None,
        typer.Option("--variant", "-V", help="A variant (default: the session's).", show_default=False),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Exact odds of a fight: the chance to win, to die, the HP left and its chart (no potion counted).

    Also companion odds fight inverted-tower. With an Inverted Tower session active, HP, the floor,
    the attributes and the variants default to the hero's.
    """
    from companion.cli.kit import active_game, opened
    from companion.errors import InputError
    from companion.games.inverted_tower import data
    from companion.games.inverted_tower.odds import fight_outcome
    from companion.sim.fights import show, to_json

    env: Env = ctx.obj
    attrs: dict[str, int] = {}
    variants = list(variant or [])
    session_hp = session_floor = None
    if active_game(env) == "inverted-tower":
        with opened(env, read=True) as session:
            state = session.state
            attrs = dict(state.game.attributes)
            session_hp = state.trackers.counter("hp").value
            session_floor = state.trackers.floor
            if variant is None:
                variants = list(session.meta.variants)
    unknown = [v for v in variants if v not in data.VARIANTS]
    if unknown:
        raise InputError(f"{unknown[0]!r} is not a variant; variants: {', '.join(data.VARIANTS)}")
    if elite and boss:
        raise InputError("a fight has one strong foe at most: --elite or --boss")
    if attribute is None:
        value = max(attrs.values()) if attrs else 0
        label = "best attribute" if attrs else "attribute"
    elif attribute.lstrip("-").isdigit():
        value, label = int(attribute), "attribute"
    else:
        key = attribute.strip().upper()
        if key not in data.ATTRIBUTES:
            raise InputError(f"{attribute!r} is not STR, DEX, INT or a number")
        if not attrs:
            raise InputError(f"no Inverted Tower session is active to read {key} from: give --attr as a number")
        value, label = attrs[key], key
    plan = _dagger_plan(daggers)
    hp_ = hp if hp is not None else (session_hp or data.START_MAX_HP)
    floor_ = floor if floor is not None else (session_floor or 1)
    o = fight_outcome(hp_, value, floor_, mobs, elite=elite, boss=boss, daggers=plan, variants=variants, label=label)
    if json_out:
        out = to_json(o)
        ends = out["charts"][0]["rows"]
        # The keys this command printed before it joined ``companion odds fight``, kept for scripts.
        out.update(
            {
                "hp": hp_,
                "attribute": value,
                "floor": floor_,
                "mobs": mobs,
                "elite": elite,
                "boss": boss,
                "daggers": plan if isinstance(plan, int) else list(plan),
                "variants": variants,
                "hp_distribution": {row["label"].replace("dead", "0"): row["chance"] for row in ends},
            }
        )
        env.print_json(out)
        return
    show(env, o, json_out=False)
