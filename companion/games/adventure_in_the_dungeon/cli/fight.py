"""``companion odds fight talisman``: a whole fight (or a round) against an area's monster, with the
party as it stands in the game, fresh, or in a position given on the command line (``--hits``), as
an exported page names its big moments.

Only typer is imported here; everything else is imported inside the command (fast start).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.cli.common import JsonOpt
from companion.games.adventure_in_the_dungeon.cli import EXACT_HELP, GAME, _catalogue, _situation

if TYPE_CHECKING:
    from companion.cli.env import Env


def odds_fight(
    ctx: typer.Context,
    area: Annotated[
        int | None, typer.Argument(help="The area (default: the one the party is in).", show_default=False)
    ] = None,
    one_round: Annotated[
        bool, typer.Option("--round", help="One round (the rest of this one in a game), not the whole fight.")
    ] = False,
    fresh: Annotated[
        bool, typer.Option("--fresh", help="A fresh party against an unhurt monster, not the game as it stands.")
    ] = False,
    no_first: Annotated[
        bool, typer.Option("--no-first-strike", help="Krylla never strikes first (default: whenever she can).")
    ] = False,
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant", "-V", help="With --fresh or no game: a reading to count with (repeat).", show_default=False
        ),
    ] = None,
    exact: Annotated[bool, typer.Option("--exact", help=EXACT_HELP)] = False,
    hits: Annotated[
        str | None,
        typer.Option(
            "--hits",
            help="A position of your own: the hits each hero has taken, in the book's order (Adelhardt, "
            "Krylla, Ibli, Regalan), e.g. 3,0,1,0.",
            metavar="P,R,F,W",
            show_default=False,
        ),
    ] = None,
    monster_hits: Annotated[
        int, typer.Option("--monster-hits", help="With --hits: the hits the monster has taken.", min=0)
    ] = 0,
    at: Annotated[
        str,
        typer.Option(
            "--at", help="With --hits: where in the round: start, begun, or choice (fight or flee).", metavar="WHERE"
        ),
    ] = "start",
    mark: Annotated[
        list[str] | None,
        typer.Option(
            "--mark",
            help="With --hits (repeat): heroes who are dead, paralysed, webbed, entwined, locked, locked_next, "
            "attacked or struck (e.g. struck:Krylla,Ibli); or cure_spent, struck_first.",
            metavar="WHAT[:HEROES]",
            show_default=False,
        ),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """The odds of a fight against an area's monster with the party as it stands (your numbers):
    the monster slain, every hero fallen, no one left who can hurt it; who stands at the end and the
    party's hits left. --round gives one round.

    With an Adventure in the Dungeon game active, the party, its hits, the monster's hits and the
    game's variants are the game's (at the fight-or-flee choice, or entering an area); otherwise a
    fresh party with the numbers you entered (companion dungeon data). --hits (with --monster-hits,
    --at and --mark) gives a position of your own, as an exported page names its big moments. A
    whole fight against a fresh monster can take a while to count: it says so on stderr.
    """
    env: Env = ctx.obj
    from companion.cli.kit import active_game, opened
    from companion.errors import InputError
    from companion.games import load
    from companion.games.adventure_in_the_dungeon.odds import fight_outcome
    from companion.sim.fights import show

    chosen: frozenset[str] | None = None
    if variant:
        known = load(GAME).variants
        unknown = [v for v in variant if v not in known]
        if unknown:
            raise InputError(
                f"The Adventure in the Dungeon has no variant {unknown[0]!r}; its variants: {', '.join(known)}"
            )
        chosen = frozenset(variant)
    if hits is not None:
        outcome = _position_outcome(env, area, hits, monster_hits, at, mark or [], chosen, fresh, not no_first)
        outcome = fight_outcome(**outcome, one_round=one_round, exact=exact or json_out)
        show(env, outcome, json_out)
        return
    if monster_hits or at != "start" or mark:
        raise InputError("--monster-hits, --at and --mark describe a position: give --hits too")
    if fresh or active_game(env) != GAME:
        values = _catalogue(env)
        area, _, model, s, at = _situation(
            None, None, values, area, chosen or frozenset(), "companion odds fight talisman"
        )
    else:
        if chosen is not None:
            raise InputError("the game's own variants count in a game; --variant goes with --fresh")
        with opened(env, engine=True, read=True) as session:  # read the situation, then count without the lock
            session.fold.start()
            state = session.state
            values = dict(state.data)
            area, _, model, s, at = _situation(
                state, session.fold.pending, values, area, command="companion odds fight talisman"
            )
    outcome = fight_outcome(
        area,
        values,
        variants=model.variants,
        first_strike=not no_first,
        one_round=one_round,
        fight=s,
        at=at,
        exact=exact or json_out,
    )
    show(env, outcome, json_out)


def _at_the_start(flags: dict[str, Any]) -> None:
    """At the start of a round (``--at start``) the round is begun from the position: a hero ``locked`` is
    locked out of the round that starts (a miss against the Remorhaz last round), and what only happens
    during a round (attacked, struck, struck first, locked out of the next one) cannot be so yet."""
    from companion.errors import InputError
    from companion.games.adventure_in_the_dungeon.moments import FLAGS, MASKS

    during = [MASKS[k] for k in ("att", "struck", "nlock") if flags.get(k)]
    during += [FLAGS[k] for k in ("sfirst",) if flags.get(k)]
    if during:
        raise InputError(
            f"--mark {', '.join(during)}: at the start of a round nothing has happened in it yet; "
            "give --at begun or --at choice for a round under way (locked:NAME is a hero locked out of "
            "the round that starts)"
        )
    if flags.get("lock"):
        flags["nlock"] = flags.pop("lock")  # the round that starts reads last round's misses (begin_round)


def _position_outcome(
    env: Env,
    area: int | None,
    hits: str,
    monster_hits: int,
    at: str,
    marks: list[str],
    chosen: frozenset[str] | None,
    fresh: bool,
    first_strike: bool,
) -> dict[str, Any]:
    """The arguments of :func:`.odds.fight_outcome` for a position given on the command line: the
    game's numbers and variants with a game active (the catalogue's, and --variant, without one)."""
    from companion.cli.kit import active_game, opened
    from companion.errors import InputError
    from companion.games.adventure_in_the_dungeon import rules as R
    from companion.games.adventure_in_the_dungeon.data import HEROES
    from companion.games.adventure_in_the_dungeon.moments import FLAGS, MASKS

    if area is None:
        raise InputError("which area? e.g. companion odds fight talisman 9 --hits 3,0,1,0")
    parts = [p.strip() for p in hits.split(",")]
    if len(parts) != 4 or not all(p.isdigit() for p in parts):
        raise InputError(f"--hits {hits!r}: give the hits each of the four heroes has taken, e.g. 3,0,1,0")
    if at not in ("start", "begun", "choice"):
        raise InputError(f"--at {at!r}: give start, begun or choice")
    variants: frozenset[str] = chosen or frozenset()
    if not fresh and active_game(env) == GAME:
        with opened(env, read=True) as session:
            values = dict(session.state.data)
            if chosen is None:
                variants = frozenset(session.meta.variants)
    else:
        values = _catalogue(env)
    nums = R.numbers(values)
    if nums is None:
        raise InputError(
            "the heroes' numbers are not entered yet",
            hint="companion play asks for them, or set them with companion dungeon data KEY=VALUE",
        )
    areas = R.areas(values)
    if area not in areas:
        raise InputError(f"there is no monster in area {area}; the areas are {', '.join(map(str, areas))}")
    flags: dict[str, Any] = {}
    by_word = {word: name for name, word in MASKS.items()}
    for text in marks:
        word, _, who = text.partition(":")
        word = word.strip().lower()
        if word in FLAGS.values() and not who:
            flags[next(k for k, v in FLAGS.items() if v == word)] = True
            continue
        if word not in by_word or not who.strip():
            known = ", ".join(f"{w}:HEROES" for w in MASKS.values()) + ", " + ", ".join(FLAGS.values())
            raise InputError(f"--mark {text!r}: give one of {known}")
        mask = 0
        for name in who.split(","):
            key = name.strip().lower()
            found = [i for i, h in enumerate(HEROES) if key in (h.name.lower(), h.key, h.role.lower())]
            if not found:
                raise InputError(
                    f"--mark {text!r}: no hero {name.strip()!r}; the heroes are Adelhardt, Krylla, Ibli, Regalan"
                )
            mask |= 1 << found[0]
        flags[by_word[word]] = flags.get(by_word[word], 0) | mask
    if at == "start":
        _at_the_start(flags)
    taken = tuple(min(int(p), m) for p, m in zip(parts, nums.maxh, strict=True))
    situation = R.Fight(min(monster_hits, areas[area].hits), taken, **flags)  # type: ignore[arg-type]
    return {
        "area": area,
        "values": values,
        "variants": variants,
        "first_strike": first_strike,
        "fight": situation,
        "at": at,
    }
