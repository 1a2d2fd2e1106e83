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

It then measures opening each session in-process (#36): the check at open (``SessionFiles.load``: the
journal read with every line's CRC-32 verified, each sealed file's stat) and the whole open
(``Session.open``, which folds from the newest checkpoint), interleaved, and their ratio long / short:
the journal holds at most 511 lines, so checking it costs the same at any length.
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
from companion.store import bulk, journal
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
        report(args.rounds, setup, times, peaks, commands, events_after)
        measure_open(home, args.rounds * 4)


def report(rounds: int, setup: float, times: dict, peaks: dict, commands: dict, events_after: int) -> None:
    """The whole-process figures."""
    print(
        f"one recorded roll, whole process: {rounds} interleaved rounds, Python {platform.python_version()}, "
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


def measure_open(home: Path, rounds: int) -> None:
    """Opening each session in-process, interleaved: the check at open and the whole open."""
    store = Store(home)
    sizes = {"short": store.open("short").count_events(), "long": store.open("long").count_events()}
    check: dict[str, list[float]] = {n: [] for n in sizes}
    whole: dict[str, list[float]] = {n: [] for n in sizes}
    lines_only: dict[str, list[float]] = {n: [] for n in sizes}
    lines: dict[str, int] = {}
    rng = random.Random(1)
    for _ in range(rounds):
        order = list(sizes)
        rng.shuffle(order)
        for name in order:
            files = store.open(name)
            t = time.perf_counter()
            journal.read(files.events.journal_path)  # the journal, every line's CRC-32 checked
            lines_only[name].append(time.perf_counter() - t)
            with files.locked():
                t0 = time.perf_counter()
                found = files.load()
                t1 = time.perf_counter()
                Session.open(files)
                t2 = time.perf_counter()
            check[name].append(t1 - t0)
            whole[name].append(t2 - t1)
            lines[name] = len(found.lines)
    print(f"opening in-process: {rounds} interleaved rounds, load average {os.getloadavg()[0]:.2f}")
    print(f"{'session':26} {'journal lines':>13} {'its checks':>11} {'check at open':>14} {'whole open':>11}")
    for name, n in sizes.items():
        print(
            f"{name + f' ({n:,} events)':26} {lines[name]:13} {statistics.median(lines_only[name]) * 1000:9.2f}ms "
            f"{statistics.median(check[name]) * 1000:12.2f}ms {statistics.median(whole[name]) * 1000:9.1f}ms"
        )
    per_line = {n: statistics.median(lines_only[n]) / max(1, lines[n]) * 1e6 for n in sizes}
    print(f"per journal line: short {per_line['short']:.2f} µs, long {per_line['long']:.2f} µs")
    for label, data in (("journal's checks", lines_only), ("check at open", check), ("whole open", whole)):
        r = statistics.median(data["long"]) / statistics.median(data["short"])
        print(f"{label}: long / short {r:.2f}x")


if __name__ == "__main__":
    main()
