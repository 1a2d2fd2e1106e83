"""The simulator: whole games played by a game's own engine, a policy answering its choices.

There is no second copy of any rule here. A run is exactly a ``companion play`` session whose player
presses Enter at every roll and answers every choice as the policy does:

- the state is made as ``companion new`` makes it (:func:`companion.session.service.new_state`, the
  player's game data copied in as the session's ``gamedata`` event would), with the log disabled;
- the game's ``play(state)`` generator asks; every :class:`~companion.engine.requests.RollRequest` is
  answered by ``VirtualDice(seed).roll(expr, mod, parts)``, the very call ``companion play`` makes on
  the session's dice, and every other request by the policy;
- run ``i`` of ``--seed S`` uses the session seed :func:`run_seed` ``(S, i)``, so a run can be replayed
  as a session (``companion new GAME --seed X``) and every run is the same whatever process plays it.

Every figure a game reports for a run is a whole number (or a yes/no, or "does not apply"), and the
runs are tallied as integer sums, so splitting them across ``--jobs`` processes gives the same report
to the last digit.

A game plugs in with a :class:`Simulator` (its policies, its figures and how to read them off the
final state) listed in ``SIMULATORS``; see ``docs/odds-and-simulation.md``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError, InputError, NotFoundError
from companion.i18n import _, number

if TYPE_CHECKING:
    from companion.engine.requests import Request
    from companion.session.state import State

#: Game name → "module:attribute" of its :class:`Simulator`, imported only when that game is simulated.
#: A game plugs in here (see docs/odds-and-simulation.md).
SIMULATORS: dict[str, str] = {
    "inverted-tower": "companion.games.inverted_tower.sim:SIMULATOR",
    "talisman": "companion.games.adventure_in_the_dungeon.sim:SIMULATOR",
}

#: A policy answers every request that is not a roll: a Choice with one of its values, a Number with
#: an int in range, a Text with a string. It reads the state; it must not change it.
Policy = Callable[["State", "Request"], Any]

RATE, MEAN, HISTOGRAM = "rate", "mean", "histogram"

#: Runs handed to a process at a time (the progress bar moves by this much).
CHUNK = 250


@dataclass(frozen=True)
class PolicySpec:
    name: str
    #: One line for the report and the error listing the policies.
    summary: str
    answer: Policy


@dataclass(frozen=True)
class Metric:
    """A figure the simulator reports.

    ``kind``: ``rate`` (a yes/no per run: a proportion with its Wilson interval), ``mean`` (a whole
    number per run: the mean with its t interval) or ``histogram`` (a whole number per run: the
    mean, and the share of each value with its Wilson interval). A run may give None: the figure does
    not apply to it (the floor of death of a won game) and it is left out of that figure's count.
    """

    key: str
    label: str
    kind: str
    #: How a histogram's value is named in the report, e.g. "floor {}".
    value: str = "{}"
    #: What the count is of, when it is not every run (e.g. "lost runs").
    among: str = ""
    #: A rate's yes and no runs, named for the line that offers their seeds ("a won game", "a lost game").
    examples: tuple[str, str] = ("", "")


@dataclass(frozen=True)
class RunInfo:
    """What the runner counted while a run was played."""

    seed: int
    rolls: int
    choices: int

    @property
    def requests(self) -> int:
        return self.rolls + self.choices


@dataclass(frozen=True)
class Simulator:
    """A game's plug into the simulator."""

    game: str
    #: The policies; the first is the default.
    policies: tuple[PolicySpec, ...]
    metrics: tuple[Metric, ...]
    #: The run's figures, read off the final state: metric key → bool, int or None.
    record: Callable[[State, RunInfo], dict[str, Any]]
    #: The hero's name given at ``companion new`` (so the engine does not ask for it).
    hero: str | None = "Sim"
    #: A run that asks this many requests without ending is a policy that never ends the game.
    max_requests: int = 200_000

    def policy(self, name: str | None) -> PolicySpec:
        if name is None:
            return self.policies[0]
        key = name.strip().lower()
        for p in self.policies:
            if p.name == key:
                return p
        listed = "; ".join(f"{p.name} ({p.summary})" for p in self.policies)
        raise InputError(
            _("{game} has no policy {name!r}; its policies: {listed}").format(game=self.game, name=name, listed=listed)
        )


