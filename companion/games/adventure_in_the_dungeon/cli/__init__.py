"""``companion dungeon ...``: table-top helpers for The Adventure in the Dungeon.

- ``data``: show and edit the numbers you entered from your book (checked, unlike ``gamedata``);
- ``areas``: the areas, their special rules, and what each monster needs to hit each hero;
- ``odds AREA``: the exact odds of a fight, with the party as it stands;
- ``score [SURVIVORS]``: the score and the book's verdict.

Only typer is imported here; everything else is imported inside the commands (fast start).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.cli.common import JsonOpt

if TYPE_CHECKING:
    from companion.cli.env import Env

app = typer.Typer(
    help="The Adventure in the Dungeon (1979): your book's numbers, the areas, exact fight odds, the score.",
    no_args_is_help=True,
    add_completion=False,
)

GAME = "talisman"


def _catalogue(env: Env) -> dict[str, Any]:
    from companion.session import catalogue
    from companion.store.paths import data_dir

    return catalogue.load(data_dir(env.data_dir), GAME)


def _session_values(env: Env) -> tuple[Any, dict[str, Any]] | None:
    """The active talisman session's state and its data, if one is active (else None)."""
    from companion.cli.kit import active_game, opened

    if active_game(env) != GAME:
        return None
    with opened(env, read=True) as session:
        return session.state, dict(session.state.data)


def _parse(fld: Any, raw: str) -> Any:
    from companion.errors import InputError

    text = raw.strip()
    if fld.kind == "choice":
        values = [v for v, _ in fld.options]
        if text not in values:
            raise InputError(f"{fld.key} is one of {', '.join(values)}, not {raw!r}")
        return text
    if fld.kind == "text":
        if not text:
            raise InputError(f"{fld.key} needs some text")
        return text
    try:
        value = int(text.replace("−", "-"))
    except ValueError:
        raise InputError(f"{fld.key} is a whole number from {fld.lo} to {fld.hi}, not {raw!r}") from None
    if not fld.lo <= value <= fld.hi:
        raise InputError(f"{fld.key} is a whole number from {fld.lo} to {fld.hi}, not {value}")
    return value


