"""What a recorded command costs inside ``companion shell``, at 10 events and at 10,000.

Two freeform sessions are made through the store (``companion.store.bulk``: the same files recording
would leave, written at once): one of 10 events and one of 10,000, each with a tally. A shell is opened
on each in a pseudo-terminal (pexpect), and the two are driven in turn, line by line: ``roll 2d6`` and
``tally hit Adelhardt``, each timed from the keystroke to the next prompt. In the same run, in between,
the one-shot ``companion --session NAME roll 2d6`` is timed as a whole process in each session, and
``python -c pass`` (this venv's Python, and the base interpreter's).

    .venv/bin/python benchmarks/shell.py            # 200 + 200 lines in each shell, 30 one-shots each
    .venv/bin/python benchmarks/shell.py --quick    # 40 + 40 lines, 10 one-shots

Targets (#21): in the shell a recorded command's median at most 1x ``python -c pass`` at 10 events
and at 10,000; 10,000 / 10 at most 1.3x; the one-shot recorded roll at 10,000 events at most 1.3x the
one at 10. Ratios are measured in one run on a shared machine: read them, not the absolute times; the
load average is printed with them.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pexpect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

COMPANION = str(Path(sys.executable).with_name("companion"))
BASE_PYTHON = str(Path(sys.base_prefix) / "bin" / "python3")
SIZES = {"short": 10, "long": 10_000}


def make(home: Path, logs: Path, name: str, events: int) -> None:
    """A freeform session of ``events`` events: a tally, then virtual 2d6 rolls."""
    from companion.dice.expr import parse
    from companion.session.fold import roll_event
    from companion.session.service import Session
    from companion.store import bulk
    from companion.store.sessions import Store

    store = Store(home)
    session = Session.create(store, name, "freeform", seed=7, physical=False, variants=[], logs_dir=logs)
    dice = session.dice()
    expr = parse("2d6")
    stamp = "2026-12-01T20:00:00Z"
    batch = [{"t": "tally", "op": "add", "name": "Adelhardt", "max": 100_000, "at": stamp}]
    for _ in range(events - 1):
        batch.append({**roll_event(dice.roll(expr), None), "at": stamp})
    files = store.open(name)
    with files.locked():
        bulk.write_events(files, batch)
        Session.open(files)  # folds them once and writes the log and a checkpoint


def median(times: list[float]) -> float:
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer lines, for a smoke run")
    args = parser.parse_args()
    lines, oneshots = (40, 10) if args.quick else (200, 30)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        home, logs = Path(tmp) / "home", Path(tmp) / "logs"
        env = dict(
            os.environ,
            COMPANION_HOME=str(home),
            COMPANION_LOGS=str(logs),
            COMPANION_STATE=str(Path(tmp) / "state"),
            PROMPT_TOOLKIT_NO_CPR="1",
            TERM="xterm",
        )
        env.pop("COMPANION_SESSION", None)
        os.environ.update(COMPANION_HOME=env["COMPANION_HOME"], COMPANION_LOGS=env["COMPANION_LOGS"])
        built = {}
        for name, size in SIZES.items():
            start = time.perf_counter()
            make(home, logs, name, size)
            make(home, logs, f"{name}-oneshot", size)
            built[name] = time.perf_counter() - start

        def run(*words: str) -> float:
            start = time.perf_counter()
            subprocess.run([COMPANION, *words], env=env, check=True, capture_output=True)
            return time.perf_counter() - start

        shells = {}
        for name in SIZES:
            child = pexpect.spawn(
                COMPANION, ["shell", name], env=env, dimensions=(30, 100), encoding="utf-8", timeout=120
            )
            child.delaybeforesend = None  # pexpect waits 50 ms before each send unless told not to
            child.expect(f"{name}>")
            shells[name] = child

        def line(name: str, text: str, marker: str) -> float:
            child = shells[name]
            start = time.perf_counter()
            child.send(text + "\r")
            child.expect_exact(marker)
            child.expect_exact(f"{name}>")
            return time.perf_counter() - start

        in_shell: dict[tuple[str, str], list[float]] = {}
        one_shot: dict[str, list[float]] = {name: [] for name in SIZES}
        passes: dict[str, list[float]] = {"python -c pass (venv)": [], "python -c pass (base)": []}
        every = max(1, lines // oneshots)
        for i in range(lines):
            for name in SIZES:
                in_shell.setdefault((name, "roll 2d6"), []).append(line(name, "roll 2d6", "recorded in"))
                in_shell.setdefault((name, "tally hit Adelhardt"), []).append(
                    line(name, "tally hit Adelhardt", "Adelhardt")
                )
            if i % every == 0:
                for name in SIZES:
                    one_shot[name].append(run("--session", f"{name}-oneshot", "roll", "2d6"))
                passes["python -c pass (venv)"].append(_python(sys.executable))
                passes["python -c pass (base)"].append(_python(BASE_PYTHON))
        for child in shells.values():
            child.send("exit\r")
            child.expect(pexpect.EOF)
    load_after = os.getloadavg()
    base = median(passes["python -c pass (venv)"])
    print(
        f"companion shell at 10 and 10,000 events, Python {platform.python_version()} on {platform.system()} "
        f"{platform.machine()}, {os.cpu_count()} CPUs; load average {load_before[0]:.2f} before, "
        f"{load_after[0]:.2f} after (sessions built in {built['short']:.1f} s and {built['long']:.1f} s)"
    )
    print(f"{'command':<44}{'runs':>6}{'median':>10}{'p90':>10}   / python -c pass")
    rows = [(f"shell, {SIZES[n]:,} events: {cmd}", t) for (n, cmd), t in in_shell.items()]
    rows += [(f"one-shot roll 2d6, {SIZES[n]:,} events", t) for n, t in one_shot.items()]
    rows += list(passes.items())
    for label, times in rows:
        med = median(times)
        p90 = statistics.quantiles(times, n=10)[-1] if len(times) >= 10 else max(times)
        print(f"{label:<44}{len(times):>6}{med * 1000:>8.1f}ms{p90 * 1000:>8.1f}ms   {med / base:>5.2f}x")
    for cmd in ("roll 2d6", "tally hit Adelhardt"):
        short, long = median(in_shell[("short", cmd)]), median(in_shell[("long", cmd)])
        print(
            f"shell {cmd}: {short / base:.2f}x python -c pass at 10 events (target 1x), {long / base:.2f}x at "
            f"10,000; 10,000 / 10 = {long / short:.2f}x (target 1.3x)"
        )
    ratio = median(one_shot["long"]) / median(one_shot["short"])
    print(f"one-shot recorded roll: 10,000 / 10 = {ratio:.2f}x (target 1.3x)")
    return 0


def _python(python: str) -> float:
    start = time.perf_counter()
    subprocess.run([python, "-c", "pass"], check=True)
    return time.perf_counter() - start


if __name__ == "__main__":
    raise SystemExit(main())