def simulator(game: str) -> Simulator:
    """The simulator of ``game`` (a canonical name), or one clear error listing the games it plays."""
    target = SIMULATORS.get(game)
    if target is None:
        raise NotFoundError(
            _("{game} cannot be simulated yet; games the simulator plays: {simulators}").format(
                game=game, simulators=", ".join(SIMULATORS)
            )
        )
    module, _sep, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)  # type: ignore[no-any-return]


def need_data(request: Request) -> None:
    """What a policy does when the engine asks for a number the player's book prints: refuse clearly.

    The simulator never invents a number. A game whose engine asks for one (a to-hit table, a card)
    finds it in ``state.data`` once the player has entered it (the catalogue is copied into every run,
    as ``companion new`` copies it into a session); a policy meeting such a request anyway calls this.
    """
    where = getattr(request, "where", "") or ""
    raise InputError(
        _("the simulator needs a number from your book: {what}").format(what=request.prompt)
        + (f" ({where})" if where else ""),
        hint=_("enter it once in a game (companion play) or with the game's own command; it is kept for every run"),
    )


# ---- seeds ---------------------------------------------------------------------------------------
_MASK = (1 << 64) - 1


def run_seed(seed: int, i: int) -> int:
    """The session seed of run ``i`` (0-based) of a simulation seeded ``seed``: splitmix64 of the pair.

    Well mixed (nearby runs, and nearby simulation seeds, share no dice) and below 10**9 like every
    session seed, so ``companion new GAME --seed run_seed(S, i)`` replays run ``i`` at the table.
    """
    z = (seed * 0x9E3779B97F4A7C15 + (i + 1) * 0xD1B54A32D192ED03) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return (z ^ (z >> 31)) % 10**9


# ---- one run -------------------------------------------------------------------------------------
def new_run_state(game: str, seed: int, variants: tuple[str, ...], data: dict[str, Any], hero: str | None) -> State:
    """The state ``companion new GAME --seed SEED --variant ... [--hero HERO]`` starts with, log disabled."""
    from companion.contract.registry import load
    from companion.session.service import new_state
    from companion.session.state import Meta

    spec = load(game)
    meta = Meta(name="sim", slug="sim", game=game, seed=seed, dice="virtual", variants=list(variants), hero=hero)
    state = new_state(spec, meta)
    state.log.enabled = False
    if data:
        state.data.update(data)  # what folding the session's ``gamedata`` event does to the state
    return state


def play_run(
    sim: Simulator,
    policy: Policy,
    seed: int,
    variants: tuple[str, ...] = (),
    data: dict[str, Any] | None = None,
    trace: list[tuple[Request, Any]] | None = None,
) -> tuple[State, RunInfo]:
    """Play one whole game; ``trace`` (if given) receives every (request, answer) in order."""
    from companion.contract.registry import load
    from companion.dice.source import VirtualDice
    from companion.engine.requests import RollRequest

    spec = load(sim.game)
    if not spec.guided:
        raise CompanionError(_("{title} has no guided engine to simulate").format(title=spec.title))
    state = new_run_state(sim.game, seed, variants, data or {}, sim.hero)
    roll = VirtualDice(seed).roll
    engine = spec.engine(state)
    rolls = choices = 0
    limit = sim.max_requests
    try:
        request = next(engine)
        while True:
            if request.__class__ is RollRequest:
                answer = roll(request.expr, request.mod, request.parts)  # type: ignore[union-attr]
                rolls += 1
            else:
                answer = policy(state, request)
                choices += 1
            if trace is not None:
                trace.append((request, answer))
            if rolls + choices > limit:
                raise CompanionError(
                    _("a run of seed {seed} asked {limit} requests without ending: the policy loops").format(
                        seed=seed, limit=number(limit, group=True)
                    )
                )
            request = engine.send(answer)
    except StopIteration:
        pass
    return state, RunInfo(seed, rolls, choices)


