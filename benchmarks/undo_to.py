"""What ``companion undo --to N`` costs in a short session and in a 10,000-event one (issue 39).

Undo to a point folds the state after that point from the newest checkpoint before it (a bounded number
of events), removes the checkpoints after it, keeps what it takes back (the redo list and the undone
journal) and cuts the journal once: its cost should follow the actions it takes back, not the length
of the session. This script measures it, in a freeform session of 10 rolls and one of 10,000 (the last
96 recorded one by one, so its checkpoints are where play leaves them), interleaved round by round:

- whole process: ``companion --session NAME undo --to COUNT-3 --yes`` (three actions taken back),
  against ``python -c pass`` in the same rounds; ``companion redo --all`` puts them back between rounds
  (not timed);
- in this process: ``Session.undo_to`` alone (the store's and the fold's part, without start-up), and
  ``history --last 10``'s words (companion.session.timeline.said), for the same sessions.

    .venv/bin/python benchmarks/undo_to.py [--rounds 11]

Target: the 10,000-event session at 1.3x the 10-event one or less. Not a test: timings on a shared
machine are noisy, so they are printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.dice.expr import parse
from companion.session.fold import roll_event
from companion.session.service import Session
from companion.session.timeline import said
from companion.store import bulk
from companion.store.sessions import Store

TARGET = 1.3
#: How many actions each undo takes back.
BACK = 3


#: The last events of a session are recorded one by one, as play records them (its checkpoints every 32
#: events, as a session played to that length has them); the ones before are written at once.
PLAYED = 96


def make_session(store: Store, name: str, events: int, logs: Path) -> None:
    """A freeform session of ``events`` rolls: the first written at once, the last :data:`PLAYED` recorded."""
    session = Session.create(store, name, "freeform", seed=7, physical=False, variants=[], logs_dir=logs)
    dice, expr = session.dice(), parse("2d6")
    stamp = "2026-11-30T00:00:00Z"
    first = max(0, events - PLAYED)
    files = store.open(name)
    with files.locked():
        bulk.write_events(files, [{**roll_event(dice.roll(expr), None), "at": stamp} for _ in range(first)])
        session = Session.open(files)
        dice = session.dice()
        for _ in range(events - first):
            session.record(roll_event(dice.roll(expr), None))


def timed(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {proc.stderr.decode()}")
    return elapsed


def in_process(store: Store, name: str) -> tuple[float, float]:
    """One ``undo_to`` (three actions back) and one ``said`` of the last 10, in this process; put back."""
    files = store.open(name)
    with files.locked():
        session = Session.open(files)
        count = session.count
        t0 = time.perf_counter()
        session.undo_to(count - BACK)
        undo = time.perf_counter() - t0
        while session.redo_entries:
            session.redo()
        session = Session.open(files)
        t0 = time.perf_counter()
        said(session, count - 9, count)
        words = time.perf_counter() - t0
    return undo, words


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=11)
    args = parser.parse_args()
    companion = str(Path(sys.executable).with_name("companion"))
    with tempfile.TemporaryDirectory() as tmp:
        home, logs = Path(tmp) / "home", Path(tmp) / "logs"
        store = Store(home)
        make_session(store, "short", 10, logs)
        make_session(store, "medium", 1_000, logs)
        t0 = time.perf_counter()
        make_session(store, "long", 10_000, logs)
        setup = time.perf_counter() - t0
        env = dict(os.environ, COMPANION_HOME=str(home), COMPANION_LOGS=str(logs))
        env.pop("COMPANION_SESSION", None)
        sizes = {
            "short (10 events)": ("short", 10),
            "medium (1,000 events)": ("medium", 1_000),
            "long (10,000 events)": ("long", 10_000),
        }
        times: dict[str, list[float]] = {k: [] for k in [*sizes, "no session (python -c pass)"]}
        inner: dict[str, list[tuple[float, float]]] = {k: [] for k in sizes}
        rng = random.Random(0)
        for _ in range(args.rounds):
            order = list(times)
            rng.shuffle(order)
            for label in order:
                if label not in sizes:
                    times[label].append(timed([sys.executable, "-c", "pass"], env))
                    continue
                name, _n = sizes[label]
                count = store.open(name).count_events()
                base = [companion, "--session", name]
                times[label].append(timed([*base, "undo", "--to", str(count - BACK), "--yes"], env))
                timed([*base, "redo", "--all"], env)
                inner[label].append(in_process(store, name))
    print(
        f"companion undo --to (COUNT-{BACK}) --yes, whole process: {args.rounds} interleaved rounds, Python "
        f"{platform.python_version()}, {os.cpu_count()} CPUs (long session built in {setup:.1f} s)"
    )
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    print(f"{'':30} {'median':>9} {'p10':>9} {'p90':>9} {'undo_to':>9} {'words 10':>9}")
    for label, ts in times.items():
        ts = sorted(ts)
        q = statistics.quantiles(ts, n=10) if len(ts) > 1 else [ts[0]] * 9
        extra = ""
        if label in inner:
            u = statistics.median(x[0] for x in inner[label]) * 1000
            w = statistics.median(x[1] for x in inner[label]) * 1000
            extra = f" {u:8.1f}ms {w:8.1f}ms"
        print(f"{label:30} {statistics.median(ts) * 1000:8.1f}ms {q[0] * 1000:8.1f}ms {q[-1] * 1000:8.1f}ms{extra}")
    short, medium, long = "short (10 events)", "medium (1,000 events)", "long (10,000 events)"

    def ratio(a: str, b: str, part: int | None = None) -> float:
        if part is None:
            return statistics.median(times[a]) / statistics.median(times[b])
        return statistics.median(x[part] for x in inner[a]) / statistics.median(x[part] for x in inner[b])

    verdict = "ok" if ratio(long, short) <= TARGET else "OVER TARGET"
    print(
        f"long / short: whole process {ratio(long, short):.2f}x (target {TARGET:.1f}x or less) {verdict}; "
        f"undo_to alone {ratio(long, short, 0):.2f}x; the last 10 actions' words {ratio(long, short, 1):.2f}x"
    )
    print(
        f"long / medium (both fold from a checkpoint at most 32 events back): whole process "
        f"{ratio(long, medium):.2f}x; undo_to alone {ratio(long, medium, 0):.2f}x; words {ratio(long, medium, 1):.2f}x"
    )


if __name__ == "__main__":
    main()
