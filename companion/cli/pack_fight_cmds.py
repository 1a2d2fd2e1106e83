"""``companion fight start|round|luck|flee|end``: a table pack's fight played round by round, and
``companion odds fight pack FIGHT``: its exact odds.

Each step is one ``"t": "fight"`` event holding its rolls and what they did
(:mod:`companion.session.pack_fight` folds it); the rules are :mod:`companion.packs.fight_rules`', and
nothing is recorded when a step is refused. Only typer is imported at module level.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.cli.common import JsonOpt

if TYPE_CHECKING:
    from companion.cli import pack_fight
    from companion.cli.env import Env
    from companion.dice.roll import Roll
    from companion.packs.fight_model import Linear
    from companion.packs.fight_rules import Board, Position

EPILOG = """\
\b
Examples:
  companion new freeform --name keep --seed 4 --tables examples/tables/ashen-keep.toml --got 3/3,3/4
  companion odds fight pack sword --foe ghoul
  companion fight start sword --foe ghoul
  companion fight round --got 4,5/3,3
  companion fight luck --got 6,6
  companion fight round
  companion fight
  companion fight flee
  companion fight start sword --foe "Cave troll" SKILL=9 STAMINA=10
  companion fight end
"""

app = typer.Typer(rich_markup_mode=None)
fight_app = typer.Typer(
    help="A fight from your table pack, round by round, with the odds before each (see docs/tables.md).",
    epilog=EPILOG,
    invoke_without_command=True,
    rich_markup_mode=None,
)
app.add_typer(fight_app, name="fight")

GotOpt = Annotated[
    str | None,
    typer.Option(
        "--got",
        help="The faces you rolled: yours, then the foe's, separated by / (4,5/3,3); a table fight's one die.",
        show_default=False,
    ),
]


@fight_app.callback()
def fight_root(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """The fight in progress: both sides' numbers and the odds (alone; see the commands below)."""
    if ctx.invoked_subcommand is not None:
        return
    env: Env = ctx.obj
    from companion.cli import pack_fight
    from companion.cli.kit import opened
    from companion.i18n import _

    with opened(env) as session:
        state = session.state.trackers.fight
        if state is None:
            if json_out:
                env.print_json({"fight": None, "session": session.name})
                return
            env.echo(_("No fight is in progress. Start one with: companion fight start NAME --foe NAME"))
            return
        play = pack_fight.Play(env, session)
    _report(env, play, None, [], json_out, shown=False)