# ---- many runs -----------------------------------------------------------------------------------
@dataclass
class Tally:
    """Integer sums of every figure over some runs; tallies of disjoint runs add up exactly."""

    runs: int = 0
    #: metric key → [count, sum, sum of squares]
    sums: dict[str, list[int]] = field(default_factory=dict)
    #: histogram metric key → value → count
    hist: dict[str, dict[int, int]] = field(default_factory=dict)
    #: rate metric key → (the first run where it was yes, the first where it was no), by run index
    first: dict[str, list[int | None]] = field(default_factory=dict)

    def add_run(self, metrics: tuple[Metric, ...], values: dict[str, Any], index: int) -> None:
        self.runs += 1
        for m in metrics:
            v = values.get(m.key)
            if v is None:
                continue
            v = int(v)
            if m.kind == RATE:
                seen = self.first.setdefault(m.key, [None, None])
                slot = 0 if v else 1
                if seen[slot] is None or index < seen[slot]:  # type: ignore[operator]
                    seen[slot] = index
            s = self.sums.get(m.key)
            if s is None:
                s = self.sums[m.key] = [0, 0, 0]
            s[0] += 1
            s[1] += v
            s[2] += v * v
            if m.kind == HISTOGRAM:
                h = self.hist.setdefault(m.key, {})
                h[v] = h.get(v, 0) + 1

    def merge(self, other: Tally) -> None:
        self.runs += other.runs
        for key, (n, total, squares) in other.sums.items():
            s = self.sums.setdefault(key, [0, 0, 0])
            s[0] += n
            s[1] += total
            s[2] += squares
        for key, counts in other.hist.items():
            h = self.hist.setdefault(key, {})
            for v, c in counts.items():
                h[v] = h.get(v, 0) + c
        for key, pair in other.first.items():
            mine = self.first.setdefault(key, [None, None])
            for slot in (0, 1):
                theirs = pair[slot]
                if theirs is not None and (mine[slot] is None or theirs < mine[slot]):  # type: ignore[operator]
                    mine[slot] = theirs


@dataclass(frozen=True)
class Task:
    """Runs ``start`` to ``stop - 1`` of one simulation: everything a worker process needs (picklable)."""

    game: str
    seed: int
    variants: tuple[str, ...]
    policy: str
    start: int
    stop: int
    data: dict[str, Any] = field(default_factory=dict)


def run_task(task: Task) -> Tally:
    """Play a task's runs and tally them (the worker's function; runs in any process)."""
    sim = simulator(task.game)
    policy = sim.policy(task.policy).answer
    metrics = sim.metrics
    tally = Tally()
    for i in range(task.start, task.stop):
        state, info = play_run(sim, policy, run_seed(task.seed, i), task.variants, task.data)
        tally.add_run(metrics, sim.record(state, info), i)
    return tally


def tasks(
    game: str, runs: int, seed: int, variants: tuple[str, ...], policy: str, data: dict[str, Any], chunk: int = CHUNK
) -> list[Task]:
    return [
        Task(game, seed, variants, policy, start, min(runs, start + chunk), data) for start in range(0, runs, chunk)
    ]


