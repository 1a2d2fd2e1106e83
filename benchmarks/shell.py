"""How much faster a command is inside ``companion shell`` than as a one-shot command.

Drives ``companion shell`` in a pseudo-terminal (pexpect) on a freeform session: 200 ``roll 2d6``
and 200 ``tally hit`` lines, each timed from the keystroke to the next prompt. In the same run, in
between, the one-shot ``companion roll 2d6`` is timed as a whole process, both recorded in a
session (the same work as the shell's roll, plus Python's start-up) and outside any session
(``--scratch``: start-up and the roll only). Prints medians and the ratios.

    .venv/bin/python benchmarks/shell.py            # 200 + 200 lines, 40 one-shots of each kind
    .venv/bin/python benchmarks/shell.py --quick    # 40 + 40 lines, 10 one-shots

Ratios are measured in one run on a shared machine; read them, not the absolute times.
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

COMPANION = str(Path(sys.executable).with_name("companion"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer lines, for a smoke run")
    args = parser.parse_args()
    lines, oneshots = (40, 10) if args.quick else (200, 40)

    with tempfile.TemporaryDirectory() as tmp:
        env = dict(
            os.environ,
            COMPANION_HOME=str(Path(tmp) / "home"),
            COMPANION_LOGS=str(Path(tmp) / "logs"),
            COMPANION_STATE=str(Path(tmp) / "state"),
            PROMPT_TOOLKIT_NO_CPR="1",
            TERM="xterm",
        )
        env.pop("COMPANION_SESSION", None)

        def run(*words: str) -> float:
            start = time.perf_counter()
            subprocess.run([COMPANION, *words], env=env, check=True, capture_output=True)
            return time.perf_counter() - start

        run("new", "freeform", "--name", "oneshot", "--seed", "1")
        run("new", "freeform", "--name", "bench", "--seed", "2")
        run("tally", "add", "Adelhardt", str(lines + 5))

        shell = pexpect.spawn(COMPANION, ["shell"], env=env, dimensions=(24, 100), encoding="utf-8", timeout=60)
        shell.expect("bench>")

        def line(text: str, marker: str) -> float:
            start = time.perf_counter()
            shell.send(text + "\r")
            shell.expect_exact(marker)
            shell.expect_exact("bench>")
            return time.perf_counter() - start

        in_shell: dict[str, list[float]] = {"roll 2d6": [], "tally hit Adelhardt": []}
        one_shot: dict[str, list[float]] = {"companion roll 2d6 (recorded)": [], "companion roll 2d6 --scratch": []}
        every = max(1, lines // oneshots)
        for i in range(lines):
            in_shell["roll 2d6"].append(line("roll 2d6", "recorded in bench"))
            in_shell["tally hit Adelhardt"].append(line("tally hit Adelhardt", "Adelhardt:"))
            if i % every == 0:
                one_shot["companion roll 2d6 (recorded)"].append(run("--session", "oneshot", "roll", "2d6"))
                one_shot["companion roll 2d6 --scratch"].append(run("roll", "2d6", "--scratch"))
        shell.send("exit\r")
        shell.expect(pexpect.EOF)
        pass_times = [run_python() for _ in range(10)]

    base = statistics.median(one_shot["companion roll 2d6 (recorded)"])
    scratch = statistics.median(one_shot["companion roll 2d6 --scratch"])
    print(
        f"companion shell vs one-shot commands, Python {platform.python_version()} on {platform.system()} "
        f"{platform.machine()}, {os.cpu_count()} CPUs"
    )
    print(f"{'command':<38}{'runs':>6}{'median':>10}{'p90':>10}  one-shot roll 2d6 / this")
    rows = [*((f"shell: {k}", v) for k, v in in_shell.items()), *one_shot.items()]
    rows.append(("python -c pass", pass_times))
    for name, times in rows:
        med = statistics.median(times)
        p90 = statistics.quantiles(times, n=10)[-1] if len(times) >= 10 else max(times)
        print(f"{name:<38}{len(times):>6}{med * 1000:>8.1f}ms{p90 * 1000:>8.1f}ms  {base / med:>6.1f}x")
    roll = statistics.median(in_shell["roll 2d6"])
    hit = statistics.median(in_shell["tally hit Adelhardt"])
    print(
        f"a recorded roll in the shell is {base / roll:.1f}x faster than the one-shot recorded roll, "
        f"a tally hit {base / hit:.1f}x; the one-shot's start-up alone (--scratch) is {scratch * 1000:.0f} ms"
    )
    return 0


def run_python() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - start


if __name__ == "__main__":
    raise SystemExit(main())
