"""Table-top trackers as one-shot commands: tally, hp, xp, gold, item, room, floor, talisman.

Every verb records an event in the active session (so undo, the log and replays see it) and prints
the tracker the way the book writes it, or JSON with "--json".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.cli.common import SIGNED, JsonOpt, check_name, parse_change
from companion.i18n import _, ngettext, owned, pgettext

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.session.service import Session

tally_app = typer.Typer(
    help="Hit tallies: characters count their hits left down (9 8 7 6 5), monsters get tally marks.",
    no_args_is_help=False,
    invoke_without_command=True,
    rich_markup_mode=None,
)


#: ``--correct``: the sheet fixed against the rules, said so in the log, not a move of the game.
CorrectOpt = Annotated[
    bool,
    typer.Option(
        "--correct",
        help="Fix the sheet, not a move: the game's rules for moves do not apply, and the log says "
        "'corrected: ... → ...'.",
    ),
]


def _record(env: Env, event: dict[str, Any]) -> Session:
    from companion.cli.kit import opened

    with opened(env) as session:
        _ask_game(session, event)
        session.record(event)
        return session


def _ask_game(session: Session, event: dict[str, Any]) -> None:
    """A generic tracker event goes to the game's rules first (``Game.allows``): a refusal is one line
    (the rule, and the game's own command for it), exit 2, nothing recorded."""
    refusal = session.spec.refusal(session.state, event)
    if refusal:
        from companion.errors import InputError

        raise InputError(refusal)


def _refuse_missing(session: Session, tracker: str, label: str) -> None:
    """Refuse a tracker the game does not have, saying what to use instead (freeform has them all)."""
    from companion.errors import InputError

    instead = session.spec.lacks.get(tracker)
    if instead:
        raise InputError(
            _("{game} has no {tracker}: {instead}").format(
                game=_(session.spec.title), tracker=label, instead=_(instead)
            )
        )


def _refuse_guided_tally(session: Session, name: str) -> None:
    """In guided play the rules keep the tallies: a change by hand is refused with the guided way."""
    from companion.errors import InputError

    if session.spec.keeps_tallies(session.state):
        raise InputError(
            owned(
                _(
                    "in guided play the rules keep the tallies ({name}'s hits come from the fights): "
                    "play on with companion play or companion next, or take a step back with companion undo"
                ).format(name=name),
                name,
            )
        )


def _change_tally(env: Env, event: dict[str, Any], replace: bool = False, correct: bool = False) -> Session:
    """Check a tally change against the game, then record it (one session lock for both)."""
    from companion.cli.kit import opened
    from companion.errors import InputError

    check_name(event["name"])
    if correct:
        event["correct"] = True
    with opened(env) as session:
        if event["op"] != "add":  # a tally, a hero or a monster by any unique start or word (h cad)
            from companion.cli.names import resolve, table_names

            event["name"] = resolve(event["name"], table_names(session))
        name = event["name"]
        _refuse_guided_tally(session, name)
        if event["op"] != "add":
            from companion.cli.kit import fill_needs

            fill_needs(env, session, event)  # e.g. the hits a hero withstands, from the player's book
        if event["op"] == "add" and name in session.state.trackers.tallies and not replace:
            raise InputError(
                _("{name} already has a tally ({tally}); add --replace to start it over").format(
                    name=name, tally=session.state.trackers.tallies[name].book()
                )
            )
        if replace:
            event["replace"] = True
        _ask_game(session, event)
        session.record(event)
        return session


def _show_tally(env: Env, session: Session, name: str | None, json_out: bool) -> None:
    from companion.session import codec

    tallies = session.state.trackers.tallies
    if name is not None and name not in tallies:  # the game may know it by another case ("xorn")
        name = next((k for k in tallies if k.casefold() == " ".join(name.split()).casefold()), name)
    chosen = [tallies[name]] if name is not None and name in tallies else list(tallies.values())
    if json_out:
        env.print_json([codec.dump(t) | {"book": t.book(), "left": t.left, "slain": t.slain} for t in chosen])
        return
    if not chosen:
        from companion.cli.env import styled

        env.print(styled(_("No tallies yet. Add one with [bold]companion tally add NAME HITS[/bold].")))
    for t in chosen:
        env.print(t.book())


@tally_app.callback()
def tally_show(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """Show every tally (or use a subcommand to change one)."""
    if ctx.invoked_subcommand is not None:
        return
    from companion.cli.kit import opened

    env: Env = ctx.obj
    with opened(env) as session:
        _show_tally(env, session, None, json_out)


@tally_app.command("add")
def tally_add(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="Who: a character or a monster.", show_default=False)],
    hits: Annotated[int, typer.Argument(help="How many hits it withstands.", min=1, max=999, show_default=False)],
    role: Annotated[str, typer.Option("--role", help="A character's class, e.g. PALADIN.")] = "",
    monster: Annotated[bool, typer.Option("--monster", help="Tally it as a monster (marks, not a countdown).")] = False,
    replace: Annotated[bool, typer.Option("--replace", help="Start over a tally that already exists.")] = False,
    correct: CorrectOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Start a tally for a character or a monster (a name already tallied needs --replace).

    \b
    Examples:
      companion tally add Adelhardt 9 --role PALADIN
      companion tally add "Ogre Mage" 4 --monster
    """
    env: Env = ctx.obj
    event = {"t": "tally", "op": "add", "name": name, "max": hits, "role": role, "monster": monster}
    session = _change_tally(env, event, replace, correct)
    _show_tally(env, session, name, json_out)


def _tally_change(op: str):
    def command(
        ctx: typer.Context,
        name: Annotated[str, typer.Argument(help="Whose tally.", show_default=False)],
        n: Annotated[int, typer.Argument(help="How many hits.", min=1, max=99)] = 1,
        correct: CorrectOpt = False,
        json_out: JsonOpt = False,
    ) -> None:
        env: Env = ctx.obj
        event = {"t": "tally", "op": op, "name": name, "n": n}
        session = _change_tally(env, event, correct=correct)
        _show_tally(env, session, event["name"], json_out)

    command.__doc__ = {
        "hit": "Mark hits on a tally.\n\n\b\nExamples:\n  companion tally hit Adelhardt\n"
        "  companion tally hit Adelhardt 2",
        "heal": "Remove hits from a tally (a cure).\n\n\b\nExamples:\n  companion tally heal Adelhardt",
    }[op]
    return command


tally_app.command("hit")(_tally_change("hit"))
tally_app.command("heal")(_tally_change("heal"))


@tally_app.command("remove")
def tally_remove(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="Whose tally.", show_default=False)],
    correct: CorrectOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Remove a tally."""
    env: Env = ctx.obj
    session = _change_tally(env, {"t": "tally", "op": "remove", "name": name}, correct=correct)
    _show_tally(env, session, None, json_out)


def _counter_command(name: str, label: str, doc: str):
    def command(
        ctx: typer.Context,
        change: Annotated[
            str | None, typer.Argument(help="+N, -N or =N; nothing to just show it.", show_default=False)
        ] = None,
        maximum: Annotated[
            int | None, typer.Option("--max", help="Set the maximum.", min=0, show_default=False)
        ] = None,
        why: Annotated[
            str | None, typer.Option("--why", help="What changed it (kept in the log).", show_default=False)
        ] = None,
        correct: CorrectOpt = False,
        json_out: JsonOpt = False,
    ) -> None:
        env: Env = ctx.obj
        from companion.cli.kit import opened

        with opened(env) as session:
            _refuse_missing(session, name, label)
            if maximum is not None or change is not None:
                event: dict[str, Any] = {"t": "counter", "name": name}
                if correct:
                    event["correct"] = True
                if maximum is not None:
                    event["max"] = maximum
                if change is not None:
                    event["op"], event["value"] = parse_change(change, pgettext("of", label))
                    have = session.state.trackers.counter(name).value
                    if name == "gold" and event["op"] == "add" and have + event["value"] < 0:
                        from companion.errors import InputError

                        raise InputError(
                            _("you have {have} gold, not {n}: nothing was spent").format(have=have, n=-event["value"])
                        )
                if why:
                    event["why"] = why
                _ask_game(session, event)
                session.record(event)
            c = session.state.trackers.counter(name)
            if json_out:
                env.print_json({"name": name, "value": c.value, "max": c.max})
                return
            env.print(f"{label}: {c.value}" + (f"/{c.max}" if c.max is not None else ""))

    command.__doc__ = doc
    return command


def xp(
    ctx: typer.Context,
    change: Annotated[
        str | None, typer.Argument(help="+N to gain XP (or -N); nothing to just show it.", show_default=False)
    ] = None,
    correct: CorrectOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """XP, with the game's level thresholds (the Inverted Tower levels up every 10 + level XP)."""
    env: Env = ctx.obj
    from companion.cli.kit import opened
    from companion.errors import InputError

    with opened(env) as session:
        _refuse_missing(session, "xp", "XP")
        before = len(session.state.log.entries)
        if change is not None:
            op, n = parse_change(change, pgettext("of", "XP"))
            if op == "set":
                raise InputError(_("XP changes by +N or -N; levels follow from what is gained"))
            have = session.state.trackers.counter("xp").value
            if have + n < 0:
                raise InputError(_("you have {have} XP, not {n}: nothing was taken").format(have=have, n=-n))
            event: dict[str, Any] = {"t": "xp", "n": n} | ({"correct": True} if correct else {})
            _ask_game(session, event)
            session.record(event)
        # What the game wrote for it: a level up and what it brings ("1 attribute point to place").
        new = session.state.log.entries[before:]
        t = session.state.trackers
        need = session.spec.xp_needed(t.level)
        if json_out:
            from companion.log.markdown import entry_text

            data = {"xp": t.counter("xp").value, "level": t.level, "next_level_at": need}
            env.print_json(data | {"log": [entry_text(e) for e in new]})
            return
        from companion.shell.panels import entry_renderable

        for entry in new:
            env.print(entry_renderable(entry))
        if need is None:
            env.print(f"XP: {t.counter('xp').value}")
            env.print(
                _("XP is a plain count here: this game has no levels."),
                style="dim",
            )
            return
        env.print(
            f"XP: {t.counter('xp').value}"
            + (_("/{need} to level {n}").format(need=need, n=t.level + 1) if need else "")
            + " "
            + _("(level {n})").format(n=t.level)
        )


#: ``companion item add rope``, as ``tally add``: the verbs that name the item after them, and their sign.
ITEM_VERBS = {"add": 1, "gain": 1, "take": 1, "remove": -1, "spend": -1, "use": -1, "lose": -1}


def item(
    ctx: typer.Context,
    name: Annotated[
        str, typer.Argument(help="The item, e.g. dagger or potion (or add/remove NAME).", show_default=False)
    ],
    change: Annotated[str, typer.Argument(help="+N or -N (default +1).")] = "+1",
    count: Annotated[
        int | None, typer.Argument(help="After add or remove: how many (default 1).", min=1, show_default=False)
    ] = None,
    correct: CorrectOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Gain or spend items (daggers, potions, keys).

    \b
    Examples:
      companion item dagger +1
      companion item dagger -1
      companion item add rope
      companion item remove rope
    """
    env: Env = ctx.obj
    from companion.errors import InputError

    sign = ITEM_VERBS.get(name.strip().lower())
    if sign is not None and change != "+1" and not change.lstrip().startswith(("+", "-", "=", "−")):
        name, change = change, f"{sign * (count or 1):+d}"  # companion item add rope [N]
    elif count is not None:
        raise InputError(
            _("a count goes after add or remove (companion item add {name} {count})").format(name=name, count=count)
        )
    check_name(name)
    op, n = parse_change(change, name)
    if op == "set":
        raise InputError(_("items change by +N or -N (e.g. companion item {name} -1)").format(name=name))
    session = _record(env, {"t": "item", "name": name.lower(), "delta": n} | ({"correct": True} if correct else {}))
    items = session.state.trackers.items
    if json_out:
        env.print_json(items)
        return
    env.print(", ".join(f"{k}: {v}" for k, v in items.items()) or "No items.")


def room(
    ctx: typer.Context,
    number: Annotated[int, typer.Argument(help="The room number on this floor.", min=1, max=999, show_default=False)],
    content: Annotated[
        list[str] | None, typer.Argument(help="What is in it, as the log line shows it.", show_default=False)
    ] = None,
    state: Annotated[
        str | None,
        typer.Option(
            "--state",
            help="unexplored, cleared, looted, trap, event, fled, stairs, boss or your own word.",
            show_default=False,
        ),
    ] = None,
    floor: Annotated[
        int | None, typer.Option("--floor", help="The floor (default: the current floor).", min=1, show_default=False)
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Record a room: its number, what is in it, and its state.

    \b
    Examples:
      companion room 4 "Mob 1 (killed)" --state cleared
      companion room 5 trap --state trap
    """
    env: Env = ctx.obj
    event: dict[str, Any] = {"t": "room", "number": number}
    if content:
        event["content"] = " ".join(content)
    if state:
        event["state"] = state.strip().lower()
    if floor is not None:
        event["floor"] = floor
    session = _record(env, event)
    t = session.state.trackers
    r = t.room(floor or t.floor, number)
    assert r is not None
    if json_out:
        env.print_json({"floor": r.floor, "number": r.number, "content": r.content, "state": r.state})
        return
    from companion.cli.env import styled

    where = _("Floor {n}, {room}").format(n=r.floor, room=r.line())
    env.print(styled("{where} [dim]{state}[/dim]", where=where, state=f"[{r.state}]"))


def rooms(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """List the rooms recorded so far, floor by floor."""
    env: Env = ctx.obj
    from companion.cli.kit import opened

    with opened(env) as session:
        t = session.state.trackers
        if json_out:
            env.print_json(
                [{"floor": r.floor, "number": r.number, "content": r.content, "state": r.state} for r in t.rooms]
            )
            return
        floor = None
        for r in sorted(t.rooms, key=lambda r: (r.floor, r.number)):
            if r.floor != floor:
                floor = r.floor
                env.print(_("Floor {n}").format(n=floor), style="bold")
            from companion.cli.env import styled

            env.print(styled("  {line} [dim]{state}[/dim]", line=r.line(), state=f"[{r.state}]"))
        if not t.rooms:
            env.print(_("No rooms yet."))


def floor_cmd(
    ctx: typer.Context,
    n: Annotated[int, typer.Argument(help="The floor you are on now.", min=1, max=999, show_default=False)],
    correct: CorrectOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Move to a floor (a new heading in the log); a game with stairs takes them by its own rules."""
    env: Env = ctx.obj
    _record(env, {"t": "floor", "n": n} | ({"correct": True} if correct else {}))
    if json_out:
        env.print_json({"floor": n})
        return
    env.print(_("Floor {n}.").format(n=n))


def talisman(
    ctx: typer.Context,
    left: Annotated[
        int | None, typer.Option("--left", help="Monsters still alive after this kill.", min=0, show_default=False)
    ] = None,
    got: Annotated[
        str | None, typer.Option("--got", "-g", help="The two faces you rolled, e.g. 6,6.", show_default=False)
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """After a kill: roll 2d6 for the Talisman (found on 12; the last monster left holds it)."""
    env: Env = ctx.obj
    from companion.cli.kit import ask_physical, opened
    from companion.dice.expr import TALISMAN
    from companion.dice.source import read_physical
    from companion.errors import InputError
    from companion.session.fold import roll_payload

    with opened(env) as session:
        ts = session.state.trackers.talisman
        if ts.found:
            raise InputError(_("the Talisman is already found: leave the dungeon!"))
        event: dict[str, Any] = {"t": "talisman"}
        _ask_game(session, dict(event))  # a game with no Talisman, or one that is over, says so first
        if left is not None:
            event["left"] = left  # what the player counts; a game with a map checks it (_ask_game)
        if session.spec.provides("talisman_left"):
            from companion.cli.kit import fill_needs

            session.spec.talisman_left(session.state)  # type: ignore[operator]  # refused when no kill waits
            fill_needs(env, session, event)  # Area 12, when the count of monsters left turns on it
        _ask_game(session, event)  # before any die is asked for
        if session.spec.provides("talisman_left"):
            left = session.spec.talisman_left(session.state)  # type: ignore[operator]  # the map's count
            event.pop("left", None)
        if left is not None:
            event["left"] = left
        if not (ts.held_by_last or left == 0):
            if got is not None:
                r = read_physical(TALISMAN, got, allow_total=True)
            elif session.state.dice == "physical":
                r = ask_physical(env, TALISMAN, 0, _("Talisman search"))
            else:
                r = session.dice().roll(TALISMAN)
            event.update(roll_payload(r))
        session.record(event)
        ts = session.state.trackers.talisman
        if json_out:
            env.print_json(
                {
                    "kills": ts.kills,
                    "rolls": ts.rolls,
                    "found": ts.found,
                    "held_by_last": ts.held_by_last,
                    "found_on_kill": ts.found_on_kill,
                }
            )
            return
        last = ts.rolls[-1] if ("faces" in event or "total" in event) else None
        if ts.found:
            from companion.cli.env import styled

            env.print(
                styled(
                    ngettext(
                        "[bold green]The Talisman is found[/bold green] after {n} kill! Leave the dungeon.",
                        "[bold green]The Talisman is found[/bold green] after {n} kills! Leave the dungeon.",
                        ts.kills,
                    ),
                    n=ts.kills,
                )
            )
        elif ts.held_by_last:
            from companion.cli.env import styled

            env.print(
                styled(
                    _("Rolled {total}: not found. One monster is left: [bold]it holds the Talisman[/bold]."), total=last
                )
            )
        else:
            env.print(
                ngettext(
                    "Rolled {total}: not found ({n} kill so far).",
                    "Rolled {total}: not found ({n} kills so far).",
                    ts.kills,
                ).format(total=last, n=ts.kills)
            )


app = typer.Typer(rich_markup_mode=None)
app.add_typer(tally_app, name="tally")
app.command("hp", context_settings=SIGNED)(
    _counter_command(
        "hp",
        "HP",
        "HP, with a maximum.\n\n\b\nExamples:\n  companion hp =5 --max 5    set HP and its maximum\n"
        "  companion hp -1            lose 1 HP\n  companion hp +2 --why potion\n"
        "  companion hp =3 --correct  fix the sheet, not a move (the log says 'corrected: HP 5 → 3')",
    )
)
app.command("gold", context_settings=SIGNED)(
    _counter_command(
        "gold", "Gold", "Gold pieces.\n\n\b\nExamples:\n  companion gold +7\n  companion gold -5 --why merchant"
    )
)
app.command("xp", context_settings=SIGNED)(xp)
app.command("item", context_settings=SIGNED)(item)
app.command("room")(room)
app.command("rooms")(rooms)
app.command("floor")(floor_cmd)
app.command("talisman")(talisman)
