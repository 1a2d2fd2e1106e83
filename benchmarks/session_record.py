"""What one recorded roll costs, whole process, in a short session and in a 10,000-event one.

The store keeps one folder per session; an action appends one line to its journal, and its checkpoints
and log are brought up to date by what changed, so recording an action should cost the same however
long the session is and however many other sessions exist. This script
measures it: a store with 20 other sessions, one session of 10 events and one of 10,000, then
``companion --session NAME roll 2d6`` in each, interleaved round by round, medians and the ratio,
plus each command's peak memory (max RSS of the child process).

    .venv/bin/python benchmarks/session_record.py [--rounds 15]

Target (#21): the 10,000-event session at 1.3x the 10-event one or less. Not a test: timings on a
shared machine are noisy, so they are printed, never asserted.
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
from companion.store import bulk
from companion.store.sessions import Store

TARGET = 1.3


def make_session(store: Store, name: str, events: int, logs: Path) -> None:
    """A freeform session with ``events`` recorded rolls, written at once (the files record() leaves)."""
    session = Session.create(store, name, "freeform", seed=7, physical=False, variants=[], logs_dir=logs)
    dice = session.dice()
    expr = parse("2d6")
    stamp = "2026-11-30T00:00:00Z"
    batch = [{**roll_event(dice.roll(expr), None), "at": stamp} for _ in range(events)]
    files = store.open(name)
    with files.locked():
        bulk.write_events(files, batch)
        Session.open(files)


GNU_TIME = "/usr/bin/time"


def run(command: list[str], env: dict[str, str]) -> tuple[float, int]:
    """Wall time (s) of one whole process, and its peak memory (KiB) measured separately.

    The peak comes from GNU time (``%M``): a child forked from this script would report this
    script's own pages as its high-water mark.
    """
    start = time.perf_counter()
    proc = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {proc.stderr.decode()}")
    peak = 0
    if os.path.exists(GNU_TIME):
        timed = subprocess.run(
            [GNU_TIME, "-f", "%M", *command], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        peak = int(timed.stderr.strip().splitlines()[-1])
    return elapsed, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    companion = str(Path(sys.executable).with_name("companion"))
    with tempfile.TemporaryDirectory() as tmp:
        home, logs = Path(tmp) / "home", Path(tmp) / "logs"
        store = Store(home)
        for i in range(20):
            make_session(store, f"other-{i:02d}", 25, logs)
        make_session(store, "short", 10, logs)
        t0 = time.perf_counter()
        make_session(store, "long", 10_000, logs)
        setup = time.perf_counter() - t0
        env = dict(os.environ, COMPANION_HOME=str(home), COMPANION_LOGS=str(logs))
        env.pop("COMPANION_SESSION", None)
        commands = {
            "short (10 events)": [companion, "--session", "short", "roll", "2d6"],
            "long (10,000 events)": [companion, "--session", "long", "roll", "2d6"],
            "no session (python -c pass)": [sys.executable, "-c", "pass"],
        }
        times: dict[str, list[float]] = {k: [] for k in commands}
        peaks: dict[str, list[int]] = {k: [] for k in commands}
        rng = random.Random(0)
        for _ in range(args.rounds):
            order = list(commands)
            rng.shuffle(order)
            for label in order:
                elapsed, peak = run(commands[label], env)
                times[label].append(elapsed)
                peaks[label].append(peak)
        long_session = Store(home).open("long")
        with long_session.locked():
            events_after = long_session.count_events()
    print(
        f"one recorded roll, whole process: {args.rounds} interleaved rounds, Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs; 20 other sessions in the store (long session built in {setup:.1f} s)"
    )
    print(f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'command':30} {'median':>9} {'p10':>9} {'p90':>9} {'peak RSS':>10}")
    for label in commands:
        ts = sorted(times[label])
        q = statistics.quantiles(ts, n=10)
        print(
            f"{label:30} {statistics.median(ts) * 1000:8.1f}ms {q[0] * 1000:8.1f}ms {q[-1] * 1000:8.1f}ms "
            f"{max(peaks[label]) / 1024:8.1f}MiB"
        )
    ratio = statistics.median(times["long (10,000 events)"]) / statistics.median(times["short (10 events)"])
    verdict = "ok" if ratio <= TARGET else "OVER TARGET"
    print(
        f"long / short: {ratio:.2f}x (target {TARGET:.1f}x or less) {verdict}; the long session now has "
        f"{events_after:,} events"
    )


if __name__ == "__main__":
    main()
