"""Start-up benchmark: whole-process wall time of one-shot companion commands vs ``python -c pass``.

Run it with the project's virtual environment (standard library only; it is not a test):

    .venv/bin/python benchmarks/startup.py            # 30 rounds
    .venv/bin/python benchmarks/startup.py --rounds 50 --check

Every round runs each command once, in a shuffled order, so a slow moment of a shared machine is
spread over all commands instead of landing on one. The companion commands go through the venv's
``companion`` console script (found next to ``sys.executable``) with COMPANION_HOME pointed at a
temporary folder, so no real save is touched, and with bytecode cached (in that folder) as after a
normal install, even when PYTHONDONTWRITEBYTECODE is set. It prints the median, the 10th and 90th
percentiles, and each median as a multiple of ``python -c pass``; the target is 6x or less. A last
line lists the five heaviest top-level imports of ``companion roll 2d6`` from ``-X importtime``, so
that a new heavy import shows up by name. See docs/startup.md.
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

TARGET = 6.0  # each companion command's median, as a multiple of python -c pass


def companion_script() -> Path:
    here = Path(sys.executable).parent
    for name in ("companion", "companion.exe"):
        if (here / name).exists():
            return here / name
    sys.exit(f"no companion script next to {sys.executable}; run this with the venv's python")


def commands(script: Path) -> dict[str, list[str]]:
    return {
        "python -c pass": [sys.executable, "-c", "pass"],
        "companion roll 2d6": [str(script), "roll", "2d6"],
        "companion roll DC --got 5": [str(script), "roll", "DC", "--got", "5"],
        "companion --help": [str(script), "--help"],
        # Sessions (made once in the temporary folder, see sessions()): an English and a Russian Тёмная
        # Башня at the same step, the hero question for Оля (Russian: «Персонаж Оли», a name declined).
        "next (en session)": [str(script), "-s", "en", "next"],
        "next (ru session)": [str(script), "-s", "ru", "next"],
        "dark --help (ru session)": [str(script), "-s", "ru", "dark", "--help"],
    }


def sessions(script: Path, env: dict[str, str]) -> None:
    """The sessions the session commands run in: "en" and "ru", their language the setup's answer."""
    for name, lang in (("en", "1"), ("ru", "2")):
        subprocess.run([str(script), "new", "dark-tower", "--name", name, "--seed", "5"], env=env, **QUIET)
        for answer in (lang, "=table", "Оля"):
            subprocess.run([str(script), "-s", name, "next", answer], env=env, **QUIET)


QUIET: dict = {"stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}


def imports_pymorphy(script: Path, env: dict[str, str], argv: list[str]) -> bool:
    """Whether running ``argv`` imports pymorphy3 (``-X importtime``)."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", *argv],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    return "pymorphy3" in proc.stderr


def run_once(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{' '.join(argv)} exited {proc.returncode}: {proc.stderr.decode()[-500:]}")
    return elapsed


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def top_imports(script: Path, env: dict[str, str], runs: int = 5) -> list[tuple[str, float]]:
    """The heaviest top-level imports of ``companion roll 2d6`` (median cumulative ms over runs)."""
    samples: dict[str, list[float]] = {}
    for _ in range(runs):
        proc = subprocess.run(
            [sys.executable, "-X", "importtime", str(script), "roll", "2d6"],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for line in proc.stderr.splitlines():
            if not line.startswith("import time:"):
                continue
            _, cumulative, name = line.split("|")
            if name.startswith("  ") or not cumulative.strip().isdigit():
                continue  # nested imports are inside their parent's time; skip the header line
            samples.setdefault(name.strip(), []).append(int(cumulative) / 1000)
    medians = {name: statistics.median(ms) for name, ms in samples.items()}
    return sorted(medians.items(), key=lambda kv: kv[1], reverse=True)[:5]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30, help="rounds (default 30)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the shuffled order")
    parser.add_argument("--check", action="store_true", help=f"exit 1 if a command is over {TARGET:g}x")
    args = parser.parse_args()

    script = companion_script()
    cmds = commands(script)
    order = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as home:
        env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_") and k != "PYTHONDONTWRITEBYTECODE"}
        # Bytecode is cached as after a normal install, but in the temporary folder, not the tree.
        env.update(
            COMPANION_HOME=home,
            COMPANION_LOGS=str(Path(home) / "logs"),
            NO_COLOR="1",
            PYTHONPYCACHEPREFIX=str(Path(home) / "pycache"),
        )
        sessions(script, env)
        for argv in cmds.values():  # warm the file cache and the bytecode once, not timed
            run_once(argv, env)
        times: dict[str, list[float]] = {name: [] for name in cmds}
        for _ in range(args.rounds):
            names = list(cmds)
            order.shuffle(names)
            for name in names:
                times[name].append(run_once(cmds[name], env))
        heavy = top_imports(script, env)
        morphology = {
            name: imports_pymorphy(script, env, argv) for name, argv in cmds.items() if argv[0] == str(script)
        }

    base = statistics.median(times["python -c pass"])
    print(
        f"companion start-up, {args.rounds} interleaved rounds, Python {platform.python_version()}"
        f" on {platform.system()} {platform.machine()}, {os.cpu_count()} CPUs"
    )
    print(f"{'command':<28}{'median':>9}{'p10':>9}{'p90':>9}{'x pass':>9}")
    over = []
    for name, values in times.items():
        med = statistics.median(values)
        ratio = med / base
        mark = ""
        if name != "python -c pass":
            mark = "  ok" if ratio <= TARGET else "  OVER TARGET"
            if ratio > TARGET:
                over.append(name)
        print(
            f"{name:<28}{med * 1000:>7.1f}ms{percentile(values, 0.1) * 1000:>7.1f}ms"
            f"{percentile(values, 0.9) * 1000:>7.1f}ms{ratio:>8.2f}x{mark}"
        )
    print(f"target: every companion command at {TARGET:g}x python -c pass or less (median)")
    print(
        "heaviest top-level imports of companion roll 2d6 (-X importtime, cumulative ms, median"
        " of 5): " + ", ".join(f"{name} {ms:.1f}ms" for name, ms in heavy)
    )
    loaded = [name for name, yes in morphology.items() if yes]
    print(f"pymorphy3 (Russian declension) imported by: {', '.join(loaded) or 'none'}; by no other command")
    return 1 if args.check and over else 0


if __name__ == "__main__":
    sys.exit(main())