@app.command("data")
def data_cmd(
    ctx: typer.Context,
    assignments: Annotated[
        list[str] | None,
        typer.Argument(help="KEY=VALUE to change, e.g. rangeress.to_hit=6 (see the keys listed).", show_default=False),
    ] = None,
    unset: Annotated[
        list[str] | None,
        typer.Option(
            "--unset", help="Forget a key: companion asks for it again (repeat for several).", show_default=False
        ),
    ] = None,
    session: Annotated[
        bool,
        typer.Option("--session", help="Also use the change in the current game (recorded in its log)."),
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """Show or change the numbers you entered from your book (kept for every new game)."""
    env: Env = ctx.obj
    from companion.errors import InputError
    from companion.games.adventure_in_the_dungeon import data as D
    from companion.session import catalogue
    from companion.store.paths import data_dir

    fields = {f.key: f for f in D.all_fields()}
    folder = data_dir(env.data_dir)
    values = catalogue.load(folder, GAME)
    changes: dict[str, Any] = {}
    for item in assignments or []:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep:
            raise InputError(f"{item!r} is not KEY=VALUE (e.g. rangeress.to_hit=6)")
        if key not in fields:
            given = {"paladin.hits", "paladin.to_hit", "paladin.be_hit"}
            if key in given:
                raise InputError(f"{key} is printed in the rule text and cannot be changed here")
            raise InputError(f"unknown key {key!r}; the keys are: {', '.join(fields)}")
        changes[key] = _parse(fields[key], raw)
    removed = []
    for key in unset or []:
        if key not in fields:
            raise InputError(f"unknown key {key!r}; the keys are: {', '.join(fields)}")
        if key in values:
            removed.append(key)
    if changes or removed:
        values.update(changes)
        for key in removed:
            values.pop(key, None)
        catalogue.save(folder, GAME, values)
    applied = False
    if session and changes:
        from companion.cli.kit import active_game, opened
        from companion.errors import CompanionError

        if active_game(env) != GAME:
            raise CompanionError("no Adventure in the Dungeon game is active; the change is saved for new games")
        with opened(env) as s:
            s.record({"t": "gamedata", "values": changes, "source": "edited"})
        applied = True
    if json_out:
        env.print_json(
            {
                "game": GAME,
                "values": values,
                "changed": changes,
                "unset": removed,
                "session": applied,
                "missing": [f.key for f in _missing(values)],
                "file": str(catalogue.path(folder, GAME)),
            }
        )
        return
    _show_data(env, values)
    if changes or removed:
        where = " and in the current game" if applied else " for new games"
        env.print(
            f"Saved{where}: "
            + ", ".join([f"{k} = {v}" for k, v in changes.items()] + [f"{k} forgotten" for k in removed])
        )


def _missing(values: dict[str, Any]) -> list[Any]:
    from companion.games.adventure_in_the_dungeon.engine.numbers import missing

    return missing(values)


def _show_data(env: Env, values: dict[str, Any]) -> None:
    from rich.text import Text

    from companion.cli.env import styled
    from companion.games.adventure_in_the_dungeon import data as D

    env.print(
        styled(
            "[bold]From the rule text[/bold]: Adelhardt the Paladin withstands 9 hits, hits a monster on 4+ and is "
            "hit on 11+; Regalan's spells hit on 4+ for 2 hits."
        )
    )
    missing = {f.key for f in _missing(values)}
    source = D.SOURCES.get(values.get(D.SOURCE), "source not given yet")
    env.print(styled("[bold]Your numbers[/bold] ({source}):", source=source))
    for fld in D.all_fields():
        if fld.key.startswith("area12.") and fld.key != D.AREA12_KIND and values.get(D.AREA12_KIND) != "monster":
            continue
        value = values.get(fld.key)
        shown = Text("not entered", style="yellow") if fld.key in missing else Text(f"{value!s:<6}")
        env.print(Text(f"  {fld.key:<18} ") + shown + " " + Text(fld.prompt, style="dim"))
    if missing:
        env.print(
            "companion play asks for what is missing; or set it here: companion dungeon data KEY=VALUE", style="dim"
        )


@app.command("areas")
def areas_cmd(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """The areas, their monsters' special rules, and the rolls each side needs (with your numbers)."""
    env: Env = ctx.obj
    from companion.games.adventure_in_the_dungeon import data as D
    from companion.games.adventure_in_the_dungeon import rules as R

    got = _session_values(env)
    state, values = got if got is not None else (None, _catalogue(env))
    nums = R.numbers(values)
    rows = []
    for n, area in R.areas(values).items():
        row: dict[str, Any] = {
            "area": n,
            "place": area.place,
            "monster": area.monster,
            "hits": area.hits,
            "rules": area.summary,
        }
        if state is not None:  # the game's map: the hits each monster has taken, and who is slain
            t = state.trackers.tallies.get(area.monster)
            row["taken"] = t.hits if t is not None else 0
            row["slain"] = n in state.game.cleared
        if nums is not None:
            model = R.compile_model(area, nums)
            row["monster_needs"] = {}
            row["hero_needs"] = {}
            for h, hero in enumerate(D.HEROES):
                need, mod, _ = R.monster_roll(area, nums.be_hit, h)
                row["monster_needs"][hero.key] = need - mod
                if model.can_hit & (1 << h):
                    spell = h == D.WIZARD and model.spells
                    hneed, hmod, _ = R.hero_roll(area, nums.to_hit, h, spell)
                    row["hero_needs"][hero.key] = hneed - hmod
        rows.append(row)
    if json_out:
        env.print_json({"areas": rows, "numbers_known": nums is not None})
        return
    from companion.cli.env import styled

    for row in rows:
        now = ""
        if row.get("slain"):
            now = " [bold]Slain.[/bold]"
        elif row.get("taken"):
            now = f" It has taken {'I' * row['taken']} ({row['taken']} of {row['hits']})."
        env.print(
            styled(
                "[bold]Area {area}: {place}[/bold] — {monster}, {hits} hits to slay: {rules}." + now,
                area=row["area"],
                place=row["place"],
                monster=row["monster"],
                hits=row["hits"],
                rules=row["rules"],
            )
        )
        if "monster_needs" in row:
            hits = " · ".join(f"{D.HEROES[i].name} {v}+" for i, v in enumerate(row["monster_needs"].values()))
            env.print(styled("  [dim]it hits when its dice show:[/dim] {hits}", hits=hits))
            heroes = " · ".join(f"{h.name} {row['hero_needs'][h.key]}+" for h in D.HEROES if h.key in row["hero_needs"])
            env.print(styled("  [dim]heroes hit it when their dice show:[/dim] {heroes}", heroes=heroes))
    if nums is None:
        env.print(
            "Enter the heroes' numbers (companion play asks, or companion dungeon data) to see the rolls.", style="dim"
        )


def _values(env: Env) -> dict[str, Any]:
    """The numbers in use: the active game's, else the catalogue."""
    got = _session_values(env)
    return got[1] if got is not None else _catalogue(env)


@app.command("odds")
def odds_cmd(
    ctx: typer.Context,
    area: Annotated[
        int | None, typer.Argument(help="The area (default: the one the party is in).", show_default=False)
    ] = None,
    fresh: Annotated[
        bool, typer.Option("--fresh", help="A fresh party against an unhurt monster, not the game as it stands.")
    ] = False,
    no_first: Annotated[
        bool, typer.Option("--no-first-strike", help="Krylla never strikes first (default: whenever she can).")
    ] = False,
    exact: Annotated[bool, typer.Option("--exact", help=EXACT_HELP)] = False,
    json_out: JsonOpt = False,
) -> None:
    """The odds of a fight fought to the end, and of the Talisman search."""
    env: Env = ctx.obj
    from companion.cli.kit import active_game, opened

    exact = exact or json_out
    if fresh or active_game(env) != GAME:
        _odds(env, None, None, _catalogue(env), area, no_first, json_out, exact)
        return
    with opened(env, engine=True, read=True) as session:
        look = session.waiting()  # what the game waits for, without starting its engine to look
        state, pending, values = look.state, look.pending, dict(look.state.data)
    _odds(env, state, pending, values, area, no_first, json_out, exact)


def _situation(
    state: Any,
    pending: Any,
    values: dict[str, Any],
    area: int | None,
    variants: frozenset[str] | None = None,
    command: str = "companion dungeon odds",
) -> tuple[int, Any, Any, Any, str]:
    """The fight to count: (area, its monster, the model, the situation, where in the round it stands).

    With a game (``state``), the party as it stands: in the area it is fighting in (at the choice, or
    at the start of a round), or entering another one (webs, tentacles and lock-outs left behind). With
    none, a fresh party against an unhurt monster. Bad input raises one clear InputError.
    """
    from companion.errors import InputError
    from companion.games.adventure_in_the_dungeon import rules as R

    nums = R.numbers(values)
    if nums is None:
        raise InputError(
            "the heroes' numbers are not entered yet",
            hint="companion play asks for them, or set them with companion dungeon data KEY=VALUE",
        )
    areas = R.areas(values)
    here = state.game.area if state is not None else None
    if area is None:
        area = here
        if area is None:
            raise InputError(f"which area? e.g. {command} 9 (the party is not in one)")
    if area not in areas:
        raise InputError(f"there is no monster in area {area}; the areas are {', '.join(map(str, areas))}")
    spec = areas[area]
    if variants is None:
        variants = frozenset(state.meta.variants) if state is not None else frozenset()
    model = R.compile_model(spec, nums, variants)
    at = "start"
    if state is None:
        s = R.Fight(0, (0, 0, 0, 0))
    else:
        from companion.games.adventure_in_the_dungeon.engine import snapshot, sync

        if area in state.game.cleared:
            raise InputError(f"the {spec.monster} of area {area} is slain already")
        sync(state, model)
        s = snapshot(state, model)
        if here != area:
            s = R.leave(model, s)  # entering it: no webs, tentacles or lock-outs yet
        elif pending is not None and pending.key == "round.action":
            at = "choice"
        elif pending is not None and pending.key == "round.first":
            at = "begun"
        else:
            raise InputError(
                "the party is in the middle of a round",
                hint="ask at the fight-or-flee choice (companion play shows these odds there too)",
            )
    return area, spec, model, s, at


EXACT_HELP = "Exact fractions (a big fight takes much longer; --json is always exact)."


def _odds(
    env: Env,
    state: Any,
    pending: Any,
    values: dict[str, Any],
    area: int | None,
    no_first: bool,
    json_out: bool,
    exact: bool = False,
) -> None:
    import time

    from companion.games.adventure_in_the_dungeon import odds as O
    from companion.games.adventure_in_the_dungeon import rules as R
    from companion.games.adventure_in_the_dungeon.data import HEROES
    from companion.games.adventure_in_the_dungeon.view import pct

    area, spec, model, s, at = _situation(state, pending, values, area)
    areas = R.areas(values)
    started = time.monotonic()
    odds = O.fight_odds(model, s, at=at, first_strike=not no_first, exact=exact)
    elapsed = time.monotonic() - started
    if at == "choice":
        ro = O.round_odds(model, s, at_choice=True)
    else:
        ro = O.round_odds(model, R.begin_round(s) if at == "start" else s)
    monsters = len(areas)
    kills = state.trackers.talisman.kills if state is not None else 0
    schedule = O.talisman_schedule(monsters)
    if json_out:
        env.print_json(
            {
                "area": area,
                "monster": spec.monster,
                "monster_hits_taken": s.m,
                "from": at,
                "first_strike": not no_first,
                "monster_hits": {HEROES[h].key: _frac(p) for h, p in enumerate(ro.monster) if p is not None},
                "hero_hits": {HEROES[h].key: _frac(p) for h, p in enumerate(ro.hero) if p is not None},
                "fight": {
                    "slain": _frac(odds.slain),
                    "wiped": _frac(odds.wiped),
                    "stuck": _frac(odds.stuck),
                    "states": odds.states,
                },
                "talisman": {
                    "monsters": monsters,
                    "kills": kills,
                    "found_within": {str(k): _frac(p) for k, p in enumerate(schedule, 1)},
                },
            }
        )
        return
    from companion.cli.env import styled
    from companion.dice.render import fraction

    env.print(
        styled(
            "[bold]Area {area}: {place}[/bold] — {monster}, {hits} hits to slay",
            area=area,
            place=spec.place,
            monster=spec.monster,
            hits=spec.hits,
        )
        + (f", {s.m} taken" if s.m else "")
    )
    mon = " · ".join(f"{HEROES[h].name} {fraction(p)}" for h, p in enumerate(ro.monster) if p is not None)
    if mon:
        env.print(f"  The {spec.monster}'s attack hits: {mon}")
    hero = " · ".join(f"{HEROES[h].name} {fraction(p)}" for h, p in enumerate(ro.hero) if p is not None)
    env.print(f"  Each hero's attack hits: {hero or 'no one can attack'}")
    how = {"choice": "the heroes' turn of this round", "begun": "this round", "start": "the start of a round"}[at]
    words = O.policy(model, s, not no_first)
    if no_first:
        words.insert(0, "Krylla never striking first")
    policy = f" ({', '.join(words)})" if words else ""
    env.print(f"Fighting on to the end, from {how}{policy}:")
    for label, p in (
        (f"the {spec.monster} {spec.says('is', 'are')} slain", odds.slain),
        ("every hero falls", odds.wiped),
        ("no one left can hurt it", odds.stuck),
    ):
        env.print(f"  {label}: {pct(p)}" + (f" ({_frac(p)})" if exact and 0 < p < 1 else ""))
    how_exact = "exact fractions" if exact else "floats; exact fractions with --exact or --json"
    env.print(f"  {how_exact}; {odds.states:,} situations counted in {elapsed:.1f} s", style="dim")
    shown = ", ".join(f"{k}: {pct(p)}" for k, p in enumerate(schedule, 1))
    env.print(f"Talisman found within k kills ({monsters} monsters, the last holds it): {shown}")


def _frac(p: Any) -> str:
    return f"{p.numerator}/{p.denominator}"


@app.command("score")
def score_cmd(
    ctx: typer.Context,
    survivors: Annotated[
        int | None,
        typer.Argument(help="Heroes alive at the end (default: the current game's).", min=0, max=4, show_default=False),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """The score: 25 points a surviving hero, 10 to the monsters a slain one, and the book's verdict."""
    env: Env = ctx.obj
    from companion.errors import InputError
    from companion.games.adventure_in_the_dungeon import rules as R

    if survivors is None:
        got = _session_values(env)
        if got is None:
            raise InputError("how many heroes survived? e.g. companion dungeon score 3")
        from companion.games.adventure_in_the_dungeon.engine import living

        survivors = bin(living(got[0])).count("1") if got[0].game.started else 4
    from companion.games.adventure_in_the_dungeon.engine.words import verdict_words

    heroes, monsters, verdict = R.score(survivors, 4 - survivors)
    victory = R.victory(survivors)
    if json_out:
        env.print_json(
            {
                "survivors": survivors,
                "heroes": heroes,
                "monsters": monsters,
                "verdict": verdict,
                "victory": victory,
            }
        )
        return
    text = f"Heroes {heroes} ({survivors} × 25), monsters {monsters} ({4 - survivors} × 10)"
    words = verdict_words(survivors)
    env.print(f"{text}: {words[0].lower()}{words[1:]}.")