@fight_app.command("start")
def start_cmd(
    ctx: typer.Context,
    name: Annotated[
        str, typer.Argument(help="The fight: a [fights.NAME] of your pack (sword, PACK/sword).", show_default=False)
    ],
    numbers: Annotated[
        list[str] | None,
        typer.Argument(
            help="The foe's numbers, NAME=N (SKILL=9 STAMINA=10): a foe of your own, or changes.", show_default=False
        ),
    ] = None,
    foe: Annotated[
        str | None,
        typer.Option("--foe", help="The foe: a name from the pack's [foes], or one of your own.", show_default=False),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Start a fight against a foe: its numbers from [foes] or given as NAME=N."""
    env: Env = ctx.obj
    from companion.cli import pack_fight
    from companion.cli.kit import opened
    from companion.errors import InputError
    from companion.i18n import _
    from companion.packs import fight_play
    from companion.packs.fight_model import FOE, YOU

    with opened(env) as session:
        going = session.state.trackers.fight
        if going is not None:
            raise InputError(
                _("a fight is in progress already (against {foe}); fight round plays it, fight end ends it").format(
                    foe=going.foe
                )
            )
        pack, fight = pack_fight.lookup(env, name)
        check = pack_fight.luck_check(pack, fight)
        foe_name, values = pack_fight.foe_values(pack, fight, foe, numbers)
        you, you_max = pack_fight.yours(pack, fight, check, session)
        theirs, their_max = pack_fight.foe_refs(fight, check, values)
        board = fight_play.board(fight, check, {**you_max, **their_max})
        pos = board.position({**you, **theirs})
        over = board.ended(pos)
        if over is not None:
            raise InputError(
                _("fight {fight} is over before it starts ({until} holds already); check the numbers").format(
                    fight=fight.name, until=fight.until.text
                )
            )
        before = len(session.state.log.entries)
        # Each side's trackers of until first: the bar shows them as the figures' health.
        bounds = {c.ref.key for c in fight.until.clauses}
        mine = [[r.key, r.label] for r in sorted(board.refs, key=lambda r: r.key not in bounds) if r.side == YOU]
        session.record(
            {"t": "fight", "op": "start", "pack": pack.name, "fight": fight.name, "title": fight.title,
             "foe": foe_name, "values": values, "you": mine,
             "bounds": [c.ref.key for c in fight.until.side(FOE)]}
        )  # fmt: skip
        play = pack_fight.Play(env, session)
        entries = session.state.log.entries[before:]
    _report(env, play, None, entries, json_out)


def _parts(board: Board, lin: Linear, pos: Position) -> tuple[tuple[str, int], ...]:
    from companion.i18n import _

    out = [(ref.text, sign * pos[board.index[ref]]) for sign, ref in lin.refs]
    if lin.const:
        out.append((_("bonus"), lin.const))
    return tuple(out)


def _payload(roll: Roll, why: str) -> dict[str, Any]:
    from companion.session.fold import roll_payload

    out: dict[str, Any] = {"expr": str(roll.expr), **roll_payload(roll)}
    mod = roll.modifier - roll.expr.const
    if mod:
        out["mod"] = mod
    if roll.parts:
        out["parts"] = [list(p) for p in roll.parts]
    out["why"] = why
    return out


def _gots(got: str | None, n: int, example: str) -> list[str | None]:
    from companion.errors import InputError
    from companion.i18n import _

    if got is None:
        return [None] * n
    parts = [g.strip() or None for g in got.split("/")]
    if len(parts) > n:
        raise InputError(
            _("--got gives {given} rolls and this takes {n}; give them separated by /, e.g. --got {example}").format(
                given=len(parts), n=n, example=example
            )
        )
    return parts + [None] * (n - len(parts))


@fight_app.command("round")
def round_cmd(ctx: typer.Context, got: GotOpt = None, json_out: JsonOpt = False) -> None:
    """Play a round: both sides roll (or take the faces you rolled), the round's loser pays."""
    env: Env = ctx.obj
    from companion.cli import pack_fight
    from companion.cli.kit import Roller, opened
    from companion.i18n import _, owned
    from companion.packs import fight_play

    with opened(env) as session:
        play = pack_fight.Play(env, session)
        fight, board, pos, state = play.fight, play.board, play.pos, play.state
        roller = Roller(env, session)
        n = state.rounds + 1
        if fight.kind == "opposed":
            mine, theirs = _gots(got, 2, "4,5/3,3")
            a_mod, b_mod = board.value(fight.attack, pos), board.value(fight.foe_attack, pos)  # type: ignore[arg-type]
            why_a = _("Round {n}: your attack").format(n=n)
            why_b = owned(_("Round {n}: {foe}'s attack").format(n=n, foe=state.foe), state.foe)
            a = roller.roll(fight.attack.expr, mine, why_a, a_mod, _parts(board, fight.attack, pos))  # type: ignore[union-attr, arg-type]
            b = roller.roll(fight.foe_attack.expr, theirs, why_b, b_mod, _parts(board, fight.foe_attack, pos))  # type: ignore[union-attr, arg-type]
            result, step = fight_play.opposed_round(fight, board, pos, a.total, b.total)
            event: dict[str, Any] = {"rolls": [_payload(a, why_a), _payload(b, why_b)], "totals": [a.total, b.total]}
        else:
            (mine,) = _gots(got, 1, "7")
            why = _("Round {n}").format(n=n)
            roll = roller.roll(fight.expr, mine, why)  # type: ignore[arg-type]
            where, step = fight_play.table_round(fight, board, pos, roll.total)
            result = "table"
            event = {"rolls": [_payload(roll, why)], "table": where}
        event = {"t": "fight", "op": "round", **event, "result": result, "effects": step.effects, "end": step.end}
        entries = _record(session, event)
        play = pack_fight.Play(env, session) if step.end is None else _ended(play, step)
    _report(env, play, event, entries, json_out)


def _record(session: Any, event: dict[str, Any]) -> list[dict[str, Any]]:
    before = len(session.state.log.entries)
    session.record(event)
    return session.state.log.entries[before:]


def _ended(play: pack_fight.Play, step: Any) -> pack_fight.Play:
    play.pos = step.pos
    play.state = None
    return play


@fight_app.command("luck")
def luck_cmd(ctx: typer.Context, got: GotOpt = None, json_out: JsonOpt = False) -> None:
    """Test your LUCK on the round just played: lucky, the wound is worse (or yours lighter)."""
    env: Env = ctx.obj
    from companion.cli import pack_fight
    from companion.cli.kit import Roller, opened
    from companion.errors import InputError
    from companion.i18n import _
    from companion.packs import fight_play
    from companion.packs.rolling import check_expr

    with opened(env) as session:
        play = pack_fight.Play(env, session)
        fight, state, check = play.fight, play.state, play.check
        if fight.luck is None or check is None:
            raise InputError(
                _("fight {fight} has no LUCK test (the pack gives it no luck = {{ ... }})").format(fight=fight.name)
            )
        if state.last is None:
            raise InputError(_("no round is played yet: fight round first, then fight luck on its wound"))
        if state.last == "tie":
            raise InputError(
                _("round {n} was a tie: no wound to test LUCK on; fight round plays the next").format(n=state.rounds)
            )
        if state.tested:
            raise InputError(
                _("the LUCK test after round {n} is taken; fight round plays the next").format(n=state.rounds)
            )
        target = None
        if check.tracker is not None:
            target = session.state.trackers.counters[check.tracker.key].value
        expr = check_expr(check, target)
        why = check.title + (f" ({check.tracker.name} {target})" if check.tracker is not None else "")
        roll = Roller(env, session).roll(expr, got, why)
        passed = bool(roll.success)
        step = fight_play.luck(fight, check, play.board, play.pos, state.last, passed)
        event = {"t": "fight", "op": "luck", "check": check.name, "rolls": [_payload(roll, why)], "passed": passed,
                 "effects": step.effects, "end": step.end}  # fmt: skip
        entries = _record(session, event)
        play = pack_fight.Play(env, session) if step.end is None else _ended(play, step)
    _report(env, play, event, entries, json_out)


@fight_app.command("flee")
def flee_cmd(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """Flee the fight, where the pack allows it, paying what it costs."""
    env: Env = ctx.obj
    from companion.cli import pack_fight
    from companion.cli.kit import opened
    from companion.errors import InputError
    from companion.i18n import _
    from companion.packs import fight_play

    with opened(env) as session:
        play = pack_fight.Play(env, session)
        if play.fight.flee is None:
            raise InputError(_("fight {fight} cannot be fled: the pack gives it no flee").format(fight=play.fight.name))
        step = fight_play.flee(play.fight, play.board, play.pos)
        event = {"t": "fight", "op": "flee", "effects": step.effects, "end": step.end}
        entries = _record(session, event)
        play = _ended(play, step)
    _report(env, play, event, entries, json_out)


@fight_app.command("end")
def end_cmd(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """End the fight in progress by hand (the book ends it: after 3 rounds, turn to 45)."""
    env: Env = ctx.obj
    from companion.cli import pack_fight
    from companion.cli.kit import opened

    with opened(env) as session:
        play = pack_fight.Play(env, session)
        event = {"t": "fight", "op": "end"}
        entries = _record(session, event)
        play.state = None
    _report(env, play, {**event, "end": "stopped"}, entries, json_out)


def _report(
    env: Env, play: pack_fight.Play, event: dict[str, Any] | None, entries: list, json_out: bool, shown: bool = True
) -> None:
    from companion.cli import pack_fight
    from companion.packs.fight_play import sides

    over = event.get("end") if event else None
    you, foe = sides(play.board, play.pos)
    line = None
    if over is None:
        values = play.board.values(play.pos)
        odds_refs = {r: v for r, v in values.items()}
        line = pack_fight.odds_line(play.fight, play.check, odds_refs, play.maxes)
    if json_out:
        data: dict[str, Any] = {
            "fight": play.fight.name,
            "pack": play.pack.name,
            "foe": play.state.foe if play.state is not None else None,
            "you": you,
            "foe_numbers": foe,
            "over": over,
            "session": play.session.name,
        }
        if event is not None:
            data.update({k: event[k] for k in ("op", "result", "totals", "table", "passed") if k in event})
            data["rolls"] = event.get("rolls", [])
            data["effects"] = event.get("effects", [])
        if play.state is not None:
            data["rounds"] = play.state.rounds
        data["odds"] = line
        env.print_json(data)
        return
    from companion.cli.kit import print_entries

    if shown:
        print_entries(env, entries)
    else:
        state = play.state
        from companion.i18n import _

        assert state is not None
        env.echo(_("{title}, after round {n}").format(title=play.fight.title, n=state.rounds))
        env.echo(f"  {state.foe}: " + ", ".join(f"{k} {v}" for k, v in foe.items()))
        env.echo("  " + _("You: {numbers}").format(numbers=", ".join(f"{k} {v}" for k, v in you.items())))
    if line is not None:
        from rich.text import Text

        from companion.shell.panels import hanging

        env.print(hanging(Text("  " + line, style="bold")))
        env.print(hanging(Text("  " + _next(play), style="dim")))


def _next(play: pack_fight.Play) -> str:
    from companion.i18n import _

    steps = ["companion fight round"]
    state = play.state
    if play.fight.luck is not None and state is not None and state.last in ("win", "lose") and not state.tested:
        steps.append("companion fight luck")
    if play.fight.flee is not None:
        steps.append("companion fight flee")
    return _("Next: {steps}").format(steps=", ".join(steps))


# ---- companion odds fight pack -----------------------------------------------------------------------


def odds_fight(
    ctx: typer.Context,
    fight: Annotated[
        str | None,
        typer.Argument(help="The fight (sword, PACK/sword); left out: the fight in progress.", show_default=False),
    ] = None,
    numbers: Annotated[
        list[str] | None, typer.Argument(help="The foe's numbers, NAME=N (SKILL=9 STAMINA=10).", show_default=False)
    ] = None,
    foe: Annotated[
        str | None, typer.Option("--foe", help="The foe: from the pack's [foes], or your own.", show_default=False)
    ] = None,
    sets: Annotated[
        list[str] | None,
        typer.Option("--set", help="One of your numbers for these odds, NAME=N (repeat).", show_default=False),
    ] = None,
    flee_at: Annotated[
        int | None,
        typer.Option("--flee-at", help="Count fleeing once your tracker of until is at N or less.", show_default=False),
    ] = None,
    tables: Annotated[
        str | None,
        typer.Option(
            "--tables", help="A pack file to read the fight from (default: your session's packs).", show_default=False
        ),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """A pack fight's exact odds: win, lose, flee, each side's STAMINA left, the rounds; never and always testing LUCK.

    \b
    Examples:
      companion odds fight pack blade --tables examples/tables/salt-road.toml --foe raider
      companion odds fight pack blade --tables examples/tables/salt-road.toml --foe Bandit COMBAT=14 ENDURANCE=18
      companion odds fight pack blade --tables examples/tables/salt-road.toml --foe djinn --set ENDURANCE=12 --flee-at 4
      companion odds fight pack blade --tables examples/tables/salt-road.toml --foe raider --flee-at 6
    """
    env: Env = ctx.obj
    from contextlib import ExitStack

    from companion.cli import pack_fight
    from companion.cli.kit import active_name, opened
    from companion.errors import InputError
    from companion.i18n import _
    from companion.packs.fight_outcome import both_policies, odds_json, outcome

    sets_given = pack_fight.numbers(sets, "--set")
    with ExitStack() as stack:  # the session (if one is active) is read under its lock, the odds counted after
        session = stack.enter_context(opened(env)) if active_name(env) is not None else None
        going = session.state.trackers.fight if session is not None else None
        if tables is not None:
            from companion.cli.pack_use import resolve

            pack = resolve(env, tables)
            if fight is None or fight.lower().rpartition("/")[2] not in pack.fights:
                known = ", ".join(pack.fights) or _("none")
                raise InputError(
                    _("{pack} has no fight {name!r}; its fights: {known}").format(
                        pack=pack.name, name=fight or "", known=known
                    )
                )
            f = pack.fights[fight.lower().rpartition("/")[2]]
            going = None
        elif fight is None:
            if going is None:
                raise InputError(
                    _("name a fight: companion odds fight pack FIGHT --foe NAME (no fight is in progress)")
                )
            pack, f = pack_fight.in_progress(env, going)
        else:
            pack, f = pack_fight.lookup(env, fight)
        check = pack_fight.luck_check(pack, f)
        if foe is None and not numbers and going is not None and (going.pack, going.fight) == (pack.name, f.name):
            foe_name = going.foe
            theirs, their_max = pack_fight.state_refs(f, check, going)
        else:
            foe_name, values = pack_fight.foe_values(pack, f, foe, numbers)
            theirs, their_max = pack_fight.foe_refs(f, check, values)
        mine = session if tables is None else None  # a pack file read apart: its own starting numbers
        you, you_max, notes = pack_fight.your_numbers(pack, f, check, mine, sets_given)
    values_all = {**you, **theirs}
    maxes = {**you_max, **their_max}
    never, always = both_policies(f, values_all, maxes, check, flee_at)
    if json_out:
        data = odds_json(f, pack, foe_name, values_all, never, always)
        if notes:
            data["notes"] = notes
        env.print_json(data)
        return
    from companion.sim.fights import show

    o = outcome(f, foe_name, values_all, never, always, flee_at=flee_at)
    show(env, o, False)
    for note in notes:
        from rich.text import Text

        env.print(Text(f"({note})", style="dim"))
