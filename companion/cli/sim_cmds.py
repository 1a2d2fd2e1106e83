"""``companion simulate GAME``: whole games played by the rules engine, a policy answering the choices.

Only typer is imported at module level; rich, multiprocessing and the game load when the command runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.cli.common import JsonOpt
from companion.cli.complete import game_names, variant_names
from companion.i18n import _, ngettext, number

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.sim.runner import Tally

EPILOG = """\
\b
Examples:
  companion simulate inverted-tower --runs 1000 --seed 1
  companion simulate it --variant elites-deal-2 --policy thrifty --runs 500
  companion simulate it --runs 500 --seed 7 --json
  companion simulate talisman --policy cautious --runs 500 --jobs 0

\b
Each run is a session seed derived from --seed, so a run can be replayed at
the table (companion new GAME --seed N). The report is the same for any
--jobs. A game that needs numbers from your book (The Adventure in the
Dungeon) plays the ones you entered (companion gamedata GAME); it never
invents one.
"""

MAX_RUNS = 10_000_000


def simulate(
    ctx: typer.Context,
    game: Annotated[
        str,
        typer.Argument(help="The game to play, e.g. inverted-tower.", autocompletion=game_names, show_default=False),
    ],
    runs: Annotated[int, typer.Option("--runs", "-n", help="Whole games to play.", min=1, max=MAX_RUNS)] = 10_000,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            help="Seed the runs so the report replays exactly (default: a fresh one, shown).",
            show_default=False,
        ),
    ] = None,
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant",
            "-V",
            help="Play with this variant (repeat for several).",
            autocompletion=variant_names,
            show_default=False,
        ),
    ] = None,
    policy: Annotated[
        str | None,
        typer.Option(
            "--policy", "-p", help="Who answers the choices (default: the game's first policy).", show_default=False
        ),
    ] = None,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", help="Processes to play on; 0 for every core.", min=0, max=512)
    ] = 1,
    json_out: JsonOpt = False,
) -> None:
    """Play whole games with the same rules as companion play, and report the win rate, where runs end,
    how long they last and the game's own figures, each with its 95% confidence interval."""
    env: Env = ctx.obj
    import time

    from companion.dice.source import new_seed
    from companion.errors import InputError
    from companion.games import canonical, load
    from companion.session import catalogue
    from companion.sim import report
    from companion.sim.runner import CHUNK, cpu_count, simulator
    from companion.store.paths import data_dir

    name = canonical(game)
    sim = simulator(name)
    spec = load(name)
    variants = tuple(dict.fromkeys(variant or []))
    unknown = [v for v in variants if v not in spec.variants]
    if unknown:
        known = ", ".join(spec.variants) or "none"
        raise InputError(
            _("{title} has no variant {unknown!r}; its variants: {known}").format(
                title=spec.title, unknown=unknown[0], known=known
            )
        )
    chosen = sim.policy(policy).name
    workers = cpu_count() if jobs == 0 else jobs
    if seed is None:
        seed = new_seed()
    data = catalogue.load(data_dir(env.data_dir), name)

    started = time.perf_counter()
    tally = _play(env, name, runs, seed, variants=variants, policy=chosen, jobs=workers, data=data)
    elapsed = time.perf_counter() - started

    doc = report.build(sim, tally, title=spec.title, seed=seed, variants=variants, policy=chosen)
    if json_out:
        env.print_json(doc)
        return
    for part in report.render(doc, sim):
        env.print(part)
    rate = runs / elapsed if elapsed > 0 else float("inf")
    used = 1 if workers <= 1 else min(workers, -(-runs // CHUNK))  # a chunk of runs is the smallest share
    processes = ngettext("{n} process", "{n} processes", used).format(n=used)
    env.print(
        _("{runs} runs in {elapsed} s ({rate} runs/s on {processes}).").format(
            runs=number(runs, group=True),
            elapsed=number(elapsed, 1),
            rate=number(rate, group=True),
            processes=processes,
        ),
        style="dim",
    )


def _play(env: Env, game: str, runs: int, seed: int, **options: Any) -> Tally:
    """Run the simulation, with a progress bar on stderr when stderr is a terminal."""
    from companion.sim.runner import simulate

    if not _isatty(env.stderr):
        return simulate(game, runs, seed, **options)
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    # No refresh thread (auto_refresh off): the bar is redrawn as each chunk of runs comes back, and no
    # thread is running when --jobs forks its workers.
    with Progress(
        TextColumn("[bold]simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("runs"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=env.err,
        transient=True,
        auto_refresh=False,
    ) as bar:
        task = bar.add_task("runs", total=runs)
        bar.refresh()

        def advance(n: int) -> None:
            bar.update(task, advance=n)
            bar.refresh()

        return simulate(game, runs, seed, progress=advance, **options)


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        return False


# One command: typer would give a lone command the shell-completion options; the root has none.
app = typer.Typer(rich_markup_mode=None, add_completion=False)
app.command("simulate", epilog=EPILOG)(simulate)