def simulate(
    game: str,
    runs: int,
    seed: int,
    *,
    variants: tuple[str, ...] = (),
    policy: str | None = None,
    jobs: int = 1,
    data: dict[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
    chunk: int = CHUNK,
) -> Tally:
    """Play ``runs`` whole games on ``jobs`` processes and tally them; ``progress(n)`` after every n runs.

    The runs are handed out ``chunk`` at a time, so ``jobs`` processes share them only when there are
    more runs than ``chunk``. The result depends on neither: run ``i`` always plays seed
    ``run_seed(seed, i)`` and the tallies are integer sums.
    """
    sim = simulator(game)
    name = sim.policy(policy).name
    work = tasks(game, runs, seed, tuple(variants), name, dict(data or {}), chunk)
    total = Tally()
    for part in _map(work, jobs):
        total.merge(part)
        if progress is not None:
            progress(part.runs)
    return total


def _map(work: list[Task], jobs: int) -> Iterator[Tally]:
    if jobs <= 1 or len(work) <= 1:
        for task in work:
            yield run_task(task)
        return
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    # The workers are forked with Ctrl-C, SIGTERM and SIGHUP held back, so none lands in a worker
    # before _worker_start has set what it does there (a worker would otherwise end with a traceback);
    # the executor's thread keeps them held too, so they reach the main thread, which stops the pool.
    # A worker that dies (killed from outside) breaks the pool: the run stops with one line, where
    # multiprocessing.Pool waited for its lost tasks forever.
    held = _hold_signals()
    executor = None
    quiet = _quiet_pool_thread()
    try:
        executor = ProcessPoolExecutor(
            min(jobs, len(work)), mp_context=multiprocessing.get_context(), initializer=_worker_start
        )
        pending = {executor.submit(run_task, task) for task in work}  # the workers are forked here
        _release_signals(held)  # a Ctrl-C held meanwhile is raised here, with the pool there to stop
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
    except BrokenProcessPool:
        raise CompanionError(
            _("a simulation process ended before its runs were done (was it killed?); nothing is reported"),
            hint=_("run it again, or with --jobs 1"),
        ) from None
    finally:
        _release_signals(held)
        if executor is not None:
            _stop(executor)
        quiet()


def _quiet_pool_thread() -> Callable[[], None]:
    """Keep the pool's own thread from printing a traceback while the pool breaks; what undoes it.

    When a worker dies, CPython 3.11's pool thread can trip over its own bookkeeping as the pool is
    being stopped ("dictionary changed size during iteration" in ``terminate_broken``) and prints
    "Exception in thread" with a traceback under the one line that says what happened. Only that
    thread's exceptions are dropped, and only while the pool lives."""
    import threading

    previous = threading.excepthook

    def hook(args: Any) -> None:
        if type(args.thread).__module__ == "concurrent.futures.process":
            return
        previous(args)

    threading.excepthook = hook

    def undo() -> None:
        threading.excepthook = previous

    return undo


def _stop(executor: Any) -> None:
    """Stop the pool at once: what is queued is dropped, and the workers still running a task are
    ended (SIGTERM: quietly, see _worker_start), as multiprocessing.Pool.terminate did. The workers
    are read before the shutdown, which forgets them."""
    workers = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in workers:
        if process.is_alive():
            process.terminate()
    for process in workers:
        process.join()
    executor.shutdown(wait=True)


_STOPS = ("SIGINT", "SIGTERM", "SIGHUP")


def _hold_signals() -> object:
    """Block Ctrl-C, SIGTERM and SIGHUP in this thread; the mask to restore (None where there is none)."""
    import signal

    if not hasattr(signal, "pthread_sigmask"):  # Windows
        return None
    stops = {getattr(signal, name) for name in _STOPS if hasattr(signal, name)}
    return signal.pthread_sigmask(signal.SIG_BLOCK, stops)


def _release_signals(mask: object) -> None:
    import signal

    if mask is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # type: ignore[arg-type]


def _worker_start() -> None:
    """A worker leaves Ctrl-C to the parent, which stops the pool and reports one line; SIGTERM (the
    pool stopping it) and SIGHUP end it quietly, not with the command's handler and a traceback."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in _STOPS[1:]:
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        stops = {getattr(signal, name) for name in _STOPS if hasattr(signal, name)}
        signal.pthread_sigmask(signal.SIG_UNBLOCK, stops)


def cpu_count() -> int:
    """The cores this process may use (the affinity mask where the system has one)."""
    import os

    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1
