"""What a gamebook's section costs: ``companion section N`` and ``companion sections --json`` in a session
of 10 sections and in one of 1,000, each against ``companion odds DC`` (a trivial command) in the same
round.

    .venv/bin/python benchmarks/sections.py [--rounds 5] [--long 1000]

The sessions are made through the session service (``Session.create`` and ``record``, the path every
command takes), a section event each, with a return (``section back``) every tenth. The figures are
whole processes, the median of the rounds, interleaved in a shuffled order; each command's ratio to
``companion odds DC`` in the same round, and the long session's time over the short one's. Target:
the long session's section at most 2x the short one's (the cost of one action does not grow with the
session's length). Not a test: timings on a shared machine are noisy, so they are printed, never
asserted. ``section N`` records one event in each round, so each session grows by a few.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TARGET = 2.0


def make(home: Path, logs: Path, name: str, sections: int) -> float:
    """A freeform session with ``sections`` sections read; the seconds it took to record them."""
    from companion.session.service import Session
    from companion.store.sessions import Store

    session = Session.create(Store(home), name, "freeform", seed=1, physical=False, variants=[], logs_dir=logs)
    start = time.perf_counter()
    with session.files.locked():
        for i in range(sections):
            session.record({"t": "section", "back": 1} if i % 10 == 9 else {"t": "section", "n": 1 + i % 400})
    return time.perf_counter() - start


def run(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {proc.stderr.decode()}")
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--long", type=int, default=1000)
    args = parser.parse_args()
    companion = str(Path(sys.executable).with_name("companion"))
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    with tempfile.TemporaryDirectory() as tmp:
        home, logs = Path(tmp) / "home", Path(tmp) / "logs"
        make(home, logs, "short", 10)
        setup = make(home, logs, "long", args.long)
        env = dict(os.environ, COMPANION_HOME=str(home), COMPANION_LOGS=str(logs))
        env.pop("COMPANION_SESSION", None)
        commands = {"odds DC": [companion, "odds", "DC"]}
        for name in ("short", "long"):
            commands[f"section 7, {name}"] = [companion, "--session", name, "section", "7"]
            commands[f"sections --json, {name}"] = [companion, "--session", name, "sections", "--json"]
        times: dict[str, list[float]] = {k: [] for k in commands}
        ratios: dict[str, list[float]] = {k: [] for k in commands}
        rng = random.Random(26)
        for _ in range(args.rounds):
            order = list(commands)
            rng.shuffle(order)
            got = {label: run(commands[label], env) for label in order}
            for label, seconds in got.items():
                times[label].append(seconds)
                ratios[label].append(seconds / got["odds DC"])
    print(
        f"Sections as commands: median of {args.rounds} rounds, {os.cpu_count()} CPUs, load {load} "
        f"(short: 10 sections; long: {args.long:,}, recorded in {setup:.1f} s):"
    )
    for label in commands:
        print(
            f"  {label:28} {statistics.median(times[label]) * 1000:7.0f} ms "
            f"{statistics.median(ratios[label]):5.2f}x odds DC"
        )
    for what in ("section 7", "sections --json"):
        ratio = statistics.median(times[f"{what}, long"]) / statistics.median(times[f"{what}, short"])
        print(
            f"  {what}: long / short {ratio:.2f}x (target {TARGET:.0f}x or less) {'ok' if ratio <= TARGET else 'OVER'}"
        )
    print("load after: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
